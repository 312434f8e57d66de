/* A stream's buffers: the shim's own mapping of each, those the caller holds (dequeued, not yet
 * queued back) and the limit on them. */
#include "internal.h"

#include <stdatomic.h>
#include <sys/mman.h>
#include <unistd.h>

/* The shim's own mapping of a buffer's memory: readable through it until the last
 * reference goes, whatever happens to the buffer, the stream or the connection
 * meanwhile. */
struct pwshim_map {
	atomic_int refs;
	void *base;
	size_t len;
	size_t delta;	/* the buffer's start inside the mapping */
};

static struct pwshim_map *map_buffer(struct spa_data *d)
{
	struct pwshim_map *m;
	long page = sysconf(_SC_PAGESIZE);
	uintptr_t at;
	if (d->maxsize == 0 || page <= 0)
		return NULL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	if (d->type == SPA_DATA_MemFd && d->fd >= 0) {
		off_t start = (off_t)(d->mapoffset & ~(uint32_t)(page - 1));
		m->delta = d->mapoffset - (uint32_t)start;
		m->len = m->delta + d->maxsize;
		/* private and writable: a stray write lands in a copy of the page, never in
		 * the daemon's memory or a fault; pages not written follow the producer's */
		m->base = mmap(NULL, m->len, PROT_READ | PROT_WRITE, MAP_PRIVATE, (int)d->fd, start);
	} else if (d->data) {
		/* The daemon's shared memory as the library mapped it (it hands buffers in one
		 * memfd as plain pointers): a second mapping of the same pages, which the
		 * library's unmapping leaves alone. Private memory cannot be, and is copied. */
		at = (uintptr_t)d->data & ~(uintptr_t)(page - 1);
		m->delta = (uintptr_t)d->data - at;
		m->len = (m->delta + d->maxsize + (size_t)page - 1) & ~(size_t)(page - 1);
		m->base = mremap((void *)at, 0, m->len, MREMAP_MAYMOVE);
	} else {
		m->base = MAP_FAILED;
	}
	if (m->base == MAP_FAILED) {
		free(m);
		return NULL;
	}
	atomic_init(&m->refs, 1);
	return m;
}

void pwshim_map_ref(void *map)
{
	if (map)
		atomic_fetch_add(&((struct pwshim_map *)map)->refs, 1);
}

void pwshim_map_unref(void *map)
{
	struct pwshim_map *m = map;
	if (m && atomic_fetch_sub(&m->refs, 1) == 1) {
		munmap(m->base, m->len);
		free(m);
	}
}

void pwshim__stream_add_buffer(void *data, struct pw_buffer *b)
{
	pwshim_stream *s = data;
	if (s->n_bufs < MAXBUF) {
		s->held_flag[s->n_bufs] = 0;
		s->maps[s->n_bufs] = b->buffer->n_datas == 1 ? map_buffer(&b->buffer->datas[0]) : NULL;
		s->bufs[s->n_bufs++] = b;
	}
	s->fmt.n_buffers = s->n_bufs;
	pwshim__push_event(s->ctx, PWSHIM_EV_STREAM_BUFFERS, 0, 0, s->n_bufs, s, NULL);
}

void pwshim__stream_remove_buffer(void *data, struct pw_buffer *b)
{
	pwshim_stream *s = data;
	int i;
	for (i = 0; i < s->n_bufs; i++) {
		if (s->bufs[i] == b) {
			if (s->held_flag[i])
				s->held--;	/* caller's handle is now stale */
			pwshim_map_unref(s->maps[i]);
			s->bufs[i] = s->bufs[s->n_bufs - 1];
			s->held_flag[i] = s->held_flag[s->n_bufs - 1];
			s->maps[i] = s->maps[s->n_bufs - 1];
			s->n_bufs--;
			break;
		}
	}
	s->fmt.n_buffers = s->n_bufs;
	pwshim__push_event(s->ctx, PWSHIM_EV_STREAM_BUFFERS, 0, 0, s->n_bufs, s, NULL);
}

static int max_held(pwshim_stream *s)
{
	/* default: a quarter of the buffers (2 of 8). Holding 4-5 of 8 made the
	 * in-daemon SPA videotestsrc overwrite + redeliver held buffers. */
	int m = s->want_max_held > 0 ? s->want_max_held : s->n_bufs / 4;
	/* a viewer keeps one frame for redraws while the next one waits: two at least */
	if (m < 2) m = 2;
	/* always leave one for the producer */
	if (m > s->n_bufs - 1) m = s->n_bufs - 1;
	if (m < 1) m = 1;
	return m;
}

int pwshim_stream_format(pwshim_stream *s, pwshim_format *out)
{
	if (!s || !out)
		return PWSHIM_ERR_INVALID;
	*out = s->fmt;
	out->n_buffers = s->n_bufs;
	out->max_held = max_held(s);
	return s->fmt.negotiated ? PWSHIM_OK : PWSHIM_ERR_AGAIN;
}

static int buf_index(pwshim_stream *s, struct pw_buffer *b)
{
	int i;
	for (i = 0; i < s->n_bufs; i++)
		if (s->bufs[i] == b)
			return i;
	return -1;
}

int pwshim_stream_dequeue(pwshim_stream *s, int latest, pwshim_frame *out)
{
	struct pw_buffer *b, *nb;
	struct spa_buffer *sb;
	struct spa_data *d;
	struct spa_meta_header *h;
	uint32_t dropped = 0, off, size;
	int idx;

	if (!s || !out)
		return PWSHIM_ERR_INVALID;
	if (s->held >= max_held(s))
		return PWSHIM_ERR_LIMIT;
	b = pwshim_api.stream_dequeue_buffer(s->stream);
	if (b == NULL)
		return PWSHIM_ERR_AGAIN;
	while (latest && (nb = pwshim_api.stream_dequeue_buffer(s->stream)) != NULL) {
		pwshim_api.stream_queue_buffer(s->stream, b);
		b = nb;
		dropped++;
	}
	memset(out, 0, sizeof(*out));
	sb = b->buffer;
	if (sb->n_datas < 1) {
		pwshim_api.stream_queue_buffer(s->stream, b);
		return PWSHIM_ERR_AGAIN;
	}
	d = &sb->datas[0];
	off = d->chunk->offset;
	size = d->chunk->size;
	/* The chunk is the producer's to write: never past the buffer's memory (none when maxsize is 0). */
	if (off > d->maxsize) off = 0;
	if (size > d->maxsize - off) size = d->maxsize - off;
	out->data = d->data ? (const uint8_t *)d->data + off : NULL;
	out->size = size;
	out->offset = off;
	out->stride = d->chunk->stride;
	out->n_datas = sb->n_datas;
	out->data_type = (int32_t)d->type;
	out->fd = (d->type == SPA_DATA_MemFd || d->type == SPA_DATA_DmaBuf) ? d->fd : -1;
	out->corrupted = (d->chunk->flags & SPA_CHUNK_FLAG_CORRUPTED) ? 1 : 0;
	h = spa_buffer_find_meta_data(sb, SPA_META_Header, sizeof(*h));
	s->seq++;
	if (h) {
		out->have_header = 1;
		out->seq = h->seq;
		out->pts = h->pts;
	} else {
		out->seq = s->seq;
		out->pts = -1;
	}
	out->recv_ns = now_ns();
	out->dropped = dropped;
	out->handle = b;
	idx = buf_index(s, b);
	out->buffer_id = (uint32_t)(idx < 0 ? 0 : idx);
	if (idx >= 0 && s->maps[idx] && (uint64_t)off + size <= d->maxsize) {
		out->own_map = s->maps[idx];
		out->own_data = (const uint8_t *)s->maps[idx]->base + s->maps[idx]->delta + off;
	}
	if (idx >= 0 && s->held_flag[idx]) {
		/* the stream handed us a buffer we still hold: the producer has
		 * overwritten it. Do not count it twice. */
		out->redelivered = 1;
		s->redelivered++;
		return PWSHIM_OK;
	}
	if (idx >= 0)
		s->held_flag[idx] = 1;
	s->held++;
	return PWSHIM_OK;
}

int pwshim_stream_queue(pwshim_stream *s, void *handle)
{
	int idx;
	if (!s || !handle)
		return PWSHIM_ERR_INVALID;
	idx = buf_index(s, handle);
	if (idx < 0 || !s->held_flag[idx])
		return PWSHIM_ERR_INVALID;	/* stale (renegotiated) or not held */
	s->held_flag[idx] = 0;
	s->held--;
	return pwshim_api.stream_queue_buffer(s->stream, handle) < 0 ? PWSHIM_ERR_STREAM : PWSHIM_OK;
}

void pwshim__stream_return_held(pwshim_stream *s)
{
	int i;
	for (i = 0; i < s->n_bufs; i++)
		if (s->held_flag[i]) {
			s->held_flag[i] = 0;
			pwshim_api.stream_queue_buffer(s->stream, s->bufs[i]);
		}
}

void pwshim__stream_unmap_buffers(pwshim_stream *s)
{
	int i;
	for (i = 0; i < s->n_bufs; i++) {
		pwshim_map_unref(s->maps[i]);	/* lent ones live on with their borrowers */
		s->maps[i] = NULL;
	}
}

/* A stream from one camera node: the formats offered, the format agreed, buffers dequeued for the
 * caller and queued back. */
#include "internal.h"

#include <stdatomic.h>
#include <sys/mman.h>
#include <unistd.h>

/* ---------------------------------------------------------------- streams */

static const struct { uint32_t bit; uint32_t spa; const char *name; } fmt_table[] = {
	{ PWSHIM_FMT_YUY2, SPA_VIDEO_FORMAT_YUY2, "YUY2" },
	{ PWSHIM_FMT_NV12, SPA_VIDEO_FORMAT_NV12, "NV12" },
	{ PWSHIM_FMT_I420, SPA_VIDEO_FORMAT_I420, "I420" },
	/* BGRx first: it is shown as it comes; RGBx is turned round as it is copied. */
	{ PWSHIM_FMT_BGRX, SPA_VIDEO_FORMAT_BGRx, "BGRx" },
	{ PWSHIM_FMT_RGBX, SPA_VIDEO_FORMAT_RGBx, "RGBx" },
	{ PWSHIM_FMT_RGB,  SPA_VIDEO_FORMAT_RGB,  "RGB" },
};

static void set_state(pwshim_stream *s, int st, const char *msg)
{
	s->state = st;
	if (st == PWSHIM_STATE_ERROR || msg)
		copystr(s->error, sizeof(s->error), msg);
	else
		s->error[0] = 0;
	pwshim__push_event(s->ctx, PWSHIM_EV_STREAM_STATE, pwshim_api.stream_get_node_id(s->stream), 0,
			st, s, msg);
}

static void on_state_changed(void *data, enum pw_stream_state old,
		enum pw_stream_state state, const char *error)
{
	pwshim_stream *s = data;
	uint32_t nid = pwshim_api.stream_get_node_id(s->stream);
	(void)old;
	if (nid != SPA_ID_INVALID && nid != s->node_id) {
		s->node_id = nid;
		pwshim__bind_links_for(s->ctx, nid);
	}
	if (state == PW_STREAM_STATE_UNCONNECTED || state == PW_STREAM_STATE_ERROR)
		s->peer_id = SPA_ID_INVALID;
	set_state(s, (int)state, error);	/* enum values match PWSHIM_STATE_* */
}

static void send_buffer_params(pwshim_stream *s)
{
	uint8_t buf[1024];
	struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buf, sizeof(buf));
	const struct spa_pod *params[2];
	int types = (1 << SPA_DATA_MemPtr) | (1 << SPA_DATA_MemFd);
	if (s->allow_dmabuf)
		types |= (1 << SPA_DATA_DmaBuf);

	/* A whole frame per buffer: raw frames their exact size, a JPEG at most a byte a pixel (a
	 * producer that sizes buffers by the first JPEG overflows them with a larger one later). */
	/* In 64 bits: the size agreed comes from the daemon. At most 256 MiB a buffer (a 8192x8192
	 * frame of 4 bytes a pixel), which the copies pipcam makes of one are sized by. */
	int64_t want = s->fmt.format == PWSHIM_FMT_MJPG
		? SPA_MAX((int64_t)s->fmt.width * s->fmt.height, 65536) : (int64_t)s->fmt.stride * s->fmt.height;
	int32_t size = (int32_t)SPA_CLAMP(want, 1, MAXBUFBYTES);

	params[0] = spa_pod_builder_add_object(&b,
		SPA_TYPE_OBJECT_ParamBuffers, SPA_PARAM_Buffers,
		SPA_PARAM_BUFFERS_buffers, SPA_POD_CHOICE_RANGE_Int(s->buffers_pref, 2, MAXBUF),
		SPA_PARAM_BUFFERS_size, SPA_POD_CHOICE_RANGE_Int(size, size, MAXBUFBYTES),
		SPA_PARAM_BUFFERS_dataType, SPA_POD_CHOICE_FLAGS_Int(types));
	params[1] = spa_pod_builder_add_object(&b,
		SPA_TYPE_OBJECT_ParamMeta, SPA_PARAM_Meta,
		SPA_PARAM_META_type, SPA_POD_Id(SPA_META_Header),
		SPA_PARAM_META_size, SPA_POD_Int(sizeof(struct spa_meta_header)));
	pwshim_api.stream_update_params(s->stream, params, 2);
}

static void on_param_changed(void *data, uint32_t id, const struct spa_pod *param)
{
	pwshim_stream *s = data;
	uint32_t mtype, msub;
	unsigned i;

	if (id != SPA_PARAM_Format)
		return;
	if (param == NULL) {	/* format cleared */
		s->fmt.negotiated = 0;
		pwshim__push_event(s->ctx, PWSHIM_EV_STREAM_FORMAT, pwshim_api.stream_get_node_id(s->stream), 0, 0, s, "cleared");
		return;
	}
	if (spa_format_parse(param, &mtype, &msub) < 0 || mtype != SPA_MEDIA_TYPE_video)
		return;
	memset(&s->fmt, 0, sizeof(s->fmt));
	if (msub == SPA_MEDIA_SUBTYPE_raw) {
		struct spa_video_info_raw raw;
		memset(&raw, 0, sizeof(raw));
		if (spa_format_video_raw_parse(param, &raw) < 0)
			return;
		for (i = 0; i < SPA_N_ELEMENTS(fmt_table); i++)
			if (fmt_table[i].spa == raw.format) {
				s->fmt.format = fmt_table[i].bit;
				copystr(s->fmt.format_name, sizeof(s->fmt.format_name), fmt_table[i].name);
			}
		s->fmt.width = raw.size.width;
		s->fmt.height = raw.size.height;
		s->fmt.fps_num = raw.framerate.num;
		s->fmt.fps_denom = raw.framerate.denom;
		switch (raw.format) {
		case SPA_VIDEO_FORMAT_YUY2: s->fmt.stride = raw.size.width * 2; break;
		case SPA_VIDEO_FORMAT_NV12:
		case SPA_VIDEO_FORMAT_I420: s->fmt.stride = raw.size.width; break;
		case SPA_VIDEO_FORMAT_RGB: s->fmt.stride = raw.size.width * 3; break;
		default: s->fmt.stride = raw.size.width * 4; break;
		}
	} else if (msub == SPA_MEDIA_SUBTYPE_mjpg) {
		struct spa_video_info_mjpg mj;
		memset(&mj, 0, sizeof(mj));
		if (spa_format_video_mjpg_parse(param, &mj) < 0)
			return;
		s->fmt.format = PWSHIM_FMT_MJPG;
		copystr(s->fmt.format_name, sizeof(s->fmt.format_name), "MJPG");
		s->fmt.width = mj.size.width;
		s->fmt.height = mj.size.height;
		s->fmt.fps_num = mj.framerate.num;
		s->fmt.fps_denom = mj.framerate.denom;
	} else {
		return;
	}
	s->fmt.negotiated = 1;
	s->fmt.n_buffers = s->n_bufs;
	send_buffer_params(s);
	pwshim__push_event(s->ctx, PWSHIM_EV_STREAM_FORMAT, pwshim_api.stream_get_node_id(s->stream), 0, 1, s,
			s->fmt.format_name);
}

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

static void on_add_buffer(void *data, struct pw_buffer *b)
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

static void on_remove_buffer(void *data, struct pw_buffer *b)
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

static void on_process(void *data)
{
	pwshim_stream *s = data;
	s->frames++;	/* buffer waits in the stream's queue until dequeued */
}

static const struct pw_stream_events stream_events = {
	PW_VERSION_STREAM_EVENTS,
	.state_changed = on_state_changed,
	.param_changed = on_param_changed,
	.add_buffer = on_add_buffer,
	.remove_buffer = on_remove_buffer,
	.process = on_process,
};

static void add_framerate(struct spa_pod_builder *b, int mode, struct spa_fraction *fd,
		struct spa_fraction *fmin, struct spa_fraction *fmax)
{
	if (mode == PWSHIM_FPS_OMIT)
		return;
	if (mode == PWSHIM_FPS_FIXED)
		spa_pod_builder_add(b, SPA_FORMAT_VIDEO_framerate, SPA_POD_Fraction(fd), 0);
	else
		spa_pod_builder_add(b, SPA_FORMAT_VIDEO_framerate,
				SPA_POD_CHOICE_RANGE_Fraction(fd, fmin, fmax), 0);
}

static struct spa_pod *build_raw(struct spa_pod_builder *b, uint32_t mask,
		const pwshim_stream_params *p, struct spa_rectangle *def, struct spa_rectangle *mn,
		struct spa_rectangle *mx, struct spa_fraction *fd, struct spa_fraction *fmin,
		struct spa_fraction *fmax)
{
	struct spa_pod_frame f, fc;
	unsigned i;
	int first = 1;
	spa_pod_builder_push_object(b, &f, SPA_TYPE_OBJECT_Format, SPA_PARAM_EnumFormat);
	spa_pod_builder_add(b,
		SPA_FORMAT_mediaType, SPA_POD_Id(SPA_MEDIA_TYPE_video),
		SPA_FORMAT_mediaSubtype, SPA_POD_Id(SPA_MEDIA_SUBTYPE_raw), 0);
	spa_pod_builder_prop(b, SPA_FORMAT_VIDEO_format, 0);
	spa_pod_builder_push_choice(b, &fc, SPA_CHOICE_Enum, 0);
	for (i = 0; i < SPA_N_ELEMENTS(fmt_table); i++) {
		if (!(mask & fmt_table[i].bit))
			continue;
		if (first) {	/* first value of an Enum choice is the default */
			spa_pod_builder_id(b, fmt_table[i].spa);
			first = 0;
		}
		spa_pod_builder_id(b, fmt_table[i].spa);
	}
	spa_pod_builder_pop(b, &fc);
	spa_pod_builder_add(b,
		SPA_FORMAT_VIDEO_size, SPA_POD_CHOICE_RANGE_Rectangle(def, mn, mx), 0);
	add_framerate(b, p->fps_mode, fd, fmin, fmax);
	return spa_pod_builder_pop(b, &f);
}

static struct spa_pod *build_mjpg(struct spa_pod_builder *b, int fps_mode,
		struct spa_rectangle *def, struct spa_rectangle *mn, struct spa_rectangle *mx,
		struct spa_fraction *fd, struct spa_fraction *fmin, struct spa_fraction *fmax)
{
	struct spa_pod_frame f;
	spa_pod_builder_push_object(b, &f, SPA_TYPE_OBJECT_Format, SPA_PARAM_EnumFormat);
	spa_pod_builder_add(b,
		SPA_FORMAT_mediaType, SPA_POD_Id(SPA_MEDIA_TYPE_video),
		SPA_FORMAT_mediaSubtype, SPA_POD_Id(SPA_MEDIA_SUBTYPE_mjpg),
		SPA_FORMAT_VIDEO_size, SPA_POD_CHOICE_RANGE_Rectangle(def, mn, mx), 0);
	add_framerate(b, fps_mode, fd, fmin, fmax);
	return spa_pod_builder_pop(b, &f);
}

int pwshim_stream_open(pwshim *c, const pwshim_stream_params *p, pwshim_stream **out)
{
	pwshim_stream *s;
	struct pw_properties *props;
	struct spa_dict_item items[4];
	uint8_t buf[4096];
	struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buf, sizeof(buf));
	const struct spa_pod *params[8];
	uint32_t n_params = 0, mask, flags;
	int pass;
	struct spa_rectangle def, mn, mx;
	struct spa_fraction fd, fmin, fmax;
	int res;

	if (!c || !p || !out)
		return PWSHIM_ERR_INVALID;
	*out = NULL;
	if (!c->connected)
		return PWSHIM_ERR_DISCONNECTED;

	s = calloc(1, sizeof(*s));
	if (!s)
		return PWSHIM_ERR_NOMEM;
	s->ctx = c;
	s->node_id = SPA_ID_INVALID;
	s->peer_id = SPA_ID_INVALID;
	s->link_state = PW_LINK_STATE_UNLINKED;
	s->buffers_pref = p->buffers > 0 ? p->buffers : 8;
	if (s->buffers_pref > MAXBUF) s->buffers_pref = MAXBUF;
	s->want_max_held = p->max_held;
	s->allow_dmabuf = p->allow_dmabuf;

	items[0] = SPA_DICT_ITEM_INIT(PW_KEY_MEDIA_TYPE, "Video");
	items[1] = SPA_DICT_ITEM_INIT(PW_KEY_MEDIA_CATEGORY, "Capture");
	items[2] = SPA_DICT_ITEM_INIT(PW_KEY_MEDIA_ROLE, "Camera");
	props = pwshim_api.properties_new_dict(&SPA_DICT_INIT(items, 3));
	if (!props) { free(s); return PWSHIM_ERR_NOMEM; }
	if (p->target && p->target[0])
		pwshim_api.properties_set(props, PW_KEY_TARGET_OBJECT, p->target);

	s->stream = pwshim_api.stream_new(c->core, p->stream_name ? p->stream_name : "pipcam", props);
	if (!s->stream) {
		snprintf(c->err, sizeof(c->err), "pw_stream_new: %s", strerror(errno));
		free(s);
		return PWSHIM_ERR_STREAM;
	}
	pwshim_api.stream_add_listener(s->stream, &s->listener, &stream_events, s);

	def = SPA_RECTANGLE(p->width > 0 ? p->width : 640, p->height > 0 ? p->height : 480);
	mn = SPA_RECTANGLE(p->min_width > 0 ? p->min_width : 1, p->min_height > 0 ? p->min_height : 1);
	mx = SPA_RECTANGLE(p->max_width > 0 ? p->max_width : 8192, p->max_height > 0 ? p->max_height : 8192);
	fd = SPA_FRACTION(p->fps > 0 ? p->fps : 30, 1);
	fmin = SPA_FRACTION(p->min_fps > 0 ? p->min_fps : 0, 1);
	fmax = SPA_FRACTION(p->max_fps > 0 ? p->max_fps : 1000, 1);

	mask = p->formats ? p->formats : PWSHIM_FMT_ALL;
	/* The link tries our EnumFormats in order, each as a filter on the
	 * camera's EnumFormat, then fixates to the CAMERA's defaults inside the
	 * intersection. So a preferred size/fps is only honoured if offered as a
	 * fixed value: pass 0 = exact (fixed size + fps), pass 1 = ranges. */
	for (pass = p->exact_first ? 0 : 1; pass < 2; pass++) {
		pwshim_stream_params q = *p;
		struct spa_rectangle *pmn = &mn, *pmx = &mx;
		struct spa_fraction *pfmin = &fmin, *pfmax = &fmax;
		if (pass == 0) {
			q.fps_mode = PWSHIM_FPS_FIXED;
			pmn = pmx = &def;
			pfmin = pfmax = &fd;
		}
		if (p->mjpg_first && (mask & PWSHIM_FMT_MJPG))
			params[n_params++] = build_mjpg(&b, q.fps_mode, &def, pmn, pmx, &fd, pfmin, pfmax);
		if (mask & ~PWSHIM_FMT_MJPG)
			params[n_params++] = build_raw(&b, mask, &q, &def, pmn, pmx, &fd, pfmin, pfmax);
		if (!p->mjpg_first && (mask & PWSHIM_FMT_MJPG))
			params[n_params++] = build_mjpg(&b, q.fps_mode, &def, pmn, pmx, &fd, pfmin, pfmax);
	}

	flags = PW_STREAM_FLAG_AUTOCONNECT | PW_STREAM_FLAG_MAP_BUFFERS;
	if (p->dont_reconnect)
		flags |= PW_STREAM_FLAG_DONT_RECONNECT;
	if (p->start_inactive)
		flags |= PW_STREAM_FLAG_INACTIVE;

	s->next = c->streams;
	c->streams = s;
	res = pwshim_api.stream_connect(s->stream, PW_DIRECTION_INPUT, PW_ID_ANY,
			(enum pw_stream_flags)flags, params, n_params);
	if (res < 0) {
		snprintf(c->err, sizeof(c->err), "pw_stream_connect: %s", spa_strerror(res));
		pwshim_stream_close(s);
		return PWSHIM_ERR_STREAM;
	}
	*out = s;
	return PWSHIM_OK;
}

int pwshim_stream_state(pwshim_stream *s) { return s ? s->state : PWSHIM_STATE_ERROR; }
const char *pwshim_stream_error(pwshim_stream *s) { return s ? s->error : ""; }
uint32_t pwshim_stream_node_id(pwshim_stream *s)
{
	return s ? pwshim_api.stream_get_node_id(s->stream) : SPA_ID_INVALID;
}
uint64_t pwshim_stream_frames(pwshim_stream *s) { return s ? s->frames : 0; }
uint64_t pwshim_stream_redelivered(pwshim_stream *s) { return s ? s->redelivered : 0; }
uint32_t pwshim_stream_peer_id(pwshim_stream *s) { return s ? s->peer_id : SPA_ID_INVALID; }
int pwshim_stream_link_state(pwshim_stream *s) { return s ? s->link_state : PW_LINK_STATE_UNLINKED; }
const char *pwshim_stream_link_error(pwshim_stream *s) { return s ? s->link_error : ""; }
int pwshim_stream_held(pwshim_stream *s) { return s ? s->held : 0; }

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

int pwshim_stream_set_active(pwshim_stream *s, int active)
{
	if (!s)
		return PWSHIM_ERR_INVALID;
	return pwshim_api.stream_set_active(s->stream, active != 0) < 0 ? PWSHIM_ERR_STREAM : PWSHIM_OK;
}

void pwshim_stream_close(pwshim_stream *s)
{
	pwshim_stream **pp;
	int i;
	if (!s)
		return;
	for (pp = &s->ctx->streams; *pp; pp = &(*pp)->next)
		if (*pp == s) { *pp = s->next; break; }
	for (i = 0; i < s->n_bufs; i++)
		if (s->held_flag[i]) {
			s->held_flag[i] = 0;
			pwshim_api.stream_queue_buffer(s->stream, s->bufs[i]);
		}
	pwshim_api.stream_disconnect(s->stream);
	spa_hook_remove(&s->listener);
	for (i = 0; i < s->n_bufs; i++) {
		pwshim_map_unref(s->maps[i]);	/* lent ones live on with their borrowers */
		s->maps[i] = NULL;
	}
	pwshim_api.stream_destroy(s->stream);
	pwshim__purge_events(s->ctx, s);	/* never hand out a dangling stream pointer */
	free(s);
}

/* A camera node of pipcam's own (`--share pipewire`): one fixed raw format, driven by the frames
 * pushed into it, read by any number of programs. */
#include "internal.h"

#include <spa/param/video/raw-utils.h>

struct pwshim_source {
	pwshim_source *next;
	pwshim *ctx;
	struct pw_stream *stream;
	struct spa_hook listener;
	int state;
	uint32_t node_id;
	uint32_t format;	/* PWSHIM_FMT_YUY2 or _I420 */
	int32_t width, height, stride;
	uint32_t frame_size;
	uint64_t seq;
};

static void source_state_changed(void *data, enum pw_stream_state old,
		enum pw_stream_state state, const char *error)
{
	pwshim_source *s = data;
	(void)old;
	s->node_id = pwshim_api.stream_get_node_id(s->stream);
	s->state = (int)state;
	pwshim__push_event(s->ctx, PWSHIM_EV_STREAM_STATE, s->node_id, 0, (int)state, NULL, error);
}

/* A reader agreed on the format: whole frames in one block of shared memory, a header for the
 * frame number and time. */
static void source_param_changed(void *data, uint32_t id, const struct spa_pod *param)
{
	pwshim_source *s = data;
	uint8_t buf[1024];
	struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buf, sizeof(buf));
	const struct spa_pod *params[2];

	if (id != SPA_PARAM_Format || param == NULL)
		return;
	params[0] = spa_pod_builder_add_object(&b,
		SPA_TYPE_OBJECT_ParamBuffers, SPA_PARAM_Buffers,
		SPA_PARAM_BUFFERS_buffers, SPA_POD_CHOICE_RANGE_Int(8, 2, MAXBUF),
		SPA_PARAM_BUFFERS_blocks, SPA_POD_Int(1),
		SPA_PARAM_BUFFERS_size, SPA_POD_Int((int32_t)s->frame_size),
		SPA_PARAM_BUFFERS_stride, SPA_POD_Int(s->stride),
		SPA_PARAM_BUFFERS_dataType, SPA_POD_CHOICE_FLAGS_Int((1 << SPA_DATA_MemFd) | (1 << SPA_DATA_MemPtr)));
	params[1] = spa_pod_builder_add_object(&b,
		SPA_TYPE_OBJECT_ParamMeta, SPA_PARAM_Meta,
		SPA_PARAM_META_type, SPA_POD_Id(SPA_META_Header),
		SPA_PARAM_META_size, SPA_POD_Int(sizeof(struct spa_meta_header)));
	pwshim_api.stream_update_params(s->stream, params, 2);
}

static const struct pw_stream_events source_events = {
	PW_VERSION_STREAM_EVENTS,
	.state_changed = source_state_changed,
	.param_changed = source_param_changed,
};

int pwshim_source_open(pwshim *c, const pwshim_source_params *p, pwshim_source **out)
{
	pwshim_source *s;
	struct pw_properties *props;
	struct spa_dict_item items[6];
	uint8_t buf[1024];
	struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buf, sizeof(buf));
	const struct spa_pod *params[1];
	struct spa_video_info_raw raw;
	int res;

	if (!c || !p || !out || !p->name || p->width <= 0 || p->height <= 0 || (p->width & 1) || (p->height & 1) ||
	    (p->format != PWSHIM_FMT_YUY2 && p->format != PWSHIM_FMT_I420))
		return PWSHIM_ERR_INVALID;
	*out = NULL;
	if (!c->connected)
		return PWSHIM_ERR_DISCONNECTED;
	s = calloc(1, sizeof(*s));
	if (!s)
		return PWSHIM_ERR_NOMEM;
	s->ctx = c;
	s->node_id = SPA_ID_INVALID;
	s->format = p->format;
	s->width = p->width;
	s->height = p->height;
	if (p->format == PWSHIM_FMT_YUY2) {
		s->stride = p->width * 2;
		s->frame_size = (uint32_t)s->stride * (uint32_t)p->height;
	} else {
		s->stride = p->width;
		s->frame_size = (uint32_t)p->width * (uint32_t)p->height * 3 / 2;
	}

	items[0] = SPA_DICT_ITEM_INIT(PW_KEY_MEDIA_CLASS, "Video/Source");
	items[1] = SPA_DICT_ITEM_INIT(PW_KEY_MEDIA_ROLE, "Camera");
	items[2] = SPA_DICT_ITEM_INIT(PW_KEY_MEDIA_TYPE, "Video");
	items[3] = SPA_DICT_ITEM_INIT(PW_KEY_NODE_NAME, p->name);
	items[4] = SPA_DICT_ITEM_INIT(PW_KEY_NODE_DESCRIPTION, p->description ? p->description : p->name);
	items[5] = SPA_DICT_ITEM_INIT("pipcam.share", "true");
	props = pwshim_api.properties_new_dict(&SPA_DICT_INIT(items, 6));
	if (!props) {
		free(s);
		return PWSHIM_ERR_NOMEM;
	}
	s->stream = pwshim_api.stream_new(c->core, p->name, props);
	if (!s->stream) {
		snprintf(c->err, sizeof(c->err), "pw_stream_new: %s", strerror(errno));
		free(s);
		return PWSHIM_ERR_STREAM;
	}
	pwshim_api.stream_add_listener(s->stream, &s->listener, &source_events, s);

	memset(&raw, 0, sizeof(raw));
	raw.format = p->format == PWSHIM_FMT_YUY2 ? SPA_VIDEO_FORMAT_YUY2 : SPA_VIDEO_FORMAT_I420;
	raw.size = SPA_RECTANGLE(p->width, p->height);
	raw.framerate = SPA_FRACTION(p->fps_num > 0 ? p->fps_num : 30, p->fps_denom > 0 ? p->fps_denom : 1);
	params[0] = spa_format_video_raw_build(&b, SPA_PARAM_EnumFormat, &raw);

	s->next = c->sources;
	c->sources = s;
	res = pwshim_api.stream_connect(s->stream, PW_DIRECTION_OUTPUT, PW_ID_ANY,
			(enum pw_stream_flags)(PW_STREAM_FLAG_DRIVER | PW_STREAM_FLAG_MAP_BUFFERS), params, 1);
	if (res < 0) {
		snprintf(c->err, sizeof(c->err), "pw_stream_connect: %s", spa_strerror(res));
		pwshim_source_close(s);
		return PWSHIM_ERR_STREAM;
	}
	*out = s;
	return PWSHIM_OK;
}

uint32_t pwshim_source_node_id(pwshim_source *s) { return s ? s->node_id : SPA_ID_INVALID; }

int pwshim_source_readers(pwshim_source *s)
{
	struct link *l;
	int n = 0;
	if (!s || s->node_id == SPA_ID_INVALID)
		return 0;
	for (l = s->ctx->links; l; l = l->next)
		if (l->out_node == s->node_id)
			n++;
	return n;
}

int pwshim_source_push(pwshim_source *s, const uint8_t *data, uint32_t size, uint64_t pts_ns)
{
	struct pw_buffer *b;
	struct spa_data *d;
	struct spa_meta_header *h;

	if (!s || !data)
		return PWSHIM_ERR_INVALID;
	if (s->state != PW_STREAM_STATE_STREAMING)
		return PWSHIM_ERR_AGAIN;
	if ((b = pwshim_api.stream_dequeue_buffer(s->stream)) == NULL)
		return PWSHIM_ERR_AGAIN;
	d = &b->buffer->datas[0];
	if (d->data == NULL || d->maxsize < size) {
		/* Sent empty, so the buffer goes round again. */
		d->chunk->size = 0;
		pwshim_api.stream_queue_buffer(s->stream, b);
		return PWSHIM_ERR_INVALID;
	}
	memcpy(d->data, data, size);
	d->chunk->offset = 0;
	d->chunk->size = size;
	d->chunk->stride = s->stride;
	d->chunk->flags = 0;
	if ((h = spa_buffer_find_meta_data(b->buffer, SPA_META_Header, sizeof(*h)))) {
		h->pts = (int64_t)pts_ns;
		h->flags = 0;
		h->seq = s->seq;
		h->dts_offset = 0;
	}
	s->seq++;
	pwshim_api.stream_queue_buffer(s->stream, b);
	if (pwshim_api.stream_is_driving(s->stream))
		pwshim_api.stream_trigger_process(s->stream);
	return PWSHIM_OK;
}

int pwshim_source_end_readers(pwshim_source *s, const char *message)
{
	struct link *l;
	struct streamnode *sn;
	int told = 0;
	if (!s || s->node_id == SPA_ID_INVALID || !s->ctx->connected)
		return 0;
	for (l = s->ctx->links; l; l = l->next) {
		struct pw_proxy *client;
		if (l->out_node != s->node_id)
			continue;
		for (sn = s->ctx->streamnodes; sn && sn->id != l->in_node; sn = sn->next)
			;
		if (sn == NULL || sn->client_id == SPA_ID_INVALID)
			continue;
		client = pw_registry_bind(s->ctx->registry, sn->client_id, PW_TYPE_INTERFACE_Client,
				PW_VERSION_CLIENT, 0);
		if (client == NULL)
			continue;
		pw_client_error((struct pw_client *)client, sn->id, -EPIPE, message ? message : "the camera ended");
		pwshim_api.proxy_destroy(client);
		told++;
	}
	return told;
}

void pwshim_source_close(pwshim_source *s)
{
	pwshim_source **pp;
	if (!s)
		return;
	for (pp = &s->ctx->sources; *pp; pp = &(*pp)->next)
		if (*pp == s) {
			*pp = s->next;
			break;
		}
	spa_hook_remove(&s->listener);
	pwshim_api.stream_disconnect(s->stream);
	pwshim_api.stream_destroy(s->stream);
	free(s);
}

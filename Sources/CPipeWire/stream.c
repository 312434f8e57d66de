/* A stream from one camera node: opened, its state followed, closed. Its formats are
 * stream_format.c's, its buffers stream_buffers.c's. */
#include "internal.h"

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

static void on_process(void *data)
{
	pwshim_stream *s = data;
	s->frames++;	/* buffer waits in the stream's queue until dequeued */
}

static const struct pw_stream_events stream_events = {
	PW_VERSION_STREAM_EVENTS,
	.state_changed = on_state_changed,
	.param_changed = pwshim__stream_param_changed,
	.add_buffer = pwshim__stream_add_buffer,
	.remove_buffer = pwshim__stream_remove_buffer,
	.process = on_process,
};

int pwshim_stream_open(pwshim *c, const pwshim_stream_params *p, pwshim_stream **out)
{
	pwshim_stream *s;
	struct pw_properties *props;
	struct spa_dict_item items[4];
	uint8_t buf[4096];
	struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buf, sizeof(buf));
	const struct spa_pod *params[8];
	uint32_t n_params, flags;
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

	n_params = pwshim__stream_enum_formats(&b, p, params);

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

int pwshim_stream_set_active(pwshim_stream *s, int active)
{
	if (!s)
		return PWSHIM_ERR_INVALID;
	return pwshim_api.stream_set_active(s->stream, active != 0) < 0 ? PWSHIM_ERR_STREAM : PWSHIM_OK;
}

void pwshim_stream_close(pwshim_stream *s)
{
	pwshim_stream **pp;
	if (!s)
		return;
	for (pp = &s->ctx->streams; *pp; pp = &(*pp)->next)
		if (*pp == s) { *pp = s->next; break; }
	pwshim__stream_return_held(s);
	pwshim_api.stream_disconnect(s->stream);
	spa_hook_remove(&s->listener);
	pwshim__stream_unmap_buffers(s);
	pwshim_api.stream_destroy(s->stream);
	pwshim__purge_events(s->ctx, s);	/* never hand out a dangling stream pointer */
	free(s);
}

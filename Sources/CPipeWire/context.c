/* The connection to the daemon: its loop (driven by the caller, on the thread that claims it), the
 * core and its registry. Ending one, streams and sources first, is disconnect.c's. */
#include "internal.h"

static void core_done(void *data, uint32_t id, int seq)
{
	pwshim *c = data;
	if (id == PW_ID_CORE && seq == c->sync_seq && !c->registry_ready) {
		c->registry_ready = 1;
		pwshim__push_event(c, PWSHIM_EV_REGISTRY_READY, 0, 0, 0, NULL, NULL);
	}
}

static void core_error(void *data, uint32_t id, int seq, int res, const char *message)
{
	pwshim *c = data;
	(void)seq;
	pwshim__push_event(c, PWSHIM_EV_CORE_ERROR, id, 0, res, NULL, message);
	if (id == PW_ID_CORE && res == -EPIPE && c->connected) {
		c->connected = 0;
		snprintf(c->err, sizeof(c->err), "daemon connection lost: %s",
				message ? message : "EPIPE");
		pwshim__push_event(c, PWSHIM_EV_DISCONNECTED, 0, 0, res, NULL, message);
	}
}

static const struct pw_core_events core_events = {
	PW_VERSION_CORE_EVENTS,
	.done = core_done,
	.error = core_error,
};

int pwshim_connect(pwshim **out, const char *remote_name, char *errbuf, int errbuf_len)
{
	pwshim *c;
	int res;
	struct pw_properties *cprops = NULL;
	struct spa_dict_item item;

	if (out == NULL)
		return PWSHIM_ERR_INVALID;
	*out = NULL;
	if ((res = pwshim__load(errbuf, errbuf_len)) < 0)
		return res;
	c = calloc(1, sizeof(*c));
	if (c == NULL)
		return PWSHIM_ERR_NOMEM;
	c->loop = pwshim_api.loop_new(NULL);
	if (c->loop == NULL) {
		res = PWSHIM_ERR_NOMEM;
		if (errbuf) snprintf(errbuf, errbuf_len, "pw_loop_new failed: %s", strerror(errno));
		goto fail;
	}
	/* The calling thread owns the loop from now on. Without enter, invokes
	 * from the data thread would run directly in that thread. */
	pw_loop_enter(c->loop);
	c->entered = 1;
	c->context = pwshim_api.context_new(c->loop, NULL, 0);
	if (c->context == NULL) {
		res = PWSHIM_ERR_NOMEM;
		if (errbuf) snprintf(errbuf, errbuf_len, "pw_context_new failed: %s", strerror(errno));
		goto fail;
	}
	if (remote_name) {
		item = SPA_DICT_ITEM_INIT(PW_KEY_REMOTE_NAME, remote_name);
		cprops = pwshim_api.properties_new_dict(&SPA_DICT_INIT(&item, 1));
	}
	c->core = pwshim_api.context_connect(c->context, cprops, 0);
	if (c->core == NULL) {
		int e = errno;
		res = PWSHIM_ERR_NODAEMON;
		if (errbuf) snprintf(errbuf, errbuf_len,
				"cannot connect to PipeWire daemon: %s (errno %d)", strerror(e), e);
		goto fail;
	}
	c->connected = 1;
	pw_core_add_listener(c->core, &c->core_listener, &core_events, c);
	c->registry = pw_core_get_registry(c->core, PW_VERSION_REGISTRY, 0);
	if (c->registry == NULL) {
		res = PWSHIM_ERR_NOMEM;
		if (errbuf) snprintf(errbuf, errbuf_len, "pw_core_get_registry failed");
		goto fail;
	}
	pwshim__registry_listen(c);
	c->sync_seq = pw_core_sync(c->core, PW_ID_CORE, 0);
	*out = c;
	return PWSHIM_OK;
fail:
	pwshim__context_free(c);
	return res;
}

int pwshim_get_fd(pwshim *c)
{
	return c ? pw_loop_get_fd(c->loop) : -1;
}

int pwshim_iterate(pwshim *c)
{
	int r;
	if (!c)
		return PWSHIM_ERR_INVALID;
	r = pw_loop_iterate(c->loop, 0);
	if (r < 0 && r != -EINTR) {
		snprintf(c->err, sizeof(c->err), "pw_loop_iterate: %s", spa_strerror(r));
	}
	if (!c->connected)
		return PWSHIM_ERR_DISCONNECTED;
	return r < 0 ? 0 : r;
}

int pwshim_registry_ready(pwshim *c) { return c ? c->registry_ready : 0; }
int pwshim_is_connected(pwshim *c) { return c ? c->connected : 0; }
const char *pwshim_last_error(pwshim *c) { return c ? c->err : ""; }

void pwshim__context_enter(pwshim *c)
{
	if (!c->entered && c->loop) {
		pw_loop_enter(c->loop);
		c->entered = 1;
	}
}

void pwshim__context_free(pwshim *c)
{
	pwshim__context_enter(c);
	pwshim__registry_forget(c);
	if (c->core) {
		spa_hook_remove(&c->core_listener);
		pwshim_api.core_disconnect(c->core);
	}
	if (c->context)
		pwshim_api.context_destroy(c->context);
	if (c->loop) {
		if (c->entered)
			pw_loop_leave(c->loop);
		pwshim_api.loop_destroy(c->loop);
	}
	free(c);
}

int pwshim_release_thread(pwshim *c)
{
	if (!c || !c->entered)
		return PWSHIM_ERR_INVALID;
	pw_loop_leave(c->loop);
	c->entered = 0;
	return PWSHIM_OK;
}

int pwshim_claim_thread(pwshim *c)
{
	if (!c || c->entered)
		return PWSHIM_ERR_INVALID;
	pw_loop_enter(c->loop);
	c->entered = 1;
	return PWSHIM_OK;
}

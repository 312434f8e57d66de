/* One connection: the registry's globals after a round trip, then the connection closed. */
#include "internal.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* For the listener structs and the requests' opcodes only: its inline helpers would call the
 * library directly, so the requests are marshalled through wlshim_api below instead. */
#include <wayland-client-protocol.h>

struct collection {
	wlshim_global *out;
	int capacity;
	int total;
};

static void on_global(void *data, struct wl_registry *registry, uint32_t name,
                      const char *interface, uint32_t version)
{
	struct collection *c = data;
	(void)registry;
	if (c->total < c->capacity) {
		wlshim_global *g = &c->out[c->total];
		g->name = name;
		g->version = version;
		snprintf(g->interface, sizeof(g->interface), "%s", interface != NULL ? interface : "");
	}
	c->total++;
}

/* A global gone while the first round trip is under way is not offered any more. */
static void on_global_remove(void *data, struct wl_registry *registry, uint32_t name)
{
	struct collection *c = data;
	int stored = c->total < c->capacity ? c->total : c->capacity;
	(void)registry;
	for (int i = 0; i < stored; i++) {
		if (c->out[i].name != name)
			continue;
		memmove(&c->out[i], &c->out[i + 1], (size_t)(stored - i - 1) * sizeof(c->out[0]));
		c->total--;
		return;
	}
	/* Not among those stored: one of those past the caller's array (its count is all that is kept). */
	if (c->total > c->capacity)
		c->total--;
}

static const struct wl_registry_listener registry_listener = {
	.global = on_global,
	.global_remove = on_global_remove,
};

static void set_error(char *errbuf, int errbuf_len, const char *text)
{
	if (errbuf != NULL && errbuf_len > 0)
		snprintf(errbuf, errbuf_len, "%s", text);
}

static void on_done(void *data, struct wl_callback *callback, uint32_t serial)
{
	(void)callback;
	(void)serial;
	*(int *)data = 1;
}

static const struct wl_callback_listener done_listener = { .done = on_done };

/* A new object of `interface` from a request of wl_display's (get_registry, sync), as
 * wayland-client-protocol.h's inline helpers make one. */
static struct wl_proxy *display_request(struct wl_display *display, uint32_t opcode,
                                        const struct wl_interface *interface)
{
	struct wl_proxy *proxy = (struct wl_proxy *)display;
	uint32_t version = wlshim_api.proxy_get_version(proxy);

	if (wlshim_api.proxy_marshal_flags != NULL)
		return wlshim_api.proxy_marshal_flags(proxy, opcode, interface, version, 0, NULL);
	return wlshim_api.proxy_marshal_constructor_versioned(proxy, opcode, interface, version, NULL);
}

static long long now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* wl_display_roundtrip with a deadline: wl_display_roundtrip itself waits without one, and a
 * compositor that took the connection and hangs (stopped, deadlocked) would hang its caller.
 * Returns WLSHIM_OK once every event sent before the sync's answer has been dispatched. */
static int roundtrip(struct wl_display *display, int timeout_ms, char *errbuf, int errbuf_len)
{
	struct wl_proxy *callback = display_request(display, WL_DISPLAY_SYNC, wlshim_api.callback_interface);
	long long deadline = now_ms() + timeout_ms;
	int done = 0, rc = WLSHIM_OK;

	if (callback == NULL) {
		set_error(errbuf, errbuf_len, "the round trip could not be asked for (out of memory)");
		return WLSHIM_ERR_NOMEM;
	}
	wlshim_api.proxy_add_listener(callback, (void (**)(void))&done_listener, &done);
	while (!done) {
		struct pollfd p = { .fd = wlshim_api.display_get_fd(display), .events = POLLIN };
		long long left;
		int n;

		/* Events already queued are dispatched first: poll would not see them. */
		if (wlshim_api.display_prepare_read(display) != 0) {
			if (wlshim_api.display_dispatch_pending(display) < 0)
				goto broken;
			continue;
		}
		if (wlshim_api.display_flush(display) < 0 && errno != EAGAIN) {
			wlshim_api.display_cancel_read(display);
			goto broken;
		}
		left = deadline - now_ms();
		n = left > 0 ? poll(&p, 1, (int)left) : 0;
		if (n <= 0) {
			int err = errno;
			wlshim_api.display_cancel_read(display);
			if (n < 0 && err == EINTR)
				continue;
			if (n == 0) {
				set_error(errbuf, errbuf_len, "no answer");
				rc = WLSHIM_ERR_TIMEOUT;
				break;
			}
			set_error(errbuf, errbuf_len, strerror(err));
			rc = WLSHIM_ERR_CONNECTION;
			break;
		}
		if (wlshim_api.display_read_events(display) < 0 ||
		    wlshim_api.display_dispatch_pending(display) < 0)
			goto broken;
	}
	wlshim_api.proxy_destroy(callback);
	return rc;
broken:
	{
		int err = wlshim_api.display_get_error(display);
		set_error(errbuf, errbuf_len, strerror(err != 0 ? err : EPIPE));
	}
	wlshim_api.proxy_destroy(callback);
	return WLSHIM_ERR_CONNECTION;
}

int wlshim_read_globals(const char *display_name, int timeout_ms, wlshim_global *out, int capacity,
                        int *total, char *errbuf, int errbuf_len)
{
	struct collection c = { .out = out, .capacity = capacity, .total = 0 };
	struct wl_display *display;
	struct wl_proxy *registry;
	const char *name;
	int rc;

	if (total != NULL)
		*total = 0;
	if (capacity < 0 || (capacity > 0 && out == NULL) || total == NULL || timeout_ms < 0) {
		set_error(errbuf, errbuf_len, "invalid argument");
		return WLSHIM_ERR_INVALID;
	}
	rc = wlshim_load(errbuf, errbuf_len);
	if (rc != WLSHIM_OK)
		return rc;

	/* libwayland looks a relative name up in $XDG_RUNTIME_DIR, and says only "No such file or
	 * directory" (with a line of its own on stderr) when that is not set. */
	name = display_name != NULL ? display_name : getenv("WAYLAND_DISPLAY");
	if (name == NULL)
		name = "wayland-0";
	if (name[0] != '/' && (display_name != NULL || getenv("WAYLAND_SOCKET") == NULL)) {
		const char *runtime = getenv("XDG_RUNTIME_DIR");
		if (runtime == NULL || runtime[0] == '\0') {
			set_error(errbuf, errbuf_len, "XDG_RUNTIME_DIR is not set");
			return WLSHIM_ERR_CONNECT;
		}
	}

	errno = 0;
	display = wlshim_api.display_connect(display_name);
	if (display == NULL) {
		int err = errno != 0 ? errno : ECONNREFUSED;
		set_error(errbuf, errbuf_len, strerror(err));
		return WLSHIM_ERR_CONNECT;
	}
	registry = display_request(display, WL_DISPLAY_GET_REGISTRY, wlshim_api.registry_interface);
	if (registry == NULL) {
		set_error(errbuf, errbuf_len, "the registry could not be asked for (out of memory)");
		wlshim_api.display_disconnect(display);
		return WLSHIM_ERR_NOMEM;
	}
	wlshim_api.proxy_add_listener(registry, (void (**)(void))&registry_listener, &c);

	rc = roundtrip(display, timeout_ms, errbuf, errbuf_len);
	wlshim_api.proxy_destroy(registry);
	wlshim_api.display_disconnect(display);
	*total = c.total;
	return rc;
}

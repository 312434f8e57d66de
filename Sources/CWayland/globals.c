/* One connection: the registry's globals after a round trip, then the connection closed. */
#include "internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* For struct wl_registry_listener and the request's opcode only: its inline helpers would call
 * the library directly, so the requests are marshalled through wlshim_api below instead. */
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

/* wl_display_get_registry, as wayland-client-protocol.h's inline helper does it. */
static struct wl_proxy *get_registry(struct wl_display *display)
{
	struct wl_proxy *proxy = (struct wl_proxy *)display;
	uint32_t version = wlshim_api.proxy_get_version(proxy);

	if (wlshim_api.proxy_marshal_flags != NULL)
		return wlshim_api.proxy_marshal_flags(proxy, WL_DISPLAY_GET_REGISTRY,
		                                      wlshim_api.registry_interface, version, 0, NULL);
	return wlshim_api.proxy_marshal_constructor_versioned(proxy, WL_DISPLAY_GET_REGISTRY,
	                                                      wlshim_api.registry_interface, version, NULL);
}

int wlshim_read_globals(const char *display_name, wlshim_global *out, int capacity, int *total,
                        char *errbuf, int errbuf_len)
{
	struct collection c = { .out = out, .capacity = capacity, .total = 0 };
	struct wl_display *display;
	struct wl_proxy *registry;
	const char *name;
	int rc;

	if (total != NULL)
		*total = 0;
	if (capacity < 0 || (capacity > 0 && out == NULL) || total == NULL) {
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
	registry = get_registry(display);
	if (registry == NULL) {
		set_error(errbuf, errbuf_len, "the registry could not be asked for (out of memory)");
		wlshim_api.display_disconnect(display);
		return WLSHIM_ERR_NOMEM;
	}
	wlshim_api.proxy_add_listener(registry, (void (**)(void))&registry_listener, &c);

	if (wlshim_api.display_roundtrip(display) < 0) {
		int err = wlshim_api.display_get_error(display);
		set_error(errbuf, errbuf_len, strerror(err != 0 ? err : EPIPE));
		rc = WLSHIM_ERR_CONNECTION;
	} else {
		rc = WLSHIM_OK;
	}
	wlshim_api.proxy_destroy(registry);
	wlshim_api.display_disconnect(display);
	*total = c.total;
	return rc;
}

/* One connection: the registry's globals after a round trip, then the connection closed. */
#include "internal.h"

#include <stdio.h>
#include <string.h>

/* For the listener structs and the requests' opcodes only: its inline helpers would call the
 * library directly, so the requests are marshalled through wlshim_api instead. */
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

int wlshim_read_globals(const char *display_name, int timeout_ms, wlshim_global *out, int capacity,
                        int *total, char *errbuf, int errbuf_len)
{
	struct collection c = { .out = out, .capacity = capacity, .total = 0 };
	struct wl_display *display;
	struct wl_proxy *registry;
	union wl_argument args[1] = { { .o = NULL } };
	int rc;

	if (total != NULL)
		*total = 0;
	if (capacity < 0 || (capacity > 0 && out == NULL) || total == NULL || timeout_ms < 0) {
		wlshim_set_error(errbuf, errbuf_len, "invalid argument");
		return WLSHIM_ERR_INVALID;
	}
	rc = wlshim_load(errbuf, errbuf_len);
	if (rc != WLSHIM_OK)
		return rc;

	rc = wlshim_connect(display_name, &display, errbuf, errbuf_len);
	if (rc != WLSHIM_OK)
		return rc;
	registry = wlshim_marshal((struct wl_proxy *)display, WL_DISPLAY_GET_REGISTRY, wlshim_api.registry_interface,
	                          wlshim_api.proxy_get_version((struct wl_proxy *)display), 0, args);
	if (registry == NULL) {
		wlshim_set_error(errbuf, errbuf_len, "the registry could not be asked for (out of memory)");
		wlshim_api.display_disconnect(display);
		return WLSHIM_ERR_NOMEM;
	}
	wlshim_api.proxy_add_listener(registry, (void (**)(void))&registry_listener, &c);

	rc = wlshim_roundtrip(display, timeout_ms, errbuf, errbuf_len);
	wlshim_api.proxy_destroy(registry);
	wlshim_api.display_disconnect(display);
	*total = c.total;
	return rc;
}

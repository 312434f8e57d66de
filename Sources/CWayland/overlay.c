/* PiP's surface where a compositor offers wlr-layer-shell: a layer surface on the overlay layer,
 * placed by its anchor and margins, its pictures in two shared-memory buffers at the output's
 * scale: at the scale the compositor prefers for it, shown at its logical size by a viewport,
 * where it offers fractional-scale; else at wl_output.scale, said by wl_surface.set_buffer_scale. */
#include "overlay.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <wayland-client-protocol.h>


/* zwlr_layer_surface_v1's events, in the protocol's order. */
struct layer_surface_listener {
	void (*configure)(void *data, struct wl_proxy *layer, uint32_t serial, uint32_t width, uint32_t height);
	void (*closed)(void *data, struct wl_proxy *layer);
};

static void on_configure(void *data, struct wl_proxy *layer, uint32_t serial, uint32_t width, uint32_t height)
{
	struct wlshim_overlay *o = data;
	union wl_argument args[1];

	args[0].u = serial;
	wlshim_marshal(layer, WLSHIM_LAYER_SURFACE_ACK_CONFIGURE, NULL, wlshim_api.proxy_get_version(layer), 0, args);
	/* 0 leaves the size to the client: the one it asked for stays. */
	if (width > 0)
		o->width = (int)width;
	if (height > 0)
		o->height = (int)height;
	o->configures++;
	o->events |= WLSHIM_EVENT_CONFIGURED;
}

static void on_closed(void *data, struct wl_proxy *layer)
{
	struct wlshim_overlay *o = data;
	(void)layer;
	o->closed = 1;
	o->events |= WLSHIM_EVENT_CLOSED;
}

static const struct layer_surface_listener layer_listener = { .configure = on_configure, .closed = on_closed };

static void on_preferred_scale(void *data, struct wl_proxy *fraction, uint32_t scale)
{
	struct wlshim_overlay *o = data;
	(void)fraction;
	if (scale > 0)
		o->preferred120 = scale;
}

struct fractional_scale_listener {
	void (*preferred_scale)(void *data, struct wl_proxy *fraction, uint32_t scale);
};

static const struct fractional_scale_listener fraction_listener = { .preferred_scale = on_preferred_scale };

static void on_frame_done(void *data, struct wl_callback *callback, uint32_t time)
{
	struct wlshim_overlay *o = data;
	(void)time;
	wlshim_api.proxy_destroy((struct wl_proxy *)callback);
	o->frame = NULL;
	o->events |= WLSHIM_EVENT_FRAME_DONE;
}

static const struct wl_callback_listener frame_listener = { .done = on_frame_done };

static void send_place(struct wlshim_overlay *o, const wlshim_place *place)
{
	union wl_argument a[4];

	if (place->width > 0)
		o->width = place->width;
	if (place->height > 0)
		o->height = place->height;
	a[0].u = (uint32_t)(place->width > 0 ? place->width : 0);
	a[1].u = (uint32_t)(place->height > 0 ? place->height : 0);
	wlshim_request(o->layer, WLSHIM_LAYER_SURFACE_SET_SIZE, a);
	a[0].u = place->anchor;
	wlshim_request(o->layer, WLSHIM_LAYER_SURFACE_SET_ANCHOR, a);
	a[0].i = place->margin_top;
	a[1].i = place->margin_right;
	a[2].i = place->margin_bottom;
	a[3].i = place->margin_left;
	wlshim_request(o->layer, WLSHIM_LAYER_SURFACE_SET_MARGIN, a);
	/* -1: margins count from the output's edges, not from panels' reserved zones, as the place
	 * was worked out in output coordinates. */
	a[0].i = -1;
	wlshim_request(o->layer, WLSHIM_LAYER_SURFACE_SET_EXCLUSIVE_ZONE, a);
	a[0].u = o->keys;
	wlshim_request(o->layer, WLSHIM_LAYER_SURFACE_SET_KEYBOARD_INTERACTIVITY, a);
	wlshim_send(o->surface, WL_SURFACE_COMMIT, 0);
}

/* The first commit is answered by a configure, which must come before the first buffer: mostly
 * before the round trip ends (sway), else it is waited for until the deadline. */
static int await_configure(struct wlshim_overlay *o, unsigned before, int timeout_ms, char *errbuf, int errbuf_len)
{
	long long deadline = wlshim_now_ms() + timeout_ms;
	int rc = wlshim_roundtrip(o->c->display, timeout_ms, errbuf, errbuf_len);

	while (rc == WLSHIM_OK && o->configures == before && !o->closed) {
		long long left = deadline - wlshim_now_ms();
		if (left <= 0) {
			wlshim_set_error(errbuf, errbuf_len, "the compositor did not configure the surface");
			return WLSHIM_ERR_TIMEOUT;
		}
		rc = wlshim_connection_pump(o->c, (int)left, errbuf, errbuf_len);
	}
	if (rc == WLSHIM_OK && o->closed) {
		wlshim_set_error(errbuf, errbuf_len, "the compositor closed the surface");
		return WLSHIM_ERR_CONNECTION;
	}
	return rc;
}

int wlshim_overlay_make(wlshim_connection *c, const wlshim_place *place, const char *name_space,
                        int timeout_ms, wlshim_overlay **out, char *errbuf, int errbuf_len)
{
	union wl_argument a[5];
	struct wlshim_overlay *o;
	int rc;

	if (c == NULL || place == NULL || out == NULL || timeout_ms < 0 || place->width <= 0 || place->height <= 0) {
		wlshim_set_error(errbuf, errbuf_len, "invalid argument");
		return WLSHIM_ERR_INVALID;
	}
	*out = NULL;
	o = calloc(1, sizeof(*o));
	if (o == NULL) {
		wlshim_set_error(errbuf, errbuf_len, "out of memory");
		return WLSHIM_ERR_NOMEM;
	}
	o->c = c;
	o->drawing = -1;
	a[0].o = NULL;
	o->surface = wlshim_marshal(c->compositor, WL_COMPOSITOR_CREATE_SURFACE, wlshim_api.surface_interface,
	                            wlshim_api.proxy_get_version(c->compositor), 0, a);
	if (o->surface != NULL) {
		a[0].o = NULL;
		a[1].o = (struct wl_object *)o->surface;
		a[2].o = (struct wl_object *)c->output;
		a[3].u = WLSHIM_LAYER_OVERLAY;
		a[4].s = name_space != NULL ? name_space : "pipcam";
		o->layer = wlshim_marshal(c->layer_shell, WLSHIM_LAYER_SHELL_GET_LAYER_SURFACE,
		                          wlshim_layer_surface_interface(), wlshim_api.proxy_get_version(c->layer_shell), 0, a);
	}
	if (o->layer == NULL) {
		wlshim_set_error(errbuf, errbuf_len, "the surface could not be made (out of memory)");
		wlshim_overlay_destroy(o);
		return WLSHIM_ERR_NOMEM;
	}
	wlshim_api.proxy_add_listener(o->layer, (void (**)(void))&layer_listener, o);
	o->ignores_scale = c->ignores_scale;
	o->sent_buffer_scale = 1;
	if (!o->ignores_scale && wlshim_connection_has_fractional_scale(c)) {
		a[0].o = NULL;
		a[1].o = (struct wl_object *)o->surface;
		o->viewport = wlshim_marshal(c->viewporter, WLSHIM_VIEWPORTER_GET_VIEWPORT, wlshim_scale_interface(WLSHIM_VIEWPORT), 1, 0, a);
		a[0].o = NULL;
		a[1].o = (struct wl_object *)o->surface;
		o->fraction = wlshim_marshal(c->fractional_scale_manager, WLSHIM_FRACTIONAL_MANAGER_GET,
		                             wlshim_scale_interface(WLSHIM_FRACTIONAL_SCALE), 1, 0, a);
		if (o->fraction != NULL)
			wlshim_api.proxy_add_listener(o->fraction, (void (**)(void))&fraction_listener, o);
		/* Without its viewport a fractional scale cannot be shown: the integer one instead. */
		if (o->viewport == NULL || o->fraction == NULL) {
			if (o->viewport != NULL)
				wlshim_send(o->viewport, WLSHIM_VIEWPORT_DESTROY, 1);
			if (o->fraction != NULL)
				wlshim_send(o->fraction, WLSHIM_FRACTIONAL_SCALE_DESTROY, 1);
			o->viewport = o->fraction = NULL;
		}
	}
	send_place(o, place);
	rc = await_configure(o, 0, timeout_ms, errbuf, errbuf_len);
	if (rc != WLSHIM_OK) {
		wlshim_overlay_destroy(o);
		return rc;
	}
	o->reported120 = wlshim_overlay_scale(o);
	*out = o;
	return WLSHIM_OK;
}

void wlshim_overlay_size(const wlshim_overlay *o, int *width, int *height)
{
	*width = o->width;
	*height = o->height;
}

int wlshim_overlay_begin(wlshim_overlay *o, void **pixels, int *stride, int *width, int *height)
{
	int index, pixel_width, pixel_height;

	if (o->closed)
		return WLSHIM_ERR_INVALID;
	wlshim_overlay_pixel_size(o, &pixel_width, &pixel_height);
	if (o->buffers.memory == NULL || o->buffers.width != pixel_width || o->buffers.height != pixel_height ||
	    o->buffers.alpha != o->alpha) {
		int rc;
		/* One still with the compositor goes too: it keeps what it shows until the next commit. */
		wlshim_buffers_drop(&o->buffers);
		rc = wlshim_buffers_make(&o->buffers, o->c->shm, pixel_width, pixel_height, o->alpha, NULL, 0);
		if (rc != WLSHIM_OK)
			return rc;
	}
	index = wlshim_buffers_free_index(&o->buffers);
	if (index < 0)
		return 1;
	o->drawing = index;
	*pixels = (char *)o->buffers.memory + (size_t)index * (size_t)o->buffers.stride * (size_t)o->buffers.height;
	*stride = o->buffers.stride;
	*width = o->buffers.width;
	*height = o->buffers.height;
	return WLSHIM_OK;
}

int wlshim_overlay_commit(wlshim_overlay *o)
{
	union wl_argument a[4];
	int index = o->drawing;

	if (index < 0 || o->closed)
		return WLSHIM_ERR_INVALID;
	o->drawing = -1;
	if (o->viewport != NULL) {
		/* The buffer at the preferred scale, shown at the logical size (its buffer scale stays 1). */
		if (o->sent_width != o->width || o->sent_height != o->height) {
			a[0].i = o->width;
			a[1].i = o->height;
			wlshim_request(o->viewport, WLSHIM_VIEWPORT_SET_DESTINATION, a);
			o->sent_width = o->width;
			o->sent_height = o->height;
		}
	} else {
		int scale = (int)(wlshim_overlay_scale(o) / WLSHIM_SCALE_ONE);
		/* A buffer not a whole multiple of the scale is a protocol error: 1 then (never, as it
		 * is made at the configured size times the scale). */
		if (scale < 1 || o->buffers.width % scale != 0 || o->buffers.height % scale != 0)
			scale = 1;
		if (scale != o->sent_buffer_scale) {
			a[0].i = scale;
			wlshim_request(o->surface, WL_SURFACE_SET_BUFFER_SCALE, a);
			o->sent_buffer_scale = scale;
		}
	}
	a[0].o = (struct wl_object *)o->buffers.buffer[index];
	a[1].i = 0;
	a[2].i = 0;
	wlshim_request(o->surface, WL_SURFACE_ATTACH, a);
	a[0].i = 0;
	a[1].i = 0;
	a[2].i = o->buffers.width;
	a[3].i = o->buffers.height;
	wlshim_request(o->surface, WL_SURFACE_DAMAGE_BUFFER, a);
	if (o->frame == NULL) {
		a[0].o = NULL;
		o->frame = wlshim_marshal(o->surface, WL_SURFACE_FRAME, wlshim_api.callback_interface,
		                          wlshim_api.proxy_get_version(o->surface), 0, a);
		if (o->frame != NULL)
			wlshim_api.proxy_add_listener(o->frame, (void (**)(void))&frame_listener, o);
	}
	wlshim_send(o->surface, WL_SURFACE_COMMIT, 0);
	o->buffers.busy[index] = 1;
	if (wlshim_api.display_flush(o->c->display) < 0 && errno != EAGAIN)
		return WLSHIM_ERR_CONNECTION;
	return WLSHIM_OK;
}

int wlshim_overlay_set_place(wlshim_overlay *o, const wlshim_place *place, int timeout_ms,
                             char *errbuf, int errbuf_len)
{
	int rc;

	if (place == NULL || place->width <= 0 || place->height <= 0 || timeout_ms < 0) {
		wlshim_set_error(errbuf, errbuf_len, "invalid argument");
		return WLSHIM_ERR_INVALID;
	}
	send_place(o, place);
	/* No configure after it is no error here: a compositor need not send one when the size
	 * stays, and the size asked for is the one drawn at until one comes. */
	rc = wlshim_roundtrip(o->c->display, timeout_ms, errbuf, errbuf_len);
	if (rc == WLSHIM_OK && o->closed) {
		wlshim_set_error(errbuf, errbuf_len, "the compositor closed the surface");
		return WLSHIM_ERR_CONNECTION;
	}
	return rc;
}

int wlshim_overlay_frame_pending(const wlshim_overlay *o) { return o->frame != NULL; }

unsigned wlshim_overlay_take_events(wlshim_overlay *o)
{
	unsigned events = o->events;
	uint32_t scale = wlshim_overlay_scale(o);
	if (scale != o->reported120) {
		o->reported120 = scale;
		events |= WLSHIM_EVENT_SCALED;
	}
	if (o->buffers.released > 0)
		events |= WLSHIM_EVENT_RELEASED;
	o->buffers.released = 0;
	o->events = 0;
	return events;
}

uintptr_t wlshim_overlay_key(const wlshim_overlay *o) { return (uintptr_t)o->surface; }

void wlshim_overlay_destroy(wlshim_overlay *o)
{
	if (o == NULL)
		return;
	wlshim_pointer_forget(o->c, wlshim_overlay_key(o));
	wlshim_keyboard_forget(o->c, wlshim_overlay_key(o));
	if (o->frame != NULL)
		wlshim_api.proxy_destroy(o->frame);
	if (o->fraction != NULL)
		wlshim_send(o->fraction, WLSHIM_FRACTIONAL_SCALE_DESTROY, 1);
	if (o->viewport != NULL)
		wlshim_send(o->viewport, WLSHIM_VIEWPORT_DESTROY, 1);
	if (o->layer != NULL)
		wlshim_send(o->layer, WLSHIM_LAYER_SURFACE_DESTROY, 1);
	if (o->surface != NULL)
		wlshim_send(o->surface, WL_SURFACE_DESTROY, 1);
	wlshim_buffers_drop(&o->buffers);
	wlshim_api.display_flush(o->c->display);
	free(o);
}

/* A connection kept open: the globals a surface needs, bound in one round trip, and the steps of
 * a poll loop its caller runs. */
#include "internal.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <wayland-client-protocol.h>

static uint32_t lower(uint32_t a, uint32_t b) { return a < b ? a : b; }

static struct wl_proxy *bind_global(struct wl_proxy *registry, uint32_t name, const struct wl_interface *interface,
                             uint32_t version)
{
	/* bind(uint name, new_id with its interface's name and version) */
	union wl_argument args[4];
	args[0].u = name;
	args[1].s = interface->name;
	args[2].u = version;
	args[3].o = NULL;
	return wlshim_marshal(registry, WL_REGISTRY_BIND, interface, version, 0, args);
}

static void on_geometry(void *data, struct wl_output *output, int32_t x, int32_t y, int32_t mm_width,
                        int32_t mm_height, int32_t subpixel, const char *make, const char *model, int32_t transform)
{
	(void)data, (void)output, (void)x, (void)y, (void)mm_width, (void)mm_height;
	(void)subpixel, (void)make, (void)model, (void)transform;
}

static void on_mode(void *data, struct wl_output *output, uint32_t flags, int32_t width, int32_t height,
                    int32_t refresh)
{
	struct wlshim_connection *c = data;
	(void)output, (void)refresh;
	if (flags & WL_OUTPUT_MODE_CURRENT) {
		c->output_width = width;
		c->output_height = height;
	}
}

static void on_output_done(void *data, struct wl_output *output) { (void)data, (void)output; }
static void on_scale(void *data, struct wl_output *output, int32_t factor)
{
	struct wlshim_connection *c = data;
	(void)output;
	if (factor >= 1)
		c->output_scale = factor;
}

/* Bound at version 3 at most: name and description (version 4) are never sent. */
static const struct wl_output_listener output_listener = {
	.geometry = on_geometry,
	.mode = on_mode,
	.done = on_output_done,
	.scale = on_scale,
};

static void on_global(void *data, struct wl_registry *registry, uint32_t name, const char *interface,
                      uint32_t version)
{
	struct wlshim_connection *c = data;
	struct wl_proxy *r = (struct wl_proxy *)registry;

	if (interface == NULL)
		return;
	/* Not any org_kde_ global: wlroots compositors offer some of KWin's too. */
	if (strcmp(interface, "org_kde_plasma_shell") == 0)
		c->kwin = 1;
	/* Version 4 for damage_buffer. */
	if (strcmp(interface, "wl_compositor") == 0 && c->compositor == NULL && version >= 4) {
		c->compositor = bind_global(r, name, wlshim_api.compositor_interface, lower(version, 4));
	} else if (strcmp(interface, "wl_shm") == 0 && c->shm == NULL) {
		c->shm = bind_global(r, name, wlshim_api.shm_interface, 1);
	} else if (strcmp(interface, "zwlr_layer_shell_v1") == 0 && c->layer_shell == NULL) {
		c->layer_shell = bind_global(r, name, wlshim_layer_shell_interface(), lower(version, WLSHIM_LAYER_SHELL_VERSION));
	} else if (strcmp(interface, "wl_output") == 0 && c->output == NULL && version >= 2) {
		c->output = bind_global(r, name, wlshim_api.output_interface, lower(version, 3));
		if (c->output != NULL) {
			c->output_name = name;
			wlshim_api.proxy_add_listener(c->output, (void (**)(void))&output_listener, c);
		}
	} else if (strcmp(interface, "zxdg_output_manager_v1") == 0 && c->xdg_output_manager == NULL) {
		c->xdg_output_manager = bind_global(r, name, wlshim_scale_interface(WLSHIM_XDG_OUTPUT_MANAGER), 1);
	} else if (strcmp(interface, "wp_viewporter") == 0 && c->viewporter == NULL) {
		c->viewporter = bind_global(r, name, wlshim_scale_interface(WLSHIM_VIEWPORTER), 1);
	} else if (strcmp(interface, "wp_fractional_scale_manager_v1") == 0 && c->fractional_scale_manager == NULL) {
		c->fractional_scale_manager = bind_global(r, name, wlshim_scale_interface(WLSHIM_FRACTIONAL_MANAGER), 1);
	} else if (strcmp(interface, "wl_seat") == 0 && c->seat == NULL) {
		c->seat = bind_global(r, name, wlshim_api.seat_interface, lower(version, WLSHIM_SEAT_VERSION));
		if (c->seat != NULL) {
			c->seat_name = name;
			wlshim_seat_listen(c);
		}
	}
}

static void on_global_remove(void *data, struct wl_registry *registry, uint32_t name)
{
	struct wlshim_connection *c = data;
	(void)registry;
	/* The output's size is not known any more; a surface on it gets `closed`. */
	if (c->output != NULL && name == c->output_name) {
		c->output_width = 0;
		c->output_height = 0;
		c->logical_width = 0;
		c->logical_height = 0;
	}
	if (c->seat != NULL && name == c->seat_name)
		wlshim_seat_drop(c);
}

static void on_logical_position(void *data, struct wl_proxy *xdg_output, int32_t x, int32_t y)
{
	(void)data, (void)xdg_output, (void)x, (void)y;
}

static void on_logical_size(void *data, struct wl_proxy *xdg_output, int32_t width, int32_t height)
{
	struct wlshim_connection *c = data;
	(void)xdg_output;
	c->logical_width = width;
	c->logical_height = height;
}

static void on_xdg_output_done(void *data, struct wl_proxy *xdg_output) { (void)data, (void)xdg_output; }

struct xdg_output_listener {
	void (*logical_position)(void *data, struct wl_proxy *xdg_output, int32_t x, int32_t y);
	void (*logical_size)(void *data, struct wl_proxy *xdg_output, int32_t width, int32_t height);
	void (*done)(void *data, struct wl_proxy *xdg_output);
};

static const struct xdg_output_listener xdg_output_listener = {
	.logical_position = on_logical_position,
	.logical_size = on_logical_size,
	.done = on_xdg_output_done,
};

/* The output's logical size where a fractional scale leaves it unknown (its mode over 1.5). */
static void follow_logical_size(struct wlshim_connection *c)
{
	union wl_argument args[2];

	if (c->xdg_output_manager == NULL || c->output == NULL || c->xdg_output != NULL)
		return;
	args[0].o = NULL;
	args[1].o = (struct wl_object *)c->output;
	c->xdg_output = wlshim_marshal(c->xdg_output_manager, WLSHIM_XDG_OUTPUT_MANAGER_GET,
	                               wlshim_scale_interface(WLSHIM_XDG_OUTPUT), 1, 0, args);
	if (c->xdg_output != NULL)
		wlshim_api.proxy_add_listener(c->xdg_output, (void (**)(void))&xdg_output_listener, c);
}

static const struct wl_registry_listener registry_listener = {
	.global = on_global,
	.global_remove = on_global_remove,
};

int wlshim_connection_open(const char *display_name, int timeout_ms, wlshim_connection **out,
                           char *errbuf, int errbuf_len)
{
	union wl_argument args[1] = { { .o = NULL } };
	struct wlshim_connection *c;
	const char *lacking = NULL;
	int rc;

	if (out == NULL || timeout_ms < 0) {
		wlshim_set_error(errbuf, errbuf_len, "invalid argument");
		return WLSHIM_ERR_INVALID;
	}
	*out = NULL;
	rc = wlshim_load(errbuf, errbuf_len);
	if (rc != WLSHIM_OK)
		return rc;
	c = calloc(1, sizeof(*c));
	if (c == NULL) {
		wlshim_set_error(errbuf, errbuf_len, "out of memory");
		return WLSHIM_ERR_NOMEM;
	}
	c->output_scale = 1;
	rc = wlshim_connect(display_name, &c->display, errbuf, errbuf_len);
	if (rc != WLSHIM_OK) {
		free(c);
		return rc;
	}
	c->registry = wlshim_marshal((struct wl_proxy *)c->display, WL_DISPLAY_GET_REGISTRY, wlshim_api.registry_interface,
	                             wlshim_api.proxy_get_version((struct wl_proxy *)c->display), 0, args);
	if (c->registry == NULL) {
		wlshim_set_error(errbuf, errbuf_len, "the registry could not be asked for (out of memory)");
		wlshim_connection_close(c);
		return WLSHIM_ERR_NOMEM;
	}
	wlshim_api.proxy_add_listener(c->registry, (void (**)(void))&registry_listener, c);
	/* The first round trip binds; the second brings the output's mode and logical size. */
	rc = wlshim_roundtrip(c->display, timeout_ms, errbuf, errbuf_len);
	if (rc == WLSHIM_OK) {
		follow_logical_size(c);
		rc = wlshim_roundtrip(c->display, timeout_ms, errbuf, errbuf_len);
	}
	if (rc != WLSHIM_OK) {
		wlshim_connection_close(c);
		return rc;
	}
	if (c->compositor == NULL)
		lacking = "wl_compositor (version 4)";
	else if (c->shm == NULL)
		lacking = "wl_shm";
	else if (c->layer_shell == NULL)
		lacking = "zwlr_layer_shell_v1";
	if (lacking != NULL) {
		char text[96];
		snprintf(text, sizeof(text), "the compositor lacks %s", lacking);
		wlshim_set_error(errbuf, errbuf_len, text);
		wlshim_connection_close(c);
		return WLSHIM_ERR_UNSUPPORTED;
	}
	*out = c;
	return WLSHIM_OK;
}

void wlshim_connection_close(wlshim_connection *c)
{
	if (c == NULL)
		return;
	wlshim_seat_drop(c);
	if (c->xdg_output != NULL)
		wlshim_send(c->xdg_output, WLSHIM_XDG_OUTPUT_DESTROY, 1);
	if (c->xdg_output_manager != NULL)
		wlshim_send(c->xdg_output_manager, WLSHIM_XDG_OUTPUT_MANAGER_DESTROY, 1);
	if (c->output != NULL)
		wlshim_release(c->output, WL_OUTPUT_RELEASE, 3);
	if (c->layer_shell != NULL)
		wlshim_release(c->layer_shell, WLSHIM_LAYER_SHELL_DESTROY, 3);
	if (c->fractional_scale_manager != NULL)
		wlshim_send(c->fractional_scale_manager, WLSHIM_FRACTIONAL_MANAGER_DESTROY, 1);
	if (c->viewporter != NULL)
		wlshim_send(c->viewporter, WLSHIM_VIEWPORTER_DESTROY, 1);
	if (c->shm != NULL)
		wlshim_api.proxy_destroy(c->shm);
	if (c->compositor != NULL)
		wlshim_api.proxy_destroy(c->compositor);
	if (c->registry != NULL)
		wlshim_api.proxy_destroy(c->registry);
	/* Disconnecting sends what is queued first. */
	wlshim_api.display_flush(c->display);
	wlshim_api.display_disconnect(c->display);
	free(c);
}

int wlshim_connection_is_kwin(const wlshim_connection *c) { return c->kwin; }

int wlshim_connection_output_scale(const wlshim_connection *c) { return c->output_scale; }

int wlshim_connection_has_fractional_scale(const wlshim_connection *c)
{
	return c->viewporter != NULL && c->fractional_scale_manager != NULL;
}

void wlshim_connection_ignore_scale(wlshim_connection *c, int ignore) { c->ignores_scale = ignore != 0; }

int wlshim_connection_fd(const wlshim_connection *c) { return wlshim_api.display_get_fd(c->display); }

void wlshim_connection_output_size(const wlshim_connection *c, int *width, int *height)
{
	/* Layer surfaces are placed in logical coordinates: the xdg output's size, else the mode's
	 * pixels over the integer scale. */
	int scale = c->output_scale > 0 ? c->output_scale : 1;
	if (c->output_width > 0 && c->logical_width > 0 && c->logical_height > 0) {
		*width = c->logical_width;
		*height = c->logical_height;
		return;
	}
	*width = c->output_width / scale;
	*height = c->output_height / scale;
}

int wlshim_connection_prepare(wlshim_connection *c)
{
	while (wlshim_api.display_prepare_read(c->display) != 0) {
		if (wlshim_api.display_dispatch_pending(c->display) < 0)
			return WLSHIM_ERR_CONNECTION;
	}
	if (wlshim_api.display_flush(c->display) < 0) {
		if (errno == EAGAIN)
			return 1;
		wlshim_api.display_cancel_read(c->display);
		return WLSHIM_ERR_CONNECTION;
	}
	return 0;
}

int wlshim_connection_read(wlshim_connection *c, int readable, char *errbuf, int errbuf_len)
{
	if (readable) {
		if (wlshim_api.display_read_events(c->display) < 0)
			goto broken;
	} else {
		wlshim_api.display_cancel_read(c->display);
	}
	if (wlshim_api.display_dispatch_pending(c->display) < 0)
		goto broken;
	return WLSHIM_OK;
broken:
	wlshim_set_error(errbuf, errbuf_len, wlshim_display_error(c->display));
	return WLSHIM_ERR_CONNECTION;
}

int wlshim_connection_pump(wlshim_connection *c, int timeout_ms, char *errbuf, int errbuf_len)
{
	int wants = wlshim_connection_prepare(c);
	struct pollfd p = { .fd = wlshim_connection_fd(c), .events = POLLIN };
	int n;

	if (wants < 0) {
		wlshim_set_error(errbuf, errbuf_len, wlshim_display_error(c->display));
		return WLSHIM_ERR_CONNECTION;
	}
	if (wants == 1)
		p.events |= POLLOUT;
	do {
		n = poll(&p, 1, timeout_ms);
	} while (n < 0 && errno == EINTR);
	if (n < 0) {
		wlshim_api.display_cancel_read(c->display);
		wlshim_set_error(errbuf, errbuf_len, strerror(errno));
		return WLSHIM_ERR_CONNECTION;
	}
	return wlshim_connection_read(c, n > 0 && (p.revents & (POLLIN | POLLHUP | POLLERR)), errbuf, errbuf_len);
}

int wlshim_connection_roundtrip(wlshim_connection *c, int timeout_ms, char *errbuf, int errbuf_len)
{
	return wlshim_roundtrip(c->display, timeout_ms, errbuf, errbuf_len);
}

/* What the shim's files share: the functions of libwayland-client, found with dlsym. */
#ifndef WLSHIM_INTERNAL_H
#define WLSHIM_INTERNAL_H

#include "wlshim.h"

/* The core declarations only, for the functions' types: nothing here calls them directly, so
 * nothing links libwayland-client. */
#include <wayland-client-core.h>

struct wlapi {
	void *handle;
	const struct wl_interface *registry_interface;
	const struct wl_interface *callback_interface;
	__typeof__(wl_display_connect) *display_connect;
	__typeof__(wl_display_disconnect) *display_disconnect;
	__typeof__(wl_display_get_fd) *display_get_fd;
	__typeof__(wl_display_flush) *display_flush;
	__typeof__(wl_display_prepare_read) *display_prepare_read;
	__typeof__(wl_display_cancel_read) *display_cancel_read;
	__typeof__(wl_display_read_events) *display_read_events;
	__typeof__(wl_display_dispatch_pending) *display_dispatch_pending;
	__typeof__(wl_display_get_error) *display_get_error;
	__typeof__(wl_proxy_add_listener) *proxy_add_listener;
	__typeof__(wl_proxy_destroy) *proxy_destroy;
	__typeof__(wl_proxy_get_version) *proxy_get_version;
	/* Since libwayland 1.20; older ones have only the constructor below. */
	__typeof__(wl_proxy_marshal_flags) *proxy_marshal_flags;
	__typeof__(wl_proxy_marshal_constructor_versioned) *proxy_marshal_constructor_versioned;
};

extern struct wlapi wlshim_api;

#endif

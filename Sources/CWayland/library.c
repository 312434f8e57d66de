/* libwayland-client, opened at run time: pipcam installs and runs where Wayland's library is
 * absent (an X11-only machine), and only asking a compositor needs it. */
#include "internal.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

struct wlapi wlshim_api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int load_result;
static char load_error[256];

#define LOADSYM(field, name) do { \
	*(void **)(&wlshim_api.field) = dlsym(h, name); \
	if (wlshim_api.field == NULL) { missing = name; goto fail; } } while (0)

static void load_once(void)
{
	const char *missing = NULL;
	void *h = dlopen("libwayland-client.so.0", RTLD_NOW | RTLD_LOCAL);

	if (h == NULL) {
		snprintf(load_error, sizeof(load_error), "libwayland-client.so.0 not found (%s)", dlerror());
		load_result = WLSHIM_ERR_NOLIB;
		return;
	}
	LOADSYM(registry_interface, "wl_registry_interface");
	LOADSYM(callback_interface, "wl_callback_interface");
	LOADSYM(compositor_interface, "wl_compositor_interface");
	LOADSYM(shm_interface, "wl_shm_interface");
	LOADSYM(shm_pool_interface, "wl_shm_pool_interface");
	LOADSYM(buffer_interface, "wl_buffer_interface");
	LOADSYM(surface_interface, "wl_surface_interface");
	LOADSYM(output_interface, "wl_output_interface");
	LOADSYM(seat_interface, "wl_seat_interface");
	LOADSYM(pointer_interface, "wl_pointer_interface");
	LOADSYM(region_interface, "wl_region_interface");
	LOADSYM(keyboard_interface, "wl_keyboard_interface");
	LOADSYM(display_connect, "wl_display_connect");
	LOADSYM(display_disconnect, "wl_display_disconnect");
	LOADSYM(display_get_fd, "wl_display_get_fd");
	LOADSYM(display_flush, "wl_display_flush");
	LOADSYM(display_prepare_read, "wl_display_prepare_read");
	LOADSYM(display_cancel_read, "wl_display_cancel_read");
	LOADSYM(display_read_events, "wl_display_read_events");
	LOADSYM(display_dispatch_pending, "wl_display_dispatch_pending");
	LOADSYM(display_get_error, "wl_display_get_error");
	LOADSYM(proxy_add_listener, "wl_proxy_add_listener");
	LOADSYM(proxy_destroy, "wl_proxy_destroy");
	LOADSYM(proxy_get_version, "wl_proxy_get_version");
	LOADSYM(proxy_marshal_array_constructor_versioned, "wl_proxy_marshal_array_constructor_versioned");
	/* Optional: preferred where present, as the generated helpers of 1.20 and later call it. */
	*(void **)(&wlshim_api.proxy_marshal_array_flags) = dlsym(h, "wl_proxy_marshal_array_flags");
	wlshim_api.handle = h;
	load_result = WLSHIM_OK;
	return;
fail:
	snprintf(load_error, sizeof(load_error), "libwayland-client.so.0 lacks %s", missing);
	dlclose(h);
	memset(&wlshim_api, 0, sizeof(wlshim_api));
	load_result = WLSHIM_ERR_SYMBOL;
}

int wlshim_load(char *errbuf, int errbuf_len)
{
	pthread_once(&once, load_once);
	if (load_result < 0 && errbuf != NULL && errbuf_len > 0)
		snprintf(errbuf, errbuf_len, "%s", load_error);
	return load_result;
}

/* The first seat the compositor offers: its pointer and keyboard taken while it has them (a seat
 * gains and loses them as devices come and go). */
#include "internal.h"

#include <wayland-client-protocol.h>

static void on_capabilities(void *data, struct wl_seat *seat, uint32_t capabilities)
{
	struct wlshim_connection *c = data;
	int has_pointer = (capabilities & WL_SEAT_CAPABILITY_POINTER) != 0;
	(void)seat;

	if (has_pointer && c->pointer == NULL) {
		union wl_argument args[1] = { { .o = NULL } };
		c->pointer = wlshim_marshal(c->seat, WL_SEAT_GET_POINTER, wlshim_api.pointer_interface,
		                            wlshim_api.proxy_get_version(c->seat), 0, args);
		if (c->pointer != NULL)
			wlshim_pointer_listen(c);
	} else if (!has_pointer && c->pointer != NULL) {
		wlshim_pointer_drop(c);
	}
	if (capabilities & WL_SEAT_CAPABILITY_KEYBOARD)
		wlshim_keyboard_take(c);
	else
		wlshim_keyboard_drop(c);
}

static void on_name(void *data, struct wl_seat *seat, const char *name) { (void)data, (void)seat, (void)name; }

static const struct wl_seat_listener seat_listener = {
	.capabilities = on_capabilities,
	.name = on_name,
};

void wlshim_seat_listen(struct wlshim_connection *c)
{
	wlshim_api.proxy_add_listener(c->seat, (void (**)(void))&seat_listener, c);
}

void wlshim_seat_drop(struct wlshim_connection *c)
{
	wlshim_pointer_drop(c);
	wlshim_keyboard_free(c);
	if (c->seat == NULL)
		return;
	wlshim_release(c->seat, WL_SEAT_RELEASE, 5);
	c->seat = NULL;
}

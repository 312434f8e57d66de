/* What the shim's files share: the functions of libwayland-client, found with dlsym, and the
 * helpers each part calls. Parts, each calling only those above it in this list: library.c, xkb.c,
 * connection.c, layer_shell.c, scale.c, buffers.c, pointer.c, keyboard.c, seat.c, then globals.c and
 * display.c, then overlay.c and overlay_input.c (sharing overlay.h). */
#ifndef WLSHIM_INTERNAL_H
#define WLSHIM_INTERNAL_H

#include <stddef.h>

#include "wlshim.h"
#include "wlsurface.h"

/* The core declarations only, for the functions' types: nothing here calls them directly, so
 * nothing links libwayland-client. */
#include <wayland-client-core.h>
/* Likewise libxkbcommon's: its types, its functions reached through wlshim_xkb. */
#include <xkbcommon/xkbcommon.h>

struct wlapi {
	void *handle;
	const struct wl_interface *registry_interface;
	const struct wl_interface *callback_interface;
	const struct wl_interface *compositor_interface;
	const struct wl_interface *shm_interface;
	const struct wl_interface *shm_pool_interface;
	const struct wl_interface *buffer_interface;
	const struct wl_interface *surface_interface;
	const struct wl_interface *output_interface;
	const struct wl_interface *seat_interface;
	const struct wl_interface *pointer_interface;
	const struct wl_interface *region_interface;
	const struct wl_interface *keyboard_interface;
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
	__typeof__(wl_proxy_marshal_array_flags) *proxy_marshal_array_flags;
	__typeof__(wl_proxy_marshal_array_constructor_versioned) *proxy_marshal_array_constructor_versioned;
};

extern struct wlapi wlshim_api;

/* xkb.c: libxkbcommon's functions, found with dlsym. */
struct xkbapi {
	void *handle;
	__typeof__(xkb_context_new) *context_new;
	__typeof__(xkb_context_unref) *context_unref;
	__typeof__(xkb_keymap_new_from_buffer) *keymap_new_from_buffer;
	__typeof__(xkb_keymap_unref) *keymap_unref;
	__typeof__(xkb_keymap_mod_get_index) *keymap_mod_get_index;
	__typeof__(xkb_keymap_key_get_syms_by_level) *keymap_key_get_syms_by_level;
	__typeof__(xkb_state_new) *state_new;
	__typeof__(xkb_state_unref) *state_unref;
	__typeof__(xkb_state_update_mask) *state_update_mask;
	__typeof__(xkb_state_serialize_mods) *state_serialize_mods;
};
extern struct xkbapi wlshim_xkb;
/* Loads libxkbcommon.so.0 once: 1 when it and every function above are there, else 0. */
int wlshim_xkb_load(void);

/* pointer.c: what the pointer did, queued until the owner takes it. */
#define WLSHIM_POINTER_QUEUE 256
struct wlshim_pointer_queue {
	wlshim_pointer_event events[WLSHIM_POINTER_QUEUE];
	int head, count;
	uintptr_t focus;      /* the surface the pointer is over, or 0 */
	int32_t x, y;         /* its last position there (wl_fixed) */
	int32_t discrete[2];  /* axis_discrete's steps, for the axis event after it */
	uint32_t press_serial;
	int buttons_down;
};

/* keyboard.c: the keymap and state, where the keyboard's focus is, what it pressed. */
#define WLSHIM_KEY_QUEUE 64
struct wlshim_key_queue {
	wlshim_key_event events[WLSHIM_KEY_QUEUE];
	int head, count;
};
struct wlshim_keyboard_state {
	struct xkb_context *context;
	struct xkb_keymap *keymap; /* NULL until the compositor sent one */
	struct xkb_state *state;
	uint32_t mod_index[WLSHIM_X_MODIFIERS]; /* the keymap's index of each of X's modifiers */
	uintptr_t focus;                        /* the surface with the keyboard's focus, or 0 */
	int32_t repeat_rate, repeat_delay;
	struct wlshim_key_queue queue;
};

/* display.c: a connection kept open and the globals bound on it. */
struct wlshim_connection {
	struct wl_display *display;
	struct wl_proxy *registry, *compositor, *shm, *layer_shell, *output;
	uint32_t output_name;
	int output_width, output_height;
	int output_scale; /* wl_output.scale: 1 until the output says */
	struct wl_proxy *xdg_output_manager, *xdg_output;
	int logical_width, logical_height; /* the xdg output's, 0 until it says */
	/* Where offered: a surface's picture at any size, and the scale the compositor prefers. */
	struct wl_proxy *viewporter, *fractional_scale_manager;
	int ignores_scale; /* surfaces made from now on are drawn at scale 1 */
	struct wl_proxy *seat, *pointer, *keyboard;
	uint32_t seat_name;
	int kwin;
	struct wlshim_pointer_queue pointer_queue;
	struct wlshim_keyboard_state keyboard_state;
};

/* connection.c */
void wlshim_set_error(char *errbuf, int errbuf_len, const char *text);
long long wlshim_now_ms(void);
/* Sends request `opcode` with `args` (a slot for each argument, the new object's too); returns the
 * object it makes (of `made`, at `version`), else NULL. `destroy`: the proxy is gone after it. */
struct wl_proxy *wlshim_marshal(struct wl_proxy *proxy, uint32_t opcode, const struct wl_interface *made,
                                uint32_t version, int destroy, union wl_argument *args);
/* Connects to display_name as wlshim_read_globals says; the cause alone in errbuf on failure. */
int wlshim_connect(const char *display_name, struct wl_display **display, char *errbuf, int errbuf_len);
/* A request without arguments that makes nothing (a destructor when `destroy`). */
void wlshim_send(struct wl_proxy *proxy, uint32_t opcode, int destroy);
/* A request with `args` that makes nothing, at the proxy's version. */
void wlshim_request(struct wl_proxy *proxy, uint32_t opcode, union wl_argument *args);
/* Gives back a bound object: its destructor request `opcode` where its version has it (`since`),
 * else the proxy alone destroyed. */
void wlshim_release(struct wl_proxy *proxy, uint32_t opcode, uint32_t since);
/* A queue of `capacity` events of `size` bytes, `count` of them from `head` on: those whose
 * surface (a uintptr_t at `offset` in each) is `surface` taken out, the order kept; how many stay. */
int wlshim_queue_forget(void *events, size_t size, int capacity, int head, int count, size_t offset,
                        uintptr_t surface);
/* wl_display_roundtrip with a deadline; WLSHIM_OK once every event sent before it is dispatched. */
int wlshim_roundtrip(struct wl_display *display, int timeout_ms, char *errbuf, int errbuf_len);
/* The connection's error as text (after a call returned -1). */
const char *wlshim_display_error(struct wl_display *display);

/* layer_shell.c: zwlr_layer_shell_v1 and zwlr_layer_surface_v1, written from the protocol text. */
enum {
	WLSHIM_LAYER_SHELL_GET_LAYER_SURFACE = 0,
	WLSHIM_LAYER_SHELL_DESTROY = 1, /* since version 3 */
};
enum {
	WLSHIM_LAYER_SURFACE_SET_SIZE = 0,
	WLSHIM_LAYER_SURFACE_SET_ANCHOR = 1,
	WLSHIM_LAYER_SURFACE_SET_EXCLUSIVE_ZONE = 2,
	WLSHIM_LAYER_SURFACE_SET_MARGIN = 3,
	WLSHIM_LAYER_SURFACE_SET_KEYBOARD_INTERACTIVITY = 4,
	WLSHIM_LAYER_SURFACE_ACK_CONFIGURE = 6,
	WLSHIM_LAYER_SURFACE_DESTROY = 7,
};
#define WLSHIM_LAYER_OVERLAY 3u
/* The highest versions whose requests and events the tables below carry. */
#define WLSHIM_LAYER_SHELL_VERSION 4u
const struct wl_interface *wlshim_layer_shell_interface(void);
const struct wl_interface *wlshim_layer_surface_interface(void);

/* scale.c: wp_viewporter, wp_viewport, wp_fractional_scale_manager_v1, wp_fractional_scale_v1,
 * zxdg_output_manager_v1 and zxdg_output_v1, written from the protocols' text. */
enum {
	WLSHIM_VIEWPORTER_DESTROY = 0,
	WLSHIM_VIEWPORTER_GET_VIEWPORT = 1,
	WLSHIM_VIEWPORT_DESTROY = 0,
	WLSHIM_VIEWPORT_SET_DESTINATION = 2,
	WLSHIM_FRACTIONAL_MANAGER_DESTROY = 0,
	WLSHIM_FRACTIONAL_MANAGER_GET = 1,
	WLSHIM_FRACTIONAL_SCALE_DESTROY = 0,
	WLSHIM_XDG_OUTPUT_MANAGER_DESTROY = 0,
	WLSHIM_XDG_OUTPUT_MANAGER_GET = 1,
	WLSHIM_XDG_OUTPUT_DESTROY = 0,
};
enum {
	WLSHIM_VIEWPORTER, WLSHIM_VIEWPORT, WLSHIM_FRACTIONAL_MANAGER, WLSHIM_FRACTIONAL_SCALE,
	WLSHIM_XDG_OUTPUT_MANAGER, WLSHIM_XDG_OUTPUT
};
/* One of the interfaces above (`which`: the enum's). */
const struct wl_interface *wlshim_scale_interface(int which);

/* buffers.c: two buffers of one size and format (XRGB8888, or ARGB8888 with alpha) in one memfd,
 * each free again at its release. */
struct wlshim_buffers {
	struct wl_proxy *buffer[2];
	int busy[2];
	void *memory;
	size_t size;
	int width, height, stride;
	int alpha; /* ARGB8888 */
	int released; /* releases since the owner last looked */
};
int wlshim_buffers_make(struct wlshim_buffers *b, struct wl_proxy *shm, int width, int height, int alpha,
                        char *errbuf, int errbuf_len);
void wlshim_buffers_drop(struct wlshim_buffers *b);
/* The index of a buffer not with the compositor, or -1. */
int wlshim_buffers_free_index(const struct wlshim_buffers *b);

/* pointer.c: c->pointer's events queued (its listener added here). */
void wlshim_pointer_listen(struct wlshim_connection *c);
/* The pointer released (or destroyed before version 3); its queue stays for the owner. */
void wlshim_pointer_drop(struct wlshim_connection *c);
/* A surface about to be destroyed: its queued events go, and the pointer is over nothing. */
void wlshim_pointer_forget(struct wlshim_connection *c, uintptr_t surface);

/* keyboard.c: c->seat's keyboard taken (when libxkbcommon is there) and its events queued. */
void wlshim_keyboard_take(struct wlshim_connection *c);
/* The keyboard released and its keymap dropped; its queue stays for the owner. */
void wlshim_keyboard_drop(struct wlshim_connection *c);
/* Dropped, and the xkb context freed too. */
void wlshim_keyboard_free(struct wlshim_connection *c);
/* A surface about to be destroyed: its queued keys go, and it has the focus no more. */
void wlshim_keyboard_forget(struct wlshim_connection *c, uintptr_t surface);

/* seat.c: c->seat (just bound) followed: its pointer taken and given back with the capability. */
#define WLSHIM_SEAT_VERSION 5u
void wlshim_seat_listen(struct wlshim_connection *c);
/* The pointer and the seat given back. */
void wlshim_seat_drop(struct wlshim_connection *c);

#endif

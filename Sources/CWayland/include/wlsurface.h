/* wlsurface: one connection to a compositor kept open, and PiP's surfaces on it (a wlr-layer-shell
 * overlay drawn from shared-memory buffers), for pipcam's Swift side.
 *
 * Rules for callers:
 *  - One thread per connection: every call on a connection and its surfaces from the same one.
 *  - Its caller's own poll loop drives it: wlshim_connection_prepare, poll its fd (for writing too
 *    when prepare returned 1), wlshim_connection_read; or wlshim_connection_pump, which does all
 *    three. What happened to a surface is read after with wlshim_overlay_take_events, what the
 *    pointer did with wlshim_connection_next_pointer_event.
 *  - Surfaces are destroyed before their connection is closed.
 *  - Return codes are wlshim.h's; errbuf (if given) says why in a few words.
 */
#ifndef WLSURFACE_H
#define WLSURFACE_H

#include <stdint.h>

#include "wlshim.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wlshim_connection wlshim_connection;
typedef struct wlshim_overlay wlshim_overlay;

/* The edges a layer surface is anchored to (the protocol's values), as a bit set. */
enum {
	WLSHIM_ANCHOR_TOP = 1,
	WLSHIM_ANCHOR_BOTTOM = 2,
	WLSHIM_ANCHOR_LEFT = 4,
	WLSHIM_ANCHOR_RIGHT = 8
};

/* Where a layer surface goes: its size, the edges it keeps to and its distance from each (a
 * margin counts only toward an edge it is anchored to). */
typedef struct wlshim_place {
	uint32_t anchor;
	int32_t width, height;
	int32_t margin_top, margin_right, margin_bottom, margin_left;
} wlshim_place;

/* What happened to a surface since wlshim_overlay_take_events last asked, as a bit set. */
enum {
	WLSHIM_EVENT_FRAME_DONE = 1, /* the compositor asks for the next picture (the last one is shown) */
	WLSHIM_EVENT_CONFIGURED = 2, /* a new size, acknowledged; the next picture is drawn at it */
	WLSHIM_EVENT_CLOSED = 4,     /* the compositor took it away (its output went): destroy it */
	WLSHIM_EVENT_RELEASED = 8,   /* a buffer is free again */
	WLSHIM_EVENT_SCALED = 16     /* the scale pictures are drawn at changed: draw again */
};

/* A scale in 120ths, as wp_fractional_scale_v1 says it (180: 1.5). */
#define WLSHIM_SCALE_ONE 120

/* The pixels a `logical` length takes at scale120/120: rounded half away from zero, as
 * fractional-scale-v1 asks (0 for a length of 0 or less; scale 0 is taken as 1). */
int wlshim_scaled_extent(int logical, uint32_t scale120);

/* What the pointer did on one of the connection's surfaces, in the compositor's terms: positions
 * are surface-local wl_fixed (24.8) values, buttons Linux input codes (BTN_LEFT 0x110). */
enum {
	WLSHIM_POINTER_ENTER = 1,
	WLSHIM_POINTER_LEAVE = 2,
	WLSHIM_POINTER_MOTION = 3,
	WLSHIM_POINTER_BUTTON = 4,
	WLSHIM_POINTER_AXIS = 5
};

typedef struct wlshim_pointer_event {
	uint32_t kind;
	uintptr_t surface; /* whose: wlshim_overlay_key of the surface the pointer is over */
	uint32_t time;     /* milliseconds, of an unspecified base (motion, button, axis) */
	uint32_t serial;   /* enter, leave, button */
	int32_t x, y;      /* where: enter and motion say it; button and axis carry the last one */
	uint32_t button;   /* BUTTON: its code */
	uint32_t pressed;  /* BUTTON: 1 pressed, 0 released */
	uint32_t axis;     /* AXIS: 0 vertical (positive: down), 1 horizontal (positive: right) */
	int32_t value;     /* AXIS: wl_fixed, in the compositor's scroll units */
	int32_t discrete;  /* AXIS: the wheel's steps when the compositor said them, else 0 */
} wlshim_pointer_event;

/* A key pressed or released on one of the connection's surfaces (the one with the keyboard's
 * focus), resolved with the compositor's keymap. */
enum {
	WLSHIM_KEY_PRESSED = 1,
	WLSHIM_KEY_RELEASED = 2,
	WLSHIM_KEY_LEFT = 3 /* the keyboard's focus left the surface */
};

typedef struct wlshim_key_event {
	uint32_t kind;
	uintptr_t surface;  /* whose: wlshim_overlay_key of the focused surface */
	uint32_t time;      /* milliseconds, of an unspecified base */
	uint32_t keysym;    /* the key's keysym at the first layout's first level (X's index 0), or 0 */
	uint32_t modifiers; /* X's modifier mask: Shift 1, Lock 2, Control 4, Mod1 8 … Mod5 128 */
} wlshim_key_event;

/* X's modifier bits, one for each of the keymap's real modifiers. */
#define WLSHIM_X_MODIFIERS 8
/* The X modifier mask of xkb's `effective` modifier mask, `index[i]` being the keymap's index of
 * X's modifier bit i (Shift, Lock, Control, Mod1…Mod5; 32 or more: the keymap has none). */
uint32_t wlshim_x_modifier_mask(uint32_t effective, const uint32_t index[WLSHIM_X_MODIFIERS]);
/* The xkb keycode of an evdev (wl_keyboard) key code. */
uint32_t wlshim_xkb_keycode(uint32_t evdev);

/* Connects (display_name as for wlshim_read_globals), binds wl_compositor, wl_shm,
 * zwlr_layer_shell_v1, the first wl_output and the first wl_seat (when there is one; its pointer
 * is taken while it has one), in one round trip of timeout_ms at most.
 * WLSHIM_ERR_UNSUPPORTED when the compositor lacks one of the first three. */
int wlshim_connection_open(const char *display_name, int timeout_ms, wlshim_connection **out,
                           char *errbuf, int errbuf_len);
void wlshim_connection_close(wlshim_connection *c);
/* The descriptor to poll. */
int wlshim_connection_fd(const wlshim_connection *c);
/* The first output's size in logical coordinates (where layer surfaces are placed): its
 * zxdg_output_v1 logical size where offered, else its current mode over its integer scale; 0×0
 * while none is known. */
void wlshim_connection_output_size(const wlshim_connection *c, int *width, int *height);
/* The first output's wl_output.scale (1 until it says). */
int wlshim_connection_output_scale(const wlshim_connection *c);
/* Whether the compositor offers wp_viewporter and wp_fractional_scale_manager_v1: then surfaces
 * are drawn at the scale it prefers for them, fractional ones too. */
int wlshim_connection_has_fractional_scale(const wlshim_connection *c);
/* Surfaces made from now on are drawn at scale 1 whatever the output's (`ignore` nonzero): the
 * compositor scales them up, as before pipcam followed the scale. */
void wlshim_connection_ignore_scale(wlshim_connection *c, int ignore);
/* Dispatches what is queued and sends what is written: 0, poll for reading; 1, for writing too
 * (the socket was full); negative, the connection broke. Unless negative, followed by
 * wlshim_connection_read. */
int wlshim_connection_prepare(wlshim_connection *c);
/* After the poll: reads the events when `readable`, and dispatches them. */
int wlshim_connection_read(wlshim_connection *c, int readable, char *errbuf, int errbuf_len);
/* prepare, poll timeout_ms at most, read: WLSHIM_OK also when nothing came. */
int wlshim_connection_pump(wlshim_connection *c, int timeout_ms, char *errbuf, int errbuf_len);
/* Waits until the compositor has handled every request sent (and its events are dispatched). */
int wlshim_connection_roundtrip(wlshim_connection *c, int timeout_ms, char *errbuf, int errbuf_len);

/* Takes the oldest pointer event not taken yet into *out: 1, or 0 when there is none. Events come
 * in the order sent, for the connection's surfaces only (none for a surface destroyed). */
int wlshim_connection_next_pointer_event(wlshim_connection *c, wlshim_pointer_event *out);
/* Takes the oldest key event not taken yet into *out: 1, or 0 when there is none (also when
 * libxkbcommon.so.0 is missing: the keyboard is then never taken). */
int wlshim_connection_next_key_event(wlshim_connection *c, wlshim_key_event *out);
/* Whether `surface` (a wlshim_overlay_key) has the keyboard's focus. */
int wlshim_connection_keyboard_focus(const wlshim_connection *c, uintptr_t surface);
/* Whether libxkbcommon.so.0 could be loaded (keys can be read at all). */
int wlshim_keyboard_usable(void);

/* Whether the compositor is KWin (it announced org_kde_plasma_shell): its seat reports a held
 * pointer from the surface's current place, wlroots' from its place at the press. */
int wlshim_connection_is_kwin(const wlshim_connection *c);
/* How many pointer buttons are held on the connection's surfaces. */
int wlshim_connection_buttons_down(const wlshim_connection *c);
/* The serial of the last button press (what a request answering it would name). */
uint32_t wlshim_connection_press_serial(const wlshim_connection *c);

/* A surface on the overlay layer (above fullscreen windows), taking no keyboard focus until
 * wlshim_overlay_accept_keys, at `place` on the first output; returns once the compositor configured it (timeout_ms at most). It shows
 * nothing until the first commit. */
int wlshim_overlay_make(wlshim_connection *c, const wlshim_place *place, const char *name_space,
                        int timeout_ms, wlshim_overlay **out, char *errbuf, int errbuf_len);
/* Its configured size, in the output's logical coordinates. */
void wlshim_overlay_size(const wlshim_overlay *o, int *width, int *height);
/* The scale its pictures are drawn at now, in 120ths: the compositor's preferred one for it
 * (fractional-scale), else the output's integer scale, else 1. */
uint32_t wlshim_overlay_scale(const wlshim_overlay *o);
/* The size of the buffers pictures are drawn in now: the configured size at that scale. */
void wlshim_overlay_pixel_size(const wlshim_overlay *o, int *width, int *height);
/* A free buffer of the configured size at the surface's scale to draw into: pixels 0x00RRGGBB
 * words, rows stride bytes apart. 1 when both buffers are with the compositor (draw after a
 * release). */
int wlshim_overlay_begin(wlshim_overlay *o, void **pixels, int *stride, int *width, int *height);
/* Pictures from the next begin are drawn with alpha (`alpha` nonzero): ARGB8888, premultiplied,
 * 0xAARRGGBB words; else XRGB8888, the alpha byte ignored. */
void wlshim_overlay_set_alpha(wlshim_overlay *o, int alpha);
/* Whether the pointer's events reach it (`accepts` nonzero: its whole area) or pass to what is
 * below (an empty input region); committed at once. */
int wlshim_overlay_set_input(wlshim_overlay *o, int accepts);
/* Shows the buffer begin gave: attached whole, with a frame callback, committed and sent. */
int wlshim_overlay_commit(wlshim_overlay *o);
/* Moves and resizes it, and waits (timeout_ms at most) for the compositor's configure. */
int wlshim_overlay_set_place(wlshim_overlay *o, const wlshim_place *place, int timeout_ms,
                             char *errbuf, int errbuf_len);
/* Whether a committed picture still waits for its frame callback. */
int wlshim_overlay_frame_pending(const wlshim_overlay *o);
unsigned wlshim_overlay_take_events(wlshim_overlay *o);
/* Lets the compositor give it the keyboard's focus (`accept`: layer-shell's on_demand, version 4)
 * or not (none), committed at once: 1 when asked, 0 when the compositor's layer-shell is older
 * (its only other choice, exclusive, would take every key from the user's windows). */
int wlshim_overlay_accept_keys(wlshim_overlay *o, int accept);
/* What its pointer events' `surface` is. */
uintptr_t wlshim_overlay_key(const wlshim_overlay *o);
/* Destroys the surface (it disappears at the next flush or round trip). */
void wlshim_overlay_destroy(wlshim_overlay *o);

#ifdef __cplusplus
}
#endif

#endif

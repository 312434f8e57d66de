/* The overlay surface's state, shared by overlay.c (making, drawing, placing, ending it) and
 * overlay_input.c (what it takes: the pointer, keys; its scale). */
#ifndef WLSHIM_OVERLAY_H
#define WLSHIM_OVERLAY_H

#include "internal.h"

struct wlshim_overlay {
	struct wlshim_connection *c;
	struct wl_proxy *surface, *layer, *frame;
	struct wl_proxy *viewport, *fraction; /* both or neither */
	uint32_t preferred120;               /* the fraction's preferred_scale, 0 until it says */
	int ignores_scale;
	uint32_t reported120;                /* the scale take_events last went by */
	int sent_buffer_scale;               /* what set_buffer_scale said last (1: the default) */
	int sent_width, sent_height;         /* the viewport's destination said last, or 0 */
	struct wlshim_buffers buffers;
	int alpha; /* pictures are drawn with alpha (ARGB8888) from the next begin */
	int drawing; /* the buffer begin gave out, or -1 */
	int width, height;
	unsigned configures;
	int closed;
	unsigned events;
	uint32_t keys; /* keyboard_interactivity: 0 none, 2 on_demand (wlshim_overlay_accept_keys) */
};

#endif

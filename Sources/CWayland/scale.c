/* Pictures at the output's scale: wp_viewporter (stable), wp_fractional_scale_v1 (staging) and
 * zxdg_output_v1 (unstable: the output's logical size, which a fractional scale leaves unknown),
 * their tables written from the protocols' text (the opcode is the message's index), and the one
 * rule for a buffer's size at a scale. Like layer_shell.c's, the core types in the tables are
 * libwayland-client's own, known once it is loaded. */
#include "internal.h"

#include <pthread.h>
#include <stddef.h>

static const struct wl_interface viewport;
static const struct wl_interface fractional_scale;

/* get_viewport(new_id wp_viewport, object wl_surface) */
static const struct wl_interface *get_viewport_types[2];
/* get_fractional_scale(new_id wp_fractional_scale_v1, object wl_surface) */
static const struct wl_interface *get_fractional_scale_types[2];
static const struct wl_interface *no_types[4];

static const struct wl_message viewporter_requests[] = {
	{ "destroy", "", no_types },
	{ "get_viewport", "no", get_viewport_types },
};

static const struct wl_interface viewporter = {
	"wp_viewporter", 1, 2, viewporter_requests, 0, NULL,
};

static const struct wl_message viewport_requests[] = {
	{ "destroy", "", no_types },
	{ "set_source", "ffff", no_types },
	{ "set_destination", "ii", no_types },
};

static const struct wl_interface viewport = {
	"wp_viewport", 1, 3, viewport_requests, 0, NULL,
};

static const struct wl_message manager_requests[] = {
	{ "destroy", "", no_types },
	{ "get_fractional_scale", "no", get_fractional_scale_types },
};

static const struct wl_interface fractional_scale_manager = {
	"wp_fractional_scale_manager_v1", 1, 2, manager_requests, 0, NULL,
};

static const struct wl_message fractional_scale_requests[] = {
	{ "destroy", "", no_types },
};

static const struct wl_message fractional_scale_events[] = {
	{ "preferred_scale", "u", no_types },
};

static const struct wl_interface fractional_scale = {
	"wp_fractional_scale_v1", 1, 1, fractional_scale_requests, 1, fractional_scale_events,
};

static const struct wl_interface xdg_output;
/* get_xdg_output(new_id zxdg_output_v1, object wl_output) */
static const struct wl_interface *get_xdg_output_types[2];

static const struct wl_message xdg_output_manager_requests[] = {
	{ "destroy", "", no_types },
	{ "get_xdg_output", "no", get_xdg_output_types },
};

static const struct wl_interface xdg_output_manager = {
	"zxdg_output_manager_v1", 1, 2, xdg_output_manager_requests, 0, NULL,
};

/* Version 1's: name and description (version 2) are never sent to it. */
static const struct wl_message xdg_output_events[] = {
	{ "logical_position", "ii", no_types },
	{ "logical_size", "ii", no_types },
	{ "done", "", no_types },
};

static const struct wl_interface xdg_output = {
	"zxdg_output_v1", 1, 1, fractional_scale_requests /* destroy alone, as here */, 3, xdg_output_events,
};

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void fill_types(void)
{
	get_viewport_types[0] = &viewport;
	get_viewport_types[1] = wlshim_api.surface_interface;
	get_fractional_scale_types[0] = &fractional_scale;
	get_fractional_scale_types[1] = wlshim_api.surface_interface;
	get_xdg_output_types[0] = &xdg_output;
	get_xdg_output_types[1] = wlshim_api.output_interface;
}

/* Only after wlshim_load succeeded. */
const struct wl_interface *wlshim_scale_interface(int which)
{
	static const struct wl_interface *const all[] = {
		[WLSHIM_VIEWPORTER] = &viewporter,
		[WLSHIM_VIEWPORT] = &viewport,
		[WLSHIM_FRACTIONAL_MANAGER] = &fractional_scale_manager,
		[WLSHIM_FRACTIONAL_SCALE] = &fractional_scale,
		[WLSHIM_XDG_OUTPUT_MANAGER] = &xdg_output_manager,
		[WLSHIM_XDG_OUTPUT] = &xdg_output,
	};
	pthread_once(&once, fill_types);
	return all[which];
}

int wlshim_scaled_extent(int logical, uint32_t scale120)
{
	long long pixels;

	if (logical <= 0)
		return 0;
	if (scale120 == 0)
		scale120 = WLSHIM_SCALE_ONE;
	/* fractional-scale-v1: the logical size times the scale, rounded half away from zero. */
	pixels = ((long long)logical * scale120 + WLSHIM_SCALE_ONE / 2) / WLSHIM_SCALE_ONE;
	return pixels > 16384 ? 16384 : (int)pixels;
}

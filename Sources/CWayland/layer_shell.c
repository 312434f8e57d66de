/* wlr-layer-shell-unstable-v1's two interfaces, written from the protocol's text: the messages in
 * the protocol's order (the opcode is the index), with their signatures. No XML of it is installed,
 * and only what pipcam sends and receives matters; later requests are left out (v5's
 * set_exclusive_edge), so the versions bound stop at 4. libwayland-client's own tables are used for
 * the core interfaces, and are known only once it is loaded: the types are filled in then. */
#include "internal.h"

#include <pthread.h>
#include <stddef.h>

static const struct wl_interface layer_surface;

/* get_layer_surface(new_id zwlr_layer_surface_v1, object wl_surface, object wl_output nullable,
 * uint layer, string namespace) */
static const struct wl_interface *get_layer_surface_types[5];
/* Enough NULLs for the messages whose arguments are numbers. */
static const struct wl_interface *no_types[4];

static const struct wl_message shell_requests[] = {
	{ "get_layer_surface", "no?ous", get_layer_surface_types },
	{ "destroy", "3", no_types },
};

static const struct wl_interface layer_shell = {
	"zwlr_layer_shell_v1", WLSHIM_LAYER_SHELL_VERSION, 2, shell_requests, 0, NULL,
};

static const struct wl_message surface_requests[] = {
	{ "set_size", "uu", no_types },
	{ "set_anchor", "u", no_types },
	{ "set_exclusive_zone", "i", no_types },
	{ "set_margin", "iiii", no_types },
	{ "set_keyboard_interactivity", "u", no_types },
	/* Its argument is an xdg_popup; pipcam makes none, so its type is not needed. */
	{ "get_popup", "o", no_types },
	{ "ack_configure", "u", no_types },
	{ "destroy", "", no_types },
	{ "set_layer", "2u", no_types },
};

static const struct wl_message surface_events[] = {
	{ "configure", "uuu", no_types },
	{ "closed", "", no_types },
};

static const struct wl_interface layer_surface = {
	"zwlr_layer_surface_v1", WLSHIM_LAYER_SHELL_VERSION, 9, surface_requests, 2, surface_events,
};

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void fill_types(void)
{
	get_layer_surface_types[0] = &layer_surface;
	get_layer_surface_types[1] = wlshim_api.surface_interface;
	get_layer_surface_types[2] = wlshim_api.output_interface;
}

/* Only after wlshim_load succeeded. */
const struct wl_interface *wlshim_layer_shell_interface(void)
{
	pthread_once(&once, fill_types);
	return &layer_shell;
}

const struct wl_interface *wlshim_layer_surface_interface(void)
{
	pthread_once(&once, fill_types);
	return &layer_surface;
}

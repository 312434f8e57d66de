/* What PiP's overlay surface takes and at which scale it draws: its input region (all, or none
 * for click-through), the keyboard on demand, and the scale its pictures are drawn at. */
#include "overlay.h"

#include <errno.h>

#include <wayland-client-protocol.h>

uint32_t wlshim_overlay_scale(const wlshim_overlay *o)
{
	if (o->ignores_scale)
		return WLSHIM_SCALE_ONE;
	if (o->fraction != NULL && o->preferred120 > 0)
		return o->preferred120;
	return (uint32_t)o->c->output_scale * WLSHIM_SCALE_ONE;
}

void wlshim_overlay_pixel_size(const wlshim_overlay *o, int *width, int *height)
{
	uint32_t scale = wlshim_overlay_scale(o);
	*width = wlshim_scaled_extent(o->width, scale);
	*height = wlshim_scaled_extent(o->height, scale);
}

void wlshim_overlay_set_alpha(wlshim_overlay *o, int alpha) { o->alpha = alpha != 0; }

int wlshim_overlay_set_input(wlshim_overlay *o, int accepts)
{
	union wl_argument a[1];
	struct wl_proxy *region = NULL;

	if (o->closed)
		return WLSHIM_ERR_INVALID;
	if (!accepts) {
		/* An empty region: the pointer's events go to whatever is below. */
		a[0].o = NULL;
		region = wlshim_marshal(o->c->compositor, WL_COMPOSITOR_CREATE_REGION, wlshim_api.region_interface,
		                        wlshim_api.proxy_get_version(o->c->compositor), 0, a);
		if (region == NULL)
			return WLSHIM_ERR_NOMEM;
	}
	/* NULL: the whole surface again. */
	a[0].o = (struct wl_object *)region;
	wlshim_request(o->surface, WL_SURFACE_SET_INPUT_REGION, a);
	/* The surface keeps a copy of the region's area. */
	if (region != NULL)
		wlshim_send(region, WL_REGION_DESTROY, 1);
	wlshim_send(o->surface, WL_SURFACE_COMMIT, 0);
	if (wlshim_api.display_flush(o->c->display) < 0 && errno != EAGAIN)
		return WLSHIM_ERR_CONNECTION;
	return WLSHIM_OK;
}

int wlshim_overlay_accept_keys(wlshim_overlay *o, int accept)
{
	union wl_argument a[1];

	/* Never exclusive (1): that would take every key from the user's windows. */
	if (o->layer == NULL || wlshim_api.proxy_get_version(o->layer) < 4 || !wlshim_keyboard_usable())
		return 0;
	o->keys = accept ? 2 : 0;
	a[0].u = o->keys;
	wlshim_request(o->layer, WLSHIM_LAYER_SURFACE_SET_KEYBOARD_INTERACTIVITY, a);
	wlshim_send(o->surface, WL_SURFACE_COMMIT, 0);
	return 1;
}

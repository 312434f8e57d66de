/* libxkbcommon, opened at run time as libwayland-client is: without it pipcam still starts, and
 * only PiP's keys are lost (the seat's keyboard is then never taken). */
#include "internal.h"

#include <dlfcn.h>
#include <pthread.h>
#include <string.h>

struct xkbapi wlshim_xkb;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;

#define XKBSYM(field, name) do { \
	*(void **)(&wlshim_xkb.field) = dlsym(h, name); \
	if (wlshim_xkb.field == NULL) goto fail; } while (0)

static void load_once(void)
{
	void *h = dlopen("libxkbcommon.so.0", RTLD_NOW | RTLD_LOCAL);

	if (h == NULL)
		return;
	XKBSYM(context_new, "xkb_context_new");
	XKBSYM(context_unref, "xkb_context_unref");
	XKBSYM(keymap_new_from_buffer, "xkb_keymap_new_from_buffer");
	XKBSYM(keymap_unref, "xkb_keymap_unref");
	XKBSYM(keymap_mod_get_index, "xkb_keymap_mod_get_index");
	XKBSYM(keymap_key_get_syms_by_level, "xkb_keymap_key_get_syms_by_level");
	XKBSYM(state_new, "xkb_state_new");
	XKBSYM(state_unref, "xkb_state_unref");
	XKBSYM(state_update_mask, "xkb_state_update_mask");
	XKBSYM(state_serialize_mods, "xkb_state_serialize_mods");
	wlshim_xkb.handle = h;
	loaded = 1;
	return;
fail:
	dlclose(h);
	memset(&wlshim_xkb, 0, sizeof(wlshim_xkb));
}

int wlshim_xkb_load(void)
{
	pthread_once(&once, load_once);
	return loaded;
}

uint32_t wlshim_xkb_keycode(uint32_t evdev) { return evdev + 8; }

uint32_t wlshim_x_modifier_mask(uint32_t effective, const uint32_t index[WLSHIM_X_MODIFIERS])
{
	uint32_t mask = 0;

	/* X's eight modifier bits are the keymap's real modifiers, in X's order. */
	for (int bit = 0; bit < WLSHIM_X_MODIFIERS; bit++) {
		if (index[bit] < 32 && (effective & (1u << index[bit])) != 0)
			mask |= 1u << bit;
	}
	return mask;
}

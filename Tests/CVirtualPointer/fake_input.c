/* org_kde_kwin_fake_input, written from plasma-wayland-protocols' fake-input.xml: its requests in
 * the protocol's order (the opcode is the index) up to version 4; it has no events. KWin offers it
 * only where its permission checks are off (KWIN_WAYLAND_NO_PERMISSION_CHECKS=1). */
#include "fake_input.h"

#include <stddef.h>

static const struct wl_interface *none[3];

static const struct wl_message requests[] = {
	{ "authenticate", "ss", none },
	{ "pointer_motion", "ff", none },
	{ "button", "uu", none },
	{ "axis", "uf", none },
	{ "touch_down", "2uff", none },
	{ "touch_motion", "2uff", none },
	{ "touch_up", "2u", none },
	{ "touch_cancel", "2", none },
	{ "touch_frame", "2", none },
	{ "pointer_motion_absolute", "3ff", none },
	{ "keyboard_key", "4uu", none },
};

const struct wl_interface fake_input_interface = {
	"org_kde_kwin_fake_input", FAKE_INPUT_VERSION, 11, requests, 0, NULL,
};

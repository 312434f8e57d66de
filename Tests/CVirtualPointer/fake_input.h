/* org_kde_kwin_fake_input (KDE's fake-input protocol), for KWin: its table and opcodes. */
#ifndef FAKE_INPUT_H
#define FAKE_INPUT_H

#include <wayland-client-core.h>

enum {
	FAKE_INPUT_AUTHENTICATE = 0,
	FAKE_INPUT_BUTTON = 2,
	FAKE_INPUT_POINTER_MOTION_ABSOLUTE = 9, /* since version 3 */
};
/* The highest version whose requests the table carries (keyboard_key). */
#define FAKE_INPUT_VERSION 4u

extern const struct wl_interface fake_input_interface;

#endif

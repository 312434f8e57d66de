/* A keyboard the tests drive on a wlroots compositor (sway), through
 * zwp_virtual_keyboard_manager_v1: a client of its own that uploads a US keymap (made with
 * libxkbcommon from its rule names) and presses keys by their Linux codes, its modifiers sent
 * after each as a keyboard's are. Test-only; libwayland-client and libxkbcommon are loaded at
 * run time. */
#ifndef VIRTUAL_KEYBOARD_H
#define VIRTUAL_KEYBOARD_H

#include <stdint.h>

typedef struct vkeyboard vkeyboard;

/* Connects to the socket at `display` (an absolute path), binds the manager and the first seat,
 * makes the keyboard and uploads its keymap; the compositor has added it to the seat when this
 * returns. 0, or -1 with the cause in errbuf. */
int vkeyboard_open(const char *display, vkeyboard **out, char *errbuf, int errbuf_len);
/* Presses (pressed = 1) or releases a key by its Linux code (KEY_ESC = 1), then sends the
 * modifiers that leaves; returns once the compositor has handled both. */
int vkeyboard_key(vkeyboard *k, uint32_t key, int pressed);
void vkeyboard_close(vkeyboard *k);

#endif

/* A pointer the tests drive on a wlroots compositor (sway), through
 * zwlr_virtual_pointer_manager_v1, or on KWin through org_kde_kwin_fake_input: a client of its own
 * that moves it to absolute positions and presses its buttons, as a mouse would. Test-only;
 * libwayland-client is loaded at run time. */
#ifndef VIRTUAL_POINTER_H
#define VIRTUAL_POINTER_H

#include <stdint.h>

typedef struct vpointer vpointer;

/* Connects to the socket at `display` (an absolute path), binds the manager and the first seat,
 * and makes the pointer (else binds KWin's fake input and authenticates); the compositor has added
 * it to the seat when this returns. 0, or -1 with the cause in errbuf. */
int vpointer_open(const char *display, vpointer **out, char *errbuf, int errbuf_len);
/* Puts the pointer at (x, y) of an x_extent × y_extent area spanning the compositor's outputs. */
int vpointer_move(vpointer *p, uint32_t x, uint32_t y, uint32_t x_extent, uint32_t y_extent);
/* Presses (pressed = 1) or releases a button by its Linux code (BTN_LEFT = 0x110). */
int vpointer_button(vpointer *p, uint32_t button, int pressed);
/* Turns the wheel by `steps` notches (negative: up), 15 scroll units each as a mouse's (wlroots
 * only: -1 on KWin). */
int vpointer_scroll(vpointer *p, int32_t steps);
/* Each of those returns once the compositor has handled it. */
void vpointer_close(vpointer *p);

#endif

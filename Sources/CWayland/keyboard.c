/* The seat's keyboard: its keymap compiled with libxkbcommon, and each key pressed or released on
 * one of the connection's surfaces queued as a plain struct (its keysym and X's modifier mask)
 * until the owner takes it after a dispatch, as the pointer's events are. */
#include "internal.h"

#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <wayland-client-protocol.h>

/* The real modifiers' names, in X's bit order (ShiftMask … Mod5Mask). */
static const char *const x_modifier_names[WLSHIM_X_MODIFIERS] = {
	"Shift", "Lock", "Control", "Mod1", "Mod2", "Mod3", "Mod4", "Mod5",
};

static void drop_keymap(struct wlshim_keyboard_state *k)
{
	if (k->state != NULL)
		wlshim_xkb.state_unref(k->state);
	if (k->keymap != NULL)
		wlshim_xkb.keymap_unref(k->keymap);
	k->state = NULL;
	k->keymap = NULL;
}

static void on_keymap(void *data, struct wl_keyboard *keyboard, uint32_t format, int32_t fd, uint32_t size)
{
	struct wlshim_keyboard_state *k = data;
	struct xkb_keymap *keymap = NULL;
	char *text;
	(void)keyboard;

	drop_keymap(k);
	if (format != WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1 || size == 0 || k->context == NULL) {
		close(fd);
		return;
	}
	/* Private: since wl_seat version 7 the compositor may share one read-only mapping. */
	text = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (text == MAP_FAILED)
		return;
	keymap = wlshim_xkb.keymap_new_from_buffer(k->context, text, strnlen(text, size), XKB_KEYMAP_FORMAT_TEXT_V1,
	                                           XKB_KEYMAP_COMPILE_NO_FLAGS);
	munmap(text, size);
	if (keymap == NULL)
		return;
	k->state = wlshim_xkb.state_new(keymap);
	if (k->state == NULL) {
		wlshim_xkb.keymap_unref(keymap);
		return;
	}
	k->keymap = keymap;
	for (int i = 0; i < WLSHIM_X_MODIFIERS; i++)
		k->mod_index[i] = wlshim_xkb.keymap_mod_get_index(keymap, x_modifier_names[i]);
}

static void on_enter(void *data, struct wl_keyboard *keyboard, uint32_t serial, struct wl_surface *surface,
                     struct wl_array *keys)
{
	struct wlshim_keyboard_state *k = data;
	(void)keyboard, (void)serial, (void)keys;
	/* Keys already held are not pressed here: they say nothing to PiP. */
	k->focus = (uintptr_t)surface;
}

static wlshim_key_event *push(struct wlshim_keyboard_state *k, uint32_t kind)
{
	struct wlshim_key_queue *q = &k->queue;
	wlshim_key_event *e;

	/* Full (an owner that stopped taking them): the newest are dropped, not the order broken. */
	if (q->count == WLSHIM_KEY_QUEUE)
		return NULL;
	e = &q->events[(q->head + q->count) % WLSHIM_KEY_QUEUE];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->surface = k->focus;
	q->count++;
	return e;
}

static void on_leave(void *data, struct wl_keyboard *keyboard, uint32_t serial, struct wl_surface *surface)
{
	struct wlshim_keyboard_state *k = data;
	(void)keyboard, (void)serial, (void)surface;
	if (k->focus != 0)
		push(k, WLSHIM_KEY_LEFT);
	k->focus = 0;
}

/* The key's keysym at the first layout's first level, as X's XLookupKeysym(event, 0) gives it:
 * Shift or Caps Lock held does not turn `m` into `M`, so the same keys act with them on. */
static uint32_t base_keysym(struct wlshim_keyboard_state *k, uint32_t xkb_keycode)
{
	const xkb_keysym_t *syms = NULL;
	int n = wlshim_xkb.keymap_key_get_syms_by_level(k->keymap, xkb_keycode, 0, 0, &syms);
	return n == 1 ? syms[0] : 0;
}

static void on_key(void *data, struct wl_keyboard *keyboard, uint32_t serial, uint32_t time, uint32_t key,
                   uint32_t state)
{
	struct wlshim_keyboard_state *k = data;
	wlshim_key_event *e;
	(void)keyboard, (void)serial;

	if (k->focus == 0 || k->state == NULL)
		return;
	e = push(k, state == WL_KEYBOARD_KEY_STATE_PRESSED ? WLSHIM_KEY_PRESSED : WLSHIM_KEY_RELEASED);
	if (e == NULL)
		return;
	e->time = time;
	e->keysym = base_keysym(k, wlshim_xkb_keycode(key));
	e->modifiers = wlshim_x_modifier_mask(wlshim_xkb.state_serialize_mods(k->state, XKB_STATE_MODS_EFFECTIVE),
	                                      k->mod_index);
}

static void on_modifiers(void *data, struct wl_keyboard *keyboard, uint32_t serial, uint32_t depressed,
                         uint32_t latched, uint32_t locked, uint32_t group)
{
	struct wlshim_keyboard_state *k = data;
	(void)keyboard, (void)serial;
	if (k->state != NULL)
		wlshim_xkb.state_update_mask(k->state, depressed, latched, locked, 0, 0, group);
}

static void on_repeat_info(void *data, struct wl_keyboard *keyboard, int32_t rate, int32_t delay)
{
	struct wlshim_keyboard_state *k = data;
	(void)keyboard;
	/* Kept, not acted on: a held key counts once. */
	k->repeat_rate = rate;
	k->repeat_delay = delay;
}

/* Every event up to version 5 (WLSHIM_SEAT_VERSION). */
static const struct wl_keyboard_listener keyboard_listener = {
	.keymap = on_keymap,
	.enter = on_enter,
	.leave = on_leave,
	.key = on_key,
	.modifiers = on_modifiers,
	.repeat_info = on_repeat_info,
};

int wlshim_keyboard_usable(void) { return wlshim_xkb_load(); }

void wlshim_keyboard_take(struct wlshim_connection *c)
{
	struct wlshim_keyboard_state *k = &c->keyboard_state;
	union wl_argument args[1] = { { .o = NULL } };

	if (c->keyboard != NULL || !wlshim_xkb_load())
		return;
	if (k->context == NULL)
		k->context = wlshim_xkb.context_new(XKB_CONTEXT_NO_FLAGS);
	if (k->context == NULL)
		return;
	c->keyboard = wlshim_marshal(c->seat, WL_SEAT_GET_KEYBOARD, wlshim_api.keyboard_interface,
	                             wlshim_api.proxy_get_version(c->seat), 0, args);
	if (c->keyboard != NULL)
		wlshim_api.proxy_add_listener(c->keyboard, (void (**)(void))&keyboard_listener, k);
}

void wlshim_keyboard_drop(struct wlshim_connection *c)
{
	struct wlshim_keyboard_state *k = &c->keyboard_state;

	if (c->keyboard != NULL)
		wlshim_release(c->keyboard, WL_KEYBOARD_RELEASE, 3);
	c->keyboard = NULL;
	k->focus = 0;
	drop_keymap(k);
}

void wlshim_keyboard_free(struct wlshim_connection *c)
{
	wlshim_keyboard_drop(c);
	if (c->keyboard_state.context != NULL)
		wlshim_xkb.context_unref(c->keyboard_state.context);
	c->keyboard_state.context = NULL;
}

void wlshim_keyboard_forget(struct wlshim_connection *c, uintptr_t surface)
{
	struct wlshim_key_queue *q = &c->keyboard_state.queue;

	q->count = wlshim_queue_forget(q->events, sizeof(q->events[0]), WLSHIM_KEY_QUEUE, q->head, q->count,
	                               offsetof(wlshim_key_event, surface), surface);
	if (c->keyboard_state.focus == surface)
		c->keyboard_state.focus = 0;
}

int wlshim_connection_next_key_event(wlshim_connection *c, wlshim_key_event *out)
{
	struct wlshim_key_queue *q = &c->keyboard_state.queue;

	if (q->count == 0)
		return 0;
	*out = q->events[q->head];
	q->head = (q->head + 1) % WLSHIM_KEY_QUEUE;
	q->count--;
	return 1;
}

int wlshim_connection_keyboard_focus(const wlshim_connection *c, uintptr_t surface)
{
	return surface != 0 && c->keyboard_state.focus == surface;
}

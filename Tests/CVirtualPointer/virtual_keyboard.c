/* zwp_virtual_keyboard_manager_v1 and zwp_virtual_keyboard_v1 (virtual-keyboard-unstable-v1,
 * version 1), their tables written from the protocol's text: each request's name and signature in
 * the protocol's order (the opcode is the index). */
#define _GNU_SOURCE
#include "virtual_keyboard.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <wayland-client-core.h>
#include <xkbcommon/xkbcommon.h>

static struct {
	void *wayland, *xkb;
	const struct wl_interface *registry, *seat;
	__typeof__(wl_display_connect) *connect;
	__typeof__(wl_display_disconnect) *disconnect;
	__typeof__(wl_display_roundtrip) *roundtrip;
	__typeof__(wl_proxy_add_listener) *add_listener;
	__typeof__(wl_proxy_destroy) *destroy;
	__typeof__(wl_proxy_marshal_array_constructor_versioned) *marshal;
	__typeof__(xkb_context_new) *context_new;
	__typeof__(xkb_context_unref) *context_unref;
	__typeof__(xkb_keymap_new_from_names) *keymap_new_from_names;
	__typeof__(xkb_keymap_get_as_string) *keymap_get_as_string;
	__typeof__(xkb_keymap_unref) *keymap_unref;
	__typeof__(xkb_state_new) *state_new;
	__typeof__(xkb_state_unref) *state_unref;
	__typeof__(xkb_state_update_key) *state_update_key;
	__typeof__(xkb_state_serialize_mods) *serialize_mods;
	__typeof__(xkb_state_serialize_layout) *serialize_layout;
} vk;

static const struct wl_interface keyboard_interface;
static const struct wl_interface *create_types[2]; /* the seat, the new keyboard */
static const struct wl_interface *no_types[4];

static const struct wl_message manager_requests[] = {
	{ "create_virtual_keyboard", "on", create_types },
};
static const struct wl_interface manager_interface = {
	"zwp_virtual_keyboard_manager_v1", 1, 1, manager_requests, 0, NULL,
};

enum { KEYMAP = 0, KEY = 1, MODIFIERS = 2, KEYBOARD_DESTROY = 3 };
static const struct wl_message keyboard_requests[] = {
	{ "keymap", "uhu", no_types },
	{ "key", "uuu", no_types },
	{ "modifiers", "uuuu", no_types },
	{ "destroy", "", no_types },
};
static const struct wl_interface keyboard_interface = {
	"zwp_virtual_keyboard_v1", 1, 4, keyboard_requests, 0, NULL,
};

struct vkeyboard {
	struct wl_display *display;
	struct wl_proxy *registry, *manager, *seat, *keyboard;
	struct xkb_context *context;
	struct xkb_keymap *keymap;
	struct xkb_state *state;
};

static int fail(char *errbuf, int errbuf_len, const char *text)
{
	if (errbuf != NULL && errbuf_len > 0)
		snprintf(errbuf, errbuf_len, "%s", text);
	return -1;
}

#define SYM(lib, field, name) (*(void **)&vk.field = dlsym(vk.lib, name)) != NULL

static int load(char *errbuf, int errbuf_len)
{
	if (vk.wayland != NULL)
		return 0;
	vk.xkb = dlopen("libxkbcommon.so.0", RTLD_NOW | RTLD_LOCAL);
	vk.wayland = dlopen("libwayland-client.so.0", RTLD_NOW | RTLD_LOCAL);
	if (vk.xkb == NULL || vk.wayland == NULL)
		goto missing;
	vk.registry = dlsym(vk.wayland, "wl_registry_interface");
	vk.seat = dlsym(vk.wayland, "wl_seat_interface");
	if (vk.registry && vk.seat && SYM(wayland, connect, "wl_display_connect") &&
	    SYM(wayland, disconnect, "wl_display_disconnect") && SYM(wayland, roundtrip, "wl_display_roundtrip") &&
	    SYM(wayland, add_listener, "wl_proxy_add_listener") && SYM(wayland, destroy, "wl_proxy_destroy") &&
	    SYM(wayland, marshal, "wl_proxy_marshal_array_constructor_versioned") &&
	    SYM(xkb, context_new, "xkb_context_new") && SYM(xkb, context_unref, "xkb_context_unref") &&
	    SYM(xkb, keymap_new_from_names, "xkb_keymap_new_from_names") &&
	    SYM(xkb, keymap_get_as_string, "xkb_keymap_get_as_string") && SYM(xkb, keymap_unref, "xkb_keymap_unref") &&
	    SYM(xkb, state_new, "xkb_state_new") && SYM(xkb, state_unref, "xkb_state_unref") &&
	    SYM(xkb, state_update_key, "xkb_state_update_key") && SYM(xkb, serialize_mods, "xkb_state_serialize_mods") &&
	    SYM(xkb, serialize_layout, "xkb_state_serialize_layout")) {
		create_types[0] = vk.seat;
		create_types[1] = &keyboard_interface;
		return 0;
	}
missing:
	if (vk.xkb != NULL)
		dlclose(vk.xkb);
	if (vk.wayland != NULL)
		dlclose(vk.wayland);
	memset(&vk, 0, sizeof(vk));
	return fail(errbuf, errbuf_len, "libwayland-client.so.0 or libxkbcommon.so.0 is missing or lacks a function");
}

static struct wl_proxy *request(struct wl_proxy *proxy, uint32_t opcode, union wl_argument *args,
                                const struct wl_interface *made)
{
	return vk.marshal(proxy, opcode, args, made, 1);
}

static void on_global(void *data, struct wl_proxy *registry, uint32_t name, const char *interface, uint32_t version)
{
	struct vkeyboard *k = data;
	const struct wl_interface *wanted = NULL;
	struct wl_proxy **slot = NULL;
	union wl_argument a[4];
	(void)version;

	if (strcmp(interface, manager_interface.name) == 0 && k->manager == NULL) {
		wanted = &manager_interface;
		slot = &k->manager;
	} else if (strcmp(interface, "wl_seat") == 0 && k->seat == NULL) {
		wanted = vk.seat;
		slot = &k->seat;
	}
	if (wanted == NULL)
		return;
	a[0].u = name;
	a[1].s = wanted->name;
	a[2].u = 1;
	a[3].o = NULL;
	*slot = request(registry, 0, a, wanted);
}

static void on_global_remove(void *data, struct wl_proxy *registry, uint32_t name)
{
	(void)data, (void)registry, (void)name;
}

static const struct {
	void (*global)(void *, struct wl_proxy *, uint32_t, const char *, uint32_t);
	void (*global_remove)(void *, struct wl_proxy *, uint32_t);
} registry_listener = { on_global, on_global_remove };

/* The US keymap as text in a sealed-size memfd, sent as keymap(XKB_V1, fd, size with its NUL). */
static int upload_keymap(struct vkeyboard *k)
{
	struct xkb_rule_names names = { .rules = "evdev", .model = "pc105", .layout = "us" };
	union wl_argument a[3];
	char *text;
	size_t size;
	int fd, ok;

	k->context = vk.context_new(XKB_CONTEXT_NO_FLAGS);
	if (k->context == NULL || (k->keymap = vk.keymap_new_from_names(k->context, &names, 0)) == NULL)
		return -1;
	if ((k->state = vk.state_new(k->keymap)) == NULL)
		return -1;
	text = vk.keymap_get_as_string(k->keymap, XKB_KEYMAP_FORMAT_TEXT_V1);
	if (text == NULL)
		return -1;
	size = strlen(text) + 1;
	fd = memfd_create("pipcam-test-keymap", MFD_CLOEXEC);
	ok = fd >= 0 && write(fd, text, size) == (ssize_t)size;
	free(text);
	if (!ok) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	a[0].u = XKB_KEYMAP_FORMAT_TEXT_V1; /* wl_keyboard's xkb_v1 */
	a[1].h = fd;
	a[2].u = (uint32_t)size;
	request(k->keyboard, KEYMAP, a, NULL);
	ok = vk.roundtrip(k->display) >= 0;
	close(fd);
	return ok ? 0 : -1;
}

int vkeyboard_open(const char *display, vkeyboard **out, char *errbuf, int errbuf_len)
{
	union wl_argument a[2];
	struct vkeyboard *k;

	*out = NULL;
	if (load(errbuf, errbuf_len) != 0)
		return -1;
	k = calloc(1, sizeof(*k));
	if (k == NULL || (k->display = vk.connect(display)) == NULL) {
		free(k);
		return fail(errbuf, errbuf_len, "no compositor at that socket");
	}
	a[0].o = NULL;
	k->registry = request((struct wl_proxy *)k->display, 1, a, vk.registry);
	vk.add_listener(k->registry, (void (**)(void))&registry_listener, k);
	if (vk.roundtrip(k->display) < 0 || k->manager == NULL || k->seat == NULL) {
		vkeyboard_close(k);
		return fail(errbuf, errbuf_len, "the compositor offers no zwp_virtual_keyboard_manager_v1 (or no seat)");
	}
	a[0].o = (struct wl_object *)k->seat;
	a[1].o = NULL;
	k->keyboard = request(k->manager, 0, a, &keyboard_interface);
	if (k->keyboard == NULL || upload_keymap(k) != 0) {
		vkeyboard_close(k);
		return fail(errbuf, errbuf_len, "the virtual keyboard or its keymap could not be made");
	}
	*out = k;
	return 0;
}

static uint32_t now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint32_t)(t.tv_sec * 1000 + t.tv_nsec / 1000000);
}

int vkeyboard_key(vkeyboard *k, uint32_t key, int pressed)
{
	union wl_argument a[4];

	a[0].u = now_ms();
	a[1].u = key;
	a[2].u = pressed ? 1 : 0;
	request(k->keyboard, KEY, a, NULL);
	/* xkb counts keys by their xkb codes: the evdev code + 8. */
	vk.state_update_key(k->state, key + 8, pressed ? XKB_KEY_DOWN : XKB_KEY_UP);
	a[0].u = vk.serialize_mods(k->state, XKB_STATE_MODS_DEPRESSED);
	a[1].u = vk.serialize_mods(k->state, XKB_STATE_MODS_LATCHED);
	a[2].u = vk.serialize_mods(k->state, XKB_STATE_MODS_LOCKED);
	a[3].u = vk.serialize_layout(k->state, XKB_STATE_LAYOUT_EFFECTIVE);
	request(k->keyboard, MODIFIERS, a, NULL);
	return vk.roundtrip(k->display) < 0 ? -1 : 0;
}

void vkeyboard_close(vkeyboard *k)
{
	union wl_argument a[1] = { { .u = 0 } };

	if (k == NULL)
		return;
	if (k->keyboard != NULL) {
		request(k->keyboard, KEYBOARD_DESTROY, a, NULL);
		vk.destroy(k->keyboard);
	}
	if (k->manager != NULL)
		vk.destroy(k->manager);
	if (k->seat != NULL)
		vk.destroy(k->seat);
	if (k->registry != NULL)
		vk.destroy(k->registry);
	if (k->display != NULL) {
		vk.roundtrip(k->display);
		vk.disconnect(k->display);
	}
	if (k->state != NULL)
		vk.state_unref(k->state);
	if (k->keymap != NULL)
		vk.keymap_unref(k->keymap);
	if (k->context != NULL)
		vk.context_unref(k->context);
	free(k);
}

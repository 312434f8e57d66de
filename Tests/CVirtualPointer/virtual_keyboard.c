/* zwp_virtual_keyboard_manager_v1 and zwp_virtual_keyboard_v1 (virtual-keyboard-unstable-v1,
 * version 1), their tables written from the protocol's text: each request's name and signature in
 * the protocol's order (the opcode is the index). */
#define _GNU_SOURCE
#include "virtual_keyboard.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <xkbcommon/xkbcommon.h>

#include "test_client.h"

/* libxkbcommon's functions, for the keymap and the modifiers a key leaves. */
static struct {
	void *xkb;
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

#define SYM(field, name) (*(void **)&vk.field = dlsym(vk.xkb, name)) != NULL

static int load(char *errbuf, int errbuf_len)
{
	if (test_client_load(errbuf, errbuf_len) != 0)
		return -1;
	if (vk.xkb != NULL)
		return 0;
	vk.xkb = dlopen("libxkbcommon.so.0", RTLD_NOW | RTLD_LOCAL);
	if (vk.xkb == NULL)
		return test_client_fail(errbuf, errbuf_len, "libxkbcommon.so.0 not found");
	if (SYM(context_new, "xkb_context_new") && SYM(context_unref, "xkb_context_unref") &&
	    SYM(keymap_new_from_names, "xkb_keymap_new_from_names") &&
	    SYM(keymap_get_as_string, "xkb_keymap_get_as_string") && SYM(keymap_unref, "xkb_keymap_unref") &&
	    SYM(state_new, "xkb_state_new") && SYM(state_unref, "xkb_state_unref") &&
	    SYM(state_update_key, "xkb_state_update_key") && SYM(serialize_mods, "xkb_state_serialize_mods") &&
	    SYM(serialize_layout, "xkb_state_serialize_layout")) {
		create_types[0] = test_wl.seat;
		create_types[1] = &keyboard_interface;
		return 0;
	}
	dlclose(vk.xkb);
	memset(&vk, 0, sizeof(vk));
	return test_client_fail(errbuf, errbuf_len, "libxkbcommon.so.0 lacks a function needed");
}

static void on_global(void *data, struct wl_proxy *registry, uint32_t name, const char *interface, uint32_t version)
{
	struct vkeyboard *k = data;
	const struct wl_interface *wanted = NULL;
	struct wl_proxy **slot = NULL;
	(void)version;

	if (strcmp(interface, manager_interface.name) == 0 && k->manager == NULL) {
		wanted = &manager_interface;
		slot = &k->manager;
	} else if (strcmp(interface, "wl_seat") == 0 && k->seat == NULL) {
		wanted = test_wl.seat;
		slot = &k->seat;
	}
	if (wanted != NULL)
		*slot = test_client_bind(registry, name, wanted);
}

static const struct test_registry_listener registry_listener = { on_global, test_client_ignore_remove };

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
	test_client_request(k->keyboard, KEYMAP, a, NULL);
	ok = test_wl.roundtrip(k->display) >= 0;
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
	if (k == NULL || (k->display = test_client_connect(display, &k->registry, &registry_listener, k)) == NULL) {
		free(k);
		return test_client_fail(errbuf, errbuf_len, "no compositor at that socket");
	}
	if (test_wl.roundtrip(k->display) < 0 || k->manager == NULL || k->seat == NULL) {
		vkeyboard_close(k);
		return test_client_fail(errbuf, errbuf_len, "the compositor offers no zwp_virtual_keyboard_manager_v1 (or no seat)");
	}
	a[0].o = (struct wl_object *)k->seat;
	a[1].o = NULL;
	k->keyboard = test_client_request(k->manager, 0, a, &keyboard_interface);
	if (k->keyboard == NULL || upload_keymap(k) != 0) {
		vkeyboard_close(k);
		return test_client_fail(errbuf, errbuf_len, "the virtual keyboard or its keymap could not be made");
	}
	*out = k;
	return 0;
}

int vkeyboard_key(vkeyboard *k, uint32_t key, int pressed)
{
	union wl_argument a[4];

	a[0].u = test_client_now_ms();
	a[1].u = key;
	a[2].u = pressed ? 1 : 0;
	test_client_request(k->keyboard, KEY, a, NULL);
	/* xkb counts keys by their xkb codes: the evdev code + 8. */
	vk.state_update_key(k->state, key + 8, pressed ? XKB_KEY_DOWN : XKB_KEY_UP);
	a[0].u = vk.serialize_mods(k->state, XKB_STATE_MODS_DEPRESSED);
	a[1].u = vk.serialize_mods(k->state, XKB_STATE_MODS_LATCHED);
	a[2].u = vk.serialize_mods(k->state, XKB_STATE_MODS_LOCKED);
	a[3].u = vk.serialize_layout(k->state, XKB_STATE_LAYOUT_EFFECTIVE);
	test_client_request(k->keyboard, MODIFIERS, a, NULL);
	return test_wl.roundtrip(k->display) < 0 ? -1 : 0;
}

void vkeyboard_close(vkeyboard *k)
{
	union wl_argument a[1] = { { .u = 0 } };

	if (k == NULL)
		return;
	if (k->keyboard != NULL) {
		test_client_request(k->keyboard, KEYBOARD_DESTROY, a, NULL);
		test_wl.destroy(k->keyboard);
	}
	if (k->manager != NULL)
		test_wl.destroy(k->manager);
	if (k->seat != NULL)
		test_wl.destroy(k->seat);
	if (k->registry != NULL)
		test_wl.destroy(k->registry);
	if (k->display != NULL) {
		test_wl.roundtrip(k->display);
		test_wl.disconnect(k->display);
	}
	if (k->state != NULL)
		vk.state_unref(k->state);
	if (k->keymap != NULL)
		vk.keymap_unref(k->keymap);
	if (k->context != NULL)
		vk.context_unref(k->context);
	free(k);
}

/* zwlr_virtual_pointer_manager_v1 and zwlr_virtual_pointer_v1 (wlr-virtual-pointer-unstable-v1,
 * version 1), their tables written from the protocol's text: each message's name and signature in
 * the protocol's order (the opcode is the index). The core interfaces' tables are the library's.
 * Where it is not offered, KWin's fake input (fake_input.c) moves the pointer. */
#include "virtual_pointer.h"
#include "fake_input.h"

#include <stdlib.h>
#include <string.h>

#include "test_client.h"

static const struct wl_interface pointer_interface;
static const struct wl_interface *create_types[2]; /* seat (nullable), the new pointer */
static const struct wl_interface *none[5];

static const struct wl_message manager_requests[] = {
	{ "create_virtual_pointer", "?on", create_types },
	{ "destroy", "", none },
};
static const struct wl_interface manager_interface = {
	"zwlr_virtual_pointer_manager_v1", 1, 2, manager_requests, 0, NULL,
};

enum { MOTION_ABSOLUTE = 1, BUTTON = 2, FRAME = 4, AXIS_DISCRETE = 7, POINTER_DESTROY = 8 };
static const struct wl_message pointer_requests[] = {
	{ "motion", "uff", none },
	{ "motion_absolute", "uuuuu", none },
	{ "button", "uuu", none },
	{ "axis", "uuf", none },
	{ "frame", "", none },
	{ "axis_source", "u", none },
	{ "axis_stop", "uu", none },
	{ "axis_discrete", "uufi", none },
	{ "destroy", "", none },
};
static const struct wl_interface pointer_interface = {
	"zwlr_virtual_pointer_v1", 1, 9, pointer_requests, 0, NULL,
};

struct vpointer {
	struct wl_display *display;
	struct wl_proxy *registry, *manager, *seat, *pointer;
	struct wl_proxy *fake; /* KWin's, when there is no manager */
	uint32_t fake_name, fake_version;
};

static void on_global(void *data, struct wl_proxy *registry, uint32_t name, const char *interface, uint32_t version)
{
	struct vpointer *p = data;
	const struct wl_interface *wanted = NULL;
	struct wl_proxy **slot = NULL;

	if (strcmp(interface, manager_interface.name) == 0 && p->manager == NULL) {
		wanted = &manager_interface;
		slot = &p->manager;
	} else if (strcmp(interface, fake_input_interface.name) == 0 && version >= 3) {
		p->fake_name = name;
		p->fake_version = version < FAKE_INPUT_VERSION ? version : FAKE_INPUT_VERSION;
	} else if (strcmp(interface, "wl_seat") == 0 && p->seat == NULL) {
		wanted = test_wl.seat;
		slot = &p->seat;
	}
	if (wanted != NULL)
		*slot = test_client_bind(registry, name, wanted);
}

static const struct test_registry_listener registry_listener = { on_global, test_client_ignore_remove };

/* KWin's: bound, then authenticated (granted at once where permission checks are off). */
static int open_fake(vpointer *p, vpointer **out, char *errbuf, int errbuf_len)
{
	union wl_argument a[4];

	a[0].u = p->fake_name;
	a[1].s = fake_input_interface.name;
	a[2].u = p->fake_version;
	a[3].o = NULL;
	p->fake = test_wl.marshal(p->registry, 0, a, &fake_input_interface, p->fake_version);
	a[0].s = "pipcam tests";
	a[1].s = "drives PiP's pointer";
	if (p->fake != NULL)
		test_client_request(p->fake, FAKE_INPUT_AUTHENTICATE, a, NULL);
	if (p->fake == NULL || test_wl.roundtrip(p->display) < 0) {
		test_client_fail(errbuf, errbuf_len, "KWin's fake input could not be bound");
		vpointer_close(p);
		return -1;
	}
	*out = p;
	return 0;
}

int vpointer_open(const char *display, vpointer **out, char *errbuf, int errbuf_len)
{
	union wl_argument a[2];
	struct vpointer *p;

	*out = NULL;
	if (test_client_load(errbuf, errbuf_len) != 0)
		return -1;
	create_types[0] = test_wl.seat;
	create_types[1] = &pointer_interface;
	p = calloc(1, sizeof(*p));
	if (p == NULL || (p->display = test_client_connect(display, &p->registry, &registry_listener, p)) == NULL) {
		test_client_fail(errbuf, errbuf_len, "no compositor at that socket");
		free(p);
		return -1;
	}
	if (test_wl.roundtrip(p->display) < 0 || (p->manager == NULL && p->fake_name == 0)) {
		test_client_fail(errbuf, errbuf_len, "the compositor offers neither zwlr_virtual_pointer_manager_v1 nor org_kde_kwin_fake_input");
		vpointer_close(p);
		return -1;
	}
	if (p->manager == NULL)
		return open_fake(p, out, errbuf, errbuf_len);
	a[0].o = (struct wl_object *)p->seat;
	a[1].o = NULL;
	p->pointer = test_client_request(p->manager, 0, a, &pointer_interface);
	if (p->pointer == NULL || test_wl.roundtrip(p->display) < 0) {
		test_client_fail(errbuf, errbuf_len, "the virtual pointer could not be made");
		vpointer_close(p);
		return -1;
	}
	*out = p;
	return 0;
}

/* The request, then a frame (the compositor takes what came before it as one), handled. */
static int send_framed(vpointer *p, uint32_t opcode, union wl_argument *args)
{
	union wl_argument none_args[1] = { { .u = 0 } };
	test_client_request(p->pointer, opcode, args, NULL);
	test_client_request(p->pointer, FRAME, none_args, NULL);
	return test_wl.roundtrip(p->display) < 0 ? -1 : 0;
}

int vpointer_move(vpointer *p, uint32_t x, uint32_t y, uint32_t x_extent, uint32_t y_extent)
{
	union wl_argument a[5];

	if (p->fake != NULL) {
		/* KWin's are in its global coordinates: the one output's pixels here. */
		(void)x_extent, (void)y_extent;
		a[0].i = (int32_t)(x * 256);
		a[1].i = (int32_t)(y * 256);
		test_client_request(p->fake, FAKE_INPUT_POINTER_MOTION_ABSOLUTE, a, NULL);
		return test_wl.roundtrip(p->display) < 0 ? -1 : 0;
	}
	a[0].u = test_client_now_ms();
	a[1].u = x;
	a[2].u = y;
	a[3].u = x_extent;
	a[4].u = y_extent;
	return send_framed(p, MOTION_ABSOLUTE, a);
}

int vpointer_button(vpointer *p, uint32_t button, int pressed)
{
	union wl_argument a[3];

	if (p->fake != NULL) {
		a[0].u = button;
		a[1].u = pressed ? 1 : 0;
		test_client_request(p->fake, FAKE_INPUT_BUTTON, a, NULL);
		return test_wl.roundtrip(p->display) < 0 ? -1 : 0;
	}
	a[0].u = test_client_now_ms();
	a[1].u = button;
	a[2].u = pressed ? 1 : 0;
	return send_framed(p, BUTTON, a);
}

int vpointer_scroll(vpointer *p, int32_t steps)
{
	union wl_argument a[4];

	if (p->fake != NULL)
		return -1; /* no wheel here: KWin's axis has no steps */
	a[0].u = test_client_now_ms();
	a[1].u = 0; /* vertical */
	a[2].i = steps * 15 * 256; /* wl_fixed */
	a[3].i = steps;
	return send_framed(p, AXIS_DISCRETE, a);
}

void vpointer_close(vpointer *p)
{
	union wl_argument a[1] = { { .u = 0 } };

	if (p == NULL)
		return;
	if (p->pointer != NULL) {
		test_client_request(p->pointer, POINTER_DESTROY, a, NULL);
		test_wl.destroy(p->pointer);
	}
	if (p->manager != NULL) {
		test_client_request(p->manager, 1, a, NULL);
		test_wl.destroy(p->manager);
	}
	if (p->fake != NULL)
		test_wl.destroy(p->fake);
	if (p->seat != NULL)
		test_wl.destroy(p->seat);
	if (p->registry != NULL)
		test_wl.destroy(p->registry);
	test_wl.roundtrip(p->display);
	test_wl.disconnect(p->display);
	free(p);
}

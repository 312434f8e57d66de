#include "test_client.h"

#include <dlfcn.h>
#include <stdio.h>
#include <time.h>

struct test_client_api test_wl;

int test_client_fail(char *errbuf, int errbuf_len, const char *text)
{
	if (errbuf != NULL && errbuf_len > 0)
		snprintf(errbuf, errbuf_len, "%s", text);
	return -1;
}

int test_client_load(char *errbuf, int errbuf_len)
{
	void *h;

	if (test_wl.handle != NULL)
		return 0;
	h = dlopen("libwayland-client.so.0", RTLD_NOW | RTLD_LOCAL);
	if (h == NULL)
		return test_client_fail(errbuf, errbuf_len, "libwayland-client.so.0 not found");
	test_wl.registry = dlsym(h, "wl_registry_interface");
	test_wl.seat = dlsym(h, "wl_seat_interface");
	*(void **)&test_wl.connect = dlsym(h, "wl_display_connect");
	*(void **)&test_wl.disconnect = dlsym(h, "wl_display_disconnect");
	*(void **)&test_wl.roundtrip = dlsym(h, "wl_display_roundtrip");
	*(void **)&test_wl.add_listener = dlsym(h, "wl_proxy_add_listener");
	*(void **)&test_wl.destroy = dlsym(h, "wl_proxy_destroy");
	*(void **)&test_wl.marshal = dlsym(h, "wl_proxy_marshal_array_constructor_versioned");
	if (!test_wl.registry || !test_wl.seat || !test_wl.connect || !test_wl.disconnect || !test_wl.roundtrip || !test_wl.add_listener ||
	    !test_wl.destroy || !test_wl.marshal) {
		dlclose(h);
		return test_client_fail(errbuf, errbuf_len, "libwayland-client.so.0 lacks a function needed");
	}
	test_wl.handle = h;
	return 0;
}

struct wl_proxy *test_client_request(struct wl_proxy *proxy, uint32_t opcode, union wl_argument *args,
                                     const struct wl_interface *made)
{
	return test_wl.marshal(proxy, opcode, args, made, 1);
}

struct wl_proxy *test_client_bind(struct wl_proxy *registry, uint32_t name, const struct wl_interface *interface)
{
	/* bind(name, new_id of any interface: its name and version first) */
	union wl_argument a[4];

	a[0].u = name;
	a[1].s = interface->name;
	a[2].u = 1;
	a[3].o = NULL;
	return test_client_request(registry, 0, a, interface);
}

struct wl_display *test_client_connect(const char *display, struct wl_proxy **registry,
                                       const struct test_registry_listener *listener, void *data)
{
	union wl_argument a[1] = { { .o = NULL } };
	struct wl_display *d = test_wl.connect(display);

	if (d == NULL)
		return NULL;
	/* wl_display.get_registry is the display's request 1. */
	*registry = test_client_request((struct wl_proxy *)d, 1, a, test_wl.registry);
	test_wl.add_listener(*registry, (void (**)(void))listener, data);
	return d;
}

void test_client_ignore_remove(void *data, struct wl_proxy *registry, uint32_t name)
{
	(void)data, (void)registry, (void)name;
}

uint32_t test_client_now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint32_t)(t.tv_sec * 1000 + t.tv_nsec / 1000000);
}

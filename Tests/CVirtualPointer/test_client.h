/* What the tests' Wayland clients (the virtual pointer and keyboard) share: libwayland-client's
 * functions found with dlsym, a request marshalled, a global bound, the time in milliseconds. */
#ifndef TEST_CLIENT_H
#define TEST_CLIENT_H

#include <stdint.h>

#include <wayland-client-core.h>

struct test_client_api {
	void *handle;
	const struct wl_interface *registry, *seat;
	__typeof__(wl_display_connect) *connect;
	__typeof__(wl_display_disconnect) *disconnect;
	__typeof__(wl_display_roundtrip) *roundtrip;
	__typeof__(wl_proxy_add_listener) *add_listener;
	__typeof__(wl_proxy_destroy) *destroy;
	__typeof__(wl_proxy_marshal_array_constructor_versioned) *marshal;
};
extern struct test_client_api test_wl;

/* wl_registry's events: global(name, interface, version), global_remove(name). */
struct test_registry_listener {
	void (*global)(void *, struct wl_proxy *, uint32_t, const char *, uint32_t);
	void (*global_remove)(void *, struct wl_proxy *, uint32_t);
};

/* Loads libwayland-client once: 0, or -1 with the cause in errbuf. */
int test_client_load(char *errbuf, int errbuf_len);
/* `text` into errbuf; -1. */
int test_client_fail(char *errbuf, int errbuf_len, const char *text);
/* Request `opcode` on `proxy` (making an object of `made` at version 1, when not NULL). */
struct wl_proxy *test_client_request(struct wl_proxy *proxy, uint32_t opcode, union wl_argument *args,
                                     const struct wl_interface *made);
/* Binds global `name` as `interface`, version 1. */
struct wl_proxy *test_client_bind(struct wl_proxy *registry, uint32_t name, const struct wl_interface *interface);
/* Connects to `display` and asks for its registry, followed by `listener`; NULL display on failure. */
struct wl_display *test_client_connect(const char *display, struct wl_proxy **registry,
                                       const struct test_registry_listener *listener, void *data);
void test_client_ignore_remove(void *data, struct wl_proxy *registry, uint32_t name);
/* CLOCK_MONOTONIC in milliseconds, as input events' times. */
uint32_t test_client_now_ms(void);

#endif

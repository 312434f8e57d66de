/* What every part that talks to a compositor shares: requests sent, a round trip with a deadline. */
#include "internal.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* For the listener structs and the requests' opcodes only: its inline helpers would call the
 * library directly, so requests go through wlshim_api instead. */
#include <wayland-client-protocol.h>

void wlshim_set_error(char *errbuf, int errbuf_len, const char *text)
{
	if (errbuf != NULL && errbuf_len > 0)
		snprintf(errbuf, errbuf_len, "%s", text);
}

long long wlshim_now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

struct wl_proxy *wlshim_marshal(struct wl_proxy *proxy, uint32_t opcode, const struct wl_interface *made,
                                uint32_t version, int destroy, union wl_argument *args)
{
	struct wl_proxy *result;

	if (wlshim_api.proxy_marshal_array_flags != NULL)
		return wlshim_api.proxy_marshal_array_flags(proxy, opcode, made, version,
		                                            destroy ? WL_MARSHAL_FLAG_DESTROY : 0, args);
	/* Before 1.20: makes an object only when `made` is given, and sends plain requests too. */
	result = wlshim_api.proxy_marshal_array_constructor_versioned(proxy, opcode, args, made, version);
	if (destroy)
		wlshim_api.proxy_destroy(proxy);
	return result;
}

void wlshim_send(struct wl_proxy *proxy, uint32_t opcode, int destroy)
{
	union wl_argument none[1] = { { .u = 0 } };
	wlshim_marshal(proxy, opcode, NULL, wlshim_api.proxy_get_version(proxy), destroy, none);
}

void wlshim_request(struct wl_proxy *proxy, uint32_t opcode, union wl_argument *args)
{
	wlshim_marshal(proxy, opcode, NULL, wlshim_api.proxy_get_version(proxy), 0, args);
}

void wlshim_release(struct wl_proxy *proxy, uint32_t opcode, uint32_t since)
{
	if (wlshim_api.proxy_get_version(proxy) >= since)
		wlshim_send(proxy, opcode, 1);
	else
		wlshim_api.proxy_destroy(proxy);
}

int wlshim_connect(const char *display_name, struct wl_display **display, char *errbuf, int errbuf_len)
{
	/* libwayland looks a relative name up in $XDG_RUNTIME_DIR, and says only "No such file or
	 * directory" (with a line of its own on stderr) when that is not set. */
	const char *name = display_name != NULL ? display_name : getenv("WAYLAND_DISPLAY");

	if (name == NULL)
		name = "wayland-0";
	if (name[0] != '/' && (display_name != NULL || getenv("WAYLAND_SOCKET") == NULL)) {
		const char *runtime = getenv("XDG_RUNTIME_DIR");
		if (runtime == NULL || runtime[0] == '\0') {
			wlshim_set_error(errbuf, errbuf_len, "XDG_RUNTIME_DIR is not set");
			return WLSHIM_ERR_CONNECT;
		}
	}
	errno = 0;
	*display = wlshim_api.display_connect(display_name);
	if (*display == NULL) {
		int err = errno != 0 ? errno : ECONNREFUSED;
		wlshim_set_error(errbuf, errbuf_len, strerror(err));
		return WLSHIM_ERR_CONNECT;
	}
	return WLSHIM_OK;
}

const char *wlshim_display_error(struct wl_display *display)
{
	int err = wlshim_api.display_get_error(display);
	return strerror(err != 0 ? err : EPIPE);
}

static void on_done(void *data, struct wl_callback *callback, uint32_t serial)
{
	(void)callback;
	(void)serial;
	*(int *)data = 1;
}

static const struct wl_callback_listener done_listener = { .done = on_done };

/* wl_display_roundtrip itself waits without a deadline, and a compositor that took the
 * connection and hangs (stopped, deadlocked) would hang its caller. */
int wlshim_roundtrip(struct wl_display *display, int timeout_ms, char *errbuf, int errbuf_len)
{
	struct wl_proxy *proxy = (struct wl_proxy *)display;
	union wl_argument args[1] = { { .o = NULL } };
	struct wl_proxy *callback = wlshim_marshal(proxy, WL_DISPLAY_SYNC, wlshim_api.callback_interface,
	                                           wlshim_api.proxy_get_version(proxy), 0, args);
	long long deadline = wlshim_now_ms() + timeout_ms;
	int done = 0, rc = WLSHIM_OK;

	if (callback == NULL) {
		wlshim_set_error(errbuf, errbuf_len, "the round trip could not be asked for (out of memory)");
		return WLSHIM_ERR_NOMEM;
	}
	wlshim_api.proxy_add_listener(callback, (void (**)(void))&done_listener, &done);
	while (!done) {
		struct pollfd p = { .fd = wlshim_api.display_get_fd(display), .events = POLLIN };
		long long left;
		int n;

		/* Events already queued are dispatched first: poll would not see them. */
		if (wlshim_api.display_prepare_read(display) != 0) {
			if (wlshim_api.display_dispatch_pending(display) < 0)
				goto broken;
			continue;
		}
		if (wlshim_api.display_flush(display) < 0 && errno != EAGAIN) {
			wlshim_api.display_cancel_read(display);
			goto broken;
		}
		left = deadline - wlshim_now_ms();
		n = left > 0 ? poll(&p, 1, (int)left) : 0;
		if (n <= 0) {
			int err = errno;
			wlshim_api.display_cancel_read(display);
			if (n < 0 && err == EINTR)
				continue;
			if (n == 0) {
				wlshim_set_error(errbuf, errbuf_len, "no answer");
				rc = WLSHIM_ERR_TIMEOUT;
				break;
			}
			wlshim_set_error(errbuf, errbuf_len, strerror(err));
			rc = WLSHIM_ERR_CONNECTION;
			break;
		}
		if (wlshim_api.display_read_events(display) < 0 ||
		    wlshim_api.display_dispatch_pending(display) < 0)
			goto broken;
	}
	wlshim_api.proxy_destroy(callback);
	return rc;
broken:
	wlshim_set_error(errbuf, errbuf_len, wlshim_display_error(display));
	wlshim_api.proxy_destroy(callback);
	return WLSHIM_ERR_CONNECTION;
}

int wlshim_queue_forget(void *events, size_t size, int capacity, int head, int count, size_t offset,
                        uintptr_t surface)
{
	char *base = events;
	int kept = 0;

	for (int i = 0; i < count; i++) {
		char *e = base + (size_t)((head + i) % capacity) * size;
		uintptr_t whose;
		memcpy(&whose, e + offset, sizeof(whose));
		if (whose != surface)
			memmove(base + (size_t)((head + kept++) % capacity) * size, e, size);
	}
	return kept;
}

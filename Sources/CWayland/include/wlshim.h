/* wlshim: what a Wayland compositor offers (its globals), for pipcam's Swift side.
 *
 * Rules for callers:
 *  - libwayland-client.so.0 is dlopen()ed on first use; link with -ldl only. A machine without it
 *    gets WLSHIM_ERR_NOLIB and a line saying so, never a failure to start.
 *  - Each call makes its own connection and closes it: any thread, no state kept between calls.
 *  - No callbacks, no varargs. Strings in structs are fixed NUL-terminated char arrays (Swift
 *    imports them as tuples).
 */
#ifndef WLSHIM_H
#define WLSHIM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* return codes (negative = error) */
enum {
	WLSHIM_OK = 0,
	WLSHIM_ERR_NOLIB = -1,      /* dlopen("libwayland-client.so.0") failed */
	WLSHIM_ERR_SYMBOL = -2,     /* a needed wl_* symbol is missing (a library too old) */
	WLSHIM_ERR_CONNECT = -3,    /* no compositor answers at that name */
	WLSHIM_ERR_CONNECTION = -4, /* the connection failed during the round trip */
	WLSHIM_ERR_NOMEM = -5,
	WLSHIM_ERR_INVALID = -6,    /* bad argument */
	WLSHIM_ERR_TIMEOUT = -7,    /* the compositor did not answer in time */
	WLSHIM_ERR_UNSUPPORTED = -8 /* the compositor lacks an interface needed (errbuf names it) */
};

#define WLSHIM_INTERFACE_MAX 128

typedef struct wlshim_global {
	uint32_t name;                        /* the registry's number for it */
	uint32_t version;                     /* the highest version the compositor offers */
	char interface[WLSHIM_INTERFACE_MAX]; /* e.g. "wl_shm", "zwlr_layer_shell_v1" */
} wlshim_global;

/* Loads the library if not yet done. WLSHIM_OK, WLSHIM_ERR_NOLIB or WLSHIM_ERR_SYMBOL; errbuf
 * (if given) says which library or symbol. */
int wlshim_load(char *errbuf, int errbuf_len);

/* Connects to display_name (NULL: $WAYLAND_DISPLAY, else "wayland-0"; a name is a socket in
 * $XDG_RUNTIME_DIR, an absolute path a socket anywhere), does one registry round trip and
 * disconnects. The round trip waits timeout_ms at most (a compositor that took the connection
 * and hangs). The globals announced go into out[0..capacity) in the compositor's order;
 * *total is how many there were (more than capacity: call again with a larger array).
 * On failure errbuf holds the cause alone (e.g. "No such file or directory"), without the name. */
int wlshim_read_globals(const char *display_name, int timeout_ms, wlshim_global *out, int capacity,
                        int *total, char *errbuf, int errbuf_len);

#ifdef __cplusplus
}
#endif

#endif

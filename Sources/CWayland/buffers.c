/* A surface's pixels: two buffers in one memfd shared with the compositor, so one can be drawn
 * while the compositor still reads the other. ARGB8888 (premultiplied, as wl_shm's are) only
 * where a picture has transparent parts: XRGB8888 costs the compositor less to show. */
#define _GNU_SOURCE
#include "internal.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <wayland-client-protocol.h>

static void on_release(void *data, struct wl_buffer *buffer)
{
	struct wlshim_buffers *b = data;
	for (int i = 0; i < 2; i++) {
		if (b->buffer[i] == (struct wl_proxy *)buffer && b->busy[i]) {
			b->busy[i] = 0;
			b->released++;
		}
	}
}

static const struct wl_buffer_listener release_listener = { .release = on_release };

static int fail(struct wlshim_buffers *b, int rc, const char *what, char *errbuf, int errbuf_len)
{
	char text[160];
	snprintf(text, sizeof(text), "%s: %s", what, strerror(errno));
	wlshim_set_error(errbuf, errbuf_len, text);
	wlshim_buffers_drop(b);
	return rc;
}

int wlshim_buffers_make(struct wlshim_buffers *b, struct wl_proxy *shm, int width, int height, int alpha,
                        char *errbuf, int errbuf_len)
{
	union wl_argument pool_args[3], buffer_args[6];
	struct wl_proxy *pool;
	size_t one;
	int fd;

	memset(b, 0, sizeof(*b));
	if (width <= 0 || height <= 0 || width > 16384 || height > 16384) {
		wlshim_set_error(errbuf, errbuf_len, "invalid buffer size");
		return WLSHIM_ERR_INVALID;
	}
	b->width = width;
	b->height = height;
	b->alpha = alpha != 0;
	b->stride = width * 4;
	one = (size_t)b->stride * (size_t)height;
	b->size = 2 * one;

	fd = memfd_create("pipcam-pip", MFD_CLOEXEC);
	if (fd < 0)
		return fail(b, WLSHIM_ERR_NOMEM, "memfd_create", errbuf, errbuf_len);
	if (ftruncate(fd, (off_t)b->size) != 0) {
		int err = errno;
		close(fd);
		errno = err;
		return fail(b, WLSHIM_ERR_NOMEM, "ftruncate", errbuf, errbuf_len);
	}
	b->memory = mmap(NULL, b->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (b->memory == MAP_FAILED) {
		int err = errno;
		b->memory = NULL;
		close(fd);
		errno = err;
		return fail(b, WLSHIM_ERR_NOMEM, "mmap", errbuf, errbuf_len);
	}

	/* create_pool(new_id wl_shm_pool, fd, int size) */
	pool_args[0].o = NULL;
	pool_args[1].h = fd;
	pool_args[2].i = (int32_t)b->size;
	pool = wlshim_marshal(shm, WL_SHM_CREATE_POOL, wlshim_api.shm_pool_interface,
	                      wlshim_api.proxy_get_version(shm), 0, pool_args);
	/* The request carries a copy of the descriptor, and the mapping keeps the memory. */
	close(fd);
	if (pool == NULL) {
		errno = ENOMEM;
		return fail(b, WLSHIM_ERR_NOMEM, "wl_shm.create_pool", errbuf, errbuf_len);
	}
	for (int i = 0; i < 2; i++) {
		/* create_buffer(new_id wl_buffer, int offset, int width, int height, int stride, uint format) */
		buffer_args[0].o = NULL;
		buffer_args[1].i = (int32_t)(one * (size_t)i);
		buffer_args[2].i = width;
		buffer_args[3].i = height;
		buffer_args[4].i = b->stride;
		buffer_args[5].u = b->alpha ? WL_SHM_FORMAT_ARGB8888 : WL_SHM_FORMAT_XRGB8888;
		b->buffer[i] = wlshim_marshal(pool, WL_SHM_POOL_CREATE_BUFFER, wlshim_api.buffer_interface,
		                              wlshim_api.proxy_get_version(pool), 0, buffer_args);
		if (b->buffer[i] == NULL) {
			wlshim_send(pool, WL_SHM_POOL_DESTROY, 1);
			errno = ENOMEM;
			return fail(b, WLSHIM_ERR_NOMEM, "wl_shm_pool.create_buffer", errbuf, errbuf_len);
		}
		wlshim_api.proxy_add_listener(b->buffer[i], (void (**)(void))&release_listener, b);
	}
	/* The buffers keep the pool's memory; the pool itself is not needed again. */
	wlshim_send(pool, WL_SHM_POOL_DESTROY, 1);
	return WLSHIM_OK;
}

void wlshim_buffers_drop(struct wlshim_buffers *b)
{
	for (int i = 0; i < 2; i++) {
		if (b->buffer[i] != NULL)
			wlshim_send(b->buffer[i], WL_BUFFER_DESTROY, 1);
		b->buffer[i] = NULL;
		b->busy[i] = 0;
	}
	if (b->memory != NULL)
		munmap(b->memory, b->size);
	b->memory = NULL;
	b->size = 0;
}

int wlshim_buffers_free_index(const struct wlshim_buffers *b)
{
	for (int i = 0; i < 2; i++) {
		if (b->buffer[i] != NULL && !b->busy[i])
			return i;
	}
	return -1;
}

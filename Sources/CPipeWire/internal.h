/* What the shim's files share: the libpipewire functions reached through dlsym, the shim's own
 * objects and a few helpers. Not part of the public header. */
#ifndef PWSHIM_INTERNAL_H
#define PWSHIM_INTERNAL_H

#define _GNU_SOURCE
#include "pwshim.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <pipewire/pipewire.h>
#include <spa/param/video/format-utils.h>
#include <spa/param/buffers.h>
#include <spa/param/param.h>
#include <spa/buffer/meta.h>
#include <spa/pod/builder.h>
#include <spa/utils/result.h>

/* The exported libpipewire functions the shim calls; everything else it uses is inline in the
 * headers (the pod builder, the spa_interface method macros, the pw_loop macros). */
struct pwapi {
	void *handle;
	void (*init)(int *, char ***);
	const char *(*get_library_version)(void);
	struct pw_loop *(*loop_new)(const struct spa_dict *);
	void (*loop_destroy)(struct pw_loop *);
	struct pw_context *(*context_new)(struct pw_loop *, struct pw_properties *, size_t);
	void (*context_destroy)(struct pw_context *);
	struct pw_core *(*context_connect)(struct pw_context *, struct pw_properties *, size_t);
	int (*core_disconnect)(struct pw_core *);
	struct pw_properties *(*properties_new_dict)(const struct spa_dict *);
	int (*properties_set)(struct pw_properties *, const char *, const char *);
	const char *(*properties_get)(const struct pw_properties *, const char *);
	int (*properties_update)(struct pw_properties *, const struct spa_dict *);
	void (*properties_free)(struct pw_properties *);
	void (*proxy_destroy)(struct pw_proxy *);
	struct pw_stream *(*stream_new)(struct pw_core *, const char *, struct pw_properties *);
	void (*stream_add_listener)(struct pw_stream *, struct spa_hook *,
			const struct pw_stream_events *, void *);
	int (*stream_connect)(struct pw_stream *, enum pw_direction, uint32_t,
			enum pw_stream_flags, const struct spa_pod **, uint32_t);
	int (*stream_disconnect)(struct pw_stream *);
	void (*stream_destroy)(struct pw_stream *);
	int (*stream_update_params)(struct pw_stream *, const struct spa_pod **, uint32_t);
	struct pw_buffer *(*stream_dequeue_buffer)(struct pw_stream *);
	int (*stream_queue_buffer)(struct pw_stream *, struct pw_buffer *);
	int (*stream_set_active)(struct pw_stream *, bool);
	uint32_t (*stream_get_node_id)(struct pw_stream *);
	int (*stream_trigger_process)(struct pw_stream *);
	bool (*stream_is_driving)(struct pw_stream *);
};

extern struct pwapi pwshim_api;

/* Loads libpipewire once per process and runs pw_init; safe from any thread. */
int pwshim__load(char *err, int errlen);


#define EVQ 256
#define MAXBUF 64
#define MAXBUFBYTES (256 * 1024 * 1024)

struct node {
	struct node *next;
	struct pwshim *ctx;
	uint32_t id;
	uint64_t serial;
	struct pw_properties *props;
	struct pw_proxy *proxy;
	struct spa_hook listener;
	int have_full;
	int state;
};

/* A program's stream node (a reader of pipcam's own node): whose client it is, to end it. */
struct streamnode {
	struct streamnode *next;
	uint32_t id, client_id;
};

struct link {
	struct link *next;
	struct pwshim *ctx;
	uint32_t id, in_node, out_node;
	struct pw_proxy *proxy;
	struct spa_hook listener;
};

struct pwshim {
	struct pw_loop *loop;
	struct pw_context *context;
	struct pw_core *core;
	struct spa_hook core_listener;
	struct pw_registry *registry;
	struct spa_hook registry_listener;
	int entered;
	int connected;
	int sync_seq;
	int registry_ready;
	struct node *nodes;
	struct link *links;
	struct streamnode *streamnodes;
	pwshim_stream *streams;
	pwshim_source *sources;
	pwshim_event evq[EVQ];
	unsigned ev_head, ev_count;
	char err[512];
};

struct pwshim_stream {
	pwshim_stream *next;
	pwshim *ctx;
	struct pw_stream *stream;
	struct spa_hook listener;
	int state;
	char error[PWSHIM_STR];
	pwshim_format fmt;
	int want_max_held;
	int buffers_pref;
	int allow_dmabuf;
	struct pw_buffer *bufs[MAXBUF];
	int held_flag[MAXBUF];
	struct pwshim_map *maps[MAXBUF];	/* own mapping of each buffer's memfd, or NULL */
	int n_bufs;
	int held;
	uint64_t frames;
	uint64_t seq;
	uint64_t redelivered;
	uint32_t node_id;	/* our node's global id once known */
	uint32_t peer_id;	/* output node of our link (the camera actually used) */
	int link_state;
	char link_error[PWSHIM_STR];
};



static inline void copystr(char *dst, size_t len, const char *src)
{
	if (src == NULL) src = "";
	snprintf(dst, len, "%s", src);
}

static inline uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline const char *dict_get(const struct spa_dict *d, const char *k)
{
	return d ? spa_dict_lookup(d, k) : NULL;
}


/* The files call one another one way only, each only those below it:
 *   library.c, events.c           call nothing of the shim's
 *   registry.c                    events
 *   context.c                     library, registry, events
 *   stream_format.c, stream_buffers.c   events
 *   stream.c                      stream_format, stream_buffers, registry, events
 *   source.c                      events
 *   disconnect.c                  stream, source, context */

/* events.c */
void pwshim__push_event(pwshim *c, int type, uint32_t id, uint64_t serial, int value,
		pwshim_stream *s, const char *msg);
/* Drops the queued events that point at `s` (closed). */
void pwshim__purge_events(pwshim *c, pwshim_stream *s);

/* registry.c */
void pwshim__registry_listen(pwshim *c);
/* Frees what the registry told of (nodes, other programs' streams, links) and the registry. */
void pwshim__registry_forget(pwshim *c);
/* Watches the links that feed the node `node_id` (a stream's own). */
void pwshim__bind_links_for(pwshim *c, uint32_t node_id);

/* context.c */
/* Makes the calling thread the loop's, unless one is already. */
void pwshim__context_enter(pwshim *c);
/* Ends the connection; its streams and sources must be closed already. */
void pwshim__context_free(pwshim *c);

/* stream_format.c */
/* Builds the EnumFormat pods `p` asks for into `params` (at most 4); returns how many. */
uint32_t pwshim__stream_enum_formats(struct spa_pod_builder *b, const pwshim_stream_params *p,
		const struct spa_pod **params);
void pwshim__stream_param_changed(void *data, uint32_t id, const struct spa_pod *param);

/* stream_buffers.c */
void pwshim__stream_add_buffer(void *data, struct pw_buffer *b);
void pwshim__stream_remove_buffer(void *data, struct pw_buffer *b);
/* Queues back the buffers the caller still holds. */
void pwshim__stream_return_held(pwshim_stream *s);
/* Lets go of the shim's own mappings (those lent out live on with their borrowers). */
void pwshim__stream_unmap_buffers(pwshim_stream *s);

#endif

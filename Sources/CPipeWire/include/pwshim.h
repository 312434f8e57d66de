/* pwshim: a small, poll-driven PipeWire camera reader for pipcam's Swift side.
 *
 * Rules for callers:
 *  - One thread at a time: pwshim_connect makes the calling thread the loop's
 *    owner; every call goes from the owner. Ownership moves with
 *    pwshim_release_thread (on the owner) and pwshim_claim_thread (on the new
 *    one); keep the stream inactive in between, so no frame is processed
 *    while nobody owns the loop.
 *  - Drive it yourself: poll() pwshim_get_fd() for POLLIN, then call
 *    pwshim_iterate() (never blocks). Then drain pwshim_next_event() and
 *    pwshim_stream_dequeue().
 *  - No callbacks, no varargs, no macros. Strings in structs are fixed
 *    NUL-terminated char arrays (Swift imports them as tuples).
 *  - libpipewire-0.3.so.0 is dlopen()ed at run time; link with -ldl only.
 */
#ifndef PWSHIM_H
#define PWSHIM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pwshim pwshim;
typedef struct pwshim_stream pwshim_stream;

/* return codes (negative = error) */
enum {
	PWSHIM_OK = 0,
	PWSHIM_ERR_NOLIB = -1,        /* dlopen("libpipewire-0.3.so.0") failed */
	PWSHIM_ERR_SYMBOL = -2,       /* a needed pw_* symbol is missing */
	PWSHIM_ERR_NODAEMON = -3,     /* pw_context_connect failed (no daemon/socket) */
	PWSHIM_ERR_DISCONNECTED = -4, /* core error EPIPE: daemon went away */
	PWSHIM_ERR_NOMEM = -5,
	PWSHIM_ERR_INVALID = -6,      /* bad argument / wrong state */
	PWSHIM_ERR_STREAM = -7,       /* stream creation/connect failed or in error */
	PWSHIM_ERR_AGAIN = -8,        /* no buffer available right now */
	PWSHIM_ERR_LIMIT = -9         /* caller already holds max_held buffers */
};

/* ---- context ---- */

/* Creates loop, context, core connection and registry. On failure *out is
 * NULL and errbuf (if given) holds a human message. remote_name may be NULL
 * (default: $PIPEWIRE_REMOTE or "pipewire-0" in $XDG_RUNTIME_DIR). */
int pwshim_connect(pwshim **out, const char *remote_name, char *errbuf, int errbuf_len);
/* epoll fd of the pw_loop: readable when pwshim_iterate() has work. */
int pwshim_get_fd(pwshim *ctx);
/* Dispatch pending work without blocking. Returns number of dispatched
 * sources (>=0), or PWSHIM_ERR_DISCONNECTED once the daemon is gone. */
int pwshim_iterate(pwshim *ctx);
/* 1 after the initial registry enumeration finished (core sync done). */
int pwshim_registry_ready(pwshim *ctx);
/* 1 while the connection is alive, 0 after EPIPE/core error on the core. */
int pwshim_is_connected(pwshim *ctx);
/* last error message (never NULL). Valid until next pwshim call. */
const char *pwshim_last_error(pwshim *ctx);
/* Version of the libpipewire loaded (NULL when it cannot be loaded). */
const char *pwshim_library_version(void);
/* Gives up the loop's ownership (owner thread only) / takes it (when nobody
 * owns it). Disconnecting while released takes it first. */
int pwshim_release_thread(pwshim *ctx);
int pwshim_claim_thread(pwshim *ctx);
/* Destroys all streams, proxies, core, context, loop. ctx becomes invalid. */
void pwshim_disconnect(pwshim *ctx);

/* ---- nodes ---- */

#define PWSHIM_STR 256
typedef struct pwshim_node_info {
	uint32_t id;              /* global id (reused after removal!) */
	uint64_t serial;          /* object.serial (unique for the daemon's lifetime) */
	int32_t is_camera;        /* media.class Video/Source or media.role Camera */
	int32_t from_monitor;     /* 1: device.api v4l2/libcamera or device.id set (real device) */
	int32_t have_full_props;  /* 1 once node info (bound proxy) was received */
	int32_t state;            /* node state: -1 error, 0 creating, 1 suspended, 2 idle, 3 running */
	char name[PWSHIM_STR];        /* node.name */
	char description[PWSHIM_STR]; /* node.description */
	char nick[PWSHIM_STR];        /* node.nick */
	char media_class[64];         /* media.class */
	char media_role[64];          /* media.role */
	char device_api[32];          /* device.api: "v4l2", "libcamera", "" */
	char object_path[PWSHIM_STR]; /* object.path, e.g. v4l2 device path */
	char api_path[PWSHIM_STR];    /* api.v4l2.path (/dev/videoN) or api.libcamera.path */
	int32_t is_pipcam_share;      /* 1: a camera node a pipcam publishes (pipcam.share) */
} pwshim_node_info;

/* Snapshot of known video nodes (cameras and other Video/ nodes). */
int pwshim_node_count(pwshim *ctx);
int pwshim_node_at(pwshim *ctx, int index, pwshim_node_info *out);
int pwshim_node_by_id(pwshim *ctx, uint32_t id, pwshim_node_info *out);
/* Any property of a known node (full props once bound). Returned pointer is
 * valid until the next pwshim_iterate(); NULL if unknown. */
const char *pwshim_node_prop(pwshim *ctx, uint32_t id, const char *key);

/* ---- events ---- */

enum {
	PWSHIM_EV_NONE = 0,
	PWSHIM_EV_REGISTRY_READY = 1, /* initial enumeration done */
	PWSHIM_EV_NODE_ADDED = 2,     /* id, serial; props may still grow (EV_NODE_CHANGED) */
	PWSHIM_EV_NODE_CHANGED = 3,   /* full props arrived/changed, or node state changed */
	PWSHIM_EV_NODE_REMOVED = 4,   /* id, serial of the removed node */
	PWSHIM_EV_CORE_ERROR = 5,     /* id = object id, value = -errno, message */
	PWSHIM_EV_DISCONNECTED = 6,   /* daemon gone (EPIPE) */
	PWSHIM_EV_STREAM_STATE = 7,   /* stream, value = new state, message on error */
	PWSHIM_EV_STREAM_FORMAT = 8,  /* stream: format negotiated (read pwshim_stream_format) */
	PWSHIM_EV_STREAM_BUFFERS = 9, /* stream: buffer count changed */
	PWSHIM_EV_STREAM_LINK = 10    /* stream's input link: id = camera (output) node id,
	                                 value = PWSHIM_LINK_*; message = link error text */
};

typedef struct pwshim_event {
	int32_t type;
	uint32_t id;
	uint64_t serial;
	int32_t value;
	pwshim_stream *stream;
	char message[PWSHIM_STR];
} pwshim_event;

/* 1 = event copied to *out, 0 = queue empty. Queue holds 256 events. */
int pwshim_next_event(pwshim *ctx, pwshim_event *out);

/* ---- streams ---- */

/* format bits for pwshim_stream_params.formats; order of preference is
 * YUY2, NV12, I420, BGRx, RGBx, MJPG unless `mjpg_first` is set. */
enum {
	PWSHIM_FMT_YUY2 = 1 << 0,
	PWSHIM_FMT_NV12 = 1 << 1,
	PWSHIM_FMT_I420 = 1 << 2,
	PWSHIM_FMT_RGBX = 1 << 3,
	PWSHIM_FMT_BGRX = 1 << 4,
	PWSHIM_FMT_MJPG = 1 << 5,
	PWSHIM_FMT_ALL  = 0x3f,       /* the six above */
	PWSHIM_FMT_RGB  = 1 << 6      /* packed 24-bit RGB (SPA's videotestsrc offers it) */
};

/* how the framerate is offered in EnumFormat */
enum {
	PWSHIM_FPS_RANGE = 0,  /* Choice Range(default fps, min_fps, max_fps)  (recommended) */
	PWSHIM_FPS_FIXED = 1,  /* fixed fps only */
	PWSHIM_FPS_OMIT = 2    /* no framerate property at all */
};

enum {
	PWSHIM_STATE_ERROR = -1,
	PWSHIM_STATE_UNCONNECTED = 0,
	PWSHIM_STATE_CONNECTING = 1,
	PWSHIM_STATE_PAUSED = 2,
	PWSHIM_STATE_STREAMING = 3
};

/* link states (= enum pw_link_state) */
enum {
	PWSHIM_LINK_ERROR = -2,       /* e.g. "no more input formats": no common format */
	PWSHIM_LINK_UNLINKED = -1,
	PWSHIM_LINK_INIT = 0,
	PWSHIM_LINK_NEGOTIATING = 1,
	PWSHIM_LINK_ALLOCATING = 2,
	PWSHIM_LINK_PAUSED = 3,
	PWSHIM_LINK_ACTIVE = 4
};

typedef struct pwshim_stream_params {
	const char *target;     /* node.name or object.serial as text; NULL = any */
	uint32_t formats;       /* PWSHIM_FMT_* mask; 0 = ALL */
	int32_t mjpg_first;     /* prefer MJPG over raw */
	int32_t width, height;  /* preferred size (default of the range); 0 -> 640x480 */
	int32_t min_width, min_height, max_width, max_height; /* 0 -> 1..8192 */
	int32_t fps;            /* preferred framerate (x/1); 0 -> 30 */
	int32_t min_fps, max_fps; /* range offered; 0 -> 0..1000 */
	int32_t buffers;        /* preferred buffer count; 0 -> 8 (range 2..16) */
	int32_t max_held;       /* max buffers the caller may hold; 0 -> n_buffers/4 (at least 2), capped n-1 */
	int32_t allow_dmabuf;   /* also offer DmaBuf (data NULL, use fd) */
	int32_t dont_reconnect; /* 1: fail instead of falling back to another camera */
	int32_t start_inactive; /* PW_STREAM_FLAG_INACTIVE */
	const char *stream_name;/* NULL -> "pipcam" */
	int32_t fps_mode;       /* PWSHIM_FPS_* for the range formats */
	int32_t exact_first;    /* 1: first offer fixed width x height @ fps (all formats),
	                           then the ranges. Needed to get the preferred mode:
	                           with ranges only, the CAMERA's default wins. */
} pwshim_stream_params;

typedef struct pwshim_format {
	int32_t negotiated;     /* 0 until param_changed(Format) */
	uint32_t format;        /* PWSHIM_FMT_* single bit */
	char format_name[16];   /* "YUY2", "NV12", ... "MJPG" */
	int32_t width, height;
	int32_t fps_num, fps_denom;
	int32_t stride;         /* expected bytes per line (plane 0); 0 for MJPG */
	int32_t n_buffers;      /* buffers allocated for the stream */
	int32_t max_held;       /* effective hold limit */
} pwshim_format;

typedef struct pwshim_frame {
	const uint8_t *data;    /* start of valid bytes (chunk offset applied) */
	uint32_t size;          /* chunk size in bytes */
	uint32_t offset;        /* chunk offset inside the mapping (already applied) */
	int32_t stride;         /* chunk stride (0 if producer did not set it) */
	uint32_t n_datas;       /* planes/blocks in buffer (data = block 0) */
	int32_t data_type;      /* 1 MemPtr, 2 MemFd, 3 DmaBuf (SPA_DATA_*) */
	int64_t fd;             /* fd for MemFd/DmaBuf, -1 otherwise */
	int32_t corrupted;      /* SPA_CHUNK_FLAG_CORRUPTED */
	int32_t have_header;    /* spa_meta_header present */
	uint64_t seq;           /* header seq (or shim counter if no header) */
	int64_t pts;            /* header pts in ns (or -1) */
	uint64_t recv_ns;       /* CLOCK_MONOTONIC time the shim saw it */
	uint32_t buffer_id;
	uint32_t dropped;       /* older frames requeued by 'latest' mode */
	int32_t redelivered;    /* 1: this buffer was still held by the caller, i.e. the
	                           producer overwrote a held buffer (handle is the same) */
	void *handle;           /* pass to pwshim_stream_queue() */
	const uint8_t *own_data;/* the same bytes through the shim's own mapping of the
	                           buffer's memfd (NULL when it has none): valid while a
	                           reference to own_map is held, even once the buffer or
	                           the stream is gone */
	void *own_map;          /* pwshim_map_ref() / pwshim_map_unref() */
} pwshim_frame;

/* Create + connect. Returns PWSHIM_OK and *out, or error. Progress arrives as
 * EV_STREAM_STATE / EV_STREAM_FORMAT events. */
int pwshim_stream_open(pwshim *ctx, const pwshim_stream_params *params, pwshim_stream **out);
int pwshim_stream_state(pwshim_stream *s);
/* Error text after PWSHIM_STATE_ERROR ("" otherwise). */
const char *pwshim_stream_error(pwshim_stream *s);
/* Node id of the stream's own node (not the camera), or 0xffffffff. */
uint32_t pwshim_stream_node_id(pwshim_stream *s);
int pwshim_stream_format(pwshim_stream *s, pwshim_format *out);
/* Take one filled buffer. latest != 0: requeue all but the newest.
 * Returns PWSHIM_OK, PWSHIM_ERR_AGAIN (none ready) or PWSHIM_ERR_LIMIT. */
int pwshim_stream_dequeue(pwshim_stream *s, int latest, pwshim_frame *out);
/* Give a buffer back (handle from pwshim_frame). */
int pwshim_stream_queue(pwshim_stream *s, void *handle);
/* A buffer's own mapping, counted: the stream holds one reference while the
 * buffer exists; a caller that keeps the frame's own_data past queueing or
 * closing takes another and drops it when done (the memory is unmapped with
 * the last one). Any thread; never blocks. */
void pwshim_map_ref(void *map);
void pwshim_map_unref(void *map);
int pwshim_stream_held(pwshim_stream *s);
/* pw_stream_set_active: 0 pauses (node may go idle -> suspend), 1 resumes. */
int pwshim_stream_set_active(pwshim_stream *s, int active);
/* Node id of the camera this stream is actually linked to (WirePlumber may
 * pick another one!), 0xffffffff if none; link state and link error text. */
uint32_t pwshim_stream_peer_id(pwshim_stream *s);
int pwshim_stream_link_state(pwshim_stream *s);
const char *pwshim_stream_link_error(pwshim_stream *s);
/* Counters: frames seen by the process callback. */
uint64_t pwshim_stream_frames(pwshim_stream *s);
/* How often a still-held buffer was handed out again (see pwshim_frame). */
uint64_t pwshim_stream_redelivered(pwshim_stream *s);
/* Disconnects, returns held buffers, destroys. Pending events that point at
 * this stream are dropped; all its frame handles become invalid. */
void pwshim_stream_close(pwshim_stream *s);

/* ---- sources: a camera node of pipcam's own, which other programs read ---- */

typedef struct pwshim_source pwshim_source;

typedef struct pwshim_source_params {
	const char *name;        /* node.name */
	const char *description; /* node.description */
	uint32_t format;         /* PWSHIM_FMT_YUY2 or PWSHIM_FMT_I420 (planes packed in one block) */
	int32_t width, height;
	int32_t fps_num, fps_denom;
} pwshim_source_params;

/* Publishes a Video/Source node with media.role Camera (and pipcam.share=true) that drives its
 * readers: every frame pushed is one cycle of the graph. Progress as EV_STREAM_STATE events
 * (stream = NULL, id = the node). */
int pwshim_source_open(pwshim *ctx, const pwshim_source_params *params, pwshim_source **out);
/* The node's global id, or 0xffffffff before the daemon has given one. */
uint32_t pwshim_source_node_id(pwshim_source *s);
/* Links from the node to readers, whatever their state. */
int pwshim_source_readers(pwshim_source *s);
/* Copies one frame (size bytes, as the format lays it out) into a free buffer and sends it.
 * PWSHIM_OK, PWSHIM_ERR_AGAIN (no reader, or every buffer still with the readers) or
 * PWSHIM_ERR_INVALID (the frame is larger than a buffer). */
int pwshim_source_push(pwshim_source *s, const uint8_t *data, uint32_t size, uint64_t pts_ns);
/* Tells every reader's client that its stream from this node ended (an error on the reader's
 * node, as a session manager sends one): readers stop at once instead of waiting for frames.
 * Returns how many were told. */
int pwshim_source_end_readers(pwshim_source *s, const char *message);
/* Removes the node. */
void pwshim_source_close(pwshim_source *s);

#ifdef __cplusplus
}
#endif
#endif

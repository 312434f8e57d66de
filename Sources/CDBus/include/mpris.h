/* mpris: pipcam's MPRIS player (org.mpris.MediaPlayer2) on the session bus, for the Swift side.
 *
 * libdbus-1.so.3 is dlopen()ed at run time (no build or package dependency); its few types are
 * declared here as the library's stable ABI has them. One thread: the one that opened it.
 * Drive it yourself: poll mpris_fd() for POLLIN, then mpris_dispatch() (never blocks), then
 * drain mpris_next_command().
 */
#ifndef PIPCAM_MPRIS_H
#define PIPCAM_MPRIS_H

#include <stdint.h>

typedef struct mpris mpris;

/* What the player shows now: answered to Get/GetAll, and signalled by mpris_changed. */
typedef struct mpris_state {
	int32_t playing;        /* PlaybackStatus Playing (1) or Paused (0) */
	int32_t can_seek;
	int32_t loops;          /* LoopStatus Track (1) or None (0) */
	int64_t position_us;
	int64_t length_us;      /* <= 0: unknown (no mpris:length) */
	char title[256];
	char url[1024];
} mpris_state;

enum {
	MPRIS_OK = 0,
	MPRIS_ERR_NOLIB = -1,   /* libdbus-1.so.3 not there, or lacks a function */
	MPRIS_ERR_NOBUS = -2,   /* no session bus */
	MPRIS_ERR_NAME = -3     /* no org.mpris.MediaPlayer2.pipcam* name could be had */
};

/* What a media player asked. */
enum {
	MPRIS_CMD_PLAY = 1,
	MPRIS_CMD_PAUSE = 2,
	MPRIS_CMD_PLAY_PAUSE = 3,
	MPRIS_CMD_STOP = 4,
	MPRIS_CMD_SEEK = 5,          /* value_us: offset */
	MPRIS_CMD_SET_POSITION = 6,  /* value_us: position */
	MPRIS_CMD_QUIT = 7
};

typedef struct mpris_command {
	int32_t type;
	int64_t value_us;
} mpris_command;

/* Connects to the session bus and owns org.mpris.MediaPlayer2.pipcam (taken: .instancePID).
 * err gets one line on failure. */
int mpris_open(mpris **out, char *err, int errlen);
/* The bus connection's descriptor, to poll for input. */
int mpris_fd(mpris *m);
/* Handles what came, answering from `state`; 0 once the bus went away. */
int mpris_dispatch(mpris *m, const mpris_state *state);
/* 1 = a command copied to *out, 0 = none. */
int mpris_next_command(mpris *m, mpris_command *out);
/* PropertiesChanged for the player's properties, from `state`. */
void mpris_changed(mpris *m, const mpris_state *state);
/* The Seeked signal: playback jumped to position_us. */
void mpris_seeked(mpris *m, int64_t position_us);
/* The bus name owned (valid while open). */
const char *mpris_name(mpris *m);
void mpris_close(mpris *m);

#endif

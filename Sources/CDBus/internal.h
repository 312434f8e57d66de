/* What the MPRIS player's files share: libdbus's ABI as far as used, the library's functions
 * reached through dlsym, the player's names and its own object. Not part of the public header.
 * The files call one another one way only: player.c calls properties.c and library.c,
 * properties.c calls library.c's table, library.c nothing. */
#ifndef PIPCAM_MPRIS_INTERNAL_H
#define PIPCAM_MPRIS_INTERNAL_H

#define _GNU_SOURCE
#include "mpris.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- libdbus's ABI, as far as used ---- */

typedef struct DBusConnection DBusConnection;
typedef struct DBusMessage DBusMessage;
typedef uint32_t dbus_bool_t;
typedef struct {
	const char *name;
	const char *message;
	unsigned int dummy1 : 1, dummy2 : 1, dummy3 : 1, dummy4 : 1, dummy5 : 1;
	void *padding1;
} DBusError;
/* Larger than libdbus's own (80 bytes on 64-bit): it writes only its part. */
typedef struct { void *opaque[16]; } DBusMessageIter;

#define T_BOOLEAN 'b'
#define T_INT64 'x'
#define T_DOUBLE 'd'
#define T_STRING 's'
#define T_OBJECT_PATH 'o'
#define T_ARRAY 'a'
#define T_VARIANT 'v'
#define T_DICT_ENTRY 'e'
#define MESSAGE_METHOD_CALL 1
#define BUS_SESSION 0
#define NAME_DO_NOT_QUEUE 4
#define NAME_PRIMARY_OWNER 1

struct mpris_dbus_api {
	void (*error_init)(DBusError *);
	void (*error_free)(DBusError *);
	DBusConnection *(*bus_get_private)(int, DBusError *);
	int (*bus_request_name)(DBusConnection *, const char *, unsigned, DBusError *);
	void (*set_exit_on_disconnect)(DBusConnection *, dbus_bool_t);
	dbus_bool_t (*get_unix_fd)(DBusConnection *, int *);
	dbus_bool_t (*read_write)(DBusConnection *, int);
	dbus_bool_t (*is_connected)(DBusConnection *);
	DBusMessage *(*pop_message)(DBusConnection *);
	dbus_bool_t (*send)(DBusConnection *, DBusMessage *, uint32_t *);
	void (*flush)(DBusConnection *);
	void (*close)(DBusConnection *);
	void (*connection_unref)(DBusConnection *);
	int (*get_type)(DBusMessage *);
	const char *(*get_interface)(DBusMessage *);
	const char *(*get_member)(DBusMessage *);
	const char *(*get_path)(DBusMessage *);
	DBusMessage *(*new_method_return)(DBusMessage *);
	DBusMessage *(*new_error)(DBusMessage *, const char *, const char *);
	DBusMessage *(*new_signal)(const char *, const char *, const char *);
	void (*message_unref)(DBusMessage *);
	void (*iter_init_append)(DBusMessage *, DBusMessageIter *);
	dbus_bool_t (*append_basic)(DBusMessageIter *, int, const void *);
	dbus_bool_t (*open_container)(DBusMessageIter *, int, const char *, DBusMessageIter *);
	dbus_bool_t (*close_container)(DBusMessageIter *, DBusMessageIter *);
	dbus_bool_t (*iter_init)(DBusMessage *, DBusMessageIter *);
	int (*arg_type)(DBusMessageIter *);
	void (*get_basic)(DBusMessageIter *, void *);
	dbus_bool_t (*iter_next)(DBusMessageIter *);
};


/* The library's functions, once mpris__load succeeded. */
extern struct mpris_dbus_api mpris_dbus;

/* Loads libdbus-1 once per process; MPRIS_OK, or the failure with one line in err. */
int mpris__load(char *err, int errlen);

/* ---- the player ---- */

#define QUEUE 32
static const char *const path = "/org/mpris/MediaPlayer2";
static const char *const root_iface = "org.mpris.MediaPlayer2";
static const char *const player_iface = "org.mpris.MediaPlayer2.Player";
static const char *const props_iface = "org.freedesktop.DBus.Properties";
static const char *const track_id = "/io/github/pipcam/track/0";

struct mpris {
	DBusConnection *bus;
	char name[96];
	mpris_command queue[QUEUE];
	int head, count;
};

/* properties.c */
void mpris__add_string(DBusMessageIter *it, const char *s);
/* Appends property `name` of `iface` as a variant; 0 when there is no such property. */
int mpris__add_property(DBusMessageIter *it, const char *iface, const char *name, const mpris_state *s);
/* Appends every property of `iface` as an a{sv} dict (empty for an interface without any). */
void mpris__add_all_of(DBusMessageIter *it, const char *iface, const mpris_state *s);

#endif

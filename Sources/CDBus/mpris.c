/* pipcam's MPRIS player through libdbus-1, loaded at run time. The MPRIS 2.2 interfaces
 * org.mpris.MediaPlayer2 and org.mpris.MediaPlayer2.Player on /org/mpris/MediaPlayer2, with
 * org.freedesktop.DBus.Properties and .Introspectable. */
#define _GNU_SOURCE
#include "mpris.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

static struct {
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
} api;

static int load_result = MPRIS_ERR_NOLIB;
static char load_error[256];
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

#define LOAD(field, symbol) \
	do { *(void **)&api.field = dlsym(h, symbol); if (!api.field) { missing = symbol; goto fail; } } while (0)

static void load(void)
{
	const char *missing = NULL;
	void *h = dlopen("libdbus-1.so.3", RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(load_error, sizeof(load_error), "libdbus-1.so.3 not found");
		return;
	}
	LOAD(error_init, "dbus_error_init");
	LOAD(error_free, "dbus_error_free");
	LOAD(bus_get_private, "dbus_bus_get_private");
	LOAD(bus_request_name, "dbus_bus_request_name");
	LOAD(set_exit_on_disconnect, "dbus_connection_set_exit_on_disconnect");
	LOAD(get_unix_fd, "dbus_connection_get_unix_fd");
	LOAD(read_write, "dbus_connection_read_write");
	LOAD(is_connected, "dbus_connection_get_is_connected");
	LOAD(pop_message, "dbus_connection_pop_message");
	LOAD(send, "dbus_connection_send");
	LOAD(flush, "dbus_connection_flush");
	LOAD(close, "dbus_connection_close");
	LOAD(connection_unref, "dbus_connection_unref");
	LOAD(get_type, "dbus_message_get_type");
	LOAD(get_interface, "dbus_message_get_interface");
	LOAD(get_member, "dbus_message_get_member");
	LOAD(get_path, "dbus_message_get_path");
	LOAD(new_method_return, "dbus_message_new_method_return");
	LOAD(new_error, "dbus_message_new_error");
	LOAD(new_signal, "dbus_message_new_signal");
	LOAD(message_unref, "dbus_message_unref");
	LOAD(iter_init_append, "dbus_message_iter_init_append");
	LOAD(append_basic, "dbus_message_iter_append_basic");
	LOAD(open_container, "dbus_message_iter_open_container");
	LOAD(close_container, "dbus_message_iter_close_container");
	LOAD(iter_init, "dbus_message_iter_init");
	LOAD(arg_type, "dbus_message_iter_get_arg_type");
	LOAD(get_basic, "dbus_message_iter_get_basic");
	LOAD(iter_next, "dbus_message_iter_next");
	load_result = MPRIS_OK;
	return;
fail:
	snprintf(load_error, sizeof(load_error), "libdbus-1.so.3 lacks %s", missing);
	dlclose(h);
}

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

static void push(mpris *m, int type, int64_t value)
{
	if (m->count == QUEUE)
		return;
	m->queue[(m->head + m->count) % QUEUE] = (mpris_command){ type, value };
	m->count++;
}

int mpris_open(mpris **out, char *err, int errlen)
{
	DBusError e;
	mpris *m;
	int rc;
	*out = NULL;
	pthread_once(&load_once, load);
	if (load_result != MPRIS_OK) {
		if (err) snprintf(err, errlen, "%s", load_error);
		return load_result;
	}
	api.error_init(&e);
	DBusConnection *bus = api.bus_get_private(BUS_SESSION, &e);
	if (!bus) {
		if (err) snprintf(err, errlen, "no session bus (%s)", e.message ? e.message : "?");
		api.error_free(&e);
		return MPRIS_ERR_NOBUS;
	}
	api.set_exit_on_disconnect(bus, 0);
	m = calloc(1, sizeof(*m));
	m->bus = bus;
	snprintf(m->name, sizeof(m->name), "org.mpris.MediaPlayer2.pipcam");
	rc = api.bus_request_name(bus, m->name, NAME_DO_NOT_QUEUE, &e);
	if (rc != NAME_PRIMARY_OWNER) {
		/* Another pipcam has it: MPRIS names instances by a suffix. */
		api.error_free(&e);
		api.error_init(&e);
		snprintf(m->name, sizeof(m->name), "org.mpris.MediaPlayer2.pipcam.instance%d", (int)getpid());
		rc = api.bus_request_name(bus, m->name, NAME_DO_NOT_QUEUE, &e);
	}
	if (rc != NAME_PRIMARY_OWNER) {
		if (err) snprintf(err, errlen, "cannot own %s (%s)", m->name, e.message ? e.message : "taken");
		api.error_free(&e);
		mpris_close(m);
		return MPRIS_ERR_NAME;
	}
	*out = m;
	return MPRIS_OK;
}

int mpris_fd(mpris *m)
{
	int fd = -1;
	if (!api.get_unix_fd(m->bus, &fd))
		return -1;
	return fd;
}

const char *mpris_name(mpris *m) { return m->name; }

/* ---- values ---- */

static void add_string(DBusMessageIter *it, const char *s) { api.append_basic(it, T_STRING, &s); }

static void add_variant(DBusMessageIter *it, const char *sig, int type, const void *value)
{
	DBusMessageIter v;
	api.open_container(it, T_VARIANT, sig, &v);
	api.append_basic(&v, type, value);
	api.close_container(it, &v);
}

static void add_bool_variant(DBusMessageIter *it, int b)
{
	dbus_bool_t v = b ? 1 : 0;
	add_variant(it, "b", T_BOOLEAN, &v);
}

static void add_string_variant(DBusMessageIter *it, const char *s) { add_variant(it, "s", T_STRING, &s); }

static void add_double_variant(DBusMessageIter *it, double d) { add_variant(it, "d", T_DOUBLE, &d); }

/* An entry of an a{sv} dict: the key, then the caller's variant. */
static void open_entry(DBusMessageIter *dict, DBusMessageIter *entry, const char *key)
{
	api.open_container(dict, T_DICT_ENTRY, NULL, entry);
	add_string(entry, key);
}

static void add_metadata(DBusMessageIter *it, const mpris_state *s)
{
	DBusMessageIter v, dict, e;
	const char *track = track_id;
	api.open_container(it, T_VARIANT, "a{sv}", &v);
	api.open_container(&v, T_ARRAY, "{sv}", &dict);
	open_entry(&dict, &e, "mpris:trackid");
	add_variant(&e, "o", T_OBJECT_PATH, &track);
	api.close_container(&dict, &e);
	if (s->length_us > 0) {
		open_entry(&dict, &e, "mpris:length");
		add_variant(&e, "x", T_INT64, &s->length_us);
		api.close_container(&dict, &e);
	}
	open_entry(&dict, &e, "xesam:title");
	add_string_variant(&e, s->title);
	api.close_container(&dict, &e);
	if (s->url[0]) {
		open_entry(&dict, &e, "xesam:url");
		add_string_variant(&e, s->url);
		api.close_container(&dict, &e);
	}
	api.close_container(&v, &dict);
	api.close_container(it, &v);
}

/* Appends property `name` of `iface` as a variant; 0 when there is no such property. */
static int add_property(DBusMessageIter *it, const char *iface, const char *name, const mpris_state *s)
{
	if (strcmp(iface, root_iface) == 0) {
		if (!strcmp(name, "CanQuit")) add_bool_variant(it, 1);
		else if (!strcmp(name, "CanRaise") || !strcmp(name, "HasTrackList") || !strcmp(name, "Fullscreen") ||
			 !strcmp(name, "CanSetFullscreen")) add_bool_variant(it, 0);
		else if (!strcmp(name, "Identity")) add_string_variant(it, "pipcam");
		else if (!strcmp(name, "DesktopEntry")) add_string_variant(it, "io.github.pipcam.pipcam");
		else if (!strcmp(name, "SupportedUriSchemes") || !strcmp(name, "SupportedMimeTypes")) {
			DBusMessageIter v, a;
			api.open_container(it, T_VARIANT, "as", &v);
			api.open_container(&v, T_ARRAY, "s", &a);
			api.close_container(&v, &a);
			api.close_container(it, &v);
		} else return 0;
		return 1;
	}
	if (strcmp(iface, player_iface) != 0)
		return 0;
	if (!strcmp(name, "PlaybackStatus")) add_string_variant(it, s->playing ? "Playing" : "Paused");
	else if (!strcmp(name, "LoopStatus")) add_string_variant(it, s->loops ? "Track" : "None");
	else if (!strcmp(name, "Rate") || !strcmp(name, "MinimumRate") || !strcmp(name, "MaximumRate") ||
		 !strcmp(name, "Volume")) add_double_variant(it, 1.0);
	else if (!strcmp(name, "Shuffle") || !strcmp(name, "CanGoNext") || !strcmp(name, "CanGoPrevious"))
		add_bool_variant(it, 0);
	else if (!strcmp(name, "Metadata")) add_metadata(it, s);
	else if (!strcmp(name, "Position")) add_variant(it, "x", T_INT64, &s->position_us);
	else if (!strcmp(name, "CanPlay") || !strcmp(name, "CanPause") || !strcmp(name, "CanControl"))
		add_bool_variant(it, 1);
	else if (!strcmp(name, "CanSeek")) add_bool_variant(it, s->can_seek);
	else return 0;
	return 1;
}

static const char *const root_props[] = { "CanQuit", "CanRaise", "HasTrackList", "Identity", "DesktopEntry",
	"SupportedUriSchemes", "SupportedMimeTypes", NULL };
static const char *const player_props[] = { "PlaybackStatus", "LoopStatus", "Rate", "Shuffle", "Metadata", "Volume",
	"Position", "MinimumRate", "MaximumRate", "CanGoNext", "CanGoPrevious", "CanPlay", "CanPause", "CanSeek",
	"CanControl", NULL };

static void add_all(DBusMessageIter *it, const char *iface, const char *const *names, const mpris_state *s)
{
	DBusMessageIter dict, e;
	api.open_container(it, T_ARRAY, "{sv}", &dict);
	for (; *names; names++) {
		open_entry(&dict, &e, *names);
		add_property(&e, iface, *names, s);
		api.close_container(&dict, &e);
	}
	api.close_container(it, &dict);
}

static const char introspection[] =
	"<!DOCTYPE node PUBLIC \"-//freedesktop//DTD D-BUS Object Introspection 1.0//EN\" "
	"\"http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd\">\n"
	"<node><interface name=\"org.freedesktop.DBus.Introspectable\"><method name=\"Introspect\">"
	"<arg name=\"xml\" type=\"s\" direction=\"out\"/></method></interface>"
	"<interface name=\"org.freedesktop.DBus.Properties\"><method name=\"Get\"><arg type=\"s\" direction=\"in\"/>"
	"<arg type=\"s\" direction=\"in\"/><arg type=\"v\" direction=\"out\"/></method><method name=\"GetAll\">"
	"<arg type=\"s\" direction=\"in\"/><arg type=\"a{sv}\" direction=\"out\"/></method>"
	"<signal name=\"PropertiesChanged\"><arg type=\"s\"/><arg type=\"a{sv}\"/><arg type=\"as\"/></signal></interface>"
	"<interface name=\"org.mpris.MediaPlayer2\"><method name=\"Raise\"/><method name=\"Quit\"/></interface>"
	"<interface name=\"org.mpris.MediaPlayer2.Player\"><method name=\"Next\"/><method name=\"Previous\"/>"
	"<method name=\"Pause\"/><method name=\"PlayPause\"/><method name=\"Stop\"/><method name=\"Play\"/>"
	"<method name=\"Seek\"><arg name=\"Offset\" type=\"x\" direction=\"in\"/></method>"
	"<method name=\"SetPosition\"><arg name=\"TrackId\" type=\"o\" direction=\"in\"/>"
	"<arg name=\"Position\" type=\"x\" direction=\"in\"/></method>"
	"<method name=\"OpenUri\"><arg name=\"Uri\" type=\"s\" direction=\"in\"/></method>"
	"<signal name=\"Seeked\"><arg name=\"Position\" type=\"x\"/></signal></interface></node>\n";

/* The string arguments of a call, up to n; how many there were. */
static int string_args(DBusMessage *msg, const char **out, int n)
{
	DBusMessageIter it;
	int got = 0;
	if (!api.iter_init(msg, &it))
		return 0;
	do {
		int t = api.arg_type(&it);
		if (got == n || (t != T_STRING && t != T_OBJECT_PATH))
			break;
		api.get_basic(&it, &out[got++]);
	} while (api.iter_next(&it));
	return got;
}

/* The first INT64 argument of a call (after `skip` others). */
static int int64_arg(DBusMessage *msg, int skip, int64_t *out)
{
	DBusMessageIter it;
	if (!api.iter_init(msg, &it))
		return 0;
	while (skip-- > 0)
		if (!api.iter_next(&it))
			return 0;
	if (api.arg_type(&it) != T_INT64)
		return 0;
	api.get_basic(&it, out);
	return 1;
}

static void reply(mpris *m, DBusMessage *answer)
{
	if (!answer)
		return;
	api.send(m->bus, answer, NULL);
	api.message_unref(answer);
}

static void handle(mpris *m, DBusMessage *msg, const mpris_state *s)
{
	const char *iface = api.get_interface(msg), *member = api.get_member(msg), *p = api.get_path(msg);
	if (!member)
		return;
	if (!p || strcmp(p, path) != 0) {
		reply(m, api.new_error(msg, "org.freedesktop.DBus.Error.UnknownObject", "no such object"));
		return;
	}
	if (iface && !strcmp(iface, "org.freedesktop.DBus.Introspectable") && !strcmp(member, "Introspect")) {
		DBusMessage *answer = api.new_method_return(msg);
		DBusMessageIter it;
		api.iter_init_append(answer, &it);
		add_string(&it, introspection);
		reply(m, answer);
		return;
	}
	if (iface && !strcmp(iface, props_iface)) {
		const char *args[2] = { "", "" };
		int n = string_args(msg, args, 2);
		DBusMessage *answer;
		DBusMessageIter it;
		if (!strcmp(member, "Get") && n == 2) {
			answer = api.new_method_return(msg);
			api.iter_init_append(answer, &it);
			if (!add_property(&it, args[0], args[1], s)) {
				api.message_unref(answer);
				reply(m, api.new_error(msg, "org.freedesktop.DBus.Error.UnknownProperty", "no such property"));
				return;
			}
			reply(m, answer);
		} else if (!strcmp(member, "GetAll") && n == 1) {
			answer = api.new_method_return(msg);
			api.iter_init_append(answer, &it);
			if (!strcmp(args[0], root_iface)) add_all(&it, root_iface, root_props, s);
			else if (!strcmp(args[0], player_iface)) add_all(&it, player_iface, player_props, s);
			else {
				DBusMessageIter empty;
				api.open_container(&it, T_ARRAY, "{sv}", &empty);
				api.close_container(&it, &empty);
			}
			reply(m, answer);
		} else if (!strcmp(member, "Set")) {
			reply(m, api.new_error(msg, "org.freedesktop.DBus.Error.PropertyReadOnly", "pipcam's properties are read-only"));
		} else {
			reply(m, api.new_error(msg, "org.freedesktop.DBus.Error.UnknownMethod", "no such method"));
		}
		return;
	}
	int known = 1;
	int64_t value = 0;
	if (!strcmp(member, "Raise") || !strcmp(member, "Next") || !strcmp(member, "Previous")) {
		/* Nothing to raise to, no playlist. */
	} else if (!strcmp(member, "Quit")) push(m, MPRIS_CMD_QUIT, 0);
	else if (!strcmp(member, "Play")) push(m, MPRIS_CMD_PLAY, 0);
	else if (!strcmp(member, "Pause")) push(m, MPRIS_CMD_PAUSE, 0);
	else if (!strcmp(member, "PlayPause")) push(m, MPRIS_CMD_PLAY_PAUSE, 0);
	else if (!strcmp(member, "Stop")) push(m, MPRIS_CMD_STOP, 0);
	else if (!strcmp(member, "Seek") || !strcmp(member, "SetPosition")) {
		int seek = !strcmp(member, "Seek");
		const char *track[1] = { "" };
		/* Any Int64 is taken (the program clamps it to the file); another type is refused. */
		if (!int64_arg(msg, seek ? 0 : 1, &value) || (!seek && string_args(msg, track, 1) != 1)) {
			reply(m, api.new_error(msg, "org.freedesktop.DBus.Error.InvalidArgs",
				seek ? "Seek takes an offset (x, microseconds)" : "SetPosition takes a track (o) and a position (x, microseconds)"));
			return;
		}
		if (seek)
			push(m, MPRIS_CMD_SEEK, value);
		else if (!strcmp(track[0], track_id)) /* The spec: a position for another track is ignored. */
			push(m, MPRIS_CMD_SET_POSITION, value);
	} else if (!strcmp(member, "OpenUri")) {
		reply(m, api.new_error(msg, "org.freedesktop.DBus.Error.NotSupported", "pipcam opens no URIs"));
		return;
	} else known = 0;
	if (!known) {
		reply(m, api.new_error(msg, "org.freedesktop.DBus.Error.UnknownMethod", "no such method"));
		return;
	}
	reply(m, api.new_method_return(msg));
}

int mpris_dispatch(mpris *m, const mpris_state *state)
{
	DBusMessage *msg;
	if (!api.read_write(m->bus, 0) || !api.is_connected(m->bus))
		return 0;
	while ((msg = api.pop_message(m->bus)) != NULL) {
		if (api.get_type(msg) == MESSAGE_METHOD_CALL)
			handle(m, msg, state);
		api.message_unref(msg);
	}
	api.flush(m->bus);
	return api.is_connected(m->bus);
}

int mpris_next_command(mpris *m, mpris_command *out)
{
	if (m->count == 0)
		return 0;
	*out = m->queue[m->head];
	m->head = (m->head + 1) % QUEUE;
	m->count--;
	return 1;
}

void mpris_changed(mpris *m, const mpris_state *state)
{
	static const char *const changed[] = { "PlaybackStatus", "LoopStatus", "Metadata", "CanSeek", NULL };
	DBusMessage *signal = api.new_signal(path, props_iface, "PropertiesChanged");
	DBusMessageIter it, invalidated;
	if (!signal)
		return;
	api.iter_init_append(signal, &it);
	add_string(&it, player_iface);
	add_all(&it, player_iface, changed, state);
	api.open_container(&it, T_ARRAY, "s", &invalidated);
	api.close_container(&it, &invalidated);
	api.send(m->bus, signal, NULL);
	api.message_unref(signal);
	api.flush(m->bus);
}

void mpris_seeked(mpris *m, int64_t position_us)
{
	DBusMessage *signal = api.new_signal(path, player_iface, "Seeked");
	DBusMessageIter it;
	if (!signal)
		return;
	api.iter_init_append(signal, &it);
	api.append_basic(&it, T_INT64, &position_us);
	api.send(m->bus, signal, NULL);
	api.message_unref(signal);
	api.flush(m->bus);
}

void mpris_close(mpris *m)
{
	if (!m)
		return;
	if (m->bus) {
		api.close(m->bus);
		api.connection_unref(m->bus);
	}
	free(m);
}

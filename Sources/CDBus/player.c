/* pipcam's MPRIS player through libdbus-1, loaded at run time. The MPRIS 2.2 interfaces
 * org.mpris.MediaPlayer2 and org.mpris.MediaPlayer2.Player on /org/mpris/MediaPlayer2, with
 * org.freedesktop.DBus.Properties and .Introspectable: the bus name, the method calls and the
 * asks they queue. What it answers with is properties.c's. */
#include "internal.h"

#include <unistd.h>

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
	if ((rc = mpris__load(err, errlen)) != MPRIS_OK)
		return rc;
	mpris_dbus.error_init(&e);
	DBusConnection *bus = mpris_dbus.bus_get_private(BUS_SESSION, &e);
	if (!bus) {
		if (err) snprintf(err, errlen, "no session bus (%s)", e.message ? e.message : "?");
		mpris_dbus.error_free(&e);
		return MPRIS_ERR_NOBUS;
	}
	mpris_dbus.set_exit_on_disconnect(bus, 0);
	m = calloc(1, sizeof(*m));
	m->bus = bus;
	snprintf(m->name, sizeof(m->name), "org.mpris.MediaPlayer2.pipcam");
	rc = mpris_dbus.bus_request_name(bus, m->name, NAME_DO_NOT_QUEUE, &e);
	if (rc != NAME_PRIMARY_OWNER) {
		/* Another pipcam has it: MPRIS names instances by a suffix. */
		mpris_dbus.error_free(&e);
		mpris_dbus.error_init(&e);
		snprintf(m->name, sizeof(m->name), "org.mpris.MediaPlayer2.pipcam.instance%d", (int)getpid());
		rc = mpris_dbus.bus_request_name(bus, m->name, NAME_DO_NOT_QUEUE, &e);
	}
	if (rc != NAME_PRIMARY_OWNER) {
		if (err) snprintf(err, errlen, "cannot own %s (%s)", m->name, e.message ? e.message : "taken");
		mpris_dbus.error_free(&e);
		mpris_close(m);
		return MPRIS_ERR_NAME;
	}
	*out = m;
	return MPRIS_OK;
}

int mpris_fd(mpris *m)
{
	int fd = -1;
	if (!mpris_dbus.get_unix_fd(m->bus, &fd))
		return -1;
	return fd;
}

const char *mpris_name(mpris *m) { return m->name; }

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
	if (!mpris_dbus.iter_init(msg, &it))
		return 0;
	do {
		int t = mpris_dbus.arg_type(&it);
		if (got == n || (t != T_STRING && t != T_OBJECT_PATH))
			break;
		mpris_dbus.get_basic(&it, &out[got++]);
	} while (mpris_dbus.iter_next(&it));
	return got;
}

/* The first INT64 argument of a call (after `skip` others). */
static int int64_arg(DBusMessage *msg, int skip, int64_t *out)
{
	DBusMessageIter it;
	if (!mpris_dbus.iter_init(msg, &it))
		return 0;
	while (skip-- > 0)
		if (!mpris_dbus.iter_next(&it))
			return 0;
	if (mpris_dbus.arg_type(&it) != T_INT64)
		return 0;
	mpris_dbus.get_basic(&it, out);
	return 1;
}

static void reply(mpris *m, DBusMessage *answer)
{
	if (!answer)
		return;
	mpris_dbus.send(m->bus, answer, NULL);
	mpris_dbus.message_unref(answer);
}

static void handle(mpris *m, DBusMessage *msg, const mpris_state *s)
{
	const char *iface = mpris_dbus.get_interface(msg), *member = mpris_dbus.get_member(msg), *p = mpris_dbus.get_path(msg);
	if (!member)
		return;
	if (!p || strcmp(p, path) != 0) {
		reply(m, mpris_dbus.new_error(msg, "org.freedesktop.DBus.Error.UnknownObject", "no such object"));
		return;
	}
	if (iface && !strcmp(iface, "org.freedesktop.DBus.Introspectable") && !strcmp(member, "Introspect")) {
		DBusMessage *answer = mpris_dbus.new_method_return(msg);
		DBusMessageIter it;
		mpris_dbus.iter_init_append(answer, &it);
		mpris__add_string(&it, introspection);
		reply(m, answer);
		return;
	}
	if (iface && !strcmp(iface, props_iface)) {
		const char *args[2] = { "", "" };
		int n = string_args(msg, args, 2);
		DBusMessage *answer;
		DBusMessageIter it;
		if (!strcmp(member, "Get") && n == 2) {
			answer = mpris_dbus.new_method_return(msg);
			mpris_dbus.iter_init_append(answer, &it);
			if (!mpris__add_property(&it, args[0], args[1], s)) {
				mpris_dbus.message_unref(answer);
				reply(m, mpris_dbus.new_error(msg, "org.freedesktop.DBus.Error.UnknownProperty", "no such property"));
				return;
			}
			reply(m, answer);
		} else if (!strcmp(member, "GetAll") && n == 1) {
			answer = mpris_dbus.new_method_return(msg);
			mpris_dbus.iter_init_append(answer, &it);
			mpris__add_all_of(&it, args[0], s);
			reply(m, answer);
		} else if (!strcmp(member, "Set")) {
			reply(m, mpris_dbus.new_error(msg, "org.freedesktop.DBus.Error.PropertyReadOnly", "pipcam's properties are read-only"));
		} else {
			reply(m, mpris_dbus.new_error(msg, "org.freedesktop.DBus.Error.UnknownMethod", "no such method"));
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
			reply(m, mpris_dbus.new_error(msg, "org.freedesktop.DBus.Error.InvalidArgs",
				seek ? "Seek takes an offset (x, microseconds)" : "SetPosition takes a track (o) and a position (x, microseconds)"));
			return;
		}
		if (seek)
			push(m, MPRIS_CMD_SEEK, value);
		else if (!strcmp(track[0], track_id)) /* The spec: a position for another track is ignored. */
			push(m, MPRIS_CMD_SET_POSITION, value);
	} else if (!strcmp(member, "OpenUri")) {
		reply(m, mpris_dbus.new_error(msg, "org.freedesktop.DBus.Error.NotSupported", "pipcam opens no URIs"));
		return;
	} else known = 0;
	if (!known) {
		reply(m, mpris_dbus.new_error(msg, "org.freedesktop.DBus.Error.UnknownMethod", "no such method"));
		return;
	}
	reply(m, mpris_dbus.new_method_return(msg));
}

int mpris_dispatch(mpris *m, const mpris_state *state)
{
	DBusMessage *msg;
	if (!mpris_dbus.read_write(m->bus, 0) || !mpris_dbus.is_connected(m->bus))
		return 0;
	while ((msg = mpris_dbus.pop_message(m->bus)) != NULL) {
		if (mpris_dbus.get_type(msg) == MESSAGE_METHOD_CALL)
			handle(m, msg, state);
		mpris_dbus.message_unref(msg);
	}
	mpris_dbus.flush(m->bus);
	return mpris_dbus.is_connected(m->bus);
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

void mpris_close(mpris *m)
{
	if (!m)
		return;
	if (m->bus) {
		mpris_dbus.close(m->bus);
		mpris_dbus.connection_unref(m->bus);
	}
	free(m);
}

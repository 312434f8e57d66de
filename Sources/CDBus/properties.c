/* What the player shows: its properties, answered to Get and GetAll from the state the caller
 * passes in, and the signals that tell they changed. */
#include "internal.h"

void mpris__add_string(DBusMessageIter *it, const char *s) { mpris_dbus.append_basic(it, T_STRING, &s); }

static void add_variant(DBusMessageIter *it, const char *sig, int type, const void *value)
{
	DBusMessageIter v;
	mpris_dbus.open_container(it, T_VARIANT, sig, &v);
	mpris_dbus.append_basic(&v, type, value);
	mpris_dbus.close_container(it, &v);
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
	mpris_dbus.open_container(dict, T_DICT_ENTRY, NULL, entry);
	mpris__add_string(entry, key);
}

static void add_metadata(DBusMessageIter *it, const mpris_state *s)
{
	DBusMessageIter v, dict, e;
	const char *track = track_id;
	mpris_dbus.open_container(it, T_VARIANT, "a{sv}", &v);
	mpris_dbus.open_container(&v, T_ARRAY, "{sv}", &dict);
	open_entry(&dict, &e, "mpris:trackid");
	add_variant(&e, "o", T_OBJECT_PATH, &track);
	mpris_dbus.close_container(&dict, &e);
	if (s->length_us > 0) {
		open_entry(&dict, &e, "mpris:length");
		add_variant(&e, "x", T_INT64, &s->length_us);
		mpris_dbus.close_container(&dict, &e);
	}
	open_entry(&dict, &e, "xesam:title");
	add_string_variant(&e, s->title);
	mpris_dbus.close_container(&dict, &e);
	if (s->url[0]) {
		open_entry(&dict, &e, "xesam:url");
		add_string_variant(&e, s->url);
		mpris_dbus.close_container(&dict, &e);
	}
	mpris_dbus.close_container(&v, &dict);
	mpris_dbus.close_container(it, &v);
}

int mpris__add_property(DBusMessageIter *it, const char *iface, const char *name, const mpris_state *s)
{
	if (strcmp(iface, root_iface) == 0) {
		if (!strcmp(name, "CanQuit")) add_bool_variant(it, 1);
		else if (!strcmp(name, "CanRaise") || !strcmp(name, "HasTrackList") || !strcmp(name, "Fullscreen") ||
			 !strcmp(name, "CanSetFullscreen")) add_bool_variant(it, 0);
		else if (!strcmp(name, "Identity")) add_string_variant(it, "pipcam");
		else if (!strcmp(name, "DesktopEntry")) add_string_variant(it, "io.github.pipcam.pipcam");
		else if (!strcmp(name, "SupportedUriSchemes") || !strcmp(name, "SupportedMimeTypes")) {
			DBusMessageIter v, a;
			mpris_dbus.open_container(it, T_VARIANT, "as", &v);
			mpris_dbus.open_container(&v, T_ARRAY, "s", &a);
			mpris_dbus.close_container(&v, &a);
			mpris_dbus.close_container(it, &v);
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
	mpris_dbus.open_container(it, T_ARRAY, "{sv}", &dict);
	for (; *names; names++) {
		open_entry(&dict, &e, *names);
		mpris__add_property(&e, iface, *names, s);
		mpris_dbus.close_container(&dict, &e);
	}
	mpris_dbus.close_container(it, &dict);
}

void mpris__add_all_of(DBusMessageIter *it, const char *iface, const mpris_state *s)
{
	if (!strcmp(iface, root_iface)) add_all(it, root_iface, root_props, s);
	else if (!strcmp(iface, player_iface)) add_all(it, player_iface, player_props, s);
	else {
		DBusMessageIter empty;
		mpris_dbus.open_container(it, T_ARRAY, "{sv}", &empty);
		mpris_dbus.close_container(it, &empty);
	}
}

void mpris_changed(mpris *m, const mpris_state *state)
{
	static const char *const changed[] = { "PlaybackStatus", "LoopStatus", "Metadata", "CanSeek", NULL };
	DBusMessage *signal = mpris_dbus.new_signal(path, props_iface, "PropertiesChanged");
	DBusMessageIter it, invalidated;
	if (!signal)
		return;
	mpris_dbus.iter_init_append(signal, &it);
	mpris__add_string(&it, player_iface);
	add_all(&it, player_iface, changed, state);
	mpris_dbus.open_container(&it, T_ARRAY, "s", &invalidated);
	mpris_dbus.close_container(&it, &invalidated);
	mpris_dbus.send(m->bus, signal, NULL);
	mpris_dbus.message_unref(signal);
	mpris_dbus.flush(m->bus);
}

void mpris_seeked(mpris *m, int64_t position_us)
{
	DBusMessage *signal = mpris_dbus.new_signal(path, player_iface, "Seeked");
	DBusMessageIter it;
	if (!signal)
		return;
	mpris_dbus.iter_init_append(signal, &it);
	mpris_dbus.append_basic(&it, T_INT64, &position_us);
	mpris_dbus.send(m->bus, signal, NULL);
	mpris_dbus.message_unref(signal);
	mpris_dbus.flush(m->bus);
}

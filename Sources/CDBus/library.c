/* libdbus-1, opened at run time: no build or package dependency on it. */
#include "internal.h"

#include <dlfcn.h>
#include <pthread.h>

struct mpris_dbus_api mpris_dbus;

static int load_result = MPRIS_ERR_NOLIB;
static char load_error[256];
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

#define LOAD(field, symbol) \
	do { *(void **)&mpris_dbus.field = dlsym(h, symbol); if (!mpris_dbus.field) { missing = symbol; goto fail; } } while (0)

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

int mpris__load(char *err, int errlen)
{
	pthread_once(&load_once, load);
	if (load_result != MPRIS_OK && err)
		snprintf(err, errlen, "%s", load_error);
	return load_result;
}

/* libpipewire, opened at run time: pipcam installs and runs where PipeWire is absent, and only
 * `--source pipewire` (or the camera route through it) needs it. */
#include "internal.h"

#include <dlfcn.h>
#include <pthread.h>

struct pwapi pwshim_api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int load_result;
static char load_error[256];

#define LOADSYM(field, name) do { \
	*(void **)(&pwshim_api.field) = dlsym(h, name); \
	if (pwshim_api.field == NULL) { missing = name; goto fail; } } while (0)

static void load_once(void)
{
	const char *missing = NULL;
	void *h = dlopen("libpipewire-0.3.so.0", RTLD_NOW | RTLD_LOCAL);

	if (h == NULL) {
		snprintf(load_error, sizeof(load_error), "libpipewire-0.3.so.0 not found (%s)", dlerror());
		load_result = PWSHIM_ERR_NOLIB;
		return;
	}
	LOADSYM(init, "pw_init");
	LOADSYM(get_library_version, "pw_get_library_version");
	LOADSYM(loop_new, "pw_loop_new");
	LOADSYM(loop_destroy, "pw_loop_destroy");
	LOADSYM(context_new, "pw_context_new");
	LOADSYM(context_destroy, "pw_context_destroy");
	LOADSYM(context_connect, "pw_context_connect");
	LOADSYM(core_disconnect, "pw_core_disconnect");
	LOADSYM(properties_new_dict, "pw_properties_new_dict");
	LOADSYM(properties_set, "pw_properties_set");
	LOADSYM(properties_get, "pw_properties_get");
	LOADSYM(properties_update, "pw_properties_update");
	LOADSYM(properties_free, "pw_properties_free");
	LOADSYM(proxy_destroy, "pw_proxy_destroy");
	LOADSYM(stream_new, "pw_stream_new");
	LOADSYM(stream_add_listener, "pw_stream_add_listener");
	LOADSYM(stream_connect, "pw_stream_connect");
	LOADSYM(stream_disconnect, "pw_stream_disconnect");
	LOADSYM(stream_destroy, "pw_stream_destroy");
	LOADSYM(stream_update_params, "pw_stream_update_params");
	LOADSYM(stream_dequeue_buffer, "pw_stream_dequeue_buffer");
	LOADSYM(stream_queue_buffer, "pw_stream_queue_buffer");
	LOADSYM(stream_set_active, "pw_stream_set_active");
	LOADSYM(stream_get_node_id, "pw_stream_get_node_id");
	LOADSYM(stream_trigger_process, "pw_stream_trigger_process");
	LOADSYM(stream_is_driving, "pw_stream_is_driving");
	pwshim_api.handle = h;
	pwshim_api.init(NULL, NULL);
	load_result = PWSHIM_OK;
	return;
fail:
	snprintf(load_error, sizeof(load_error), "libpipewire-0.3.so.0 lacks %s", missing);
	dlclose(h);
	memset(&pwshim_api, 0, sizeof(pwshim_api));
	load_result = PWSHIM_ERR_SYMBOL;
}

int pwshim__load(char *err, int errlen)
{
	pthread_once(&once, load_once);
	if (load_result < 0 && err)
		snprintf(err, errlen, "%s", load_error);
	return load_result;
}

const char *pwshim_library_version(void)
{
	return pwshim__load(NULL, 0) == PWSHIM_OK ? pwshim_api.get_library_version() : NULL;
}

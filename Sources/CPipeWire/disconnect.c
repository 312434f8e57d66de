/* Ending a connection: the shim's streams and sources on it first, then the connection itself. The
 * one file above both streams and the context. */
#include "internal.h"

void pwshim_disconnect(pwshim *c)
{
	if (!c)
		return;
	pwshim__context_enter(c);
	while (c->streams)
		pwshim_stream_close(c->streams);
	while (c->sources)
		pwshim_source_close(c->sources);
	pwshim__context_free(c);
}

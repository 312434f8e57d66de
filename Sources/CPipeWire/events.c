/* The queue of what happened on the connection, its streams and sources, which the caller reads
 * with pwshim_next_event after driving the loop. Calls nothing else of the shim's. */
#include "internal.h"

void pwshim__push_event(pwshim *c, int type, uint32_t id, uint64_t serial, int value,
		pwshim_stream *s, const char *msg)
{
	pwshim_event *e;
	if (c->ev_count == EVQ) {	/* drop oldest */
		c->ev_head = (c->ev_head + 1) % EVQ;
		c->ev_count--;
	}
	e = &c->evq[(c->ev_head + c->ev_count) % EVQ];
	memset(e, 0, sizeof(*e));
	e->type = type; e->id = id; e->serial = serial; e->value = value; e->stream = s;
	copystr(e->message, sizeof(e->message), msg);
	c->ev_count++;
}

void pwshim__purge_events(pwshim *c, pwshim_stream *s)
{
	unsigned i, k = 0;
	pwshim_event tmp[EVQ];
	for (i = 0; i < c->ev_count; i++) {
		pwshim_event *e = &c->evq[(c->ev_head + i) % EVQ];
		if (e->stream != s)
			tmp[k++] = *e;
	}
	memcpy(c->evq, tmp, k * sizeof(pwshim_event));
	c->ev_head = 0;
	c->ev_count = k;
}

int pwshim_next_event(pwshim *c, pwshim_event *out)
{
	if (!c || !out || c->ev_count == 0)
		return 0;
	*out = c->evq[c->ev_head];
	c->ev_head = (c->ev_head + 1) % EVQ;
	c->ev_count--;
	return 1;
}

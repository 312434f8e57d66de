/* The seat's pointer: what it does over the connection's surfaces, queued as plain structs until
 * the owner takes them after a dispatch. Nothing is converted here (positions stay wl_fixed,
 * buttons Linux codes): the Swift side's pure rules do that. */
#include "internal.h"

#include <stddef.h>
#include <string.h>

#include <wayland-client-protocol.h>

static void push(struct wlshim_pointer_queue *q, const wlshim_pointer_event *e)
{
	int last = (q->head + q->count - 1) % WLSHIM_POINTER_QUEUE;

	/* Motions in a row are one: the last position is all a drag needs, and each move the owner
	 * makes of them waits for the compositor. */
	if (e->kind == WLSHIM_POINTER_MOTION && q->count > 0 && q->events[last].kind == WLSHIM_POINTER_MOTION &&
	    q->events[last].surface == e->surface) {
		q->events[last] = *e;
		return;
	}
	/* Full (an owner that stopped taking them): the newest are dropped, not the order broken. */
	if (q->count == WLSHIM_POINTER_QUEUE)
		return;
	q->events[(q->head + q->count) % WLSHIM_POINTER_QUEUE] = *e;
	q->count++;
}

/* An event of `kind` over the surface the pointer is over, at its last position. */
static wlshim_pointer_event event(const struct wlshim_pointer_queue *q, uint32_t kind, uint32_t time)
{
	wlshim_pointer_event e;

	memset(&e, 0, sizeof(e));
	e.kind = kind;
	e.surface = q->focus;
	e.time = time;
	e.x = q->x;
	e.y = q->y;
	return e;
}

static void on_enter(void *data, struct wl_pointer *pointer, uint32_t serial, struct wl_surface *surface,
                     wl_fixed_t x, wl_fixed_t y)
{
	struct wlshim_pointer_queue *q = data;
	wlshim_pointer_event e;
	(void)pointer;

	/* NULL: a surface this client destroyed meanwhile. */
	q->focus = (uintptr_t)surface;
	q->x = x;
	q->y = y;
	if (surface == NULL)
		return;
	e = event(q, WLSHIM_POINTER_ENTER, 0);
	e.serial = serial;
	push(q, &e);
}

static void on_leave(void *data, struct wl_pointer *pointer, uint32_t serial, struct wl_surface *surface)
{
	struct wlshim_pointer_queue *q = data;
	wlshim_pointer_event e;
	(void)pointer;

	if (surface != NULL && (uintptr_t)surface == q->focus) {
		e = event(q, WLSHIM_POINTER_LEAVE, 0);
		e.serial = serial;
		push(q, &e);
	}
	q->focus = 0;
	/* Buttons held are the surface's no more: their releases go elsewhere. */
	q->buttons_down = 0;
}

static void on_motion(void *data, struct wl_pointer *pointer, uint32_t time, wl_fixed_t x, wl_fixed_t y)
{
	struct wlshim_pointer_queue *q = data;
	wlshim_pointer_event e;
	(void)pointer;

	q->x = x;
	q->y = y;
	if (q->focus == 0)
		return;
	e = event(q, WLSHIM_POINTER_MOTION, time);
	push(q, &e);
}

static void on_button(void *data, struct wl_pointer *pointer, uint32_t serial, uint32_t time, uint32_t button,
                      uint32_t state)
{
	struct wlshim_pointer_queue *q = data;
	wlshim_pointer_event e;
	int pressed = state == WL_POINTER_BUTTON_STATE_PRESSED;
	(void)pointer;

	if (pressed) {
		q->press_serial = serial;
		q->buttons_down++;
	} else if (q->buttons_down > 0) {
		q->buttons_down--;
	}
	if (q->focus == 0)
		return;
	e = event(q, WLSHIM_POINTER_BUTTON, time);
	e.serial = serial;
	e.button = button;
	e.pressed = (uint32_t)pressed;
	push(q, &e);
}

static void on_axis(void *data, struct wl_pointer *pointer, uint32_t time, uint32_t axis, wl_fixed_t value)
{
	struct wlshim_pointer_queue *q = data;
	wlshim_pointer_event e;
	(void)pointer;

	if (axis > 1)
		return;
	e = event(q, WLSHIM_POINTER_AXIS, time);
	e.axis = axis;
	e.value = value;
	/* axis_discrete (version 5) comes before the axis event it counts, in the same frame. */
	e.discrete = q->discrete[axis];
	q->discrete[axis] = 0;
	if (q->focus != 0)
		push(q, &e);
}

static void on_frame(void *data, struct wl_pointer *pointer) { (void)data, (void)pointer; }

static void on_axis_source(void *data, struct wl_pointer *pointer, uint32_t source)
{
	(void)data, (void)pointer, (void)source;
}

static void on_axis_stop(void *data, struct wl_pointer *pointer, uint32_t time, uint32_t axis)
{
	(void)data, (void)pointer, (void)time, (void)axis;
}

static void on_axis_discrete(void *data, struct wl_pointer *pointer, uint32_t axis, int32_t discrete)
{
	struct wlshim_pointer_queue *q = data;
	(void)pointer;
	if (axis <= 1)
		q->discrete[axis] = discrete;
}

/* Every event up to version 5 (WLSHIM_SEAT_VERSION): the library calls each one sent. */
static const struct wl_pointer_listener pointer_listener = {
	.enter = on_enter,
	.leave = on_leave,
	.motion = on_motion,
	.button = on_button,
	.axis = on_axis,
	.frame = on_frame,
	.axis_source = on_axis_source,
	.axis_stop = on_axis_stop,
	.axis_discrete = on_axis_discrete,
};

void wlshim_pointer_listen(struct wlshim_connection *c)
{
	wlshim_api.proxy_add_listener(c->pointer, (void (**)(void))&pointer_listener, &c->pointer_queue);
}

void wlshim_pointer_drop(struct wlshim_connection *c)
{
	if (c->pointer == NULL)
		return;
	wlshim_release(c->pointer, WL_POINTER_RELEASE, 3);
	c->pointer = NULL;
	c->pointer_queue.focus = 0;
	c->pointer_queue.buttons_down = 0;
}

void wlshim_pointer_forget(struct wlshim_connection *c, uintptr_t surface)
{
	struct wlshim_pointer_queue *q = &c->pointer_queue;

	q->count = wlshim_queue_forget(q->events, sizeof(q->events[0]), WLSHIM_POINTER_QUEUE, q->head, q->count,
	                               offsetof(wlshim_pointer_event, surface), surface);
	if (q->focus == surface) {
		q->focus = 0;
		q->buttons_down = 0;
	}
}

int wlshim_connection_next_pointer_event(wlshim_connection *c, wlshim_pointer_event *out)
{
	struct wlshim_pointer_queue *q = &c->pointer_queue;

	if (q->count == 0)
		return 0;
	*out = q->events[q->head];
	q->head = (q->head + 1) % WLSHIM_POINTER_QUEUE;
	q->count--;
	return 1;
}

int wlshim_connection_buttons_down(const wlshim_connection *c) { return c->pointer_queue.buttons_down; }

uint32_t wlshim_connection_press_serial(const wlshim_connection *c) { return c->pointer_queue.press_serial; }

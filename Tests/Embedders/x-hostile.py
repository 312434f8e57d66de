#!/usr/bin/env python3
"""Does to another client's windows what any X client on the same display may do, for the tests
of a program that must survive it (docs/TESTING.md, "Hostile clients").

Usage:
  x-hostile.py configure WINDOW WIDTH HEIGHT [X Y]   send a synthetic ConfigureNotify claiming that size
  x-hostile.py garbage WINDOW COUNT [SEED]           COUNT ClientMessages and property changes of junk
  x-hostile.py steal SELECTION [SECONDS [release]]   own SELECTION with a window of our own; print
                                                      "stolen 0x<window>", hold it SECONDS (default:
                                                      until stdin closes), then exit (ownership ends);
                                                      with "release", set no owner instead and stay
                                                      connected (window kept) for 10 s more
  x-hostile.py convert SELECTION TARGET PARAM [vanish]  ask SELECTION's owner for TARGET with PARAM (text,
                                                      hex:HEX for bytes, big:N for N bytes, - for none)
                                                      as the request's parameter; print "refused" or
                                                      "answered <text>" (within 15 s), or with "vanish"
                                                      destroy the requesting window at once
Exits 0 when done, 1 on an X failure, 2 on bad arguments or no display.
"""
import ctypes
import random
import sys
import time

from xlibc import CLIENT_MESSAGE, Atom, ClientMessage, Window, x

x.XChangeProperty.argtypes = [ctypes.c_void_p, Window, Atom, Atom, ctypes.c_int, ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
x.XCreateSimpleWindow.restype = Window
x.XCreateSimpleWindow.argtypes = [ctypes.c_void_p, Window, ctypes.c_int, ctypes.c_int, ctypes.c_uint, ctypes.c_uint,
                                  ctypes.c_uint, ctypes.c_ulong, ctypes.c_ulong]
x.XSetSelectionOwner.argtypes = [ctypes.c_void_p, Atom, Window, ctypes.c_ulong]
x.XGetSelectionOwner.restype = Window
x.XGetSelectionOwner.argtypes = [ctypes.c_void_p, Atom]
ERROR_HANDLER = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)
x.XSetErrorHandler.argtypes = [ERROR_HANDLER]

CONFIGURE_NOTIFY = 22
STRUCTURE_NOTIFY_MASK, NO_EVENT_MASK = 1 << 17, 0
PROP_MODE_REPLACE = 0


class ConfigureEvent(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int),
                ("display", ctypes.c_void_p), ("event", Window), ("window", Window), ("x", ctypes.c_int),
                ("y", ctypes.c_int), ("width", ctypes.c_int), ("height", ctypes.c_int), ("border_width", ctypes.c_int),
                ("above", Window), ("override_redirect", ctypes.c_int)]


class Event(ctypes.Union):
    _fields_ = [("configure", ConfigureEvent), ("client", ClientMessage), ("pad", ctypes.c_long * 24)]


def usage():
    print(__doc__.split("\n\n")[1], file=sys.stderr)
    sys.exit(2)


def window_id(text):
    try:
        return int(text, 0)
    except ValueError:
        usage()


def configure(d, args):
    if len(args) not in (3, 5):
        usage()
    w = window_id(args[0])
    e = Event()
    c = e.configure
    c.type, c.send_event, c.event, c.window = CONFIGURE_NOTIFY, 1, w, w
    c.width, c.height = int(args[1]), int(args[2])
    c.x, c.y = (int(args[3]), int(args[4])) if len(args) == 5 else (0, 0)
    x.XSendEvent(d, w, 0, STRUCTURE_NOTIFY_MASK, ctypes.byref(e))


# Message types and properties a window manager, an embedder or a toolkit would use, which the
# target reads: junk in the form it expects is the likeliest to hurt.
KNOWN = [b"WM_PROTOCOLS", b"_XEMBED", b"_XEMBED_INFO", b"_NET_WM_STATE", b"WM_STATE", b"WM_HINTS", b"WM_NORMAL_HINTS",
         b"_NET_FRAME_EXTENTS", b"_NET_WM_DESKTOP", b"_MOTIF_WM_HINTS", b"_NET_WM_NAME", b"_PIPCAM_COMMAND",
         b"_NET_WM_PING", b"_NET_WM_STATE_HIDDEN", b"ATOM", b"CARDINAL", b"WINDOW", b"UTF8_STRING", b"INTEGER"]
# Never sent: they are requests any client may rightly make (close, quit), not junk.
HARMLESS_COMMAND_CODES = range(100, 1 << 20)


def garbage(d, args):
    if len(args) not in (2, 3):
        usage()
    w, count = window_id(args[0]), int(args[1])
    rng = random.Random(int(args[2]) if len(args) == 3 else 1)
    atoms = [x.XInternAtom(d, name, 0) for name in KNOWN]
    atoms += [x.XInternAtom(d, b"_PIPCAM_JUNK_%d" % i, 0) for i in range(8)]
    protocols, command = atoms[0], atoms[KNOWN.index(b"_PIPCAM_COMMAND")]
    delete, take_focus = x.XInternAtom(d, b"WM_DELETE_WINDOW", 0), x.XInternAtom(d, b"WM_TAKE_FOCUS", 0)
    for i in range(count):
        if i % 2 == 0:
            e = Event()
            m = e.client
            m.type, m.send_event, m.window = CLIENT_MESSAGE, 1, w
            m.message_type = rng.choice(atoms)
            m.format = rng.choice([8, 16, 32, 32, 32])
            for k in range(5):
                m.l[k] = rng.choice([0, -1, 1, 2, 0x7FFFFFFF, rng.getrandbits(63), rng.choice(atoms)])
            if m.message_type == protocols and m.l[0] in (delete, take_focus):
                m.l[0] = 0
            if m.message_type == command:
                m.l[0] = rng.choice(HARMLESS_COMMAND_CODES)
            x.XSendEvent(d, w, 0, NO_EVENT_MASK, ctypes.byref(e))
        else:
            fmt = rng.choice([8, 16, 32])
            n = rng.choice([0, 1, 2, 3, 5, 64, 4096])
            size = {8: 1, 16: 2, 32: ctypes.sizeof(ctypes.c_long)}[fmt]
            data = (ctypes.c_ubyte * max(1, n * size))(*[rng.getrandbits(8) for _ in range(max(1, n * size))])
            x.XChangeProperty(d, w, rng.choice(atoms), rng.choice(atoms), fmt, PROP_MODE_REPLACE, data, n)
        if i % 256 == 255:
            x.XSync(d, 0)
    x.XSync(d, 0)


def steal(d, args):
    if len(args) not in (1, 2, 3) or len(args) == 3 and args[2] != "release":
        usage()
    selection = x.XInternAtom(d, args[0].encode(), 0)
    mine = x.XCreateSimpleWindow(d, x.XDefaultRootWindow(d), -10, -10, 1, 1, 0, 0, 0)
    x.XSetSelectionOwner(d, selection, mine, 0)
    x.XSync(d, 0)
    if x.XGetSelectionOwner(d, selection) != mine:
        print("x-hostile: could not take %s" % args[0], file=sys.stderr)
        sys.exit(1)
    print("stolen 0x%x" % mine, flush=True)
    if len(args) >= 2:
        time.sleep(float(args[1]))
    else:
        sys.stdin.read()
    if len(args) == 3:
        x.XSetSelectionOwner(d, selection, 0, 0)
        x.XSync(d, 0)
        print("released", flush=True)
        time.sleep(10)


class SelectionEvent(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int),
                ("display", ctypes.c_void_p), ("requestor", Window), ("selection", Atom), ("target", Atom),
                ("property", Atom), ("time", ctypes.c_ulong)]


SELECTION_NOTIFY = 31
x.XConvertSelection.argtypes = [ctypes.c_void_p, Atom, Atom, Atom, Window, ctypes.c_ulong]
x.XDestroyWindow.argtypes = [ctypes.c_void_p, Window]
x.XNextEvent.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
x.XGetWindowProperty.argtypes = [ctypes.c_void_p, Window, Atom, ctypes.c_long, ctypes.c_long, ctypes.c_int, Atom,
                                 ctypes.POINTER(Atom), ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_ulong),
                                 ctypes.POINTER(ctypes.c_ulong), ctypes.POINTER(ctypes.c_void_p)]


def parameter_bytes(text):
    if text.startswith("hex:"):
        return bytes.fromhex(text[4:])
    if text.startswith("big:"):
        return b"a" * int(text[4:])
    return text.encode()


def convert(d, args):
    if len(args) not in (3, 4) or len(args) == 4 and args[3] != "vanish":
        usage()
    selection, target = x.XInternAtom(d, args[0].encode(), 0), x.XInternAtom(d, args[1].encode(), 0)
    prop = x.XInternAtom(d, b"_HOSTILE_PARAMETER", 0)
    mine = x.XCreateSimpleWindow(d, x.XDefaultRootWindow(d), -10, -10, 1, 1, 0, 0, 0)
    if args[2] != "-":
        data = parameter_bytes(args[2])
        buffer = (ctypes.c_ubyte * max(1, len(data)))(*data)
        x.XChangeProperty(d, mine, prop, x.XInternAtom(d, b"UTF8_STRING", 0), 8, PROP_MODE_REPLACE, buffer, len(data))
    x.XConvertSelection(d, selection, target, prop if args[2] != "-" else 0, mine, 0)
    if len(args) == 4:
        x.XDestroyWindow(d, mine)
        x.XSync(d, 0)
        print("vanished", flush=True)
        return
    x.XFlush(d)
    deadline = time.monotonic() + 15
    event = Event()
    while time.monotonic() < deadline:
        if x.XPending(d) == 0:
            time.sleep(0.01)
            continue
        x.XNextEvent(d, ctypes.byref(event))
        notify = ctypes.cast(ctypes.byref(event), ctypes.POINTER(SelectionEvent)).contents
        if notify.type != SELECTION_NOTIFY or notify.requestor != mine:
            continue
        if notify.property == 0:
            print("refused", flush=True)
            return
        kind, fmt, count, after, data = Atom(), ctypes.c_int(), ctypes.c_ulong(), ctypes.c_ulong(), ctypes.c_void_p()
        x.XGetWindowProperty(d, mine, notify.property, 0, 1 << 16, 1, 0, ctypes.byref(kind), ctypes.byref(fmt),
                             ctypes.byref(count), ctypes.byref(after), ctypes.byref(data))
        text = ctypes.string_at(data, count.value).decode(errors="replace") if data else ""
        print("answered " + text.replace("\n", "|"), flush=True)
        return
    print("x-hostile: no answer within 15 s", file=sys.stderr)
    sys.exit(1)


def main():
    if len(sys.argv) < 3:
        usage()
    d = x.XOpenDisplay(None)
    if not d:
        print("x-hostile: cannot open the display", file=sys.stderr)
        sys.exit(2)
    # Errors (a window gone meanwhile) are the point of the exercise, not a reason to stop.
    handler = ERROR_HANDLER(lambda display, error: 0)
    x.XSetErrorHandler(handler)
    {"configure": configure, "garbage": garbage, "steal": steal, "convert": convert}.get(sys.argv[1], lambda d, a: usage())(d, sys.argv[2:])
    x.XSync(d, 0)


if __name__ == "__main__":
    main()

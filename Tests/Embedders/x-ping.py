#!/usr/bin/env python3
"""Pings an X client the way a window manager does (EWMH _NET_WM_PING) and waits for its answer.

Usage: x-ping.py WINDOW [TIMEOUT_SECONDS]

Sends WM_PROTOCOLS/_NET_WM_PING to WINDOW (decimal or 0x… id) and waits for the client to send it
back to the root window. A client answers in the order its events arrive, so the answer also says
that every event sent to it before the ping (pointer motion, a button release) has been handled.
Prints "pong" and exits 0; exits 1 when no answer comes within TIMEOUT_SECONDS (default 5), 2 on
bad arguments or no display.
"""
import ctypes
import select
import sys
import time

from xlibc import CLIENT_MESSAGE, Atom, ClientMessage, Window, x

SUBSTRUCTURE_NOTIFY_MASK = 1 << 19


class Event(ctypes.Union):
    _fields_ = [("message", ClientMessage), ("pad", ctypes.c_long * 24)]


x.XNextEvent.argtypes = [ctypes.c_void_p, ctypes.POINTER(Event)]


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    try:
        window = int(sys.argv[1], 0)
        timeout = float(sys.argv[2]) if len(sys.argv) == 3 else 5.0
    except ValueError:
        print("x-ping.py: not a window id or a timeout: %s" % " ".join(sys.argv[1:]), file=sys.stderr)
        return 2
    dpy = x.XOpenDisplay(None)
    if not dpy:
        print("x-ping.py: cannot open the display", file=sys.stderr)
        return 2
    root = x.XDefaultRootWindow(dpy)
    protocols = x.XInternAtom(dpy, b"WM_PROTOCOLS", 0)
    ping = x.XInternAtom(dpy, b"_NET_WM_PING", 0)
    # The answer goes to the root with SubstructureNotify|SubstructureRedirect: selecting the
    # first (any number of clients may) is enough to receive it.
    x.XSelectInput(dpy, root, SUBSTRUCTURE_NOTIFY_MASK)
    stamp = int(time.monotonic() * 1000) & 0x7FFFFFFF
    event = Event()
    event.message.type, event.message.window = CLIENT_MESSAGE, window
    event.message.message_type, event.message.format = protocols, 32
    event.message.l[0], event.message.l[1], event.message.l[2] = ping, stamp, window
    x.XSendEvent(dpy, window, 0, 0, ctypes.byref(event))
    x.XFlush(dpy)
    deadline = time.monotonic() + timeout
    fd = x.XConnectionNumber(dpy)
    while time.monotonic() < deadline:
        if not x.XPending(dpy):
            select.select([fd], [], [], max(0.0, min(0.05, deadline - time.monotonic())))
            continue
        x.XNextEvent(dpy, ctypes.byref(event))
        m = event.message
        if (m.type == CLIENT_MESSAGE and m.window == root and m.message_type == protocols
                and m.l[0] == ping and m.l[1] == stamp and m.l[2] == window):
            print("pong")
            return 0
    return 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""A small XEmbed embedder for pipcam's integration tests, speaking the protocol the way suckless
tabbed and GTK's GtkSocket do, on plain libX11 through ctypes.

Usage: xembed-embedder.py [--other-visual] COMMAND [ARG...]

It opens a top-level window (WM_CLASS xembed-embedder), waits until a window manager (if any)
manages it (with --other-visual its window has a TrueColor visual other than the default one,
and its own colormap, as GTK's sockets have), then runs COMMAND with $XEMBED set to that window's id, like tabbed. It selects
SubstructureRedirect on its window, as tabbed and GtkSocket do: the client's map and configure
requests come to the embedder, which carries them out. It reports on stdout, one line each:

    embedder 0x…                 its window, once COMMAND is started
    child 0x…                    a window created inside it (CreateNotify)
    xembed-info 0x… V F          the child's _XEMBED_INFO when it asked to be mapped (or "none")
    mapped 0x…                   the child mapped (at its MapRequest)
    sent embedded-notify 0x…     XEMBED_EMBEDDED_NOTIFY (data1 = the embedder) and WINDOW_ACTIVATE
    received xembed M D on 0x…   an _XEMBED message M (3 = REQUEST_FOCUS) with detail D
    done CMD                     a command (below) was carried out
    exited N                     COMMAND ended with status N (the embedder then ends too)

Commands come through the string property _EMBEDDER_COMMAND on the embedder's window, e.g.
`xprop -id W -f _EMBEDDER_COMMAND 8s -set _EMBEDDER_COMMAND "key p"`:
    focus-in / focus-out         XEMBED_FOCUS_IN (detail CURRENT) / XEMBED_FOCUS_OUT
    key KEYSYM                   forwards a KeyPress and KeyRelease of KEYSYM (p, Escape) to the child
    destroy                      destroys the embedder's window (the child goes with it)
    release                      ends the embedding as the spec says: unmaps the child and
                                 reparents it to the root window
    close-client                 closes the child as tabbed closes a tab: WM_DELETE_WINDOW when
                                 its WM_PROTOCOLS has it, else XKillClient
"""
import ctypes
import ctypes.util
import os
import select
import subprocess
import sys

x = ctypes.cdll.LoadLibrary(ctypes.util.find_library("X11") or "libX11.so.6")
Window = Atom = Time = ctypes.c_ulong
x.XOpenDisplay.restype = ctypes.c_void_p
x.XOpenDisplay.argtypes = [ctypes.c_char_p]
x.XDefaultRootWindow.restype = Window
x.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
x.XCreateSimpleWindow.restype = Window
x.XCreateSimpleWindow.argtypes = [ctypes.c_void_p, Window, ctypes.c_int, ctypes.c_int, ctypes.c_uint,
                                  ctypes.c_uint, ctypes.c_uint, ctypes.c_ulong, ctypes.c_ulong]
x.XInternAtom.restype = Atom
x.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
x.XStringToKeysym.restype = ctypes.c_ulong
x.XStringToKeysym.argtypes = [ctypes.c_char_p]
x.XKeysymToKeycode.restype = ctypes.c_ubyte
x.XKeysymToKeycode.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
for name in ["XSelectInput", "XMapWindow", "XDestroyWindow", "XConnectionNumber", "XPending",
             "XNextEvent", "XFlush", "XSync", "XSendEvent", "XChangeProperty", "XGetWindowProperty",
             "XFree", "XConfigureWindow", "XStoreName", "XSetClassHint", "XSetErrorHandler"]:
    getattr(x, name).restype = ctypes.c_int
x.XSelectInput.argtypes = [ctypes.c_void_p, Window, ctypes.c_long]
x.XMapWindow.argtypes = [ctypes.c_void_p, Window]
x.XDestroyWindow.argtypes = [ctypes.c_void_p, Window]
x.XUnmapWindow.restype = ctypes.c_int
x.XUnmapWindow.argtypes = [ctypes.c_void_p, Window]
x.XKillClient.restype = ctypes.c_int
x.XKillClient.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
x.XReparentWindow.restype = ctypes.c_int
x.XReparentWindow.argtypes = [ctypes.c_void_p, Window, Window, ctypes.c_int, ctypes.c_int]
x.XConnectionNumber.argtypes = [ctypes.c_void_p]
x.XPending.argtypes = [ctypes.c_void_p]
x.XFlush.argtypes = [ctypes.c_void_p]
x.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
x.XStoreName.argtypes = [ctypes.c_void_p, Window, ctypes.c_char_p]
x.XFree.argtypes = [ctypes.c_void_p]

# Event types and masks (X.h).
KeyPress, KeyRelease, CreateNotify, DestroyNotify, MapRequest = 2, 3, 16, 17, 20
ConfigureRequest, PropertyNotify, ClientMessage = 23, 28, 33
KeyPressMask, KeyReleaseMask, StructureNotifyMask = 1 << 0, 1 << 1, 1 << 17
SubstructureNotifyMask, SubstructureRedirectMask, PropertyChangeMask = 1 << 19, 1 << 20, 1 << 22
# XEmbed messages (freedesktop XEmbed spec).
EMBEDDED_NOTIFY, WINDOW_ACTIVATE, FOCUS_IN, FOCUS_OUT = 0, 1, 4, 5


class Head(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int),
                ("display", ctypes.c_void_p)]


class ClientMessageEvent(ctypes.Structure):
    _fields_ = Head._fields_ + [("window", Window), ("message_type", Atom), ("format", ctypes.c_int),
                                ("l", ctypes.c_long * 5)]


class CreateWindowEvent(ctypes.Structure):
    _fields_ = Head._fields_ + [("parent", Window), ("window", Window), ("x", ctypes.c_int),
                                ("y", ctypes.c_int), ("width", ctypes.c_int), ("height", ctypes.c_int),
                                ("border_width", ctypes.c_int), ("override_redirect", ctypes.c_int)]


class MapRequestEvent(ctypes.Structure):
    _fields_ = Head._fields_ + [("parent", Window), ("window", Window)]


class DestroyWindowEvent(ctypes.Structure):
    _fields_ = Head._fields_ + [("event", Window), ("window", Window)]


class ConfigureRequestEvent(ctypes.Structure):
    _fields_ = Head._fields_ + [("parent", Window), ("window", Window), ("x", ctypes.c_int),
                                ("y", ctypes.c_int), ("width", ctypes.c_int), ("height", ctypes.c_int),
                                ("border_width", ctypes.c_int), ("above", Window), ("detail", ctypes.c_int),
                                ("value_mask", ctypes.c_ulong)]


class PropertyEvent(ctypes.Structure):
    _fields_ = Head._fields_ + [("window", Window), ("atom", Atom), ("time", Time), ("state", ctypes.c_int)]


class KeyEvent(ctypes.Structure):
    _fields_ = Head._fields_ + [("window", Window), ("root", Window), ("subwindow", Window), ("time", Time),
                                ("x", ctypes.c_int), ("y", ctypes.c_int), ("x_root", ctypes.c_int),
                                ("y_root", ctypes.c_int), ("state", ctypes.c_uint), ("keycode", ctypes.c_uint),
                                ("same_screen", ctypes.c_int)]


class XEvent(ctypes.Union):
    _fields_ = [("type", ctypes.c_int), ("pad", ctypes.c_long * 24)]


class WindowChanges(ctypes.Structure):
    _fields_ = [("x", ctypes.c_int), ("y", ctypes.c_int), ("width", ctypes.c_int), ("height", ctypes.c_int),
                ("border_width", ctypes.c_int), ("sibling", Window), ("stack_mode", ctypes.c_int)]


class SetWindowAttributes(ctypes.Structure):
    _fields_ = [("background_pixmap", ctypes.c_ulong), ("background_pixel", ctypes.c_ulong),
                ("border_pixmap", ctypes.c_ulong), ("border_pixel", ctypes.c_ulong), ("bit_gravity", ctypes.c_int),
                ("win_gravity", ctypes.c_int), ("backing_store", ctypes.c_int), ("backing_planes", ctypes.c_ulong),
                ("backing_pixel", ctypes.c_ulong), ("save_under", ctypes.c_int), ("event_mask", ctypes.c_long),
                ("do_not_propagate_mask", ctypes.c_long), ("override_redirect", ctypes.c_int),
                ("colormap", ctypes.c_ulong), ("cursor", ctypes.c_ulong)]


class VisualInfo(ctypes.Structure):
    _fields_ = [("visual", ctypes.c_void_p), ("visualid", ctypes.c_ulong), ("screen", ctypes.c_int),
                ("depth", ctypes.c_int), ("c_class", ctypes.c_int), ("red_mask", ctypes.c_ulong),
                ("green_mask", ctypes.c_ulong), ("blue_mask", ctypes.c_ulong), ("colormap_size", ctypes.c_int),
                ("bits_per_rgb", ctypes.c_int)]


class ClassHint(ctypes.Structure):
    _fields_ = [("res_name", ctypes.c_char_p), ("res_class", ctypes.c_char_p)]


x.XNextEvent.argtypes = [ctypes.c_void_p, ctypes.POINTER(XEvent)]
x.XSendEvent.argtypes = [ctypes.c_void_p, Window, ctypes.c_int, ctypes.c_long, ctypes.c_void_p]
x.XChangeProperty.argtypes = [ctypes.c_void_p, Window, Atom, Atom, ctypes.c_int, ctypes.c_int,
                              ctypes.c_void_p, ctypes.c_int]
x.XGetWindowProperty.argtypes = [ctypes.c_void_p, Window, Atom, ctypes.c_long, ctypes.c_long, ctypes.c_int,
                                 Atom, ctypes.POINTER(Atom), ctypes.POINTER(ctypes.c_int),
                                 ctypes.POINTER(ctypes.c_ulong), ctypes.POINTER(ctypes.c_ulong),
                                 ctypes.POINTER(ctypes.c_void_p)]
x.XConfigureWindow.argtypes = [ctypes.c_void_p, Window, ctypes.c_uint, ctypes.POINTER(WindowChanges)]
x.XSetClassHint.argtypes = [ctypes.c_void_p, Window, ctypes.POINTER(ClassHint)]
x.XGetVisualInfo.restype = ctypes.POINTER(VisualInfo)
x.XGetVisualInfo.argtypes = [ctypes.c_void_p, ctypes.c_long, ctypes.POINTER(VisualInfo), ctypes.POINTER(ctypes.c_int)]
x.XDefaultVisual.restype = ctypes.c_void_p
x.XDefaultVisual.argtypes = [ctypes.c_void_p, ctypes.c_int]
x.XVisualIDFromVisual.restype = ctypes.c_ulong
x.XVisualIDFromVisual.argtypes = [ctypes.c_void_p]
x.XCreateColormap.restype = ctypes.c_ulong
x.XCreateColormap.argtypes = [ctypes.c_void_p, Window, ctypes.c_void_p, ctypes.c_int]
x.XCreateWindow.restype = Window
x.XCreateWindow.argtypes = [ctypes.c_void_p, Window, ctypes.c_int, ctypes.c_int, ctypes.c_uint, ctypes.c_uint,
                            ctypes.c_uint, ctypes.c_int, ctypes.c_uint, ctypes.c_void_p, ctypes.c_ulong,
                            ctypes.POINTER(SetWindowAttributes)]

# A child that goes away between two requests must not end the embedder (Xlib exits on errors).
ERROR_HANDLER = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)(lambda d, e: 0)
x.XSetErrorHandler.argtypes = [ERROR_HANDLER.__class__]
x.XSetErrorHandler(ERROR_HANDLER)


def say(line):
    print(line, flush=True)


def hexid(w):
    return "0x%x" % w


def property_values(dpy, window, atom, format32=True):
    kind, fmt, count, after = Atom(), ctypes.c_int(), ctypes.c_ulong(), ctypes.c_ulong()
    data = ctypes.c_void_p()
    if x.XGetWindowProperty(dpy, window, atom, 0, 1024, 0, 0, ctypes.byref(kind), ctypes.byref(fmt),
                            ctypes.byref(count), ctypes.byref(after), ctypes.byref(data)) != 0 or not data:
        return None
    try:
        if fmt.value == 32:
            return list(ctypes.cast(data, ctypes.POINTER(ctypes.c_long))[:count.value])
        if fmt.value == 8:
            return ctypes.string_at(data, count.value).decode("utf-8", "replace")
        return None
    finally:
        x.XFree(data)


def other_visual_window(dpy, root):
    """A 480x270 top-level in a depth-24 TrueColor visual that is not the default one."""
    default = x.XVisualIDFromVisual(x.XDefaultVisual(dpy, 0))
    template, count = VisualInfo(depth=24, c_class=4), ctypes.c_int()  # TrueColor
    infos = x.XGetVisualInfo(dpy, 0x4 | 0x8, ctypes.byref(template), ctypes.byref(count))  # depth, class
    chosen = next((infos[i] for i in range(count.value) if infos[i].visualid != default), None)
    if chosen is None:
        sys.exit("xembed-embedder: no TrueColor visual besides the default one")
    attributes = SetWindowAttributes(background_pixel=0x303030, border_pixel=0,
                                     colormap=x.XCreateColormap(dpy, root, chosen.visual, 0))
    say("visual 0x%x (default 0x%x)" % (chosen.visualid, default))
    return x.XCreateWindow(dpy, root, 60, 60, 480, 270, 0, 24, 1, chosen.visual,
                           (1 << 1) | (1 << 3) | (1 << 13), ctypes.byref(attributes))  # back pixel, border, colormap


def main():
    other_visual = len(sys.argv) > 1 and sys.argv[1] == "--other-visual"
    if other_visual:
        del sys.argv[1]
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    dpy = x.XOpenDisplay(None)
    if not dpy:
        sys.exit("xembed-embedder: cannot open the display")
    atom = lambda name: x.XInternAtom(dpy, name.encode(), 0)
    XEMBED, XEMBED_INFO, WM_STATE = atom("_XEMBED"), atom("_XEMBED_INFO"), atom("WM_STATE")
    COMMAND = atom("_EMBEDDER_COMMAND")

    root = x.XDefaultRootWindow(dpy)
    if other_visual:
        embedder = other_visual_window(dpy, root)
    else:
        embedder = x.XCreateSimpleWindow(dpy, root, 60, 60, 480, 270, 0, 0, 0x303030)
    x.XStoreName(dpy, embedder, b"XEmbed embedder")
    hint = ClassHint(b"xembed-embedder", b"XembedEmbedder")
    x.XSetClassHint(dpy, embedder, ctypes.byref(hint))
    x.XSelectInput(dpy, embedder, StructureNotifyMask | PropertyChangeMask | SubstructureNotifyMask
                   | SubstructureRedirectMask)
    x.XMapWindow(dpy, embedder)
    x.XSync(dpy, 0)

    event = XEvent()

    def view(kind):
        return ctypes.cast(ctypes.byref(event), ctypes.POINTER(kind)).contents

    def xembed(window, message, detail=0, data1=0, data2=0):
        e = ClientMessageEvent(type=ClientMessage, window=window, message_type=XEMBED, format=32)
        e.l[:] = [0, message, detail, data1, data2]  # time 0: CurrentTime
        x.XSendEvent(dpy, window, 0, 0, ctypes.byref(e))
        x.XFlush(dpy)

    def forward_key(window, keysym_name):
        keycode = x.XKeysymToKeycode(dpy, x.XStringToKeysym(keysym_name.encode()))
        for kind, mask in ((KeyPress, KeyPressMask), (KeyRelease, KeyReleaseMask)):
            e = KeyEvent(type=kind, window=window, root=root, subwindow=0, time=0, x=1, y=1, x_root=1,
                         y_root=1, state=0, keycode=keycode, same_screen=1)
            x.XSendEvent(dpy, window, 0, mask, ctypes.byref(e))
        x.XFlush(dpy)

    # Like tabbed, start the client once the window is up (and managed, under a window manager:
    # the client resolves its top-level from WM_STATE).
    wm_running = property_values(dpy, root, atom("_NET_SUPPORTING_WM_CHECK")) is not None
    fd = x.XConnectionNumber(dpy)
    managed = not wm_running
    for _ in range(200):
        if managed:
            break
        while x.XPending(dpy):
            x.XNextEvent(dpy, ctypes.byref(event))
        managed = property_values(dpy, embedder, WM_STATE) is not None
        select.select([fd], [], [], 0.025)
    client = subprocess.Popen(sys.argv[1:], env=dict(os.environ, XEMBED=str(embedder)))
    say("embedder " + hexid(embedder))

    child = 0
    while True:
        if client.poll() is not None:
            say("exited %d" % client.returncode)
            return
        if not x.XPending(dpy):
            select.select([fd], [], [], 0.05)
            continue
        x.XNextEvent(dpy, ctypes.byref(event))
        if event.type == CreateNotify and view(CreateWindowEvent).parent == embedder and not child:
            child = view(CreateWindowEvent).window
            say("child " + hexid(child))
        elif event.type == MapRequest and view(MapRequestEvent).window == child:
            info = property_values(dpy, child, XEMBED_INFO)
            say("xembed-info %s %s" % (hexid(child), " ".join(map(str, info)) if info else "none"))
            x.XMapWindow(dpy, child)
            x.XSync(dpy, 0)
            say("mapped " + hexid(child))
            xembed(child, EMBEDDED_NOTIFY, 0, embedder, 0)
            xembed(child, WINDOW_ACTIVATE)
            say("sent embedded-notify " + hexid(child))
        elif event.type == ConfigureRequest and view(ConfigureRequestEvent).window == child:
            # Carried out as asked, so the client's own size-following is what the tests see.
            r = view(ConfigureRequestEvent)
            changes = WindowChanges(r.x, r.y, r.width, r.height, r.border_width, r.above, r.detail)
            x.XConfigureWindow(dpy, child, r.value_mask, ctypes.byref(changes))
            x.XFlush(dpy)
        elif event.type == DestroyNotify and view(DestroyWindowEvent).window == child:
            say("child destroyed " + hexid(child))
            child = 0
        elif event.type == ClientMessage and view(ClientMessageEvent).message_type == XEMBED:
            m = view(ClientMessageEvent)
            say("received xembed %d %d on %s" % (m.l[1], m.l[2], hexid(m.window)))
        elif event.type == PropertyNotify and view(PropertyEvent).atom == COMMAND and view(PropertyEvent).state == 0:
            command = property_values(dpy, embedder, COMMAND) or ""
            if command == "focus-in":
                xembed(child, FOCUS_IN, 0)
            elif command == "focus-out":
                xembed(child, FOCUS_OUT)
            elif command.startswith("key "):
                forward_key(child, command[4:])
            elif command == "destroy":
                x.XDestroyWindow(dpy, embedder)
                x.XFlush(dpy)
            elif command == "close-client":
                protocols = property_values(dpy, child, atom("WM_PROTOCOLS")) or []
                if atom("WM_DELETE_WINDOW") in protocols:
                    e = ClientMessageEvent(type=ClientMessage, window=child, message_type=atom("WM_PROTOCOLS"), format=32)
                    e.l[:] = [atom("WM_DELETE_WINDOW"), 0, 0, 0, 0]
                    x.XSendEvent(dpy, child, 0, 0, ctypes.byref(e))
                else:
                    x.XKillClient(dpy, child)
                x.XFlush(dpy)
            elif command == "release":
                x.XUnmapWindow(dpy, child)
                x.XReparentWindow(dpy, child, root, 0, 0)
                x.XFlush(dpy)
            say("done " + command)


if __name__ == "__main__":
    main()

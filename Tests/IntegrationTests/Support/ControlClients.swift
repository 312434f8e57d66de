import Foundation
import TestSupport

/// Helpers for the control-channel tests: the status JSON, windows of one pipcam process, and a
/// hostile X client that floods an instance with malformed messages.
extension XServer {
    /// Runs `pipcam status [--name NAME]` and parses its JSON (throws unless it exits 0 with an object).
    func pipcamStatus(name: String? = nil) throws -> (object: [String: Any], text: String) {
        // Through X: answered in order with the X events sent before it, which tests count on.
        let result = try runPipcamOverX(["status"] + (name.map { ["--name", $0] } ?? []))
        guard result.succeeded else { throw HarnessError("pipcam status: \(result)") }
        let text = result.stdoutText.trimmingCharacters(in: .newlines)
        guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            throw HarnessError("pipcam status printed no JSON object: \(text)")
        }
        return (object, text)
    }

    /// pipcam's state once it has handled every X event sent before: `pipcam status` is answered
    /// in order with them (an event barrier, e.g. after clicks that must not have reached it).
    /// Asked again while pipcam is too busy to answer within the client's second.
    func pipcamStateAfterEarlierEvents(name: String? = nil) throws -> String {
        try poll(timeout: minimumWait, what: "pipcam to answer `status`") {
            (try? pipcamStatus(name: name))?.object["state"] as? String
        }
    }

    /// Sends a control command whose effect the test then waits for: delivered is enough. A pipcam
    /// too busy to confirm within the client's second (a debug build drawing a large window on a
    /// loaded machine) still acts on it; any other failure throws.
    func sendPipcam(_ command: String) throws {
        let result = try runPipcam([command])
        guard result.succeeded || result.stderrText.contains("\(command) sent, not yet confirmed") else {
            throw HarnessError("pipcam \(command): \(result)")
        }
    }

    /// The pipcam windows with `role` that belong to process `pid` (by `_NET_WM_PID`).
    func windows(role: String, pid: pid_t) throws -> [XWindowID] {
        try windows(className: "pipcam", role: role).filter {
            try property("_NET_WM_PID", of: $0)?.integers.first == Int(pid)
        }
    }

    func isViewable(_ window: XWindowID) throws -> Bool { try info(of: window)?.isViewable == true }

    /// Sends `count` malformed ClientMessages, forged SelectionRequests and odd conversions to the
    /// owner of `selection` from another client (Python's ctypes over libX11); returns what it printed.
    @discardableResult
    func sendGarbage(toOwnerOf selection: String, seed: Int) throws -> String {
        try runChecked(["python3", "-c", garbageSender, selection, "\(seed)"], timeout: .seconds(20)).stdoutText
    }
}

/// A tiny X client in Python: every kind of message pipcam's control window could be sent by mistake
/// or malice, none of which carries a real command code (1…4).
private let garbageSender = #"""
import ctypes, ctypes.util, sys, random
x = ctypes.CDLL(ctypes.util.find_library("X11") or "libX11.so.6")
vp, ul = ctypes.c_void_p, ctypes.c_ulong
x.XOpenDisplay.restype = vp; x.XOpenDisplay.argtypes = [ctypes.c_char_p]
x.XInternAtom.restype = ul; x.XInternAtom.argtypes = [vp, ctypes.c_char_p, ctypes.c_int]
x.XGetSelectionOwner.restype = ul; x.XGetSelectionOwner.argtypes = [vp, ul]
x.XSendEvent.argtypes = [vp, ul, ctypes.c_int, ctypes.c_long, vp]
x.XConvertSelection.argtypes = [vp, ul, ul, ul, ul, ul]
x.XDefaultRootWindow.restype = ul; x.XDefaultRootWindow.argtypes = [vp]
x.XCreateSimpleWindow.restype = ul
x.XCreateSimpleWindow.argtypes = [vp, ul, ctypes.c_int, ctypes.c_int, ctypes.c_uint, ctypes.c_uint, ctypes.c_uint, ul, ul]
x.XSync.argtypes = [vp, ctypes.c_int]
x.XSetErrorHandler.argtypes = [vp]
IGNORE = ctypes.CFUNCTYPE(ctypes.c_int, vp, vp)(lambda d, e: 0)
x.XSetErrorHandler(ctypes.cast(IGNORE, vp))

class ClientMessage(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("serial", ul), ("send_event", ctypes.c_int), ("display", vp),
                ("window", ul), ("message_type", ul), ("format", ctypes.c_int), ("l", ctypes.c_long * 5)]
class SelectionRequest(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("serial", ul), ("send_event", ctypes.c_int), ("display", vp),
                ("owner", ul), ("requestor", ul), ("selection", ul), ("target", ul), ("property", ul), ("time", ul)]
class Event(ctypes.Union):
    _fields_ = [("client", ClientMessage), ("request", SelectionRequest), ("pad", ctypes.c_long * 24)]

d = x.XOpenDisplay(None)
selection = x.XInternAtom(d, sys.argv[1].encode(), 0)
owner = x.XGetSelectionOwner(d, selection)
if not owner: sys.exit("nobody owns " + sys.argv[1])
root = x.XDefaultRootWindow(d)
mine = x.XCreateSimpleWindow(d, root, 0, 0, 1, 1, 0, 0, 0)
command = x.XInternAtom(d, b"_PIPCAM_COMMAND", 0)
rng = random.Random(int(sys.argv[2]))
def junk(): return rng.choice([0, -1, 5, 99, 1 << 40, -(1 << 62), rng.randrange(5, 1 << 62)])
for i in range(400):
    e, kind = Event(), i % 4
    if kind < 2:
        e.client.type = 33  # ClientMessage
        e.client.window = owner
        e.client.message_type = command if kind == 0 else rng.choice([0, 1, 4, 31, rng.randrange(1, 1 << 29)])
        e.client.format = rng.choice([8, 16, 32, 0, 7])
        for j in range(5): e.client.l[j] = junk()
    elif kind == 2:
        e.request.type = 30  # a forged SelectionRequest
        e.request.owner = owner
        e.request.requestor = rng.choice([0, root, mine, owner, 0x1234567, rng.randrange(1, 1 << 29)])
        e.request.selection = rng.choice([selection, 0, 1, rng.randrange(1, 1 << 29)])
        e.request.target = rng.choice([0, 1, 31, rng.randrange(1, 1 << 29)])
        e.request.property = rng.choice([0, 1, 31, rng.randrange(1, 1 << 29)])
        e.request.time = rng.choice([0, 1, 1 << 31, rng.randrange(0, 1 << 32)])
    else:
        x.XConvertSelection(d, selection, rng.choice([1, 31, rng.randrange(1, 400)]), rng.choice([0, 1, 31]), mine, 0)
        continue
    x.XSendEvent(d, owner, 0, 0, ctypes.byref(e))
x.XSync(d, 0)
print("sent 400")
"""#

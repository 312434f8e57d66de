import PipCore

/// The atoms pipcam uses, interned once per connection.
public enum AtomName: String, CaseIterable, Sendable {
    case WM_PROTOCOLS, WM_DELETE_WINDOW, _NET_WM_PING, WM_STATE, WM_WINDOW_ROLE, WM_CLIENT_MACHINE, WM_CHANGE_STATE, WM_NAME
    case UTF8_STRING, CARDINAL_ = "CARDINAL", ATOM_ = "ATOM", STRING_ = "STRING", WINDOW_ = "WINDOW"
    case _NET_SUPPORTED, _NET_SUPPORTING_WM_CHECK, _NET_WORKAREA, _NET_CURRENT_DESKTOP
    case _NET_WM_NAME, _NET_WM_PID, _NET_WM_ICON, _NET_WM_DESKTOP, _NET_WM_USER_TIME, _NET_WM_WINDOW_TYPE
    case _NET_WM_WINDOW_TYPE_UTILITY, _NET_WM_BYPASS_COMPOSITOR, _NET_FRAME_EXTENTS
    case _NET_WM_STATE, _NET_WM_STATE_ABOVE, _NET_WM_STATE_STICKY
    case _NET_WM_STATE_SKIP_TASKBAR, _NET_WM_STATE_SKIP_PAGER, _NET_WM_STATE_HIDDEN, _NET_WM_STATE_DEMANDS_ATTENTION
    case _NET_WM_MOVERESIZE, _NET_ACTIVE_WINDOW
    case _MOTIF_WM_HINTS
    case _XEMBED, _XEMBED_INFO
    case _NET_WM_WINDOW_OPACITY
    // The control channel (`pipcam toggle|…|status`): command messages, the status conversion
    // target and reply property, the timestamp probe, and ICCCM's TARGETS.
    case _PIPCAM_REQUEST, _PIPCAM_STATUS, _PIPCAM_REPLY, _PIPCAM_TIMESTAMP, TARGETS
}

/// A pointer event in window and root coordinates.
public struct PointerEvent: Sendable, Equatable {
    public var window: WindowID
    public var button: Int
    public var x: Int, y: Int
    public var rootX: Int, rootY: Int
    public var time: UInt
    public var state: UInt32

    /// Public: other window systems (Wayland's seat) report theirs in X's terms.
    public init(window: WindowID, button: Int, x: Int, y: Int, rootX: Int, rootY: Int, time: UInt, state: UInt32) {
        self.window = window
        self.button = button
        (self.x, self.y) = (x, y)
        (self.rootX, self.rootY) = (rootX, rootY)
        self.time = time
        self.state = state
    }
}

/// The X events pipcam reacts to, translated once from `XEvent`.
public enum WindowEvent: Sendable {
    case configure(window: WindowID, rect: Rect, synthetic: Bool)
    case expose(window: WindowID, count: Int)
    case buttonPress(PointerEvent)
    case buttonRelease(PointerEvent)
    case motion(PointerEvent)
    case clientMessage(window: WindowID, type: Atom, data: (Int, Int, Int, Int, Int))
    case property(window: WindowID, atom: Atom, deleted: Bool)
    case mapped(WindowID)
    case unmapped(WindowID)
    case destroyed(WindowID)
    /// The window was given a new parent.
    case reparented(window: WindowID, parent: WindowID)
    case visibility(window: WindowID, fullyObscured: Bool, unobscured: Bool)
    case shmCompletion(segment: UInt)
    /// A key press with its (unshifted) keysym, e.g. 0xff1b for Escape.
    case keyPress(window: WindowID, keysym: Keysym, state: UInt32)
    /// The pointer entered or left the window.
    case pointerEntered(WindowID)
    case pointerLeft(WindowID)
    /// A key press or release reported to the root window: a passive grab (the global hotkey) fired.
    case rootKey(keycode: UInt32, state: UInt32, time: UInt, pressed: Bool)
    /// The keyboard or modifier mapping changed (MappingNotify; Xlib's copy is already refreshed).
    case keyboardMappingChanged
    /// The screen's size, monitors, outputs or CRTCs changed (RandR; after `watchScreenChanges`).
    case screenChanged
    /// Another client asks the owner of a selection to convert it (ICCCM 2.2).
    case selectionRequest(SelectionRequest)
    /// The answer to our `XConvertSelection`: `property` is `.none` when the owner refused; `time`
    /// is the request's.
    case selectionNotify(requestor: WindowID, selection: Atom, target: Atom, property: Atom, time: UInt)
    /// `window` lost ownership of `selection` to another client.
    case selectionClear(window: WindowID, selection: Atom)
    case other
}

/// A SelectionRequest event: `requestor` wants `selection` as `target`, written to its `property`.
public struct SelectionRequest: Sendable, Equatable {
    public var owner: WindowID
    public var requestor: WindowID
    public var selection: Atom
    public var target: Atom
    /// Where to put the answer; `.none` from obsolete clients (then the target names the property).
    public var property: Atom
    public var time: UInt
}

/// An X protocol error, as the recording handler saw it.
public struct XErrorRecord: Sendable, Equatable, CustomStringConvertible {
    public var errorCode: UInt8
    public var requestCode: UInt8
    public var resource: UInt
    /// BadAccess: e.g. a key another client has already grabbed.
    public var isBadAccess: Bool { errorCode == XErrorCode.badAccess }
    public var description: String {
        "X error \(errorCode) in request \(requestCode) on 0x\(String(resource, radix: 16))"
    }
}

/// The event masks pipcam selects (the Xlib values, so callers need not import CX11).
public struct EventMask: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let keyPress = EventMask(rawValue: 1 << 0)
    public static let buttonPress = EventMask(rawValue: 1 << 2)
    public static let buttonRelease = EventMask(rawValue: 1 << 3)
    public static let enterWindow = EventMask(rawValue: 1 << 4)
    public static let leaveWindow = EventMask(rawValue: 1 << 5)
    public static let pointerMotion = EventMask(rawValue: 1 << 6)
    public static let exposure = EventMask(rawValue: 1 << 15)
    public static let visibilityChange = EventMask(rawValue: 1 << 16)
    public static let structureNotify = EventMask(rawValue: 1 << 17)
    public static let substructureNotify = EventMask(rawValue: 1 << 19)
    public static let substructureRedirect = EventMask(rawValue: 1 << 20)
    public static let propertyChange = EventMask(rawValue: 1 << 22)
}

/// Why the X side could not start.
public enum DisplayError: Error, CustomStringConvertible {
    case cannotOpen(String)
    case unsupportedVisual(String)
    case cannotEmbed(String)
    public var description: String {
        switch self {
        case .cannotEmbed(let what): return "cannot embed into \(what)"
        case .cannotOpen(let name): return "cannot open display '\(name)': no X server answers there, or it refused the connection"
        case .unsupportedVisual(let what): return "unsupported X visual: \(what)"
        }
    }
}

extension WindowEvent {
    /// The window the event is about (nil for events that name no window).
    public var window: WindowID? {
        switch self {
        case .configure(let w, _, _), .expose(let w, _), .clientMessage(let w, _, _), .property(let w, _, _),
            .visibility(let w, _, _), .keyPress(let w, _, _), .reparented(let w, _):
            return w
        case .buttonPress(let p), .buttonRelease(let p), .motion(let p):
            return p.window
        case .mapped(let w), .unmapped(let w), .destroyed(let w), .pointerEntered(let w), .pointerLeft(let w):
            return w
        case .selectionRequest(let r):
            return r.owner
        case .selectionNotify(let w, _, _, _, _), .selectionClear(let w, _):
            return w
        case .shmCompletion, .rootKey, .keyboardMappingChanged, .screenChanged, .other:
            return nil
        }
    }
}

/// An X keysym: what a key produces (X11's keysymdef.h), e.g. 0xff1b for Escape.
public struct Keysym: XIdentifier, CustomStringConvertible {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public var description: String { "0x" + String(rawValue, radix: 16) }

    // The keysyms pipcam acts on.
    package static let escape = Keysym(0xff1b)
    package static let tab = Keysym(0xff09)
    /// Shift+Tab on most keymaps.
    package static let isoLeftTab = Keysym(0xfe20)
    package static let plus = Keysym(0x2b)
    package static let equal = Keysym(0x3d)
    package static let minus = Keysym(0x2d)
    package static let keypadAdd = Keysym(0xffab)
    package static let keypadSubtract = Keysym(0xffad)
    package static let m = Keysym(0x6d)
    package static let p = Keysym(0x70)
    package static let r = Keysym(0x72)
    package static let z = Keysym(0x7a)
    package static let space = Keysym(0x20)
    package static let left = Keysym(0xff51)
    package static let right = Keysym(0xff53)
    package static let digit0 = Keysym(0x30)
    package static let keypad0 = Keysym(0xffb0)
    /// The digits `0`…`9` (keysyms 0x30…0x39).
    package var digit: Int? { (0x30...0x39).contains(rawValue) ? Int(rawValue - 0x30) : nil }
}

/// The XEmbed protocol's messages (in `_XEMBED` ClientMessages' `data.l[1]`) and `_XEMBED_INFO`
/// flags (freedesktop XEmbed specification 0.5).
package enum XEmbed {
    package static let embeddedNotify = 0
    package static let requestFocus = 3
    package static let focusIn = 4
    package static let focusOut = 5
    package static let focusNext = 6
    package static let focusPrev = 7
    /// `_XEMBED_INFO` flag: the embedder should map the client.
    package static let mapped = 1
    /// The protocol version pipcam speaks (`_XEMBED_INFO`'s first value).
    package static let version = 0
}

/// EWMH values pipcam sends to the window manager.
package enum EWMH {
    /// `_NET_WM_STATE` actions: remove or add the states named.
    package static let stateRemove = 0
    package static let stateAdd = 1
    /// Source indication in client messages: a normal application (EWMH "Source indication").
    package static let sourceApplication = 1
    /// `_NET_WM_DESKTOP`: on all desktops.
    package static let allDesktops = 0xFFFF_FFFF
    /// `_NET_WM_WINDOW_OPACITY` of a fully opaque window (the scale's top).
    package static let opaque = 0xFFFF_FFFF
}

/// `WM_STATE`'s first value, the state a window manager gives a managed window (ICCCM 4.1.3.1).
package enum WMState {
    package static let withdrawn = 0
    package static let normal = 1
    package static let iconic = 3
}

/// X protocol error codes pipcam tells apart (X.h).
package enum XErrorCode {
    /// E.g. a key another client has already grabbed.
    package static let badAccess: UInt8 = 10
}

/// `_MOTIF_WM_HINTS` as window managers read it: five CARDINALs, flags first.
package enum MotifHints {
    /// The flag saying the decorations field is set.
    package static let decorationsFlag = 2
    /// No decorations (no title bar, no border).
    package static let noDecorations: [Int] = [decorationsFlag, 0, 0, 0, 0]
}

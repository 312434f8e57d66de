/// Keysyms pipcam acts on (X11's keysymdef.h).
enum Keysym {
    static let escape: UInt = 0xff1b
    static let tab: UInt = 0xff09
    /// Shift+Tab on most keymaps.
    static let isoLeftTab: UInt = 0xfe20
    static let plus: UInt = 0x2b
    static let equal: UInt = 0x3d
    static let minus: UInt = 0x2d
    static let keypadAdd: UInt = 0xffab
    static let keypadSubtract: UInt = 0xffad
    static let m: UInt = 0x6d
    static let p: UInt = 0x70
    static let r: UInt = 0x72
}

/// The XEmbed protocol's messages (in `_XEMBED` ClientMessages' `data.l[1]`) and `_XEMBED_INFO`
/// flags (freedesktop XEmbed specification 0.5).
enum XEmbed {
    static let embeddedNotify = 0
    static let requestFocus = 3
    static let focusIn = 4
    static let focusOut = 5
    static let focusNext = 6
    static let focusPrev = 7
    /// `_XEMBED_INFO` flag: the embedder should map the client.
    static let mapped = 1
    /// The protocol version pipcam speaks (`_XEMBED_INFO`'s first value).
    static let version = 0
}

/// EWMH values pipcam sends to the window manager.
enum EWMH {
    /// `_NET_WM_STATE` action: add the states named.
    static let stateAdd = 1
    /// Source indication in client messages: a normal application (EWMH "Source indication").
    static let sourceApplication = 1
    /// `_NET_WM_DESKTOP`: on all desktops.
    static let allDesktops = 0xFFFF_FFFF
}

/// `_MOTIF_WM_HINTS` as window managers read it: five CARDINALs, flags first.
enum MotifHints {
    /// The flag saying the decorations field is set.
    static let decorationsFlag = 2
    /// No decorations (no title bar, no border).
    static let noDecorations: [Int] = [decorationsFlag, 0, 0, 0, 0]
}

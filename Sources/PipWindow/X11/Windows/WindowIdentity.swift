#if canImport(Glibc)
import Glibc
#endif

extension XDisplay {
    /// Names a pipcam window the way window-manager rules and tests find it: `WM_CLASS`
    /// `pipcam`/`Pipcam`, `WM_WINDOW_ROLE`, its title (`setTitle`), plus the owning process and host
    /// and pipcam's icon (`_NET_WM_ICON`).
    public func setIdentity(_ w: WindowID, role: String, title: String) {
        setClass(w, instance: "pipcam", className: "Pipcam")
        setProperty(w, .WM_WINDOW_ROLE, text: role, type: .STRING_)
        setTitle(w, title)
        setProperty(w, .WM_CLIENT_MACHINE, text: XDisplay.hostName, type: .STRING_)
        setProperty(w, ._NET_WM_PID, type: .CARDINAL_, values: [Int(getpid())])
        if !WindowIcon.cardinals.isEmpty { setProperty(w, ._NET_WM_ICON, type: .CARDINAL_, values: WindowIcon.cardinals) }
    }

    /// Sets `_NET_WM_NAME` and, for an ASCII title, ICCCM's `WM_NAME` too: xdotool's `--name`,
    /// xwininfo and older window managers read only the latter.
    public func setTitle(_ w: WindowID, _ title: String) {
        setProperty(w, ._NET_WM_NAME, text: title)
        if title.utf8.allSatisfy({ $0 < 0x80 }) { setProperty(w, .WM_NAME, text: title, type: .STRING_) }
    }
}

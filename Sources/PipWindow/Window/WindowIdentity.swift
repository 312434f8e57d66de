#if canImport(Glibc)
import Glibc
#endif

extension XDisplay {
    /// Names a pipcam window the way window-manager rules and tests find it: `WM_CLASS`
    /// `pipcam`/`Pipcam`, `WM_WINDOW_ROLE`, `_NET_WM_NAME`, plus the owning process and host.
    public func setIdentity(_ w: WindowID, role: String, title: String) {
        setClass(w, instance: "pipcam", className: "Pipcam")
        setProperty(w, .WM_WINDOW_ROLE, text: role, type: .STRING_)
        setProperty(w, ._NET_WM_NAME, text: title)
        setProperty(w, .WM_CLIENT_MACHINE, text: XDisplay.hostName, type: .STRING_)
        setProperty(w, ._NET_WM_PID, type: .CARDINAL_, values: [Int(getpid())])
    }
}

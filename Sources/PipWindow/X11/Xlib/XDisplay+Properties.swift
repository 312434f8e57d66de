import CX11
#if canImport(Glibc)
import Glibc
import PipCore
#endif

/// Properties, window manager hints and client messages: what other clients read of a window.
extension XDisplay {
    /// Sets a format-32 property (CARDINAL, ATOM, WINDOW…) to `values`.
    public func setProperty(_ w: WindowID, _ property: AtomName, type: AtomName, values: [Int]) {
        values.withUnsafeBufferPointer { buf in
            buf.baseAddress!.withMemoryRebound(to: UInt8.self, capacity: values.count * 8) { bytes in
                _ = XChangeProperty(raw, w.rawValue, self[property].rawValue, self[type].rawValue, 32, PropModeReplace, bytes, Int32(values.count))
            }
        }
    }

    /// Removes a property.
    public func deleteProperty(_ w: WindowID, _ property: AtomName) {
        XDeleteProperty(raw, w.rawValue, self[property].rawValue)
    }

    /// Sets a text property (UTF8_STRING or STRING).
    public func setProperty(_ w: WindowID, _ property: AtomName, text: String, type: AtomName = .UTF8_STRING) {
        var bytes = Array(text.utf8)
        _ = XChangeProperty(raw, w.rawValue, self[property].rawValue, self[type].rawValue, 8, PropModeReplace, &bytes, Int32(bytes.count))
    }

    /// Reads a format-32 property as integers (empty when absent or on a vanished window).
    public func integers(_ w: WindowID, _ property: AtomName) -> [Int] { integers(w, atom: self[property]) }

    /// A 32-bit property named by an atom interned elsewhere (one whose name is made at run time).
    public func integers(_ w: WindowID, atom: Atom) -> [Int] {
        var type: UInt = 0, format: Int32 = 0, count: UInt = 0, after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        let status = XGetWindowProperty(
            raw, w.rawValue, atom.rawValue, 0, 4096, 0, UInt(AnyPropertyType), &type, &format, &count, &after, &data)
        defer { if let data { XFree(data) } }
        guard status == Success, format == 32, let data else { return [] }
        return data.withMemoryRebound(to: Int.self, capacity: Int(count)) { Array(UnsafeBufferPointer(start: $0, count: Int(count))) }
    }

    /// `WM_CLASS` as instance and class name.
    public func setClass(_ w: WindowID, instance: String, className: String) {
        let hint = XAllocClassHint()!
        hint.pointee.res_name = strdup(instance)
        hint.pointee.res_class = strdup(className)
        XSetClassHint(raw, w.rawValue, hint)
        free(hint.pointee.res_name)
        free(hint.pointee.res_class)
        XFree(hint)
    }

    /// `WM_PROTOCOLS`.
    public func setProtocols(_ w: WindowID, _ protocols: [AtomName]) {
        var atoms = protocols.map { self[$0].rawValue }
        XSetWMProtocols(raw, w.rawValue, &atoms, Int32(atoms.count))
    }

    /// `WM_NORMAL_HINTS`: a program-chosen position and size, a minimum size, a fixed aspect ratio
    /// and a zero base size (some window managers skew the ratio by the base size otherwise).
    public func setSizeHints(_ w: WindowID, position: Rect, minimum: (Int, Int), aspect: (Int, Int)?) {
        let hints = XAllocSizeHints()!
        defer { XFree(hints) }
        hints.pointee.flags = PPosition | PSize | USPosition | USSize | PMinSize | PBaseSize | PWinGravity
        hints.pointee.x = Int32(clamping: position.x)
        hints.pointee.y = Int32(clamping: position.y)
        hints.pointee.width = Int32(clamping: position.width)
        hints.pointee.height = Int32(clamping: position.height)
        hints.pointee.min_width = Int32(minimum.0)
        hints.pointee.min_height = Int32(minimum.1)
        hints.pointee.base_width = 0
        hints.pointee.base_height = 0
        hints.pointee.win_gravity = NorthWestGravity
        if let aspect {
            hints.pointee.flags |= PAspect
            hints.pointee.min_aspect.x = Int32(aspect.0)
            hints.pointee.min_aspect.y = Int32(aspect.1)
            hints.pointee.max_aspect = hints.pointee.min_aspect
        }
        XSetWMNormalHints(raw, w.rawValue, hints)
    }

    /// `WM_HINTS`: accepts input, starts in the normal (not iconic) state.
    public func setWMHints(_ w: WindowID, acceptsFocus: Bool) {
        let hints = XAllocWMHints()!
        defer { XFree(hints) }
        hints.pointee.flags = InputHint | StateHint
        hints.pointee.input = acceptsFocus ? 1 : 0
        hints.pointee.initial_state = NormalState
        XSetWMHints(raw, w.rawValue, hints)
    }

    /// The host name for `WM_CLIENT_MACHINE`.
    public static var hostName: String {
        var buffer = [UInt8](repeating: 0, count: 256)
        gethostname(&buffer, 255)
        return String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self)
    }

    // MARK: requests to the window manager

    /// Sends an EWMH client message about `window` to the root window.
    public func sendToRoot(about window: WindowID, _ type: AtomName, _ data: [Int]) {
        var event = clientMessage(window, self[type], data)
        XSendEvent(raw, root.rawValue, 0, EventMask([.substructureRedirect, .substructureNotify]).rawValue, &event)
    }

    /// Answers a window manager's `_NET_WM_PING` (EWMH): the same message, sent back to the root.
    /// Being answered in event order, it also tells the pinger that everything before it was handled.
    public func answerPing(_ data: (Int, Int, Int, Int, Int)) {
        sendToRoot(about: root, .WM_PROTOCOLS, [data.0, data.1, data.2, data.3, data.4])
    }

    /// A format-32 ClientMessage of `type` about `window`, ready to send.
    func clientMessage(_ window: WindowID, _ type: Atom, _ data: [Int]) -> XEvent {
        var event = XEvent()
        event.xclient.type = ClientMessage
        event.xclient.window = window.rawValue
        event.xclient.message_type = type.rawValue
        event.xclient.format = 32
        var d = (0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &d) { raw in
            let l = raw.bindMemory(to: Int.self)
            for (i, v) in data.prefix(5).enumerated() { l[i] = v }
        }
        event.xclient.data.l = d
        return event
    }

    /// Sends a format-32 client message to `w` itself (no event mask: it goes to the window's owner).
    public func sendClientMessage(to w: WindowID, _ type: AtomName, _ data: [Int]) {
        sendClientMessage(to: w, type: self[type], data: data)
    }
}

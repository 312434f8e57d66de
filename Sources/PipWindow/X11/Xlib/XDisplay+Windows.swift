import CX11
import PipCore

/// Windows: creation, mapping, geometry, the window tree, the pointer and drawing.
extension XDisplay {
    /// Creates an unmapped window with a black background and no border, in the default visual.
    /// Inside another program's window whose visual differs (GTK's sockets use their own), the
    /// window gets a colormap of its own: inheriting the parent's would fail with BadMatch.
    public func createWindow(
        parent: WindowID? = nil, rect: Rect, events: EventMask, overrideRedirect: Bool = false
    ) -> WindowID {
        var attributes = XSetWindowAttributes()
        attributes.background_pixel = XBlackPixel(raw, screen)
        attributes.border_pixel = 0
        attributes.event_mask = events.rawValue
        attributes.override_redirect = overrideRedirect ? 1 : 0
        attributes.bit_gravity = NorthWestGravity
        var mask = UInt(CWBackPixel | CWBorderPixel | CWEventMask | CWOverrideRedirect | CWBitGravity)
        if let parent, visualID(of: parent).map({ $0 != XVisualIDFromVisual(visual) }) ?? false {
            attributes.colormap = XCreateColormap(raw, root.rawValue, visual, AllocNone)
            mask |= UInt(CWColormap)
        }
        return WindowID(XCreateWindow(
            raw, (parent ?? root).rawValue, Int32(clamping: rect.x), Int32(clamping: rect.y), UInt32(clamping: max(1, rect.width)),
            UInt32(clamping: max(1, rect.height)),
            0, depth, UInt32(InputOutput), visual, mask, &attributes))
    }

    /// The visual of `w` (nil when it is gone).
    func visualID(of w: WindowID) -> VisualID? {
        let (id, error) = withErrorTrap { () -> VisualID? in
            var attributes = XWindowAttributes()
            guard XGetWindowAttributes(raw, w.rawValue, &attributes) != 0, let v = attributes.visual else { return nil }
            return XVisualIDFromVisual(v)
        }
        return error == nil ? id : nil
    }

    public func map(_ w: WindowID) { XMapWindow(raw, w.rawValue) }
    public func unmap(_ w: WindowID) { XUnmapWindow(raw, w.rawValue) }
    public func raise(_ w: WindowID) { XRaiseWindow(raw, w.rawValue) }
    public func destroy(_ w: WindowID) { XDestroyWindow(raw, w.rawValue) }
    /// Destroys `w` if it still exists: another client may have destroyed it already.
    public func destroyIfPresent(_ w: WindowID) { _ = withErrorTrap { XDestroyWindow(raw, w.rawValue) } }
    public func moveResize(_ w: WindowID, to r: Rect) {
        XMoveResizeWindow(
            raw, w.rawValue, Int32(clamping: r.x), Int32(clamping: r.y), UInt32(clamping: max(1, r.width)), UInt32(clamping: max(1, r.height)))
    }
    public func selectInput(_ w: WindowID, _ events: EventMask) { XSelectInput(raw, w.rawValue, events.rawValue) }

    /// Grabs the pointer for a move or resize the program does itself.
    public func grabPointer(_ w: WindowID, time: UInt) -> Bool {
        let mask = UInt32(EventMask([.buttonRelease, .pointerMotion]).rawValue)
        return XGrabPointer(raw, w.rawValue, 0, mask, GrabModeAsync, GrabModeAsync, 0, 0, time) == GrabSuccess
    }

    public func ungrabPointer(time: UInt) { XUngrabPointer(raw, time) }

    /// Whether any pointer button is held down now (a window manager may be moving a window).
    public func pointerButtonsDown() -> Bool {
        queryPointer().buttons & UInt32(Button1Mask | Button2Mask | Button3Mask) != 0
    }

    /// Where the pointer is now, in root coordinates.
    public func pointerPosition() -> (x: Int, y: Int) {
        let p = queryPointer()
        return (p.x, p.y)
    }

    private func queryPointer() -> (x: Int, y: Int, buttons: UInt32) {
        var rootReturn: UInt = 0, child: UInt = 0
        var rx: Int32 = 0, ry: Int32 = 0, wx: Int32 = 0, wy: Int32 = 0
        var mask: UInt32 = 0
        XQueryPointer(raw, root.rawValue, &rootReturn, &child, &rx, &ry, &wx, &wy, &mask)
        return (Int(rx), Int(ry), mask)
    }

    /// Dots per inch of the screen (from its size in millimetres), for choosing 1× or 2× icons.
    public var dotsPerInch: Double {
        let mm = XDisplayWidthMM(raw, screen)
        return mm > 0 ? Double(XDisplayWidth(raw, screen)) * 25.4 / Double(mm) : 96
    }

    /// The screen's size in pixels (no round trip).
    public var screenSize: (width: Int, height: Int) { (Int(XDisplayWidth(raw, screen)), Int(XDisplayHeight(raw, screen))) }

    /// Whether overlays use their 2× icons and text: a high-DPI screen (over 150 dpi).
    public var prefersDoubleSize: Bool { dotsPerInch > 150 }

    /// A window's rectangle in root coordinates (nil if it is gone).
    public func rootGeometry(of w: WindowID) -> Rect? {
        let (rect, error) = withErrorTrap { () -> Rect? in
            var rootReturn: UInt = 0, child: UInt = 0
            var x: Int32 = 0, y: Int32 = 0, width: UInt32 = 0, height: UInt32 = 0, border: UInt32 = 0, depth: UInt32 = 0
            guard XGetGeometry(raw, w.rawValue, &rootReturn, &x, &y, &width, &height, &border, &depth) != 0 else { return nil }
            var rx: Int32 = 0, ry: Int32 = 0
            guard XTranslateCoordinates(raw, w.rawValue, root.rawValue, 0, 0, &rx, &ry, &child) != 0 else { return nil }
            return Rect(x: Int(rx), y: Int(ry), width: Int(width), height: Int(height))
        }
        return error == nil ? rect : nil
    }

    /// Whether `w` is mapped (nil when the window does not exist).
    public func isMapped(_ w: WindowID) -> Bool? {
        mapState(w).map { $0 != IsUnmapped }
    }

    /// Whether `w` and all its ancestors are mapped, i.e. it can be on screen (nil when it does not exist).
    public func isViewable(_ w: WindowID) -> Bool? {
        mapState(w).map { $0 == IsViewable }
    }

    private func mapState(_ w: WindowID) -> Int32? {
        let (state, error) = withErrorTrap { () -> Int32? in
            var attributes = XWindowAttributes()
            guard XGetWindowAttributes(raw, w.rawValue, &attributes) != 0 else { return nil }
            return attributes.map_state
        }
        return error == nil ? state : nil
    }

    /// Selects events on a window another client may destroy at any moment; false if it is gone.
    /// The events already selected are kept: a client has one event mask per window, so selecting
    /// anew would drop what another part of pipcam asked for on its own window.
    public func watch(_ w: WindowID, _ events: EventMask) -> Bool {
        let (ok, error) = withErrorTrap { () -> Bool in
            var attributes = XWindowAttributes()
            guard XGetWindowAttributes(raw, w.rawValue, &attributes) != 0 else { return false }
            XSelectInput(raw, w.rawValue, attributes.your_event_mask | events.rawValue)
            return true
        }
        return ok && error == nil
    }

    /// The parent of `w` (nil when `w` is gone or is the root).
    public func parent(of w: WindowID) -> WindowID? {
        tree(of: w).map { $0.parent == 0 || w == root ? nil : $0.parent } ?? nil
    }

    /// The children of `w`, bottom to top (none when `w` is gone).
    public func children(of w: WindowID) -> [WindowID] {
        tree(of: w)?.children ?? []
    }

    private func tree(of w: WindowID) -> (parent: WindowID, children: [WindowID])? {
        let (tree, error) = withErrorTrap { () -> (WindowID, [WindowID])? in
            var rootReturn: UInt = 0, parentReturn: UInt = 0
            var children: UnsafeMutablePointer<UInt>?
            var count: UInt32 = 0
            guard XQueryTree(raw, w.rawValue, &rootReturn, &parentReturn, &children, &count) != 0 else { return nil }
            defer { if let children { XFree(children) } }
            let ids = children.map { UnsafeBufferPointer(start: $0, count: Int(count)).map { WindowID($0) } } ?? []
            return (WindowID(parentReturn), ids)
        }
        return error == nil ? tree : nil
    }

    /// The application window `w` names: the managed window (it has `WM_STATE`) it is or is
    /// inside, else (a window manager's frame) the managed window inside it, else `topLevel(of:)`.
    public func applicationWindow(of w: WindowID) -> WindowID {
        let top = topLevel(of: w)
        guard integers(top, .WM_STATE).isEmpty else { return top }
        // Breadth first, as frames hold the client a level or two down; of several (a tabbed
        // frame) the one shown, topmost first.
        var level = [top]
        for _ in 0..<4 {
            level = level.flatMap { children(of: $0) }
            let clients = level.filter { !integers($0, .WM_STATE).isEmpty }.reversed()
            if let client = clients.first(where: { isViewable($0) == true }) ?? clients.first { return client }
        }
        return top
    }

    /// The application window `w` belongs to: the nearest ancestor (or `w` itself) that a window
    /// manager manages (it has `WM_STATE`), else the ancestor just below the root.
    public func topLevel(of w: WindowID) -> WindowID {
        var current = w
        while integers(current, .WM_STATE).isEmpty, let p = parent(of: current), p != root { current = p }
        return current
    }

    /// A new graphics context without exposure events (image puts would generate them otherwise).
    public func createGC(_ w: WindowID) -> OpaquePointer {
        var values = XGCValues()
        values.graphics_exposures = 0
        return XCreateGC(raw, w.rawValue, UInt(GCGraphicsExposures), &values)
    }

    public func freeGC(_ gc: OpaquePointer) { XFreeGC(raw, gc) }

    /// Fills a rectangle of a window with black.
    public func fillBlack(_ w: WindowID, _ gc: OpaquePointer, _ r: Rect) {
        XSetForeground(raw, gc, XBlackPixel(raw, screen))
        XFillRectangle(raw, w.rawValue, gc, Int32(r.x), Int32(r.y), UInt32(r.width), UInt32(r.height))
    }
}

import CX11
import PipCore
#if canImport(Glibc)
import Glibc
#endif

/// Selections and client messages: owning `_PIPCAM_S<screen>`, sending commands, converting and answering.
extension XDisplay {
    /// The atom called `name`, created if it does not exist yet.
    public func intern(_ name: String) -> Atom { Atom(XInternAtom(raw, name, 0)) }

    /// A server timestamp for `window` (which must select property changes): appends nothing to a
    /// property and takes the time of the PropertyNotify that causes (ICCCM 2.1; `CurrentTime` is
    /// not good enough to own a selection). Other events stay queued.
    public func serverTime(_ window: WindowID) -> UInt {
        var nothing: UInt8 = 0
        XChangeProperty(raw, window.rawValue, self[._PIPCAM_TIMESTAMP].rawValue, self[.STRING_].rawValue, 8, PropModeAppend, &nothing, 0)
        var event = XEvent()
        while true {
            XWindowEvent(raw, window.rawValue, EventMask.propertyChange.rawValue, &event)
            if event.type == PropertyNotify && event.xproperty.atom == self[._PIPCAM_TIMESTAMP].rawValue { return event.xproperty.time }
        }
    }

    /// The window owning `selection`, or nil.
    public func selectionOwner(_ selection: Atom) -> WindowID? {
        let owner = XGetSelectionOwner(raw, selection.rawValue)
        return owner == 0 ? nil : WindowID(owner)
    }

    /// Makes `window` the owner of `selection` as of `time` if no client owns it; true if the
    /// server says it now is. The check and the claim run with the server grabbed: X lets a later
    /// claim replace an owner, so two programs that both saw none would otherwise both win.
    public func claimSelectionIfUnowned(_ selection: Atom, for window: WindowID, time: UInt) -> Bool {
        XGrabServer(raw)
        defer {
            XUngrabServer(raw)
            XFlush(raw)
        }
        guard XGetSelectionOwner(raw, selection.rawValue) == 0 else { return false }
        XSetSelectionOwner(raw, selection.rawValue, window.rawValue, time)
        return XGetSelectionOwner(raw, selection.rawValue) == window.rawValue
    }

    /// Sends a format-32 ClientMessage to the client that created `window`; false if the window is gone.
    @discardableResult
    public func sendClientMessage(to window: WindowID, type: Atom, data: [Int]) -> Bool {
        var event = clientMessage(window, type, data)
        return withErrorTrap { XSendEvent(raw, window.rawValue, 0, 0, &event) }.1 == nil
    }

    /// Asks the owner of `selection` for it as `target`, to be written to `property` on `requestor`;
    /// the answer carries `time` back (0: `CurrentTime`).
    public func convertSelection(_ selection: Atom, target: Atom, property: Atom, requestor: WindowID, time: UInt = 0) {
        XConvertSelection(raw, selection.rawValue, target.rawValue, property.rawValue, requestor.rawValue, time)
    }

    /// Answers `request` with text of type `type` (nil: refuse); false if the requestor is gone.
    @discardableResult
    public func answer(_ request: SelectionRequest, text: [UInt8]?, type: Atom) -> Bool {
        answer(request) { property in
            var bytes = text ?? []
            XChangeProperty(raw, request.requestor.rawValue, property, type.rawValue, 8, PropModeReplace, &bytes, Int32(bytes.count))
        } refuse: { text == nil }
    }

    /// Answers `request` with a list of atoms (the TARGETS conversion).
    @discardableResult
    public func answer(_ request: SelectionRequest, atoms: [Atom]) -> Bool {
        answer(request) { property in
            var values = atoms.map { Int(bitPattern: $0.rawValue) }
            values.withUnsafeMutableBytes { bytes in
                _ = XChangeProperty(
                    raw, request.requestor.rawValue, property, self[.ATOM_].rawValue, 32, PropModeReplace,
                    bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(atoms.count))
            }
        } refuse: { false }
    }

    // The requestor may be any client, even a hostile or vanished one: trap what fails.
    private func answer(_ request: SelectionRequest, write: (UInt) -> Void, refuse: () -> Bool) -> Bool {
        withErrorTrap { () -> Void in
            let property = (request.property != .none ? request.property : request.target).rawValue
            let refused = refuse()
            if !refused { write(property) }
            var event = XEvent()
            event.xselection.type = SelectionNotify
            event.xselection.requestor = request.requestor.rawValue
            event.xselection.selection = request.selection.rawValue
            event.xselection.target = request.target.rawValue
            event.xselection.property = refused ? 0 : property
            event.xselection.time = request.time
            XSendEvent(raw, request.requestor.rawValue, 0, 0, &event)
        }.1 == nil
    }

    /// Reads a property as bytes and deletes it (the end of a selection transfer); nil if absent.
    public func takeProperty(_ window: WindowID, _ property: Atom) -> [UInt8]? {
        var type: UInt = 0, format: Int32 = 0, count: UInt = 0, after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        let status = XGetWindowProperty(
            raw, window.rawValue, property.rawValue, 0, 1 << 20, 1, UInt(AnyPropertyType), &type, &format, &count, &after, &data)
        defer { if let data { XFree(data) } }
        guard status == Success, type != 0, format == 8, let data else { return nil }
        return Array(UnsafeBufferPointer(start: data, count: Int(count)))
    }

    /// The parameter a requestor put in its property for a conversion (ICCCM 2.2), as bytes, at
    /// most `limit + 1` of them; nil when absent, not 8-bit, or the requestor is gone. Not
    /// deleted: the answer replaces it.
    public func parameter(of request: SelectionRequest, limit: Int) -> [UInt8]? {
        guard request.property != .none else { return nil }
        var type: UInt = 0, format: Int32 = 0, count: UInt = 0, after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        let (status, error) = withErrorTrap {
            XGetWindowProperty(
                raw, request.requestor.rawValue, request.property.rawValue, 0, (limit + 4) / 4, 0, UInt(AnyPropertyType), &type, &format,
                &count, &after, &data)
        }
        defer { if let data { XFree(data) } }
        guard error == nil, status == Success, type != 0, format == 8, let data else { return nil }
        // Longer than `limit`: the first `limit + 1` bytes, which the caller tells from a request.
        return Array(UnsafeBufferPointer(start: data, count: min(Int(count), limit + 1)))
    }

    /// Sets an 8-bit text property named by an interned atom (a conversion's parameter).
    public func setProperty(_ w: WindowID, atom: Atom, bytes: [UInt8], type: AtomName = .UTF8_STRING) {
        var bytes = bytes
        XChangeProperty(raw, w.rawValue, atom.rawValue, self[type].rawValue, 8, PropModeReplace, &bytes, Int32(bytes.count))
    }

    /// Waits up to `milliseconds` for the next event; nil on timeout.
    public func nextEvent(withinMilliseconds milliseconds: Int) -> WindowEvent? {
        let deadline = MonotonicInstant.now().advanced(byNanoseconds: Int64(max(0, milliseconds)) * 1_000_000)
        while true {
            if pendingEvents > 0 { return nextEvent() }
            let now = MonotonicInstant.now()
            guard now < deadline else { return nil }
            var descriptor = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, Int32((deadline.nanoseconds - now.nanoseconds + 999_999) / 1_000_000))
        }
    }

    /// The events of `translate` that concern the control channel and the hotkey.
    func translateControlEvent(_ e: inout XEvent) -> WindowEvent {
        switch e.type {
        case MappingNotify:
            if e.xmapping.request == MappingPointer { return .other }
            XRefreshKeyboardMapping(&e.xmapping)
            return .keyboardMappingChanged
        case CX11.SelectionRequest:
            let r = e.xselectionrequest
            return .selectionRequest(
                SelectionRequest(
                    owner: WindowID(r.owner), requestor: WindowID(r.requestor), selection: Atom(r.selection), target: Atom(r.target),
                    property: Atom(r.property), time: r.time))
        case SelectionNotify:
            let s = e.xselection
            return .selectionNotify(
                requestor: WindowID(s.requestor), selection: Atom(s.selection), target: Atom(s.target), property: Atom(s.property),
                time: s.time)
        case SelectionClear:
            return .selectionClear(window: WindowID(e.xselectionclear.window), selection: Atom(e.xselectionclear.selection))
        default:
            return .other
        }
    }
}

import CX11
import PipCore
#if canImport(Glibc)
import Glibc
import PipConvert
#endif

// Xlib calls error handlers with no context pointer, so what they record lives here. Only the thread
// that owns the connection makes requests, so only it reads or writes these.
nonisolated(unsafe) private var trappedError: XErrorRecord?
nonisolated(unsafe) private var untrappedErrors = 0

private let recordingErrorHandler: @convention(c) (OpaquePointer?, UnsafeMutablePointer<XErrorEvent>?) -> Int32 = {
    _, event in
    guard let e = event?.pointee else { return 0 }
    let record = XErrorRecord(errorCode: e.error_code, requestCode: e.request_code, resource: e.resourceid)
    if trappedError == nil { trappedError = record }
    untrappedErrors += 1
    return 0
}

private let connectionLostHandler: @convention(c) (OpaquePointer?) -> Int32 = { _ in
    writeErrorLine("pipcam: lost the connection to the X server")
    XDisplay.lastWordsOnLostConnection?()
    exit(1)
}

/// The connection to the X server and every Xlib call pipcam makes: verbs without policy.
///
/// One thread owns a display: create it there and call it only from there.
public final class XDisplay {
    let raw: OpaquePointer
    public let screen: Int32
    public let root: WindowID
    /// Run on the display's thread when the connection to the X server is lost, just before the
    /// process exits with 1 (Xlib lets nothing return from there): a stats line, say.
    nonisolated(unsafe) public static var lastWordsOnLostConnection: (() -> Void)?
    /// The connection's descriptor, to poll for incoming events.
    public let fileDescriptor: Int32
    private var atomValues: [Atom] = []
    private let shmEventBase: Int32
    public let hasShm: Bool
    /// The server refused to attach a segment: images are made without shared memory from then on.
    public internal(set) var shmRefused = false
    /// RandR's first event number, -1 without RandR.
    let randrEventBase: Int32
    let visual: UnsafeMutablePointer<Visual>
    public let depth: Int32

    /// Opens `name` (nil: `$DISPLAY`).
    public init(name: String? = nil) throws {
        XInitThreads()
        guard let d = XOpenDisplay(name) else {
            throw DisplayError.cannotOpen(name ?? String(cString: XDisplayName(nil)))
        }
        raw = d
        XSetErrorHandler(recordingErrorHandler)
        XSetIOErrorHandler(connectionLostHandler)
        screen = XDefaultScreen(d)
        root = WindowID(XRootWindow(d, screen))
        fileDescriptor = XConnectionNumber(d)
        visual = XDefaultVisual(d, screen)
        depth = XDefaultDepth(d, screen)
        var names = AtomName.allCases.map { strdup($0.rawValue) }
        defer { names.forEach { free($0) } }
        var values = [UInt](repeating: 0, count: names.count)
        _ = names.withUnsafeMutableBufferPointer { n in
            values.withUnsafeMutableBufferPointer { a in
                XInternAtoms(d, n.baseAddress, Int32(n.count), 0, a.baseAddress)
            }
        }
        var major: Int32 = 0, minor: Int32 = 0, pixmaps: Int32 = 0
        // libXext prints its own "extension missing" line when asked for the version of one the
        // server lacks: the core protocol says first whether it has it.
        var opcode: Int32 = 0, firstEvent: Int32 = 0, firstError: Int32 = 0
        let shm = XQueryExtension(d, "MIT-SHM", &opcode, &firstEvent, &firstError) != 0
            && XShmQueryVersion(d, &major, &minor, &pixmaps) != 0
        hasShm = shm
        shmEventBase = shm ? XShmGetEventBase(d) : -1
        randrEventBase = Self.randrEventBase(d)
        atomValues = values.map { Atom($0) }
    }

    /// Closes the connection.
    public func close() { XCloseDisplay(raw) }

    private static let atomIndex: [AtomName: Int] = Dictionary(
        uniqueKeysWithValues: AtomName.allCases.enumerated().map { ($1, $0) })

    public subscript(atom: AtomName) -> Atom { atomValues[Self.atomIndex[atom]!] }

    /// The default visual's pixel format, as images on it are laid out.
    public var visualMasks: VisualMasks {
        var count: Int32 = 0
        var bpp = 32
        if let formats = XListPixmapFormats(raw, &count) {
            for i in 0..<Int(count) where formats[i].depth == depth { bpp = Int(formats[i].bits_per_pixel) }
            XFree(formats)
        }
        return VisualMasks(
            red: visual.pointee.red_mask, green: visual.pointee.green_mask, blue: visual.pointee.blue_mask,
            bitsPerPixel: bpp, imageMSBFirst: CX11_ImageByteOrder(raw) == MSBFirst)
    }

    // MARK: errors

    /// Runs `body` and reports the first X error its requests caused (it syncs to find out).
    @discardableResult
    public func withErrorTrap<T>(_ body: () throws -> T) rethrows -> (T, XErrorRecord?) {
        XSync(raw, 0)
        trappedError = nil
        let value = try body()
        XSync(raw, 0)
        let error = trappedError
        trappedError = nil
        return (value, error)
    }

    // MARK: event loop

    public var pendingEvents: Int32 { XPending(raw) }
    public func flush() { XFlush(raw) }
    public func sync() { XSync(raw, 0) }

    /// Takes the next queued event and translates it.
    public func nextEvent() -> WindowEvent {
        var event = XEvent()
        XNextEvent(raw, &event)
        return translate(&event)
    }

    private func translate(_ e: inout XEvent) -> WindowEvent {
        func pointer(_ window: UInt, _ button: UInt32, _ x: Int32, _ y: Int32, _ rx: Int32, _ ry: Int32, _ t: UInt, _ s: UInt32)
            -> PointerEvent
        {
            PointerEvent(
                window: WindowID(window), button: Int(button), x: Int(x), y: Int(y), rootX: Int(rx), rootY: Int(ry), time: t, state: s)
        }
        switch e.type {
        case ConfigureNotify:
            let c = e.xconfigure
            return .configure(
                window: WindowID(c.window), rect: Rect(x: Int(c.x), y: Int(c.y), width: Int(c.width), height: Int(c.height)),
                synthetic: c.send_event != 0)
        case Expose: return .expose(window: WindowID(e.xexpose.window), count: Int(e.xexpose.count))
        case ButtonPress, ButtonRelease:
            let b = e.xbutton
            let p = pointer(b.window, b.button, b.x, b.y, b.x_root, b.y_root, b.time, b.state)
            return e.type == ButtonPress ? .buttonPress(p) : .buttonRelease(p)
        case EnterNotify: return .pointerEntered(WindowID(e.xcrossing.window))
        case LeaveNotify: return .pointerLeft(WindowID(e.xcrossing.window))
        case KeyPress where e.xkey.window == root.rawValue, KeyRelease where e.xkey.window == root.rawValue:
            let k = e.xkey
            return .rootKey(keycode: k.keycode, state: k.state, time: k.time, pressed: e.type == KeyPress)
        case KeyPress:
            let keysym = XLookupKeysym(&e.xkey, 0)
            return .keyPress(window: WindowID(e.xkey.window), keysym: Keysym(keysym), state: e.xkey.state)
        case MotionNotify:
            let m = e.xmotion
            return .motion(pointer(m.window, 0, m.x, m.y, m.x_root, m.y_root, m.time, m.state))
        case ClientMessage:
            let c = e.xclient
            return .clientMessage(window: WindowID(c.window), type: Atom(c.message_type), data: c.data.l)
        case PropertyNotify:
            let p = e.xproperty
            return .property(window: WindowID(p.window), atom: Atom(p.atom), deleted: p.state == PropertyDelete)
        case MapNotify: return .mapped(WindowID(e.xmap.window))
        case UnmapNotify: return .unmapped(WindowID(e.xunmap.window))
        case DestroyNotify: return .destroyed(WindowID(e.xdestroywindow.window))
        case ReparentNotify: return .reparented(window: WindowID(e.xreparent.window), parent: WindowID(e.xreparent.parent))
        case VisibilityNotify:
            let v = e.xvisibility
            return .visibility(
                window: WindowID(v.window), fullyObscured: v.state == VisibilityFullyObscured, unobscured: v.state == VisibilityUnobscured)
        case shmEventBase + CX11_ShmCompletionOffset() where hasShm:
            let segment = withUnsafePointer(to: &e) {
                $0.withMemoryRebound(to: XShmCompletionEvent.self, capacity: 1) { $0.pointee.shmseg }
            }
            return .shmCompletion(segment: segment)
        default: return translateScreenEvent(&e) ?? translateControlEvent(&e)
        }
    }
}

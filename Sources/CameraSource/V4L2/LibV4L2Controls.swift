import CV4L2
import PipCore
#if canImport(Glibc)
import Glibc
#endif

/// A camera's controls through a handle of their own on its node: no format set, no buffers, so
/// it works while another handle, or another process (a running pipcam, PipeWire), streams.
public final class LibV4L2Controls: ControlsByDescriptor {
    public let fileDescriptor: Int32
    /// `VIDIOC_QUERYCAP` of the node, asked as it was opened.
    public let capabilities: V4L2Capabilities
    private var isClosed = false

    private init(fileDescriptor: Int32, capabilities: V4L2Capabilities) {
        self.fileDescriptor = fileDescriptor
        self.capabilities = capabilities
    }

    /// Opens `path` for its controls; the node is closed when the handle is released. Throws
    /// ENOTTY (as "open") for a node that is not V4L2.
    public static func open(path: String) throws(V4L2Error) -> any CameraControlAccess {
        try handle(path)
    }

    /// The capabilities of the node at `path` (on a handle of its own, closed at once), or nil
    /// when it cannot be opened or is not V4L2: what `CameraIdentity` falls back on.
    public static func capabilities(path: String) -> V4L2Capabilities? {
        (try? handle(path))?.capabilities
    }

    private static func handle(_ path: String) throws(V4L2Error) -> LibV4L2Controls {
        let (fd, code) = SystemCall.retryingInterrupts { Glibc.open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else { throw V4L2Error(call: "open", errno: code) }
        do {
            return LibV4L2Controls(fileDescriptor: fd, capabilities: try V4L2Calls.capabilities(of: fd, throughLibV4L2: false))
        } catch {
            _ = Glibc.close(fd)
            throw V4L2Error(call: "open", errno: error.errno == EINVAL ? ENOTTY : error.errno)
        }
    }

    deinit { close() }

    /// Closes the descriptor now rather than when the handle is released.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        _ = Glibc.close(fileDescriptor)
    }
}

extension LibV4L2Device: ControlsByDescriptor {}

/// A handle whose controls are reached by ioctls on its descriptor (`V4L2ControlCalls`).
public protocol ControlsByDescriptor: CameraControlAccess {
    var fileDescriptor: Int32 { get }
}

extension ControlsByDescriptor {
    public func queryControls() throws(V4L2Error) -> [CameraControl] {
        try V4L2ControlCalls.queryControls(fileDescriptor)
    }

    public func controlValue(_ id: UInt32) throws(V4L2Error) -> Int64 {
        try V4L2ControlCalls.value(fileDescriptor, id)
    }

    public func setControl(_ id: UInt32, to value: Int64) throws(V4L2Error) {
        try V4L2ControlCalls.set(fileDescriptor, id, to: value)
    }
}

/// The control ioctls on a descriptor, straight to the driver: libv4l2 adds software controls of
/// its own to the handles it converts for, which another handle or process would not see, so
/// every handle is given the driver's controls alone.
enum V4L2ControlCalls {
    /// Controls listed at most (a driver whose NEXT_CTRL never ends must not hang pipcam).
    static let controlLimit = 1024
    /// Menu indices asked at most per menu.
    static let menuLimit: Int64 = 256

    static func queryControls(_ fd: Int32) throws(V4L2Error) -> [CameraControl] {
        var query = v4l2_query_ext_ctrl()
        query.id = CV4L2_CTRL_FLAG_NEXT_CTRL | CV4L2_CTRL_FLAG_NEXT_COMPOUND
        var described: [Description] = []
        var previous: UInt32?
        for _ in 0..<controlLimit {
            let code = V4L2Calls.ioctl(fd, CV4L2_VIDIOC_QUERY_EXT_CTRL, &query, throughLibV4L2: false)
            if code == EINVAL || code == ENOTTY {
                // Drivers older than QUERY_EXT_CTRL (Linux 3.17) know QUERYCTRL only.
                if previous == nil { return try queryControlsTheOldWay(fd) }
                break
            }
            if code != 0 { throw V4L2Error(call: "VIDIOC_QUERY_EXT_CTRL", errno: code) }
            let found = query.id
            if let previous, found <= previous { break }
            previous = found
            if query.type != CV4L2_CTRL_TYPE_CTRL_CLASS && query.type < CV4L2_CTRL_COMPOUND_TYPES {
                described.append(Description(
                    id: found, type: query.type, label: V4L2Calls.string(&query.name), minimum: query.minimum,
                    maximum: query.maximum, step: Int64(clamping: query.step), defaultValue: query.default_value,
                    flags: query.flags))
            }
            query = v4l2_query_ext_ctrl()
            query.id = found | CV4L2_CTRL_FLAG_NEXT_CTRL | CV4L2_CTRL_FLAG_NEXT_COMPOUND
        }
        return try described.map { d throws(V4L2Error) in try control(fd, d) }
    }

    private static func queryControlsTheOldWay(_ fd: Int32) throws(V4L2Error) -> [CameraControl] {
        var query = v4l2_queryctrl()
        query.id = CV4L2_CTRL_FLAG_NEXT_CTRL
        var described: [Description] = []
        var previous: UInt32 = 0
        for _ in 0..<controlLimit {
            let code = V4L2Calls.ioctl(fd, CV4L2_VIDIOC_QUERYCTRL, &query, throughLibV4L2: false)
            if code == EINVAL || code == ENOTTY { break }
            if code != 0 { throw V4L2Error(call: "VIDIOC_QUERYCTRL", errno: code) }
            let found = query.id
            if found <= previous { break }
            previous = found
            if query.type != CV4L2_CTRL_TYPE_CTRL_CLASS && query.type < CV4L2_CTRL_COMPOUND_TYPES {
                described.append(Description(
                    id: found, type: query.type, label: V4L2Calls.string(&query.name), minimum: Int64(query.minimum),
                    maximum: Int64(query.maximum), step: Int64(query.step), defaultValue: Int64(query.default_value),
                    flags: query.flags))
            }
            query = v4l2_queryctrl()
            query.id = found | CV4L2_CTRL_FLAG_NEXT_CTRL
        }
        return try described.map { d throws(V4L2Error) in try control(fd, d) }
    }

    /// What a query said of one control, before its menu and value are read.
    private struct Description {
        var id: UInt32, type: UInt32, label: String
        var minimum: Int64, maximum: Int64, step: Int64, defaultValue: Int64, flags: UInt32
    }

    private static func control(_ fd: Int32, _ d: Description) throws(V4L2Error) -> CameraControl {
        let kind = kind(d.type)
        var control = CameraControl(
            id: d.id, label: d.label, kind: kind, minimum: d.minimum, maximum: d.maximum, step: d.step,
            defaultValue: d.defaultValue, flags: flags(d.flags))
        if kind == .menu || kind == .integerMenu {
            control.menu = try menu(fd, control)
        }
        if control.hasValue && !control.flags.contains(.disabled) {
            // Some drivers refuse to read a control in some states (EACCES, EIO): it has no value then.
            do { control.value = try value(fd, d.id) } catch where error.errno == ENODEV { throw error } catch {}
        }
        return control
    }

    private static func menu(_ fd: Int32, _ control: CameraControl) throws(V4L2Error) -> [CameraControl.MenuItem] {
        guard control.minimum >= 0, control.maximum >= control.minimum else { return [] }
        var items: [CameraControl.MenuItem] = []
        // A driver's range may be anywhere in 64 bits; menu indices are 32-bit.
        let last = min(control.maximum, control.minimum.addingSaturated(menuLimit - 1), Int64(UInt32.max))
        guard last >= control.minimum else { return [] }
        for index in control.minimum...last {
            var item = v4l2_querymenu()
            item.id = control.id
            item.index = UInt32(index)
            let code = V4L2Calls.ioctl(fd, CV4L2_VIDIOC_QUERYMENU, &item, throughLibV4L2: false)
            if code == EINVAL { continue }  // an index the driver leaves out (UVC exposure: 1 and 3 only)
            if code != 0 { throw V4L2Error(call: "VIDIOC_QUERYMENU", errno: code) }
            let name = control.kind == .integerMenu ? String(item.value) : V4L2Calls.string(&item.name)
            items.append(CameraControl.MenuItem(index: index, name: name))
        }
        return items
    }

    private static func kind(_ type: UInt32) -> CameraControl.Kind {
        switch type {
        case CV4L2_CTRL_TYPE_INTEGER: return .integer
        case CV4L2_CTRL_TYPE_BOOLEAN: return .boolean
        case CV4L2_CTRL_TYPE_MENU: return .menu
        case CV4L2_CTRL_TYPE_INTEGER_MENU: return .integerMenu
        case CV4L2_CTRL_TYPE_BUTTON: return .button
        case CV4L2_CTRL_TYPE_INTEGER64: return .integer64
        case CV4L2_CTRL_TYPE_BITMASK: return .bitmask
        default: return .other
        }
    }

    private static func flags(_ bits: UInt32) -> CameraControl.Flags {
        let pairs: [(UInt32, CameraControl.Flags)] = [
            (CV4L2_CTRL_FLAG_DISABLED, .disabled), (CV4L2_CTRL_FLAG_INACTIVE, .inactive),
            (CV4L2_CTRL_FLAG_READ_ONLY, .readOnly), (CV4L2_CTRL_FLAG_WRITE_ONLY, .writeOnly),
            (CV4L2_CTRL_FLAG_GRABBED, .grabbed), (CV4L2_CTRL_FLAG_VOLATILE, .volatile),
        ]
        return pairs.reduce(into: []) { flags, pair in if bits & pair.0 != 0 { flags.insert(pair.1) } }
    }

    /// G_CTRL, which 64-bit controls refuse with EINVAL: then G_EXT_CTRLS.
    static func value(_ fd: Int32, _ id: UInt32) throws(V4L2Error) -> Int64 {
        var control = v4l2_control(id: id, value: 0)
        let code = V4L2Calls.ioctl(fd, CV4L2_VIDIOC_G_CTRL, &control, throughLibV4L2: false)
        if code == 0 { return Int64(control.value) }
        let error = V4L2Error(call: "VIDIOC_G_CTRL", errno: code)
        guard code == EINVAL else { throw error }
        var extended = v4l2_ext_control()
        extended.id = id
        guard extendedCall(fd, CV4L2_VIDIOC_G_EXT_CTRLS, &extended) == 0 else { throw error }
        return extended.value64
    }

    /// S_CTRL for what fits 32 bits, else (or when a 64-bit control refuses S_CTRL) S_EXT_CTRLS.
    static func set(_ fd: Int32, _ id: UInt32, to value: Int64) throws(V4L2Error) {
        var extended = v4l2_ext_control()
        extended.id = id
        extended.value64 = value
        guard let narrow = Int32(exactly: value) else {
            let code = extendedCall(fd, CV4L2_VIDIOC_S_EXT_CTRLS, &extended)
            if code != 0 { throw V4L2Error(call: "VIDIOC_S_EXT_CTRLS", errno: code) }
            return
        }
        var control = v4l2_control(id: id, value: narrow)
        let code = V4L2Calls.ioctl(fd, CV4L2_VIDIOC_S_CTRL, &control, throughLibV4L2: false)
        if code == 0 { return }
        // A 32-bit control that refused the value refuses it again: its own error is the one to report.
        guard code == EINVAL, extendedCall(fd, CV4L2_VIDIOC_S_EXT_CTRLS, &extended) == 0 else {
            throw V4L2Error(call: "VIDIOC_S_CTRL", errno: code)
        }
    }

    /// G/S_EXT_CTRLS of one control in its own class (what kernels before `which` want); 0 or the errno.
    private static func extendedCall(_ fd: Int32, _ request: UInt, _ control: inout v4l2_ext_control) -> Int32 {
        withUnsafeMutablePointer(to: &control) { pointer in
            var controls = v4l2_ext_controls()
            controls.ctrl_class = pointer.pointee.id & 0x0fff_0000
            controls.count = 1
            controls.controls = pointer
            return V4L2Calls.ioctl(fd, request, &controls, throughLibV4L2: false)
        }
    }
}

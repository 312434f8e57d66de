import CameraSource
import PipControl
import PipCore
import PipWindow

/// The display side of the camera's controls and of what is remembered per camera
/// (docs/BEHAVIOUR.md, "Camera controls and framing"): `pipcam controls|set`, the control keys,
/// and the framing kept for each camera. Controls are reached through a handle of their own on
/// the camera's node (`LibV4L2Controls`), so they change while the camera streams — in this
/// process, or in PipeWire for a camera read through it.
final class CameraDesk {
    /// The camera shown now: its node and identity (nil for the test pattern and files, and for
    /// a PipeWire camera with no V4L2 node behind it).
    private(set) var device: String?
    private(set) var identity: CameraIdentity?
    /// The source shown, and how messages name it.
    private var source: SourceSpec?
    private var sourceName = ""
    private var isPipeWire: Bool {
        if case .pipewire? = source { return true }
        return false
    }
    private let memory: CameraMemory?
    private let openControls: (String) throws(V4L2Error) -> any CameraControlAccess
    private let findPipeWireDevice: (String) -> String?
    private let identify: (String) -> CameraIdentity?
    /// The controls changed for this camera (remembered), for `status`.
    private(set) var changed: [(name: String, value: String)] = []
    /// Lines said once (a damaged file, a refused control).
    private let restorer: ControlRestorer?
    /// `--zoom` / `--pan` were given: the framing shown stands over the first camera's remembered
    /// one, and becomes it.
    private var framingGiven: Bool

    /// - Parameter restorer: whose memory of each camera is used (the one V4L2 cameras restore from
    ///   as they open), and which says once what it cannot restore.
    init(
        restorer: ControlRestorer? = .standard,
        openControls: @escaping (String) throws(V4L2Error) -> any CameraControlAccess = LibV4L2Controls.open(path:),
        findPipeWireDevice: @escaping (String) -> String? = CameraDesk.pipeWireDevice,
        identify: @escaping (String) -> CameraIdentity? = CameraDesk.identity,
        framingGiven: Bool = false
    ) {
        self.identify = identify
        self.framingGiven = framingGiven
        self.restorer = restorer
        memory = restorer?.memory
        self.openControls = openControls
        self.findPipeWireDevice = findPipeWireDevice
    }

    /// The camera at `path` as its memory knows it: by its `/dev/v4l` links, which need no open;
    /// only a node without any is opened for its card and bus names (what `ControlRestorer` falls
    /// back on too, from the handle it has).
    static func identity(_ path: String) -> CameraIdentity? {
        CameraIdentity.find(for: path, capabilities: nil)
            ?? CameraIdentity.find(for: path, capabilities: LibV4L2Controls.capabilities(path: path))
    }

    /// The V4L2 node behind PipeWire camera `name`, if it has one.
    static func pipeWireDevice(_ name: String) -> String? {
        guard let nodes = PipeWireCameras.list(),
            let node = try? PipeWireCameras.choose(name.isEmpty ? nil : name, among: nodes), !node.devicePath.isEmpty
        else { return nil }
        return node.devicePath
    }

    /// The source shown is `spec` (called `name`), its camera in `state`: a camera opened again gets its remembered
    /// controls back (a PipeWire camera; a V4L2 one sets them as it opens), and another camera
    /// brings its own framing, returned when it is not the one `showing`. The framing given at
    /// start is the first camera's, and remembered for it.
    func show(source spec: SourceSpec, named name: String, state: CameraState, showing: Framing) -> Framing? {
        var framing: Framing?
        if let remembered = follow(source: spec, named: name) {
            cameraReopened()
            if framingGiven {
                // Until a camera shows, the test pattern (or a file) shows the framing asked for.
                if identity != nil {
                    framingGiven = false
                    remember(framing: showing)
                }
            } else {
                framing = remembered.map { Framing(zoom: $0.zoom, centreX: $0.centreX, centreY: $0.centreY) } ?? .full
            }
        }
        if noteState(state) { cameraReopened() }
        return framing == showing ? nil : framing
    }

    /// The source now shown is `spec` (a V4L2 camera, a PipeWire node, the test pattern, a file),
    /// called `name` in messages: returns the framing remembered for its camera when it is
    /// another camera than before.
    func follow(source spec: SourceSpec, named name: String) -> RememberedFraming?? {
        guard spec != source else { return nil }
        source = spec
        sourceName = name
        switch spec {
        case .pipewire(let node): device = findPipeWireDevice(node ?? "")
        default: device = spec.devicePath
        }
        identity = device.flatMap(identify)
        refreshChanged()
        guard let identity, let restorer else { return .some(nil) }
        return .some(restorer.load(identity).framing)
    }

    private var lastState: CameraState?

    /// Whether the camera, in `state` now, has just come back to streaming (opened again).
    private func noteState(_ state: CameraState) -> Bool {
        defer { lastState = state }
        return state == .streaming && lastState != nil && lastState != .streaming
    }

    /// A PipeWire camera opened again (at start, after an unplug or an idle release): its
    /// remembered controls are set again (a V4L2 camera pipcam opens itself sets them as it opens).
    private func cameraReopened() {
        guard isPipeWire, let device, let identity, let restorer, let access = try? openControls(device) else { return }
        restorer.restore(on: access, identity: identity)
    }

    /// Keeps `framing` for the camera shown now.
    func remember(framing: Framing) {
        guard let identity, let memory else { return }
        let kept = framing.isFull ? nil : RememberedFraming(zoom: framing.zoom, centreX: framing.centreX, centreY: framing.centreY)
        if let problem = memory.remember(framing: kept, for: identity) { writeErrorLine(problem) }
    }

    /// Answers `pipcam controls|set`.
    func answer(_ request: CameraAsk) -> PipReply {
        let access: any CameraControlAccess, controls: [CameraControl]
        switch open() {
        case .failure(let failure): return .failed(failure.line)
        case .success(let opened): (access, controls) = opened
        }
        switch request {
        case .list:
            return .done(ControlListing.text(controls))
        case .set(let arguments):
            var settings: [ControlSetting] = []
            for argument in arguments {
                do { settings.append(try ControlArgument.parse(argument, controls: controls)) } catch { return .failed(error.line) }
            }
            return carryOut(ControlPlan.setting(settings, on: controls), on: access, controls: controls, keeping: .writes)
        case .reset(let name):
            var only: CameraControl?
            if let name {
                do { only = try ControlArgument.lookUp(name, in: controls) } catch { return .failed(error.line) }
            }
            let plan = ControlPlan.reset(controls, only: only?.id)
            return carryOut(plan, on: access, controls: controls, keeping: .defaults(only?.id))
        }
    }

    /// One key step of the control pair `digit` names: the line to show on the picture.
    func step(digit: Int) -> String? {
        guard let (name, ids, direction) = ControlKeys.step(forDigit: digit) else { return nil }
        guard case .success(let (access, controls)) = open() else { return "no camera controls" }
        guard let control = ids.lazy.compactMap({ id in controls.first { $0.id == id && $0.isWritable } }).first,
            let value = control.value
        else { return "no \(name) control" }
        let target = ControlKeys.stepped(control, from: value, direction: direction)
        let plan = ControlPlan.setting([ControlSetting(control, target)], on: controls)
        if case .failed(let line) = carryOut(plan, on: access, controls: controls, keeping: .writes) { return line }
        let auto = plan.writes.count > 1 ? " (auto off)" : ""
        return "\(control.name) \(ControlPlan.valueText(target, of: control))\(auto)"
    }

    private func open() -> Result<(any CameraControlAccess, [CameraControl]), Failure> {
        guard let device else {
            let what = isPipeWire ? "this PipeWire camera has no V4L2 device behind it" : "'\(sourceName)' is not a camera"
            return .failure(Failure("pipcam: no camera controls: \(what)"))
        }
        do {
            let access = try openControls(device)
            return .success((access, try access.queryControls()))
        } catch {
            return .failure(Failure("pipcam: \(device): cannot reach its controls (\(error))"))
        }
    }

    /// A line that says why not.
    struct Failure: Error {
        let line: String
        init(_ line: String) { self.line = line }
    }

    /// What the camera's memory keeps of a plan carried out: the writes made, or the control
    /// (every control: nil) back at its default and so forgotten.
    private enum Keeping { case writes, defaults(UInt32?) }

    /// Makes `plan`'s writes, keeps what `keeping` says, and answers with the plan's notes, or with
    /// the one line of the first write the camera refused.
    private func carryOut(
        _ plan: ControlPlan, on access: any CameraControlAccess, controls: [CameraControl], keeping: Keeping
    ) -> PipReply {
        let failures = plan.apply(to: access)
        let made = plan.writes.filter { w in !failures.contains { $0.setting.id == w.id } }
        if let identity, let memory {
            let problem: String? =
                switch keeping {
                case .writes: memory.remember(made, controls: controls, for: identity)
                case .defaults(let id): memory.forgetControl(id, for: identity)
                }
            if let problem { writeErrorLine(problem) }
        }
        refreshChanged()
        if let (setting, error) = failures.first {
            return .failed("pipcam: \(setting.name)=\(setting.value): the camera refused it (\(error))")
        }
        var lines = plan.notes
        if isPipeWire && !made.isEmpty { lines.append("the camera changed for every program reading it through PipeWire") }
        return .done(lines.joined(separator: "\n"))
    }

    private func refreshChanged() {
        guard let identity, let memory else { return changed = [] }
        changed = memory.load(identity).camera.controls.map { ($0.name, String($0.value)) }
    }
}

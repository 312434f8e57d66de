#if canImport(Glibc)
import Glibc
#endif
import PipCore

/// Brings a camera's remembered controls back each time it is opened (at start, after an unplug,
/// after an idle release), through the handle that opened it, before it streams.
///
/// Nothing here stops the camera: what cannot be restored is told through `report`, one line per
/// camera and control (or damaged file) for the life of the restorer, however often it reopens.
public final class ControlRestorer: Sendable {
    public let memory: CameraMemory
    private let linkDirectories: (byID: String, byPath: String)
    private let report: @Sendable (String) -> Void
    /// The restorer of pipcam's own memory (`CameraMemory.standard`), saying on standard error
    /// what it cannot restore; nil without a home directory.
    public static let standard: ControlRestorer? = CameraMemory.standard().map { memory in
        ControlRestorer(memory: memory) { writeErrorLine($0) }
    }

    /// What was reported already: the identity's key and what the line was about.
    private let reported = Locked(Set<String>())

    public init(
        memory: CameraMemory, linkDirectories: (byID: String, byPath: String) = CameraIdentity.linkDirectories,
        report: @escaping @Sendable (String) -> Void
    ) {
        self.memory = memory
        self.linkDirectories = linkDirectories
        self.report = report
    }

    /// Restores the controls of the camera at `path` (identified as `CameraIdentity.find` says).
    public func restore(on access: any CameraControlAccess, path: String, capabilities: V4L2Capabilities?) {
        guard let identity = CameraIdentity.find(for: path, capabilities: capabilities, directories: linkDirectories) else { return }
        restore(on: access, identity: identity)
    }

    /// Restores the remembered controls of `identity` through `access`.
    public func restore(on access: any CameraControlAccess, identity: CameraIdentity) {
        let camera = load(identity)
        guard !camera.controls.isEmpty else { return }
        let controls: [CameraControl]
        do {
            controls = try access.queryControls()
        } catch {
            // Unplugged meanwhile: the camera says so itself.
            if error.errno != ENODEV {
                once(identity, "query", "pipcam: camera \(identity): its remembered controls are not restored (\(error))")
            }
            return
        }
        let (writes, problems) = RememberedControls.plan(camera.controls, on: controls)
        for problem in problems {
            once(identity, CameraControl.hex(problem.setting.id), line(identity, problem.setting, problem.reason))
        }
        for write in writes {
            do {
                try access.setControl(write.id, to: write.value)
            } catch {
                if error.errno == ENODEV { return }
                once(identity, CameraControl.hex(write.id), line(identity, write, error.description))
            }
        }
    }

    /// What is remembered of `identity`; a damaged file is said once for the life of the restorer,
    /// whoever reads it first (the controls' restore, the framing of a camera switched to).
    public func load(_ identity: CameraIdentity) -> RememberedCamera {
        let (camera, warning) = memory.load(identity)
        if let warning { once(identity, "file", warning) }
        return camera
    }

    private func line(_ identity: CameraIdentity, _ setting: ControlSetting, _ reason: String) -> String {
        "pipcam: camera \(identity): remembered \(setting.name)=\(setting.value) not restored: \(reason)"
    }

    private func once(_ identity: CameraIdentity, _ about: String, _ line: String) {
        let first = reported.withLock { $0.insert(identity.key + " " + about).inserted }
        if first { report(line) }
    }
}

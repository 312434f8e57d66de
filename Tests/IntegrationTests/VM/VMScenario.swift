import Foundation
import Testing

/// The real-driver tier's scenarios (docs/TESTING.md, "The real-driver tier"), in the order
/// `scripts/vm-test` reports them; each is one test of `VMScenarioTests`. scripts/vm-test reads
/// this file for `--list` and `--needs-loopback`: keep one `case name = "kebab-name"` a line, and
/// the loopback scenarios in `needsLoopback`'s first case.
enum VMScenario: String, CaseIterable, Sendable {
    case listCameras = "list-cameras"
    case streamFrames = "stream-frames"
    case defaultSource = "default-source"
    case sigtermRelease = "sigterm-release"
    case inUseWait = "in-use-wait"
    case inUseSigterm = "in-use-sigterm"
    case disconnect = "disconnect"
    case bufFlagError = "buf-flag-error"
    case droppedBuffers = "dropped-buffers"
    case fatalStreamError = "fatal-stream-error"
    case hotplug = "hotplug"
    case resizeModeSwitch = "resize-mode-switch"
    case rememberedSize = "remembered-size"
    case mainWindowMode = "main-window-mode"
    case shareReader = "share-reader"
    case shareUnplug = "share-unplug"
    case loopbackSource = "loopback-source"
    case shareErrors = "share-errors"
    case switchCameras = "switch-cameras"
    case idleRelease = "idle-release"
    case pipewireCamera = "pipewire-camera"
    case cameraControls = "camera-controls"
    case pipewireShare = "pipewire-share"

    /// The scenarios with virtual cameras: v4l2loopback (built by dkms on the host, see
    /// scripts/vm-test) is loaded afresh before each of them, and unloaded before the others.
    var needsLoopback: Bool {
        switch self {
        case .shareReader, .shareUnplug, .loopbackSource, .shareErrors, .switchCameras, .pipewireCamera, .cameraControls, .pipewireShare: true
        default: false
        }
    }

    /// Seconds the scenario may take (every wait in it is cut there) before it fails.
    var limitSeconds: Int {
        switch self {
        case .listCameras: 60
        case .shareReader, .switchCameras: 180
        case .shareUnplug: 150
        case .loopbackSource, .shareErrors: 120
        case .cameraControls: 150
        // GStreamer's registry may take up to `registryWait` the first time.
        case .pipewireCamera, .pipewireShare: 270
        default: 90
        }
    }

    /// Swift Testing's own limit, a backstop in whole minutes: the scenario's limit, the module
    /// reload before it and the clean-up after it.
    var timeLimit: TimeLimitTrait.Duration { .minutes(limitSeconds / 60 + 2) }

    /// vivid's module options: one 640x360 YUYV webcam, /dev/video0; two for switch-cameras
    /// (/dev/video0 and /dev/video1).
    var vividOptions: [String] {
        switch self {
        case .switchCameras: ["n_devs=2", "node_types=0x1,0x1", "input_types=0x0,0x0"]
        default: VMDevices.vividOptions
        }
    }
}

/// The devices and sizes every scenario uses.
enum VMDevices {
    static let camera = "/dev/video0"
    static let secondCamera = "/dev/video1"
    /// The first virtual camera (v4l2loopback).
    static let loopback = "/dev/video10"
    /// Frames are slow under TCG; vivid's default mode too.
    static let size = "640x360"
    static let shareSize = "640x360"
    static let vividOptions = ["n_devs=1", "node_types=0x1", "input_types=0x0"]
    /// Two virtual cameras, /dev/video10 and /dev/video11, each offering capture only while a
    /// writer streams and output only while none does (exclusive_caps, what browsers need).
    static let loopbackOptions = ["devices=2", "video_nr=10,11", "card_label=pipcam,pipcam2", "exclusive_caps=1,1"]
}

/// The tier's switches: on only inside the VM guest, where `PIPCAM_VM_GUEST` names the output
/// folder (`scripts/vm-guest` sets it), so `make test` on the host skips the suite.
enum VMTier {
    static var outputDirectory: String? {
        guard let path = ProcessInfo.processInfo.environment["PIPCAM_VM_GUEST"], !path.isEmpty else { return nil }
        return path
    }
    static var enabled: Bool { outputDirectory != nil }

    /// Whether `scenario` runs: `PIPCAM_VM_SCENARIOS` (kebab names, space-separated) lists the
    /// ones to run; empty or unset, all of them.
    static func runs(_ scenario: VMScenario) -> Bool {
        guard enabled else { return false }
        let wanted = (ProcessInfo.processInfo.environment["PIPCAM_VM_SCENARIOS"] ?? "").split(separator: " ")
        return wanted.isEmpty || wanted.contains { $0 == scenario.rawValue }
    }
}

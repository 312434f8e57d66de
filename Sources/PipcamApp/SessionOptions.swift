import PipCore
import CameraSource
import MJPEG
import PipWindow
import PipConvert

/// How a PiP session shows its source.
public struct SessionOptions: Sendable {
    /// The PiP window size; nil for about a quarter of its monitor's work area width at the source's aspect.
    public var size: (Int, Int)?
    public var corner: Corner = .bottomRight
    /// Horizontal flip; nil for the source's default (on for cameras).
    public var mirror: Bool?
    public var rotation: Rotation = .deg0
    /// The framing to start with (`--zoom`, `--pan`); nil: the camera's remembered one.
    public var framing: Framing?
    /// Share the whole picture, not the window's framing (`--share-full-frame`).
    public var shareFullFrame = false
    /// Exit after this many frames were shown.
    public var frameLimit: Int?
    /// Print a stats line every second and at exit.
    public var printStats = false
    /// Start in Picture in Picture (`--pip`): the main window appears only when PiP stops.
    public var startInPip = false
    /// Show the main window as usual, then start PiP as soon as it can (`pipcam start` or
    /// `toggle` while the source was starting): unlike `--pip`, closing PiP keeps pipcam running.
    public var startPipWhenPossible = false
    /// Which hiding of the main window (or followed window) starts PiP by itself (`--auto-pip`).
    public var automaticPip: AutomaticPip = .hidden
    /// Put the PiP window where it was last time (when neither size nor corner was given).
    public var remembersGeometry = true
    /// Create the main view inside this window (`--wid`, `$XEMBED`).
    public var embedInto: WindowID?
    /// Use this other application's window as the PiP source and restore target (`--follow-window`).
    public var followWindow: WindowID?
    /// The PiP window's outline, opacity and click-through.
    public var style = PipWindowStyle()
    /// Try MIT-SHM (false: plain XPutImage; the launcher sets it false for `PIPCAM_NO_XSHM=1`).
    public var allowSharedMemory = true
    /// The stats line at exit also gives the time to the first frame (`PIPCAM_STATS_FIRST_FRAME=1`,
    /// for benchmarks); the contract's line ends at `cpu_ms_per_frame`.
    public var statsWithFirstFrame = false
    /// Threads each presenter's JPEG decoder uses for large pictures (`JPEGDecoder.standardThreads`;
    /// the launcher sets 1 for `--untimed`).
    public var jpegDecodeThreads = JPEGDecoder.standardThreads
    /// The source as the user would name it, for `pipcam status` (e.g. `/dev/video0`, `test`);
    /// a source that becomes another (a camera plugged in) is named as it is then.
    public var sourceName = ""
    /// The global hotkey that toggles PiP (`--hotkey`).
    public var hotkey: HotkeySpec?
    /// Seconds with no window showing video after which a camera is let go until one does again
    /// (`--idle-release`); 0: never. Never while the camera is shared.
    public var idleReleaseSeconds = 10.0
    /// The global key that switches to the next camera (`--switch-key`).
    public var switchKey: HotkeySpec?
    /// What the first source was opened for; a source switched to later opens for the window
    /// showing the picture then (or for the shared stream with `--share`).
    public var sourceRequest = SourceRequest()
    /// This instance's ownership of the control selection, taken before the source started;
    /// nil runs without `pipcam toggle|…` control.
    public var control: InstanceClaim?
    /// Where the PiP's place is remembered between runs; nil: the standard file for the instance's
    /// name (`GeometryMemory.filePath`).
    public var geometryFile: String?

    public init() {}
}

extension SessionOptions {
    /// The size the picture will first be shown at, for the camera to open in a mode that suits
    /// it (`SourceRequest`): the main window's when the session opens with it — the parent's size
    /// embedded (`parentSize`), else the share of the work area `MainWindow` takes at most — and
    /// otherwise the PiP's: `size`, else `rememberedPip` (used when `remembersGeometry`), else a
    /// quarter of the work area's width at 16:9 (`workArea`: the monitor's part of it).
    public func firstDisplaySize(
        workArea: Rect, parentSize: (Int, Int)?, rememberedPip: (width: Int, height: Int)?
    ) -> (width: Int, height: Int) {
        if !startInPip && followWindow == nil {
            if embedInto == nil {
                return (max(1, Int(Double(workArea.width) * MainWindow.workAreaShare)),
                        max(1, Int(Double(workArea.height) * MainWindow.workAreaShare)))
            }
            if let (w, h) = parentSize { return (max(1, w), max(1, h)) }
        }
        let remembered = remembersGeometry ? rememberedPip : nil
        let width = size?.0 ?? remembered?.width ?? max(160, workArea.width / 4)
        let height = size?.1 ?? remembered?.height ?? width * 9 / 16
        return (width, height)
    }
}

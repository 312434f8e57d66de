/// `pip-example`: the smallest X application with camera Picture in Picture, built on the
/// `PipWindow` and `CameraSource` libraries without the pipcam CLI.
///
/// It opens its own top-level window and attaches a `PipController` with that window as the source.
/// Minimize the window and PiP grows out of it; restore it and PiP shrinks back. Frames come from
/// the test pattern, or from the source named by the first argument (`/dev/video0`, `y4m:PATH`, …).
/// A file plays in PiP as in a custom player: PiP's controls pause, play and skip it through the
/// playback delegate (`ClipPlayer`). Closing the window, SIGINT or SIGTERM ends it with status 0.
import CameraSource
import Glibc
import PipCore
import PipWindow

/// Reports the PiP life cycle; a real application would hide and show its inline video here.
final class CallScreen: PipControllerDelegate {
    func pipControllerDidStart(_ controller: PipController) { writeErrorLine("pip-example: PiP started") }
    func pipControllerDidStop(_ controller: PipController) { writeErrorLine("pip-example: PiP stopped") }
}

/// The file's playback as PiP asks for it, after AVKit's custom-player playback delegate: the
/// pump's playback request carries each ask to the source. Says each ask on stderr.
final class ClipPlayer: PipPlaybackDelegate {
    let pump: FramePump
    /// The file's frame shown last.
    var shownFrame = 0
    init(pump: FramePump) { self.pump = pump }

    var isPlaying: Bool { pump.mailbox.playbackRequest.playing }
    func setPlaying(_ playing: Bool) {
        writeErrorLine("pip-example: \(playing ? "play" : "pause")")
        pump.mailbox.notePlayback { $0.playing = playing }
    }
    func skip(by seconds: Double) {
        writeErrorLine("pip-example: skip \(seconds)")
        pump.mailbox.notePlayback { $0.seek(.relative(seconds)) }
    }
    var timeRange: ClosedRange<Double>? { pump.mailbox.status.playback.map { 0...($0.length ?? 0) } }
    var position: Double { Double(shownFrame) / (pump.mailbox.status.playback?.frameRate ?? 30) }
}

let display = try XDisplay()
let loop = DisplayLoop(display: display)

// The camera runs on the pump's thread; its newest frame waits in the pump's mailbox.
let source: any FrameSource = CommandLine.arguments.count > 1
    ? SourceFactory.make(try SourceSpec.parse(CommandLine.arguments[1]), request: SourceRequest())
    : TestPatternSource()
try source.start()
let pump = FramePump(source: source)

/// The application's own window: normal, titled, closable.
let window = display.createWindow(rect: Rect(x: 80, y: 80, width: 640, height: 360), events: [.structureNotify])
display.setClass(window, instance: "pip-example", className: "PipExample")
display.setProperty(window, ._NET_WM_NAME, text: "PiP example")
display.setProtocols(window, [.WM_DELETE_WINDOW])

/// PiP with `window` as its source and restore target, started when the window is minimized.
let pip = try PipController(loop: loop, contentSource: PipContentSource(
    sourceWindow: window, preferredContentSize: (source.frameWidth, source.frameHeight)))
let screen = CallScreen()
pip.delegate = screen
pip.startsAutomaticallyWhenSourceHidden = true
// A file plays in PiP with its own controls; a camera has none (no time range).
let player = ClipPlayer(pump: pump)
pip.playbackDelegate = player
// PiP gets ready for the camera's frames (an MJPEG decoder, its images) before the first one.
pip.output.expectedFrames = source.expectedFrames

// Frames go to PiP while it shows video; each buffer goes back to the camera once it is drawn.
loop.addReader(pump.mailbox.toDisplay.fd) { pump.mailbox.toDisplay.drain() }
loop.everyIteration {
    guard pip.output.canPresent, let frame = pump.mailbox.take() else { return }
    _ = try? pip.output.present(frame)
    player.shownFrame = frame.mediaFrame ?? 0
    pump.mailbox.giveBack(frame.bufferIndex)
    pip.playbackChanged()
}

// Closing the window or a signal ends the loop.
let signals = SignalPipe.shared
loop.addReader(signals.fd) { loop.stop(exitCode: 0) }
loop.register(window) { event in
    if case .clientMessage(_, _, let data) = event, Atom(bitPattern: data.0) == display[.WM_DELETE_WINDOW] {
        loop.stop(exitCode: 0)
    }
}

display.map(window)
pump.run()
let status = loop.run()
pump.stop()
pip.tearDown()
display.close()
exit(status)

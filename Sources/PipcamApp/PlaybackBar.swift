import PipControl
import PipCore
import PipWindow

/// The main window's playback controls while a file shows, as a player has them: skip back,
/// play/pause and skip forward at the bottom centre, and a position bar along the bottom edge.
/// Layout and hit test are pure; drawing goes through the window's compositor.
struct PlaybackBar {
    /// What the bar shows: nil while no file shows (a camera: no bar).
    struct State: Equatable {
        var isPlaying: Bool
        /// How far through the file, 0…1, once its length is known.
        var progress: Double?
    }
    enum Button: CaseIterable {
        case skipBack, playPause, skipForward

        /// What the button asks: what its key asks.
        var action: PlaybackAction {
            switch self {
            case .skipBack: return .seek(.relative(-Double(PlaybackDesk.skipSeconds)))
            case .playPause: return .toggle
            case .skipForward: return .seek(.relative(Double(PlaybackDesk.skipSeconds)))
            }
        }
    }

    var state: State?
    private let scale: Int
    private let play: AlphaMask, pause: AlphaMask, back: AlphaMask, forward: AlphaMask

    init(doubleSize: Bool) {
        scale = doubleSize ? 2 : 1
        play = AlphaMask.asset("play", doubleSize: doubleSize)!
        pause = AlphaMask.asset("pause", doubleSize: doubleSize)!
        back = AlphaMask.asset("skip-back", doubleSize: doubleSize)!
        forward = AlphaMask.asset("skip-forward", doubleSize: doubleSize)!
    }

    private var side: Int { 36 * scale }
    private var margin: Int { 12 * scale }

    /// Whether the bar fits a window `width` wide beside the PiP button (bottom right).
    func fits(width: Int) -> Bool { width >= 5 * side + 4 * margin }

    /// Where `button` sits in a `width`×`height` window.
    func frame(of button: Button, width: Int, height: Int) -> Rect {
        let middle = (width - side) / 2, gap = 6 * scale
        let x: Int
        switch button {
        case .skipBack: x = middle - side - gap
        case .playPause: x = middle
        case .skipForward: x = middle + side + gap
        }
        return Rect(x: x, y: height - margin - side, width: side, height: side)
    }

    /// The button under (`x`, `y`), when the bar shows.
    func button(atX x: Int, y: Int, width: Int, height: Int) -> Button? {
        guard state != nil, fits(width: width) else { return nil }
        return Button.allCases.first { frame(of: $0, width: width, height: height).contains(x: x, y: y) }
    }

    func draw(with compositor: Compositor, into pixels: UnsafeMutableRawPointer, stride: Int, width: Int, height: Int) {
        guard let state, fits(width: width) else { return }
        for button in Button.allCases {
            let f = frame(of: button, width: width, height: height)
            compositor.dim(x: f.x, y: f.y, w: f.width, h: f.height, amount: 0.55, into: pixels, stride: stride, width: width, height: height)
            let icon = switch button {
            case .skipBack: back
            case .playPause: state.isPlaying ? pause : play
            case .skipForward: forward
            }
            compositor.draw(icon, at: f.x + 6 * scale, y: f.y + 6 * scale, into: pixels, stride: stride, width: width, height: height)
        }
        guard let progress = state.progress else { return }
        let thickness = 3 * scale, y = height - margin / 3 - thickness, w = width - 2 * margin
        compositor.dim(x: margin, y: y, w: w, h: thickness, amount: 0.55, into: pixels, stride: stride, width: width, height: height)
        compositor.fill(
            x: margin, y: y, w: Int((Double(w) * min(1, max(0, progress))).rounded()), h: thickness, grey: 235, into: pixels, stride: stride,
            width: width, height: height)
    }
}

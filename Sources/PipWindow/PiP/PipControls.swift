import PipCore

/// The controls drawn over the PiP window while the pointer is on it, as in Firefox's and iOS's
/// PiP: top-left back to the main window, top-right close, bottom-centre mirror. Content that
/// plays (`PipPlaybackDelegate`) gets skip back, play/pause and skip forward at the bottom
/// centre, mirror moving to the bottom left, and a position bar along the bottom edge. They fade
/// after two seconds without pointer motion.
struct PipControls {
    enum Control: CaseIterable { case backToMain, close, mirror, skipBack, playPause, skipForward }

    /// What the playback controls show: nil for content that does not play (a camera).
    struct Playback: Equatable {
        var isPlaying: Bool
        /// How far through its time range, 0…1, when known.
        var progress: Double?
    }
    var playback: Playback?

    static let fadeNanoseconds: Int64 = 2_000_000_000
    private let icons: [Control: AlphaMask]
    private let play: AlphaMask
    private let pause: AlphaMask
    private let iconSize: Int
    private var margin: Int { iconSize / 3 }
    private var padding: Int { iconSize / 4 }
    /// Until when the controls are shown (nil: hidden).
    private(set) var visibleUntil: MonotonicInstant?

    /// - Parameter doubleSize: use the 2× icons (high-DPI screens).
    init(doubleSize: Bool) {
        icons = [
            .backToMain: AlphaMask.asset("back-to-main", doubleSize: doubleSize)!,
            .close: AlphaMask.asset("close", doubleSize: doubleSize)!,
            .mirror: AlphaMask.asset("mirror", doubleSize: doubleSize)!,
            .skipBack: AlphaMask.asset("skip-back", doubleSize: doubleSize)!,
            .skipForward: AlphaMask.asset("skip-forward", doubleSize: doubleSize)!,
        ]
        play = AlphaMask.asset("play", doubleSize: doubleSize)!
        pause = AlphaMask.asset("pause", doubleSize: doubleSize)!
        iconSize = doubleSize ? 48 : 24
    }

    /// How far above a window's bottom edge its controls' bottom row reaches, with a gap: what a
    /// line drawn over the picture keeps clear of.
    static func bottomClearance(doubleSize: Bool) -> Int {
        let icon = doubleSize ? 48 : 24
        return icon + 2 * (icon / 4) + icon / 3 + icon / 2
    }

    func isVisible(at now: MonotonicInstant) -> Bool { visibleUntil.map { now < $0 } ?? false }

    mutating func pointerMoved(at now: MonotonicInstant) { visibleUntil = now.advanced(byNanoseconds: Self.fadeNanoseconds) }
    mutating func hide() { visibleUntil = nil }

    /// The controls drawn now: the playback ones only for content that plays, and only the
    /// play/pause one where a window is too narrow for the row of three beside mirror.
    func shown(width: Int) -> [Control] {
        guard playback != nil else { return [.backToMain, .close, .mirror] }
        let side = iconSize + 2 * padding
        let row: [Control] = width >= 5 * side + 4 * margin ? [.skipBack, .playPause, .skipForward] : [.playPause]
        return [.backToMain, .close, .mirror] + row
    }

    /// Where a control sits (with its dimmed backdrop) in a `width`×`height` window.
    func frame(of control: Control, width: Int, height: Int) -> Rect {
        let side = iconSize + 2 * padding
        let bottom = height - margin - side
        let middle = (width - side) / 2
        switch control {
        case .backToMain: return Rect(x: margin, y: margin, width: side, height: side)
        case .close: return Rect(x: width - margin - side, y: margin, width: side, height: side)
        case .mirror: return Rect(x: playback == nil ? middle : margin, y: bottom, width: side, height: side)
        case .skipBack: return Rect(x: middle - side - margin / 2, y: bottom, width: side, height: side)
        case .playPause: return Rect(x: middle, y: bottom, width: side, height: side)
        case .skipForward: return Rect(x: middle + side + margin / 2, y: bottom, width: side, height: side)
        }
    }

    /// The position bar: along the bottom edge, below the controls.
    func positionBar(width: Int, height: Int) -> Rect {
        let thickness = max(2, iconSize / 8)
        return Rect(x: margin, y: height - margin / 2 - thickness, width: width - 2 * margin, height: thickness)
    }

    /// Whether the controls are shown on a `width`×`height` window: not when they would cover most of it or each other.
    func fit(width: Int, height: Int) -> Bool {
        let side = iconSize + 2 * padding
        // Three side by side across; the mirror control below the top two, not over them.
        return width >= 3 * side && height >= 2 * side + 3 * margin
    }

    /// The control under (`x`, `y`), if the controls are showing. A control not drawn does not
    /// act: a press there drags the window as anywhere else.
    func control(atX x: Int, y: Int, width: Int, height: Int, now: MonotonicInstant) -> Control? {
        guard isVisible(at: now), fit(width: width, height: height) else { return nil }
        return shown(width: width).first { frame(of: $0, width: width, height: height).contains(x: x, y: y) }
    }

    /// Draws the controls if they are showing.
    func draw(
        with compositor: Compositor, into pixels: UnsafeMutableRawPointer, stride: Int, width: Int, height: Int,
        now: MonotonicInstant
    ) {
        guard isVisible(at: now), fit(width: width, height: height) else { return }
        for control in shown(width: width) {
            let f = frame(of: control, width: width, height: height)
            compositor.dim(x: f.x, y: f.y, w: f.width, h: f.height, amount: 0.55, into: pixels, stride: stride, width: width, height: height)
            let icon = control == .playPause ? (playback?.isPlaying == true ? pause : play) : icons[control]!
            compositor.draw(icon, at: f.x + padding, y: f.y + padding, into: pixels, stride: stride, width: width, height: height)
        }
        if let progress = playback?.progress {
            let bar = positionBar(width: width, height: height)
            compositor.dim(x: bar.x, y: bar.y, w: bar.width, h: bar.height, amount: 0.55, into: pixels, stride: stride, width: width, height: height)
            let done = Int((Double(bar.width) * progress).rounded())
            compositor.fill(x: bar.x, y: bar.y, w: done, h: bar.height, grey: 235, into: pixels, stride: stride, width: width, height: height)
        }
    }
}

import PipCore
import PipConvert

/// Every window that shows video, and the one place that decides which of them gets a frame: the
/// animation window while PiP grows or shrinks, else the PiP window, else the main window while it
/// shows video. It hears from its surfaces when their puts complete, so a frame's owner only asks
/// `canPresent` and calls `present`. It knows no window system: surfaces come from one.
public final class VideoOutput {
    /// The windows, in the order they take frames when more than one shows.
    public enum Surface: Int, CaseIterable, Sendable { case animation, pip, main }

    private struct Attached {
        let presenter: VideoSurface
        let isShowing: () -> Bool
        let redraw: () -> Void
    }

    private var attached: [Surface: Attached] = [:]

    /// A frame put asynchronously reached the screen, with its capture time (for latency
    /// statistics). Puts complete at once report that through `present`'s `.completed`.
    /// Redraws (`counted: false`) are not reported.
    public var onFrameShown: ((MonotonicInstant) -> Void)?

    public init() {}

    /// Lets `presenter` show video as `surface` while `isShowing` says its window shows video;
    /// `redraw` draws the window again when a put it missed (all its images were with the server)
    /// can be made.
    public func attach(_ presenter: VideoSurface, as surface: Surface, isShowing: @escaping () -> Bool, redraw: @escaping () -> Void) {
        attached[surface] = Attached(presenter: presenter, isShowing: isShowing, redraw: redraw)
        // Weak: a surface kept by its window after the output went must not keep it.
        presenter.onPutCompleted = { [weak self, unowned presenter] captured in
            if let captured { self?.onFrameShown?(captured) }
            // The buffer back with the client is what a missed put was waiting for.
            if presenter.owesRedraw { self?.attached[surface]?.redraw() }
        }
    }

    /// `surface`'s window shows no more video through this output (its owner goes).
    public func detach(_ surface: Surface) {
        attached[surface]?.presenter.onPutCompleted = nil
        attached[surface] = nil
    }

    /// The surface the next frame goes to, if any window shows video.
    public var current: Surface? {
        Surface.allCases.first { attached[$0]?.isShowing() == true }
    }

    /// Whether a window shows video.
    public var isShowingVideo: Bool { current != nil }

    private var currentPresenter: VideoSurface? { current.flatMap { attached[$0]?.presenter } }

    /// Whether the showing window can take a frame now.
    public var canPresent: Bool { currentPresenter?.canPresent ?? false }

    /// Draws `frame` in the window showing video. Returns `.busy` when none shows or when its
    /// images are all still with the server. `counted: false` for a redraw of a frame already shown.
    public func present(_ frame: VideoFrame, counted: Bool = true) throws -> PresentOutcome {
        guard let presenter = currentPresenter else { return .busy }
        return try presenter.present(frame, counted: counted)
    }

    /// Puts a picture drawn by `body` (a notice) in the window showing video.
    public func present(drawing body: (UnsafeMutableRawPointer, Int, Int, Int) -> Void) {
        _ = currentPresenter?.present(drawing: body)
    }

    /// Mirror, rotation and framing (digital zoom and pan) of the picture in every window.
    public func setPicture(mirror: Bool, rotation: Rotation, framing: Framing = .full) {
        for a in attached.values {
            a.presenter.mirror = mirror
            a.presenter.rotation = rotation
            a.presenter.framing = framing
        }
    }

    /// What the source will send, for the windows that stay up to get ready before the first
    /// frame (the animation window shows for a moment only).
    public var expectedFrames: ExpectedFrames? {
        didSet {
            for (surface, a) in attached where surface != .animation { a.presenter.expectedFrames = expectedFrames }
        }
    }

    /// Whether all puts have completed (for a clean shutdown).
    public var isIdle: Bool { attached.values.allSatisfy { $0.presenter.isIdle } }

    /// Stops taking completions; the surfaces stay their owners' to close.
    public func close() {
        for surface in Surface.allCases { detach(surface) }
    }
}

import PipCore

/// Where Picture in Picture is in its life cycle.
public enum PipPhase: Equatable, Sendable {
    /// Not in PiP.
    case idle
    /// Growing from the source window's frame to the PiP frame.
    case starting
    /// The PiP window is up.
    case active
    /// Shrinking from the PiP frame back to the source window's frame.
    case stopping
    /// The source window was restored; waiting for the delegate's restore completion.
    case restoring
}

/// Why a start request was refused.
public enum PipStartFailure: Equatable, Sendable {
    /// No content source, or its source window is gone.
    case notPossible
}

/// What happened, as the PiP state machine sees it. The driver translates X events and API calls.
public enum PipEvent: Equatable, Sendable {
    /// `start()`, the PiP button, the hotkey.
    case startRequested
    /// `stop()` (restore: true) or the PiP window's close control (restore: false).
    case stopRequested(restore: Bool)
    /// The source window became iconified, hidden or (with no window manager) unmapped.
    case sourceHidden
    /// The source window is viewable again.
    case sourceShown
    /// The source window's on-screen frame (root coordinates, window-manager frame included).
    case sourceFrameChanged(Rect)
    /// The PiP window was moved or resized (by the user or the window manager).
    case pipFrameChanged(Rect)
    /// Time passed: drives animations and debouncing (send at `nextDeadline`).
    case tick
    /// The window manager asked the PiP window to close (`WM_DELETE_WINDOW`).
    case pipWindowClosed
    /// The delegate called the restore completion handler.
    case restoreCompleted
    /// A content source with an existing source window was attached.
    case contentSourceAttached
    /// The content source was removed or the controller closed.
    case contentSourceRemoved
    /// Another source window took the place of the current one, in any phase (AVKit's new
    /// `contentSource` while PiP is up): PiP stays as it is and now belongs to that window, at this
    /// frame (nil: not viewable) and visibility.
    case contentSourceSwitched(frame: Rect?, hidden: Bool)
    /// The source window was destroyed.
    case sourceDestroyed
}

/// What the driver must do, in order.
public enum PipAction: Equatable, Sendable {
    case willStart
    case didStart
    case failedToStart(PipStartFailure)
    case willStop
    /// Ask the delegate to restore its user interface; answer with `.restoreCompleted`.
    case restoreUserInterface
    case didStop
    /// `isPossible` changed.
    case possibleChanged(Bool)
    /// Map the override-redirect animation proxy at this frame (live video in it).
    case showProxy(Rect)
    /// Move/resize the proxy (one animation step).
    case moveProxy(Rect)
    case hideProxy
    /// Map the managed PiP window at this frame.
    case showPip(Rect)
    case hidePip
    /// Map / de-iconify the source window (at this frame, when known) and activate it.
    case restoreSource(Rect?)
}

/// The behaviour of `AVPictureInPictureController` as a pure value: events in, actions out, time
/// passed in. No X, no clocks: tested with exact rectangles and instants.
public struct PipStateMachine: Sendable {
    /// Timing and policy.
    public struct Configuration: Sendable, Equatable {
        /// Length of the grow/shrink animation.
        public var animationNanoseconds: UInt64 = 250_000_000
        /// How long the source must stay hidden (or shown) before PiP starts (or stops) by itself.
        public var debounceNanoseconds: UInt64 = 150_000_000
        /// After restoring the source window itself, hide/show reports are ignored this long.
        public var restoreGraceNanoseconds: UInt64 = 500_000_000
        /// Interval of animation ticks.
        public var frameNanoseconds: UInt64 = 16_000_000
        /// `startsAutomaticallyWhenSourceHidden`.
        public var startsAutomatically = true
        public init() {}
    }

    /// Timing and policy; may be changed between events.
    public var configuration: Configuration
    /// Where PiP is in its life cycle.
    public internal(set) var phase: PipPhase = .idle
    /// A content source is attached and its source window exists.
    public internal(set) var isPossible = false
    /// Where the PiP window is (or will be) in root coordinates.
    public internal(set) var pipFrame: Rect
    /// The source window's last known on-screen frame (forgotten when the source goes away:
    /// send `.sourceFrameChanged` for a newly attached source window).
    public internal(set) var sourceFrame: Rect?

    /// The proxy's grow (`.starting`) or shrink (`.stopping`); nil in the other phases.
    var animation: PipAnimation?
    /// A start asked for while stopping or restoring, performed after that stop's `didStop`.
    var startQueued = false
    /// Whether the current (or last) start was an automatic one.
    var startedAutomatically = false
    /// The source window's reported visibility and the automatic start or stop waiting on it.
    var visibility = SourceVisibility()
    /// Until when hide/show reports are taken as the echo of our own `.restoreSource`.
    var restoreGraceEnd: MonotonicInstant?

    public init(configuration: Configuration = Configuration(), pipFrame: Rect) {
        self.configuration = configuration
        self.pipFrame = pipFrame
    }

    /// `isPictureInPictureActive`: true from `didStart` until `willStop`.
    public var isActive: Bool { phase == .active }

    /// When the driver should send the next `.tick` (nil: no timer needed).
    public var nextDeadline: MonotonicInstant? {
        let frame = animation?.nextDeadline(frameNanoseconds: configuration.frameNanoseconds)
        let debounce = visibility.deadline(debounceNanoseconds: configuration.debounceNanoseconds)
        switch (frame, debounce) {
        case let (a?, b?): return min(a, b)
        case let (a, b): return a ?? b
        }
    }

    /// Feeds one event at time `now`; returns the actions to perform, in order.
    ///
    /// Time is only read from `now`, which must not go backwards; deadlines (animation frames,
    /// debouncing) act only on `.tick`.
    public mutating func handle(_ event: PipEvent, now: MonotonicInstant) -> [PipAction] {
        switch event {
        case .startRequested:
            visibility.absorb()
            return requestStart(now: now)
        case .stopRequested(let restore):
            return requestStop(restore: restore, now: now)
        case .pipWindowClosed:
            return requestStop(restore: false, now: now)
        case .sourceHidden:
            reportVisibility(hidden: true, now: now)
            return []
        case .sourceShown:
            reportVisibility(hidden: false, now: now)
            return []
        case .sourceFrameChanged(let frame):
            sourceFrame = frame
            return []
        case .pipFrameChanged(let frame):
            pipFrame = frame
            return []
        case .tick:
            return step(now: now) + automaticDeadline(now: now)
        case .restoreCompleted:
            return completeRestore(now: now)
        case .contentSourceAttached:
            guard !isPossible else { return [] }
            isPossible = true
            return [.possibleChanged(true)]
        case .contentSourceRemoved, .sourceDestroyed:
            return detach(now: now)
        case .contentSourceSwitched(let frame, let hidden):
            return switchSource(frame: frame, hidden: hidden, now: now)
        }
    }
}

import PipCore

/// The hand-over point between the capture thread and the display thread.
///
/// Holds at most one frame waiting to be shown. Live sources replace a frame that was not taken
/// in time (the old buffer goes straight back: latest frame wins); file sources wait until the
/// mailbox is empty so every frame is shown. Buffers the display is done with travel back the
/// other way through a small fixed-size queue, so nothing allocates per frame.
public final class FrameMailbox: Sendable {
    /// How the capture side ended.
    public enum Ending: Sendable {
        case endOfStream
        case failed(SourceError)

        /// pipcam's exit status for it: 0 at the end of a stream, else the error's.
        public var exitCode: Int32 {
            switch self {
            case .endOfStream: 0
            case .failed(let error): error.exitCode
            }
        }
    }

    struct State: ~Copyable {
        var pending: VideoFrame?
        var returns: [Int]
        var returnCount = 0
        var ending: Ending?
        var replaced = 0
        var status = SourceStatus(camera: .streaming, prefersMirror: false)
        var releaseRequested = false
        /// What the display side asks of the source (its throttle is the capture side's own), and
        /// whether that changed since the capture side last took it.
        var requested = SourceControls()
        var requestChanged = false
    }

    private let state: Locked<State>
    /// Readable when a frame (or the ending) is waiting for the display thread.
    public let toDisplay = WakeSignal()
    /// Readable when a buffer came back (or a stop was requested) for the capture thread.
    public let toCapture = WakeSignal()

    /// - Parameter capacity: the most buffers that can be on their way back at once.
    public init(capacity: Int = 16) {
        state = Locked(State(pending: nil, returns: Array(repeating: 0, count: capacity)))
    }

    // MARK: capture side

    /// Puts a frame up for display. Returns the buffer index of a frame it replaced, if any.
    public func post(_ frame: VideoFrame) -> Int? {
        let replacedIndex = state.withLock { s -> Int? in
            let old = s.pending?.bufferIndex
            if old != nil { s.replaced += 1 }
            s.pending = frame
            return old
        }
        toDisplay.signal()
        return replacedIndex
    }

    /// Whether a posted frame is still waiting to be taken.
    public var hasPending: Bool { state.withLock { $0.pending != nil } }

    /// Buffers given back since the last call, handed to `body` one by one.
    public func drainReturns(_ body: (Int) -> Void) {
        var buffer = (0, 0, 0, 0, 0, 0, 0, 0)
        while true {
            let count = state.withLock { s -> Int in
                let n = min(s.returnCount, 8)
                withUnsafeMutableBytes(of: &buffer) { raw in
                    let out = raw.bindMemory(to: Int.self)
                    for i in 0..<n { out[i] = s.returns[s.returnCount - 1 - i] }
                }
                s.returnCount -= n
                return n
            }
            if count == 0 { return }
            withUnsafeBytes(of: &buffer) { raw in
                let values = raw.bindMemory(to: Int.self)
                for i in 0..<count { body(values[i]) }
            }
        }
    }

    /// Publishes the source's status; wakes the display thread when it changed.
    /// Which source the status is about before the capture side says anything: known from the
    /// start, so it is no change the display is woken for.
    func startStatus(of spec: SourceSpec) { state.withLock { $0.status.spec = spec } }

    public func publish(_ status: SourceStatus) {
        let changed = state.withLock { s -> Bool in
            guard s.status != status else { return false }
            s.status = status
            return true
        }
        if changed { toDisplay.signal() }
    }

    /// Asks the display thread to give back every frame it holds (see `FrameSource.needsBuffersBack`).
    public func requestRelease() {
        let first = state.withLock { s -> Bool in
            defer { s.releaseRequested = true }
            return !s.releaseRequested
        }
        if first { toDisplay.signal() }
    }

    /// Records that the source ended, and wakes the display thread.
    public func finish(_ ending: Ending) {
        state.withLock { $0.ending = ending }
        toDisplay.signal()
    }

    // MARK: display side

    /// Tells the capture side the window showing the frames settled at `width`×`height`
    /// (`SourceControls.displaySize`).
    public func noteDisplaySize(width: Int, height: Int) {
        noteRequest { $0.displaySize = SourceControls.DisplaySize(width: width, height: height) }
    }

    /// Tells the capture side that no window shows video for a while (`true`), or that one does
    /// again (`SourceControls.idle`).
    public func noteIdle(_ idle: Bool) { noteRequest { $0.idle = idle } }

    /// Tells the capture side whether a window shows the frames now: while none does a live
    /// source's frames go straight back to it, the display thread left asleep
    /// (`SourceControls.unseen`).
    public func noteUnseen(_ unseen: Bool) { noteRequest { $0.unseen = unseen } }

    /// What was asked of a file's playback so far (the source follows it a moment later).
    public var playbackRequest: PlaybackRequest { state.withLock { $0.requested.playback } }

    /// Pauses, plays or seeks a file (`PlaybackRequest`).
    public func notePlayback(_ change: (inout PlaybackRequest) -> Void) { noteRequest { change(&$0.playback) } }

    /// The seeks asked of a file's playback so far (display side).
    public var seeksAsked: Int { state.withLock { $0.requested.playback.seeks } }

    private func noteRequest(_ change: (inout SourceControls) -> Void) {
        state.withLock { s in
            change(&s.requested)
            s.requestChanged = true
        }
        toCapture.signal()
    }

    /// What the display side asks of the source, when it changed since the last call (capture side).
    public func takeRequest() -> SourceControls? {
        state.withLock { s in
            defer { s.requestChanged = false }
            return s.requestChanged ? s.requested : nil
        }
    }

    /// Takes the waiting frame, if any. The capture thread is woken: a file source waits for the
    /// mailbox to empty before reading on.
    public func take() -> VideoFrame? {
        let frame = state.withLock { s in
            let frame = s.pending
            s.pending = nil
            return frame
        }
        if frame != nil { toCapture.signal() }
        return frame
    }

    /// Takes back the waiting frame before its source stops (its memory goes with the source);
    /// returns its buffer.
    func withdraw() -> Int? {
        state.withLock { s in
            let index = s.pending?.bufferIndex
            s.pending = nil
            return index
        }
    }

    /// Gives a frame's buffer back to the capture thread.
    public func giveBack(_ bufferIndex: Int) {
        state.withLock { s in
            precondition(s.returnCount < s.returns.count, "more buffers returned than exist")
            s.returns[s.returnCount] = bufferIndex
            s.returnCount += 1
        }
        toCapture.signal()
    }

    /// How the source ended, once it has and no frame is left to show.
    public var ending: Ending? {
        state.withLock { s in s.pending == nil ? s.ending : nil }
    }

    /// The source's latest status.
    public var status: SourceStatus { state.withLock { $0.status } }

    /// Whether the capture side asked for every frame back; reading it clears the request.
    public func takeReleaseRequest() -> Bool {
        state.withLock { s in
            defer { s.releaseRequested = false }
            return s.releaseRequested
        }
    }

    /// Frames replaced before the display took them (dropped as stale).
    public var replacedCount: Int { state.withLock { $0.replaced } }
}

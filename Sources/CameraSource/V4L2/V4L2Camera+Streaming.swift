#if canImport(Glibc)
import Glibc
#endif
import PipCore

/// Capture: DQBUF, screening of bad buffers, QBUF on recycle, and stream restarts after EIO.
extension V4L2Camera {
    public func nextFrame(now: MonotonicInstant) throws -> SourceStep {
        if let failure = pendingFailure { throw failure }
        guard let dev = device, let layout, isStreaming else {
            preconditionFailure("V4L2Camera.nextFrame called before start() or after stop()")
        }
        while true {
            let b: V4L2DequeuedBuffer
            do {
                b = try dev.dequeueBuffer()
            } catch {
                switch error {
                case .wouldBlock: return try waitForFrame(dev, now: now)
                case .interrupted: continue
                case .noDevice: throw remember(interrupt(.disconnected))
                case .io:
                    // The driver may have lost a buffer or stalled; a restart requeues everything.
                    ioErrors += 1
                    consecutiveIOErrors += 1
                    guard consecutiveIOErrors >= Self.ioErrorsBeforeRestart else { continue }
                    try restartStream(dev)
                    return .wait(deadline: nil)
                case .other(let code):
                    throw remember(failure(V4L2Error(call: "VIDIOC_DQBUF", errno: code)))
                }
            }
            consecutiveIOErrors = 0
            guard b.index >= 0, b.index < bufferStates.count else {
                throw remember(.runtime(thing: name, reason: "driver returned buffer \(b.index), which it does not have"))
            }
            if isLoopback {
                if let frame = try copyOut(dev, b, layout: layout, now: now) { return .frame(frame) }
                continue
            }
            guard bufferStates[b.index] == .queued else {
                throw remember(.runtime(thing: name, reason: "driver returned buffer \(b.index), which was not queued"))
            }
            bufferStates[b.index] = .idle
            countSequenceGap(b.sequence)
            if b.hasError || b.bytesUsed < (layout.minimumBytes ?? 1) {
                droppedFrames += 1
                try requeue(dev, b.index)
                continue
            }
            framesCaptured += 1
            restartsWithoutFrame = 0
            stallWatch = nil
            bufferStates[b.index] = .withClient
            let buffer = buffers[b.index]
            return .frame(layout.frame(
                base: UnsafeRawPointer(buffer.base), bytesUsed: min(b.bytesUsed, buffer.length),
                timestamp: b.hasMonotonicTimestamp ? b.timestamp : now,
                sequence: UInt64(b.sequence), bufferIndex: b.index))
        }
    }

    /// A v4l2loopback reader's frame: copied out of the driver's buffer, which goes back at once.
    /// v4l2loopback hands out whichever buffer its writer filled last — one the display still
    /// holds, or the same one every time (a writer that dequeues its output buffers gets the
    /// same one back) — and its writer fills buffers whatever the reader does. The display so
    /// keeps frames of its own, in `loopbackCopies`, and nothing it holds is ever written to.
    private func copyOut(
        _ dev: any V4L2Device, _ b: V4L2DequeuedBuffer, layout: V4L2FrameLayout, now: MonotonicInstant
    ) throws(SourceError) -> VideoFrame? {
        stallWatch = nil  // the writer is alive
        if bufferStates[b.index] == .queued { bufferStates[b.index] = .idle } else { unqueuedDeliveries += 1 }
        defer { if bufferStates[b.index] == .idle { try? requeue(dev, b.index) } }
        countSequenceGap(b.sequence)
        let buffer = buffers[b.index]
        guard !b.hasError, b.bytesUsed >= (layout.minimumBytes ?? 1) else {
            droppedFrames += 1
            return nil
        }
        guard let slot = loopbackCopies.firstIndex(where: { !$0.held }) else {
            droppedFrames += 1  // the display holds every copy: it is behind
            return nil
        }
        let bytes = min(b.bytesUsed, buffer.length, loopbackCopies[slot].length)
        loopbackCopies[slot].base.copyMemory(from: buffer.base, byteCount: bytes)
        loopbackCopies[slot].held = true
        framesCaptured += 1
        restartsWithoutFrame = 0
        return layout.frame(
            base: UnsafeRawPointer(loopbackCopies[slot].base), bytesUsed: bytes,
            timestamp: b.hasMonotonicTimestamp ? b.timestamp : now, sequence: UInt64(b.sequence), bufferIndex: slot)
    }

    public func recycle(bufferIndex: Int) {
        if isLoopback {
            if loopbackCopies.indices.contains(bufferIndex) { loopbackCopies[bufferIndex].held = false }
            return
        }
        guard bufferIndex >= 0, bufferIndex < bufferStates.count, bufferStates[bufferIndex] == .withClient else {
            return  // not ours to queue (already recycled, or from before a restart of the camera)
        }
        bufferStates[bufferIndex] = .idle
        guard let dev = device, isStreaming, pendingFailure == nil else { return }
        try? requeue(dev, bufferIndex)  // a failure is kept for the next `nextFrame` to throw
    }

    /// Counts frames the driver skipped: sequence numbers go up by one per captured frame.
    private func countSequenceGap(_ sequence: UInt32) {
        if let last = lastSequence {
            let gap = sequence &- last &- 1
            if gap > 0 && gap < 1 << 31 { droppedFrames += Int(gap) }
        }
        lastSequence = sequence
    }

    /// QBUF. EIO means the driver flagged a fatal queue error (vb2): DQBUF fails with EIO as well,
    /// and the restart that brings queues this buffer, left idle, again.
    private func requeue(_ dev: any V4L2Device, _ index: Int) throws(SourceError) {
        do {
            try dev.queueBuffer(index: index)
            bufferStates[index] = .queued
        } catch {
            if error.errno == EIO { return }
            throw remember(failure(error))
        }
    }

    /// Nothing to dequeue: waits for the descriptor, and for the stall deadline while buffers are
    /// queued. A driver can stop filling buffers without an error (a UVC stream broken by USB
    /// errors); the picture would then freeze for good, so the stream is restarted. It is not
    /// given up on: unplugging ends it (ENODEV) and plugging in again reopens it.
    private func waitForFrame(_ dev: any V4L2Device, now: MonotonicInstant) throws(SourceError) -> SourceStep {
        // A loopback's reader gets frames whatever it queued (see `nextFrame`).
        guard bufferStates.contains(.queued) || isLoopback else {
            stallWatch = nil  // the display holds them all: no frame can come
            return .wait(deadline: nil)
        }
        let watch = stallWatch ?? (now, isLoopback ? Self.loopbackWriterGoneNanoseconds
            : framesCaptured > 0 ? Self.stallNanoseconds : Self.firstFrameStallNanoseconds)
        let deadline = watch.since.advanced(byNanoseconds: watch.patience)
        guard now >= deadline else {
            stallWatch = watch
            return .wait(deadline: deadline)
        }
        // A loopback with no new frame has lost its writer (or it paused): the device is let go,
        // as after an unplug, so that the next writer can set the format it wants; only once
        // every opener has closed it does v4l2loopback take a new one.
        if isLoopback { throw remember(interrupt(.disconnected)) }
        stalls += 1
        try requeueAllAndRestart(dev)
        let patience = min(2 * watch.patience, Self.longestStallNanoseconds)
        stallWatch = (now, patience)
        return .wait(deadline: now.advanced(byNanoseconds: patience))
    }

    /// After EIO: STREAMOFF, requeue, STREAMON. Gives up when restarts keep producing no frame.
    private func restartStream(_ dev: any V4L2Device) throws(SourceError) {
        consecutiveIOErrors = 0
        restartsWithoutFrame += 1
        guard restartsWithoutFrame <= Self.restartsBeforeFailure else {
            throw remember(.runtime(thing: name, reason: "input/output error (stream restarted \(Self.restartsBeforeFailure) times without a frame)"))
        }
        try requeueAllAndRestart(dev)
    }

    /// STREAMOFF (which takes back all queued buffers), queue every buffer the display does not
    /// hold, STREAMON.
    private func requeueAllAndRestart(_ dev: any V4L2Device) throws(SourceError) {
        streamRestarts += 1
        stallWatch = nil
        do {
            try dev.streamOff()
            isStreaming = false
            for index in bufferStates.indices where bufferStates[index] != .withClient {
                bufferStates[index] = .idle
                try dev.queueBuffer(index: index)
                bufferStates[index] = .queued
            }
            try dev.streamOn()
            isStreaming = true
        } catch {
            throw remember(failure(error))
        }
        // Sequence numbers start again from 0 after STREAMON.
        lastSequence = nil
    }

    /// Keeps a fatal error so later calls report it again instead of touching the device.
    private func remember(_ error: SourceError) -> SourceError {
        pendingFailure = error
        return error
    }
}

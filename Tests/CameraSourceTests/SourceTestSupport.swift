import CTurboJPEG
import Foundation
import Glibc
import Testing
import TestSupport
@testable import CameraSource
import PipCore

/// The bytes of a frame's buffer (all planes, or the compressed payload).
func payload(_ frame: VideoFrame) -> [UInt8] {
    Array(UnsafeRawBufferPointer(start: frame.plane0.base, count: frame.byteCount))
}

/// Reads every frame unpaced, copying and recycling each; stops at `.end` (or after `limit` frames).
func drain(_ source: FrameSource, limit: Int = 100_000) throws -> [(frame: VideoFrame, bytes: [UInt8])] {
    var frames: [(VideoFrame, [UInt8])] = []
    let now = MonotonicInstant(nanoseconds: 1_000_000_000)
    while frames.count < limit {
        switch try source.nextFrame(now: now) {
        case .frame(let frame):
            frames.append((frame, payload(frame)))
            source.recycle(bufferIndex: frame.bufferIndex)
        case .wait(let deadline):
            Issue.record("unexpected wait \(String(describing: deadline)) from an unpaced file source")
            return frames
        case .end:
            return frames
        }
    }
    return frames
}

/// The `SourceError` a throwing call raised, or nil when it did not throw one.
func sourceError(_ body: () throws -> Void) -> SourceError? {
    do {
        try body()
        return nil
    } catch let error as SourceError {
        return error
    } catch {
        Issue.record("unexpected error type: \(error)")
        return nil
    }
}

let unpaced = SourceRequest(paced: false)

extension SourceStep {
    var frame: VideoFrame? {
        if case .frame(let f) = self { return f }
        return nil
    }
    var waitDeadline: MonotonicInstant?? {
        if case .wait(let d) = self { return .some(d) }
        return nil
    }
    var isEnd: Bool {
        if case .end = self { return true }
        return false
    }
}

/// The warnings a file source printed (`FileFrameSource.warn`), collected instead.
final class WarningLog {
    private(set) var lines: [String] = []

    /// Starts collecting `source`'s warnings.
    init(_ source: FileFrameSource) {
        source.warn = { [unowned self] in lines.append($0) }
    }
}

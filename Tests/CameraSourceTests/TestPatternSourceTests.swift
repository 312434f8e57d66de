import Testing
@testable import CameraSource
import PipCore

@Suite struct TestPatternSourceTests {
    static let t0 = MonotonicInstant(nanoseconds: 2_000_000_000)

    func started(width: Int = 640, height: Int = 360) -> TestPatternSource {
        let source = TestPatternSource(width: width, height: height)
        source.start()
        return source
    }

    /// Luma bytes of a rectangle.
    func luma(_ frame: VideoFrame, x: Int, y: Int, width: Int, height: Int) -> [UInt8] {
        (y..<(y + height)).flatMap { row in
            (x..<(x + width)).map { frame.plane0.base.load(fromByteOffset: row * frame.plane0.stride + $0, as: UInt8.self) }
        }
    }

    @Test func describesItself() {
        let source = started()
        #expect(source.name == "test" && source.isLive && !source.mirroredByDefault && source.pollDescriptor == nil)
        #expect(source.frameWidth == 640 && source.frameHeight == 360 && source.frameRate == 30)
        #expect(source.frameFormat == .i420)
        let frame = source.nextFrame(now: Self.t0).frame!
        #expect(frame.format == .i420 && frame.colorimetry == Colorimetry(matrix: .bt601, range: .limited))
        #expect(frame.byteCount == 640 * 360 * 3 / 2 && frame.plane1 != nil && frame.plane2 != nil)
    }

    /// Standing in for a camera not found yet, it says the camera is awaited (the window's banner).
    @Test func aStandInSaysTheCameraIsAwaited() {
        #expect(started().cameraState == .streaming)
        let standIn = TestPatternSource(standsInForCamera: true)
        standIn.start()
        #expect(standIn.cameraState == .waiting && standIn.nextFrame(now: Self.t0).frame != nil)
    }

    @Test func deadlinesAreThirtiethsOfASecond() {
        let source = started()
        #expect(source.nextFrame(now: Self.t0).frame?.sequence == 0)
        for k in 1...5 {
            let due = Self.t0.advanced(byNanoseconds: (Int64(k) * 1_000_000_000 + 29) / 30)
            #expect(source.nextFrame(now: due.advanced(byNanoseconds: -1)).waitDeadline == .some(due))
            let frame = source.nextFrame(now: due).frame
            #expect(frame?.sequence == UInt64(k))
            if let frame { source.recycle(bufferIndex: frame.bufferIndex) }
        }
    }

    @Test func fallingBehindSkipsToTheCurrentFrame() {
        let source = started()
        _ = source.nextFrame(now: Self.t0)
        source.recycle(bufferIndex: 0)
        let late = Self.t0.advanced(byNanoseconds: 1_010_000_000)
        #expect(source.nextFrame(now: late).frame?.sequence == 30)
        #expect(source.nextFrame(now: late).waitDeadline == .some(Self.t0.advanced(byNanoseconds: 1_033_333_334)))
    }

    @Test func framesDifferAndTheCounterChanges() {
        let source = started()
        let a = source.nextFrame(now: Self.t0).frame!
        let b = source.nextFrame(now: Self.t0.advanced(byNanoseconds: 40_000_000)).frame!
        #expect(a.bufferIndex != b.bufferIndex)
        #expect(payload(a) != payload(b))
        let painter = PatternPainter(width: 640, height: 360)
        let counter = painter.counterRect(digits: 1)
        let digitsA = luma(a, x: counter.x, y: counter.y, width: counter.width, height: counter.height)
        let digitsB = luma(b, x: counter.x, y: counter.y, width: counter.width, height: counter.height)
        #expect(digitsA != digitsB)
        #expect(digitsA.contains(235) && digitsA.contains(16) && Set(digitsA).count == 2)
        // The bouncing box is white at its centre.
        let box = painter.boxRect(frame: 1)
        #expect(luma(b, x: box.x + box.size / 2, y: box.y + box.size / 2, width: 1, height: 1) == [235])
    }

    @Test func drawsTheDigitsOfTheFrameNumber() {
        let painter = PatternPainter(width: 320, height: 240)
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: painter.layout.byteCount, alignment: 64)
        defer { buffer.deallocate() }
        painter.draw(frame: 1234, into: buffer)
        let rect = painter.counterRect(digits: 4)
        let s = rect.scale
        let y = buffer.assumingMemoryBound(to: UInt8.self)
        for (i, digit) in [1, 2, 3, 4].enumerated() {
            for row in 0..<DigitFont.rows {
                for column in 0..<DigitFont.columns {
                    let px = rect.x + s + i * 6 * s + column * s + s / 2
                    let py = rect.y + s + row * s + s / 2
                    let expected: UInt8 = DigitFont.isSet(digit: digit, column: column, row: row) ? 235 : 16
                    #expect(y[py * 320 + px] == expected)
                }
            }
        }
    }

    @Test func threeBuffersThenWait() {
        let source = started()
        var lent: [VideoFrame] = []
        for k in 0..<3 { lent.append(source.nextFrame(now: Self.t0.advanced(byNanoseconds: Int64(k) * 40_000_000)).frame!) }
        let later = Self.t0.advanced(byNanoseconds: 200_000_000)
        #expect(source.nextFrame(now: later).waitDeadline == .some(nil))
        source.recycle(bufferIndex: lent[2].bufferIndex)
        #expect(source.nextFrame(now: later).frame?.bufferIndex == lent[2].bufferIndex)
    }

    @Test(arguments: [(2, 2), (33, 17), (16, 16), (1, 1), (1920, 1080)])
    func oddAndTinySizesDraw(width: Int, height: Int) {
        let source = started(width: width, height: height)
        for k in 0..<40 {
            if let frame = source.nextFrame(now: Self.t0.advanced(byNanoseconds: Int64(k) * 33_333_334 * 7)).frame {
                source.recycle(bufferIndex: frame.bufferIndex)
            }
        }
        #expect(source.frameWidth >= 2 && source.frameHeight >= 2)
    }

    /// Unseen frames keep their rhythm and numbers but are not painted: a buffer handed out again
    /// holds what it held; seen again, frames are painted.
    @Test func unseenFramesAreNotPainted() {
        let source = started()
        let frame = { (k: Int64) in source.nextFrame(now: Self.t0.advanced(byNanoseconds: k * 33_333_334)).frame! }
        let first = frame(0)
        let painted = payload(first)
        source.recycle(bufferIndex: first.bufferIndex)
        source.apply(SourceControls(unseen: true))
        var reused: VideoFrame?
        for k in 1...6 {
            let f = frame(Int64(k))
            #expect(f.sequence == UInt64(k))
            if f.bufferIndex == first.bufferIndex && reused == nil { reused = f } else { source.recycle(bufferIndex: f.bufferIndex) }
        }
        let kept = reused.map(payload) == painted
        #expect(kept, "an unseen frame was painted")
        if let reused { source.recycle(bufferIndex: reused.bufferIndex) }
        source.apply(SourceControls(unseen: false))
        var seen: VideoFrame?
        for k in 7...12 where seen == nil {
            let f = frame(Int64(k))
            if f.bufferIndex == first.bufferIndex { seen = f } else { source.recycle(bufferIndex: f.bufferIndex) }
        }
        let repainted = seen.map(payload) != painted
        #expect(repainted, "a seen frame was not painted")
    }

    @Test func notStartedEnds() {
        #expect(TestPatternSource().nextFrame(now: Self.t0).isEnd)
    }
}

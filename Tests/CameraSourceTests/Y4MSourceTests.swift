import TestSupport
import Testing
@testable import CameraSource
import PipCore

/// A Y4M stream: `header` (without magic and newline) then `frames`, each after `FRAME<params>\n`.
func y4m(_ header: String, frames: [[UInt8]], frameParams: String = "") -> [UInt8] {
    var bytes = Array("YUV4MPEG2 \(header)\n".utf8)
    for frame in frames {
        bytes += Array("FRAME\(frameParams)\n".utf8)
        bytes += frame
    }
    return bytes
}

@Suite struct Y4MSourceTests {
    func open(_ bytes: [UInt8], request: SourceRequest = unpaced) throws -> Y4MSource {
        let source = Y4MSource(path: Fixture.file(bytes, name: "clip.y4m"), request: request)
        try source.start()
        return source
    }

    /// The message `start()` fails with for these file contents (path shortened to `clip.y4m`).
    func startError(_ bytes: [UInt8]) -> String? {
        let path = Fixture.file(bytes, name: "clip.y4m")
        let error = sourceError { try Y4MSource(path: path).start() }
        return error?.description.replacingOccurrences(of: path, with: "clip.y4m")
    }

    @Test(arguments: [
        ("C420jpeg", PixelFormat.i420), ("C420paldv", .i420), ("C420", .i420), ("C420mpeg2", .i420),
        ("C422", .i422), ("C444", .i444), ("Cmono", .gray), ("", .i420),
    ])
    func colourSpaces(tag: String, format: PixelFormat) throws {
        let (w, h) = (6, 4)
        let layout = format.packedLayout(width: w, height: h)!
        let frames = (0..<3).map { Fixture.bytes(layout.byteCount, seed: UInt64($0)) }
        let source = try open(y4m("W\(w) H\(h) F25:1 Ip A1:1 \(tag)", frames: frames))
        #expect(source.frameWidth == w && source.frameHeight == h && source.frameRate == 25)
        #expect(source.format == format && source.frameFormat == format)
        let read = try drain(source)
        #expect(read.count == 3)
        for (i, (frame, bytes)) in read.enumerated() {
            #expect(frame.format == format && frame.width == w && frame.height == h)
            #expect(bytes == frames[i])
            #expect(frame.sequence == UInt64(i))
            #expect(frame.colorimetry == Colorimetry(matrix: .bt601, range: .limited))
            // Plane pointers land on the right bytes.
            let o = layout.offsets
            #expect(frame.plane0.stride == layout.strides.0)
            if layout.count > 1 {
                let p1 = try #require(frame.plane1)
                #expect(p1.base.load(fromByteOffset: 0, as: UInt8.self) == frames[i][o.1])
                #expect(p1.stride == layout.strides.1)
            } else {
                #expect(frame.plane1 == nil)
            }
            if layout.count > 2 {
                #expect(try #require(frame.plane2).base.load(as: UInt8.self) == frames[i][o.2])
            }
        }
        source.stop()
        source.stop()
    }

    @Test func oddWidth420() throws {
        let frame = Array(0..<27).map(UInt8.init)  // 5×3 Y + 3×2 U + 3×2 V
        let source = try open(y4m("W5 H3 C420jpeg", frames: [frame, frame.reversed()]))
        let read = try drain(source)
        #expect(read.map(\.bytes) == [frame, frame.reversed()])
        let f = read[0].frame
        #expect(f.plane1!.stride == 3 && f.plane2!.stride == 3)
        #expect(f.plane1!.base.load(as: UInt8.self) == 15 && f.plane2!.base.load(as: UInt8.self) == 21)
    }

    @Test func frameParametersAreSkipped() throws {
        let frames = [Fixture.bytes(24, seed: 1), Fixture.bytes(24, seed: 2)]
        let source = try open(y4m("W4 H4 C420", frames: frames, frameParams: " Ip XYSCSS=420 Xfoo=bar"))
        #expect(try drain(source).map(\.bytes) == frames)
    }

    @Test func colourRangeAndMatrix() throws {
        let full = try open(y4m("W2 H2 XCOLORRANGE=FULL", frames: [[0, 0, 0, 0, 1, 2]]))
        #expect(full.colorimetry == Colorimetry(matrix: .bt601, range: .full))
        #expect(try drain(full)[0].frame.colorimetry.range == .full)
        let limited = try open(y4m("W2 H2 XCOLORRANGE=LIMITED Xother", frames: [[0, 0, 0, 0, 1, 2]]))
        #expect(limited.colorimetry.range == .limited)
        let hd = try open(y4m("W2 H720 Cmono", frames: [[UInt8](repeating: 9, count: 1440)]))
        #expect(hd.colorimetry == Colorimetry(matrix: .bt709, range: .limited))
    }

    @Test(arguments: [("F30000:1001", 30000.0 / 1001), ("F25:1", 25), ("", 30), ("F0:0", 30), ("F1000:1", 1000)])
    func frameRate(tag: String, fps: Double) throws {
        let source = try open(y4m("W2 H2 \(tag)", frames: [[1, 2, 3, 4, 5, 6]]))
        #expect(source.frameRate == fps)
    }

    @Test func headerErrors() {
        #expect(startError([]) == "clip.y4m: empty file")
        #expect(startError(Array("YUV4MPEG3 W2 H2\n".utf8)) == "clip.y4m: bad header at byte 8: expected 'YUV4MPEG2 '")
        #expect(startError(Array("RIFF....WAVE".utf8)) == "clip.y4m: bad header at byte 0: expected 'YUV4MPEG2 '")
        #expect(startError(Array("YUV4".utf8)) == "clip.y4m: bad header at byte 4: expected 'YUV4MPEG2 '")
        #expect(startError(Array("YUV4MPEG2 W2 H2".utf8)) == "clip.y4m: bad header at byte 15: expected end of header line")
        #expect(
            startError(Array("YUV4MPEG2 " .utf8) + [UInt8](repeating: 0x41, count: 5000))
                == "clip.y4m: bad header at byte 4096: expected end of header line")
        #expect(startError(Array("YUV4MPEG2 Wabc H2\n".utf8)) == "clip.y4m: bad header at byte 10: expected 'W<width>'")
        #expect(startError(Array("YUV4MPEG2 W0 H2\n".utf8)) == "clip.y4m: bad header at byte 10: expected 'W<width>'")
        #expect(startError(Array("YUV4MPEG2 H360 F30:1\n".utf8)) == "clip.y4m: bad header at byte 20: expected 'W<width>'")
        #expect(startError(Array("YUV4MPEG2 W640 F30:1\n".utf8)) == "clip.y4m: bad header at byte 20: expected 'H<height>'")
        #expect(startError(Array("YUV4MPEG2 W2 H-1\n".utf8)) == "clip.y4m: bad header at byte 13: expected 'H<height>'")
        #expect(startError(Array("YUV4MPEG2 W2 H2 F30\n".utf8)) == "clip.y4m: bad header at byte 16: expected 'F<num>:<den>'")
        #expect(startError(Array("YUV4MPEG2 W2 H2 F30:0\n".utf8)) == "clip.y4m: bad header at byte 16: expected 'F<num>:<den>'")
        // A rate no video has: as for raw and MJPEG files, 0.01 to 1000 frames a second.
        #expect(
            startError(Array("YUV4MPEG2 W2 H2 F999999999:1\n".utf8))
                == "clip.y4m: bad header at byte 16: expected a frame rate from 0.01 to 1000 ('F999999999:1' is 999999999.0)")
        #expect(startError(Array("YUV4MPEG2 W2 H2 F1:999999999\n".utf8))?.hasPrefix("clip.y4m: bad header at byte 16: expected a frame rate from 0.01 to 1000") == true)
        #expect(
            startError(Array("YUV4MPEG2 W2 H2 C420p10\n".utf8))
                == "clip.y4m: unsupported colour space 'C420p10' (expected C420jpeg, C420paldv, C420, C420mpeg2, C422, C444 or Cmono)")
        #expect(
            startError(Array("YUV4MPEG2 W20000 H2\n".utf8))
                == "clip.y4m: frame size 20000x2 is too large (at most 16384 per side and 64 Mpixel)")
        #expect(
            startError(Array("YUV4MPEG2 W16384 H16384\n".utf8))
                == "clip.y4m: frame size 16384x16384 is too large (at most 16384 per side and 64 Mpixel)")
        #expect(startError(Array("YUV4MPEG2 W2 H2\n".utf8)) == "clip.y4m: no frames after the header")
    }

    @Test func frameErrors() throws {
        let frame = [UInt8](repeating: 7, count: 6)
        // Header is 16 bytes, so the first marker is at byte 16 and the second at 16 + 6 + 6 = 28.
        #expect(startError(y4m("W2 H2", frames: []) + Array("FRAMX\n".utf8)) == "clip.y4m: bad frame marker at byte 16: expected 'FRAME'")
        #expect(startError(y4m("W2 H2", frames: []) + Array("FRAMEX\n".utf8)) == "clip.y4m: bad frame marker at byte 16: expected 'FRAME'")
        #expect(startError(y4m("W2 H2", frames: []) + Array("FRA".utf8)) == "clip.y4m: truncated frame 0 (got 0 of 6 bytes)")
        #expect(startError(y4m("W2 H2", frames: []) + Array("FRAME".utf8)) == "clip.y4m: truncated frame 0 (got 0 of 6 bytes)")
        #expect(startError(y4m("W2 H2", frames: []) + Array("FRAME\n\u{1}\u{2}".utf8)) == "clip.y4m: truncated frame 0 (got 2 of 6 bytes)")

        let garbage = try open(y4m("W2 H2", frames: [frame]) + Array("GARBAGE\n".utf8) + frame)
        #expect(try garbage.nextFrame(now: .now()).frame != nil)
        #expect(sourceError { _ = try garbage.nextFrame(now: .now()) }?.description.hasSuffix("bad frame marker at byte 28: expected 'FRAME'") == true)
        #expect(try garbage.nextFrame(now: .now()).isEnd)

    }

    /// docs/pipcam.1, OPTIONS (`--source`): a truncated last frame is dropped with one warning, and the stream
    /// ends normally (it was an error, exit 2, while MJPEG showed what it had).
    @Test func truncatedLastFrameIsDroppedWithAWarning() throws {
        let frame = [UInt8](repeating: 7, count: 6)
        let path = Fixture.file(y4m("W2 H2", frames: [frame, frame, frame]).dropLast(2).map { $0 }, name: "clip.y4m")
        let cut = Y4MSource(path: path, request: unpaced)
        let log = WarningLog(cut)
        try cut.start()
        #expect(try drain(cut).map(\.bytes) == [frame, frame])
        #expect(log.lines == ["\(path): last frame truncated (4 of 6 bytes); ignored"])
        #expect(try cut.nextFrame(now: .now()).isEnd)
        #expect(log.lines.count == 1)

        // Cut inside the FRAME line: none of the frame's bytes.
        for tail in ["FRA", "FRAME", "FRAME Ixyz"] {
            let marker = Y4MSource(path: Fixture.file(y4m("W2 H2", frames: [frame]) + Array(tail.utf8), name: "clip.y4m"), request: unpaced)
            let markerLog = WarningLog(marker)
            try marker.start()
            #expect(try drain(marker).count == 1)
            #expect(markerLog.lines.count == 1 && markerLog.lines.first?.hasSuffix("last frame truncated (0 of 6 bytes); ignored") == true)
        }
    }

    /// Looping a file whose last frame is cut off: the warning is said once, not each time round.
    @Test func aLoopedTruncatedLastFrameIsSaidOnce() throws {
        let frames = (0..<3).map { [UInt8](repeating: UInt8($0), count: 6) }
        let path = Fixture.file(y4m("W2 H2", frames: frames).dropLast(2).map { $0 }, name: "clip.y4m")
        let looped = Y4MSource(path: path, request: SourceRequest(paced: false, loops: true))
        let log = WarningLog(looped)
        try looped.start()
        var shown: [[UInt8]] = []
        while shown.count < 30 {
            switch try looped.nextFrame(now: .now()) {
            case .frame(let frame):
                shown.append(payload(frame))
                looped.recycle(bufferIndex: frame.bufferIndex)
            case .wait: continue
            case .end: Issue.record("a looped file ended"); return
            }
        }
        #expect(shown == (0..<30).map { frames[$0 % 2] }, "the two whole frames in turn")
        #expect(log.lines == ["\(path): last frame truncated (4 of 6 bytes); ignored"])
    }

    @Test func missingAndUnreadableFiles() {
        #expect(sourceError { try Y4MSource(path: "/nonexistent/clip.y4m").start() }
            == .badInput(thing: "/nonexistent/clip.y4m", reason: "no such file or directory"))
        #expect(sourceError { try Y4MSource(path: "/tmp").start() } == .badInput(thing: "/tmp", reason: "is a directory"))
    }

    @Test func readsFromPipeInSmallChunks() throws {
        let frames = (0..<20).map { Fixture.bytes(640 * 360 * 3 / 2, seed: UInt64($0)) }
        let fd = Fixture.pipe(y4m("W640 H360 F30:1 C420jpeg", frames: frames), chunk: 1000)
        let source = Y4MSource(fileDescriptor: fd, name: "pipe", request: unpaced)
        try source.start()
        #expect(source.name == "pipe")
        let read = try drain(source)
        #expect(read.count == 20)
        #expect(read.map(\.bytes) == frames)
        source.stop()
    }

    @Test func stdinName() {
        #expect(Y4MSource(path: "-").name == "stdin")
        #expect(!Y4MSource(path: "-").isLive && !Y4MSource(path: "-").mirroredByDefault)
        #expect(Y4MSource(path: "-").pollDescriptor == nil)
    }

    @Test func fuzzMutatedAndTruncatedFiles() throws {
        let frames = (0..<4).map { Fixture.bytes(5 * 3 + 2 * 6, seed: UInt64($0)) }
        let valid = y4m("W5 H3 F30:1 Ip A0:0 C420jpeg XCOLORRANGE=FULL", frames: frames, frameParams: " Ip")
        var rng = SplitMix(seed: 7)
        var outcomes = (frames: 0, errors: 0)
        for round in 0..<1500 {
            var bytes = valid
            if round % 3 == 0 {
                bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &rng)))
            } else {
                for _ in 0..<Int.random(in: 1...3, using: &rng) {
                    let i = Int.random(in: 0..<bytes.count, using: &rng)
                    let useful: [UInt8] = [0x20, 0x0A, 0x30, 0x39, 0x3A, 0x57, 0x48, 0x43, 0x46, 0x00, 0xFF]
                    bytes[i] = Bool.random(using: &rng) ? useful.randomElement(using: &rng)! : UInt8.random(in: 0...255, using: &rng)
                }
            }
            let source = Y4MSource(fileDescriptor: Fixture.pipe(bytes), name: "fuzz", request: unpaced)
            do {
                try source.start()
                let read = try drain(source, limit: 100)
                outcomes.frames += read.count
            } catch let error as SourceError {
                guard case .badInput = error else {
                    Issue.record("\(error)")
                    continue
                }
                outcomes.errors += 1
            }
            source.stop()
        }
        #expect(outcomes.frames > 0 && outcomes.errors > 0)
    }
}

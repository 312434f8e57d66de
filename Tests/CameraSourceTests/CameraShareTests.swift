import CTurboJPEG
import Testing
import TestSupport
@testable import CameraSource
import PipCore
#if canImport(Glibc)
import Glibc
#endif

/// Feeding the virtual camera: every frame, placeholders at the camera's rate while it gives none,
/// MJPEG decoded at full size (docs/BEHAVIOUR.md, "Sharing the camera").
@Suite struct CameraShareTests {
    private let t0 = MonotonicInstant(nanoseconds: 50_000_000_000)

    private func share(_ device: FakeOutputDevice, _ format: PixelFormat = .i420, _ w: Int = 16, _ h: Int = 8, fps: Double? = 30) -> CameraShare {
        CameraShare(device: "/dev/video10", output: device, format: format, width: w, height: h, frameRate: fps, now: { [t0] in t0 })
    }

    @Test func everyOfferedFrameIsWrittenAsTheCameraSawIt() {
        let out = FakeOutputDevice()
        let s = share(out)
        let bytes = ShareFixture.i420Ramp(16, 8)
        bytes.withUnsafeBytes { raw in
            for i in 0..<5 { s.offer(ShareFixture.frame(.i420, 16, 8, raw), now: t0 + ms(Int64(33 * i))) }
        }
        #expect(s.written == 5 && s.placeholders == 0)
        #expect(out.frames.count == 5)
        #expect(out.frames.allSatisfy { $0 == bytes })
    }

    /// No frame for a while (camera unplugged, in use, stalled): placeholders at the camera's rate,
    /// from `placeholderDelayNanoseconds` after the last frame; real frames again when it is back.
    @Test func placeholdersKeepTheRateWhileTheCameraGivesNone() {
        let out = FakeOutputDevice()
        let s = share(out)
        let bytes = ShareFixture.i420Ramp(16, 8)
        bytes.withUnsafeBytes { raw in s.offer(ShareFixture.frame(.i420, 16, 8, raw), now: t0) }
        // Camera jitter is no reason for a placeholder.
        #expect(s.tick(now: t0 + ms(300)) == t0 + CameraShare.placeholderDelayNanoseconds)
        #expect(s.placeholders == 0)
        // One second of silence at 30 fps: about 18 placeholders after the first 0.4 s.
        var now = t0 + CameraShare.placeholderDelayNanoseconds
        while now < t0 + ms(1_000) { now = s.tick(now: now) }
        #expect((17...19).contains(s.placeholders))
        #expect(out.frames.last == [UInt8](repeating: 32, count: 16 * 8) + [UInt8](repeating: 128, count: 16 * 8 / 2))
        bytes.withUnsafeBytes { raw in s.offer(ShareFixture.frame(.i420, 16, 8, raw), now: now) }
        #expect(out.frames.last == bytes)
        let before = s.placeholders
        _ = s.tick(now: now + ms(100))
        #expect(s.placeholders == before)
    }

    /// Before the first frame (a camera in use at start) the call gets placeholders too.
    @Test func placeholdersBeforeTheFirstFrame() {
        let out = FakeOutputDevice()
        let s = share(out, .yuyv)
        var now = t0
        while now < t0 + ms(600) { now = s.tick(now: now) }
        #expect(s.placeholders > 0 && out.frames.allSatisfy { $0.count == 16 * 8 * 2 && $0[0] == 32 })
    }

    /// A suspended machine does not write the missed placeholders in a burst.
    @Test func noBurstAfterALongSleep() {
        let s = share(FakeOutputDevice())
        _ = s.tick(now: t0 + ms(500))
        let next = s.tick(now: t0 + ms(60_000))
        #expect(next == t0 + ms(60_000) + 33_333_333)
        #expect(s.placeholders == 2)
    }

    @Test func aFailedWriteIsCountedNotFatal() {
        let out = FakeOutputDevice()
        out.writeErrno = EINVAL
        let s = share(out)
        let bytes = ShareFixture.i420Ramp(16, 8)
        bytes.withUnsafeBytes { raw in s.offer(ShareFixture.frame(.i420, 16, 8, raw), now: t0) }
        #expect(s.written == 0 && s.failures == 1)
    }

    /// MJPEG is decoded at full size on the share's own thread and written as I420; the
    /// capture thread only copies the bytes (the frame's buffer may be reused at once).
    @Test func mjpegIsDecodedAtFullSizeOnItsOwnThread() throws {
        let out = FakeOutputDevice()
        let (w, h) = (64, 32)
        let s = share(out, .i420, w, h)
        // Left half black, right half white: a mirror or a scale would show.
        var rgb = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0..<h { for x in w / 2..<w { for c in 0..<3 { rgb[(y * w + x) * 3 + c] = 255 } } }
        var jpeg = Fixture.jpeg(rgb: rgb, width: w, height: h, subsampling: TJSAMP_422)
        jpeg.withUnsafeBytes { raw in
            var f = ShareFixture.frame(.gray, w, h, raw)
            f.format = .mjpeg
            f.byteCount = raw.count
            s.offer(f, now: t0)
        }
        _ = jpeg.withUnsafeMutableBytes { $0.initializeMemory(as: UInt8.self, repeating: 0) }  // the camera reuses its buffer
        #expect(eventually { out.frames.count == 1 })
        s.close()
        let frame = try #require(out.frames.first)
        #expect(frame.count == w * h * 3 / 2)
        #expect(frame[0] <= 20 && frame[w - 1] >= 230)  // limited range: black 16, white 235
        #expect(s.latencyMilliseconds != nil)
        #expect(out.isClosed)
    }

    @Test func aCorruptJPEGIsAFailureNotACrash() {
        let out = FakeOutputDevice()
        let s = share(out)
        let garbage: [UInt8] = [0xFF, 0xD8, 0xFF, 0xC0, 0, 3, 1, 2, 3]
        garbage.withUnsafeBytes { raw in
            var f = ShareFixture.frame(.gray, 16, 8, raw)
            f.format = .mjpeg
            f.byteCount = raw.count
            s.offer(f, now: t0)
        }
        #expect(eventually { s.failures == 1 })
        s.close()
        #expect(out.frames.isEmpty)
    }
}

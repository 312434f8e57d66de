// The cost of `--share`: what feeding the virtual camera adds per frame. The device is a file in
// /dev/shm written at offset 0 for each frame, standing in for v4l2loopback's write(2) (a copy
// into kernel memory): this machine's kernel has no v4l2loopback.
import CameraSource
import PipCore
import Glibc

/// An output device that copies each frame into a tmpfs file, as v4l2loopback copies it into its buffer.
final class TmpfsOutput: V4L2OutputDevice, @unchecked Sendable {
    let fd: Int32
    let path = "/dev/shm/pipcam-share-bench-\(getpid())"
    init() { fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0o600) }
    func queryCapabilities() throws(V4L2Error) -> V4L2Capabilities {
        V4L2Capabilities(driver: "v4l2 loopback", card: "bench", busInfo: "", canCapture: false, canStream: true, canOutput: true)
    }
    func setOutputFormat(_ format: V4L2PixFormat) throws(V4L2Error) -> V4L2PixFormat { format }
    func setOutputFrameInterval(_ interval: V4L2Fraction) {}
    func write(_ bytes: UnsafeRawBufferPointer) throws(V4L2Error) { _ = pwrite(fd, bytes.baseAddress, bytes.count, 0) }
    func close() {
        Glibc.close(fd)
        unlink(path)
    }
}

func threadCPU() -> UInt64 { var t = timespec(); clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec) }
func processCPU() -> UInt64 { var t = timespec(); clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec) }

/// Raw frames: `offer` on the calling thread (the capture thread in pipcam), CPU per frame.
func benchShareRaw(_ format: PixelFormat, _ w: Int, _ h: Int) {
    let layout = format.packedLayout(width: w, height: h)!
    let buf = UnsafeMutableRawPointer.allocate(byteCount: layout.byteCount, alignment: 64)
    for i in 0..<layout.byteCount { buf.storeBytes(of: UInt8(truncatingIfNeeded: i &* 2654435761 >> 13), toByteOffset: i, as: UInt8.self) }
    let out = TmpfsOutput()
    let share = CameraShare(
        device: "bench", output: out, format: ShareFrameConverter.outputFormat(for: format), width: w, height: h, frameRate: 30)
    func frame() -> VideoFrame {
        VideoFrame(packed: format, width: w, height: h, base: buf, byteCount: layout.byteCount, colorimetry: .standard(forHeight: h),
                   timestamp: MonotonicInstant.now(), sequence: 0, bufferIndex: 0)
    }
    for _ in 0..<10 { share.offer(frame(), now: MonotonicInstant.now()) }
    let m0 = mallocCount?() ?? 0
    for _ in 0..<10 { share.offer(frame(), now: MonotonicInstant.now()) }
    let mallocs = mallocCount.map { $0() - m0 }
    var times: [UInt64] = []
    for _ in 0..<300 {
        let c0 = threadCPU()
        share.offer(frame(), now: MonotonicInstant.now())
        times.append(threadCPU() - c0)
    }
    report("share \(format) \(w)x\(h) -> \(share.format) (CPU on the capture thread)", times: times, shownPixels: w * h, sourcePixels: w * h, mallocs: mallocs)
    share.close()
    buf.deallocate()
}

/// MJPEG frames at a camera's 30 fps: the process CPU each frame adds (the copy on this thread and
/// the full-size decode on the share's thread), and capture → written latency.
func benchShareMJPEG(_ frames: [VideoFrame], width: Int, height: Int) {
    let out = TmpfsOutput()
    let share = CameraShare(device: "bench", output: out, format: .i420, width: width, height: height, frameRate: 30)
    var cpu: [UInt64] = []
    for round in 0..<4 {
        for f in frames {
            var g = f
            g.timestamp = MonotonicInstant.now()
            let c0 = processCPU()
            share.offer(g, now: g.timestamp)
            // The decode finishes on the other thread within the frame time; measure after it.
            usleep(33_333)
            if round > 0 { cpu.append(processCPU() - c0) }
        }
    }
    let latency = share.latencyMilliseconds
    let sorted = cpu.sorted()
    let median = Double(sorted[sorted.count / 2]) / 1e6, p99 = Double(sorted[min(sorted.count - 1, sorted.count * 99 / 100)]) / 1e6
    let label = "share mjpeg \(width)x\(height) -> i420, paced 30 fps"
    if markdown {
        print("| \(label) | \(fmt(median)) CPU | p99 \(fmt(p99)) CPU | latency p50 \(fmt(latency?.p50 ?? 0)) ms | p99 \(fmt(latency?.p99 ?? 0)) ms |")
    } else {
        print("\(label): CPU median \(fmt(median)) ms/frame (p99 \(fmt(p99))), capture -> written p50 \(fmt(latency?.p50 ?? 0)) ms, p99 \(fmt(latency?.p99 ?? 0)) ms, written \(share.written), failures \(share.failures)")
    }
    share.close()
}

/// The share's conversion alone (`ShareFrameConverter.convert`, no device): a `source` frame of
/// `sw`×`sh` into the share's `format` at `w`×`h`, wall time per frame on this thread.
func benchShareConvert(_ source: PixelFormat, _ sw: Int, _ sh: Int, to format: PixelFormat, _ w: Int, _ h: Int, range: ColorRange = .limited) {
    let layout = source.packedLayout(width: sw, height: sh)!
    let buf = UnsafeMutableRawPointer.allocate(byteCount: layout.byteCount, alignment: 64)
    for i in 0..<layout.byteCount { buf.storeBytes(of: UInt8(truncatingIfNeeded: i &* 2654435761 >> 13), toByteOffset: i, as: UInt8.self) }
    let frame = VideoFrame(
        packed: source, width: sw, height: sh, base: buf, byteCount: layout.byteCount,
        colorimetry: Colorimetry(matrix: .bt601, range: range), timestamp: MonotonicInstant(nanoseconds: 0), sequence: 0, bufferIndex: 0)
    let converter = ShareFrameConverter(format: format, width: w, height: h)
    for _ in 0..<10 { _ = converter.convert(frame) }
    let m0 = mallocCount?() ?? 0
    for _ in 0..<10 { _ = converter.convert(frame) }
    let mallocs = mallocCount.map { $0() - m0 }
    var times: [UInt64] = []
    for _ in 0..<300 {
        let t0 = now()
        _ = converter.convert(frame)
        times.append(now() - t0)
    }
    let name = "share convert \(source)\(range == .full ? " full" : "") \(sw)x\(sh) -> \(format) \(w)x\(h)"
    report(name, times: times, shownPixels: w * h, sourcePixels: sw * sh, mallocs: mallocs)
    buf.deallocate()
}

/// What the share sees most: a YUYV camera at 640×480 in a 1280×720 YUYV stream (resampled, bars),
/// and I420 / NV12 / a JPEG's full-range 4:2:2 into I420 at the same size.
func benchShareConversions() {
    benchShareConvert(.yuyv, 640, 480, to: .yuyv, 1280, 720)
    benchShareConvert(.yuyv, 1280, 720, to: .yuyv, 1280, 720, range: .full)
    benchShareConvert(.i420, 1280, 720, to: .i420, 1280, 720)
    benchShareConvert(.nv12, 1280, 720, to: .i420, 1280, 720)
    benchShareConvert(.i422, 1280, 720, to: .i420, 1280, 720, range: .full)
    benchShareConvert(.yuyv, 1280, 720, to: .i420, 1280, 720)
    benchShareConvert(.i420, 640, 480, to: .i420, 1280, 720)
    benchShareConvert(.nv12, 1920, 1080, to: .i420, 1280, 720)
}

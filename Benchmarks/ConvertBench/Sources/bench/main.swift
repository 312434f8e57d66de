// Release timing of FrameConverter (not part of the pipcam package):
//   make bench-kernels            (or: cd Benchmarks/ConvertBench && swift build -c release && ./.build/release/bench)
//   ./.build/release/bench yuyv   only the cases whose name contains "yuyv"
//   ./.build/release/bench --markdown   a table for BENCHMARKS.md
//   ./.build/release/bench --mjpeg FILE [--mjpeg FILE2]   also JPEG decoding of each FILE's frames for
//                                 480×270, 960×540, 640×360 and 1280×720 windows
//   ./.build/release/bench share [--mjpeg FILE]   the cost of --share (ShareBench.swift)
//   ./.build/release/bench share-convert   the share's conversion alone, per source format and size
//   ./.build/release/bench wake   one idle thread's wake-up, the floor while nothing shows (WakeBench.swift)
//   ./.build/release/bench floor   the memory floor of the large-window cases (FloorBench.swift)
//   ./.build/release/bench zoom    the digital zoom at 1×, 2× and 4× (with --mjpeg FILE: MJPEG too)
//   ./.build/release/bench stats-line   the last --stats line on stdin as JSON (scripts/bench reads pipcam's with it)
// Allocation check (prints mallocs per 10 frames; expect 0):
//   gcc -shared -fPIC -O2 -o /tmp/mcount.so mcount.c -ldl && LD_PRELOAD=/tmp/mcount.so ./.build/release/bench
//
// Each case converts one frame repeatedly and reports the median and best time per frame, and the
// median in ns per output pixel and per source pixel. Medians of many runs, because the machine is
// usually shared; the best run is what the code can do on a quiet core.
import CameraSource
import MJPEG
import PipCore
import PipWindow
import Glibc
import PipConvert

func now() -> UInt64 { var t = timespec(); clock_gettime(CLOCK_MONOTONIC, &t); return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec) }

struct Case {
    var format: PixelFormat
    var sw: Int, sh: Int, dw: Int, dh: Int
    var rotation: Rotation = .deg0
    var mirror = false
    var zoom = 1.0
    var name: String { "\(format) \(sw)x\(sh) -> \(dw)x\(dh) \(rotation)\(mirror ? " mirror" : "")\(zoom > 1 ? " zoom \(zoom)x" : "")" }
}

let args = CommandLine.arguments.dropFirst()
let markdown = args.contains("--markdown")
let mjpegPaths = args.indices.filter { args[$0] == "--mjpeg" && args.index(after: $0) < args.endIndex }.map { args[args.index(after: $0)] }
let filters = args.filter { !$0.hasPrefix("--") && !mjpegPaths.contains($0) }
if args.first == "stats-line" { printLastStatsLine() }

typealias Counter = @convention(c) () -> Int
let mallocCount: Counter? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_count").map { unsafeBitCast($0, to: Counter.self) }

func fmt(_ x: Double, _ digits: Int = 3) -> String {
    var p = 1.0
    for _ in 0..<digits { p *= 10 }
    let v = (x * p).rounded() / p
    return "\(v)"
}

/// One result line (or table row): median and best time per frame, ns per shown and source pixel.
func report(_ name: String, times unsorted: [UInt64], shownPixels: Int, sourcePixels: Int, mallocs: Int?) {
    let times = unsorted.sorted()
    let median = Double(times[times.count / 2]), best = Double(times[0])
    let shown = Double(shownPixels), source = Double(sourcePixels)
    if markdown {
        print("| \(name) | \(fmt(median / 1e6)) | \(fmt(best / 1e6)) | \(fmt(median / shown, 2)) | \(fmt(median / source, 2)) |")
    } else {
        var line = "\(name): median \(fmt(median / 1e6)) ms, best \(fmt(best / 1e6)) ms, "
            + "\(fmt(median / shown, 2)) ns/shown px, \(fmt(median / source, 2)) ns/source px"
        if let mallocs { line += ", mallocs in 10 frames: \(mallocs)" }
        print(line)
    }
}

func bench(_ c: Case) {
    let layout = c.format.packedLayout(width: c.sw, height: c.sh)!
    let buf = UnsafeMutableRawPointer.allocate(byteCount: layout.byteCount, alignment: 64)
    var seed: UInt32 = 12345
    for i in 0..<layout.byteCount {
        seed = seed &* 1103515245 &+ 12345
        buf.storeBytes(of: UInt8(truncatingIfNeeded: seed >> 16), toByteOffset: i, as: UInt8.self)
    }
    let frame = VideoFrame(
        packed: c.format, width: c.sw, height: c.sh, base: buf, byteCount: layout.byteCount,
        colorimetry: .standard(forHeight: c.sh), timestamp: MonotonicInstant(nanoseconds: 0), sequence: 0, bufferIndex: 0)
    let stride = c.dw * 4
    let dst = UnsafeMutableRawPointer.allocate(byteCount: stride * c.dh, alignment: 64)
    let conv = FrameConverter()
    let framing = Framing(zoom: c.zoom, centreX: 0.4, centreY: 0.45)
    func run() {
        try! conv.convert(
            frame, into: dst, stride: stride, width: c.dw, height: c.dh, layout: .xrgb, rotation: c.rotation, mirror: c.mirror,
            framing: framing)
    }
    run()
    let m0 = mallocCount?() ?? 0
    for _ in 0..<10 { run() }
    let mallocs = mallocCount.map { $0() - m0 }
    var times: [UInt64] = []
    let deadline = now() + 400_000_000
    while times.count < 30 || (now() < deadline && times.count < 2000) {
        let t0 = now()
        run()
        times.append(now() - t0)
    }
    report(c.name, times: times, shownPixels: c.dw * c.dh, sourcePixels: c.sw * c.sh, mallocs: mallocs)
    buf.deallocate()
    dst.deallocate()
}

let cases: [Case] = [
    Case(format: .yuyv, sw: 1280, sh: 720, dw: 480, dh: 270),
    Case(format: .yuyv, sw: 1280, sh: 720, dw: 480, dh: 270, mirror: true),
    Case(format: .i422, sw: 480, sh: 270, dw: 480, dh: 270),  // 1080p MJPEG decoded at 1/4
    Case(format: .i420, sw: 1920, sh: 1080, dw: 480, dh: 270),
    Case(format: .nv12, sw: 1280, sh: 720, dw: 480, dh: 270),
    Case(format: .bgra, sw: 1280, sh: 720, dw: 480, dh: 270),
    Case(format: .rgb24, sw: 1280, sh: 720, dw: 480, dh: 270),
    Case(format: .yuyv, sw: 640, sh: 360, dw: 1280, dh: 720),
    Case(format: .i420, sw: 640, sh: 360, dw: 1280, dh: 720),
    // Large windows (the main window, PiP dragged large): 1:1, 4:3, 3:2 and 2:1.
    Case(format: .yuyv, sw: 1280, sh: 720, dw: 1280, dh: 720),
    Case(format: .yuyv, sw: 1280, sh: 720, dw: 1280, dh: 720, mirror: true),
    Case(format: .nv12, sw: 1280, sh: 720, dw: 1280, dh: 720),
    Case(format: .i420, sw: 1280, sh: 720, dw: 1280, dh: 720),
    Case(format: .yuyv, sw: 1280, sh: 720, dw: 960, dh: 540),
    Case(format: .nv12, sw: 1280, sh: 720, dw: 960, dh: 540),
    Case(format: .i420, sw: 1280, sh: 720, dw: 960, dh: 540),
    Case(format: .yuyv, sw: 1920, sh: 1080, dw: 1280, dh: 720),
    Case(format: .i420, sw: 1920, sh: 1080, dw: 1280, dh: 720),
    Case(format: .yuyv, sw: 1920, sh: 1080, dw: 960, dh: 540),
    Case(format: .nv12, sw: 1920, sh: 1080, dw: 960, dh: 540),
    Case(format: .i420, sw: 1920, sh: 1080, dw: 960, dh: 540),
    Case(format: .yuyv, sw: 1280, sh: 720, dw: 640, dh: 360),
    Case(format: .yuyv, sw: 1920, sh: 1080, dw: 320, dh: 180),
    Case(format: .yuyv, sw: 1280, sh: 720, dw: 480, dh: 270, rotation: .deg180),
    Case(format: .yuyv, sw: 1280, sh: 720, dw: 270, dh: 480, rotation: .deg90, mirror: true),
    Case(format: .i420, sw: 640, sh: 360, dw: 720, dh: 1280, rotation: .deg90),
    Case(format: .i420, sw: 1920, sh: 1080, dw: 270, dh: 480, rotation: .deg270, mirror: true),
]
/// The digital zoom (`zoom` selects them): YUYV 720p in a PiP and in a 1280x720 window, 1×, 2×, 4×.
let zoomCases: [Case] = [1.0, 2, 4].flatMap { zoom in
    [480, 1280].map { w in Case(format: .yuyv, sw: 1280, sh: 720, dw: w, dh: w * 9 / 16, zoom: zoom) }
}

if markdown {
    print("| case | median ms/frame | best ms/frame | ns/shown px | ns/source px |")
    print("|---|---:|---:|---:|---:|")
}
for c in cases where filters.isEmpty || filters.contains(where: { c.name.contains($0) }) { bench(c) }
if filters.isEmpty || filters.contains("floor") {
    benchFloor(sourceBytes: 1280 * 720 * 2, destinationBytes: 1280 * 720 * 4, name: "yuyv 1280x720 -> 1280x720")
    benchFloor(sourceBytes: 1280 * 720 * 2, destinationBytes: 960 * 540 * 4, name: "yuyv 1280x720 -> 960x540")
    benchFloor(sourceBytes: 1920 * 1080 * 3 / 2, destinationBytes: 1280 * 720 * 4, name: "i420 1920x1080 -> 1280x720")
}
if filters.isEmpty || filters.contains("zoom") { zoomCases.forEach(bench) }
if filters.isEmpty || filters.contains("share") {
    benchShareRaw(.yuyv, 1280, 720)
    benchShareRaw(.i420, 1280, 720)
    benchShareRaw(.yuyv, 1920, 1080)
}
if filters.isEmpty || filters.contains("share") || filters.contains("share-convert") { benchShareConversions() }
if filters.isEmpty || filters.contains("wake") { benchWakeUp() }

// JPEG decoding: `--mjpeg FILE` (a concatenated MJPEG stream, e.g. the 1080p input `make bench`
// generates) decoded for a 480×270, a 960×540, a 640×360 and a 1280×720 window (1/4 and 1/2 scale
// as they are, then 1/2 scale resampled, then full size), each frame in turn, by pipcam's decoder
// on two threads (split at restart markers when the picture has them, else speculatively), on one
// thread, by libjpeg-turbo alone, and the whole decode + convert step as pipcam runs it, paced
// and `--untimed` (each taking the way DecodePathChoice finds cheapest within its deadline).
// `make bench-kernels` passes a 1080p stream without and one with restart markers, and a 4K one.
for (fileIndex, path) in mjpegPaths.enumerated() {
    guard let file = fopen(path, "rb") else { fatalError("cannot open \(path)") }
    fseek(file, 0, SEEK_END)
    let size = ftell(file)
    fseek(file, 0, SEEK_SET)
    let data = UnsafeMutablePointer<UInt8>.allocate(capacity: size)
    _ = fread(data, 1, size, file)
    fclose(file)
    var starts: [Int] = []
    var p = 0
    while p + 1 < size {
        if data[p] == 0xFF && data[p + 1] == 0xD8 && (p == 0 || (data[p - 2] == 0xFF && data[p - 1] == 0xD9)) { starts.append(p) }
        p += 1
    }
    starts.append(size)
    let frames = (0..<(starts.count - 1)).map { i in
        VideoFrame(
            format: .mjpeg, width: 0, height: 0, plane0: FramePlane(base: UnsafeRawPointer(data + starts[i]), stride: 0),
            byteCount: starts[i + 1] - starts[i], colorimetry: .jpeg, timestamp: MonotonicInstant(nanoseconds: 0),
            sequence: 0, bufferIndex: 0)
    }
    let header = try! JPEGDecoder().header(of: UnsafeRawBufferPointer(start: frames[0].plane0.base, count: frames[0].byteCount))
    let restarts = (0..<min(frames[0].byteCount, 4096) - 1).contains { data[starts[0] + $0] == 0xFF && data[starts[0] + $0 + 1] == 0xDD }
    if fileIndex == 0, filters.isEmpty || filters.contains("share") { benchShareMJPEG(frames, width: header.width, height: header.height) }
    for (w, h) in [(480, 270), (960, 540), (640, 360), (1280, 720)] {
        let label = "mjpeg\(restarts ? " DRI" : "") \(header.width)x\(header.height) -> \(w)x\(h)"
        func time(_ name: String, _ body: (VideoFrame) -> Void) {
            var times: [UInt64] = []
            for f in frames { body(f) }
            let m0 = mallocCount?() ?? 0
            for f in frames.prefix(10) { body(f) }
            let mallocs = mallocCount.map { $0() - m0 }
            for _ in 0..<3 {
                for f in frames {
                    let t0 = now()
                    body(f)
                    times.append(now() - t0)
                }
            }
            report("\(label) \(name)", times: times, shownPixels: w * h, sourcePixels: header.width * header.height, mallocs: mallocs)
        }
        let reduced = JPEGDecoder(), single = JPEGDecoder(threads: 1), turbo = JPEGDecoder(reducedDecoding: false)
        time("decode, reduced") { _ = try! reduced.decode($0, minWidth: w, minHeight: h) }
        time("decode, reduced, 1 thread") { _ = try! single.decode($0, minWidth: w, minHeight: h) }
        time("decode, libjpeg-turbo") { _ = try! turbo.decode($0, minWidth: w, minHeight: h) }
        let conv = FrameConverter()
        let dst = UnsafeMutableRawPointer.allocate(byteCount: w * h * 4, alignment: 64)
        for zoom in filters.contains("zoom") ? [1.0, 2, 4] : [1] {
            let framing = Framing(zoom: zoom, centreX: 0.4, centreY: 0.45)
            time("decode + convert" + (zoom > 1 ? " zoom \(zoom)x" : "")) {
                try! conv.convert(
                    $0, into: dst, stride: w * 4, width: w, height: h, layout: .xrgb, rotation: .deg0, mirror: false, framing: framing)
            }
        }
        // As `--untimed` runs it: one decoding thread, the way that costs least CPU (DecodePathChoice).
        let untimed = FrameConverter(decodeThreads: 1)
        time("decode + convert, 1 thread") {
            try! untimed.convert($0, into: dst, stride: w * 4, width: w, height: h, layout: .xrgb, rotation: .deg0, mirror: false)
        }
        dst.deallocate()
    }
}

// Release timing of FrameConverter (not part of the pipcam package):
//   cd Benchmarks/ConvertBench && swift build -c release && ./.build/release/bench
// Allocation check (prints mallocs per 10 frames; expect 0):
//   gcc -shared -fPIC -O2 -o /tmp/mcount.so mcount.c -ldl && LD_PRELOAD=/tmp/mcount.so ./.build/release/bench
import CameraSource
import PipWindow
import Glibc

func now() -> Double { var t = timespec(); clock_gettime(CLOCK_MONOTONIC, &t); return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9 }

func bench(_ format: PixelFormat, _ sw: Int, _ sh: Int, _ dw: Int, _ dh: Int, rotation: Rotation = .deg0, mirror: Bool = false) {
    let layout = format.packedLayout(width: sw, height: sh)!
    let buf = UnsafeMutableRawPointer.allocate(byteCount: layout.byteCount, alignment: 64)
    var seed: UInt32 = 12345
    for i in 0..<layout.byteCount { seed = seed &* 1103515245 &+ 12345; buf.storeBytes(of: UInt8(truncatingIfNeeded: seed >> 16), toByteOffset: i, as: UInt8.self) }
    let frame = VideoFrame(packed: format, width: sw, height: sh, base: buf, byteCount: layout.byteCount,
                           colorimetry: .standard(forHeight: sh), timestamp: MonotonicInstant(nanoseconds: 0), sequence: 0, bufferIndex: 0)
    let stride = dw * 4
    let dst = UnsafeMutableRawPointer.allocate(byteCount: stride * dh, alignment: 64)
    let conv = FrameConverter()
    try! conv.convert(frame, into: dst, stride: stride, width: dw, height: dh, layout: .xrgb, rotation: rotation, mirror: mirror)
    typealias F = @convention(c) () -> Int
    let sym = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_count")
    let count: F? = sym.map { unsafeBitCast($0, to: F.self) }
    let m0 = count?() ?? -1
    for _ in 0..<10 { try! conv.convert(frame, into: dst, stride: stride, width: dw, height: dh, layout: .xrgb, rotation: rotation, mirror: mirror) }
    if let count {
        let d = count() - m0
        print("  mallocs in 10 frames: \(d)")
    }
    var best = Double.infinity, total = 0.0
    let n = 200
    for _ in 0..<n {
        let t0 = now()
        try! conv.convert(frame, into: dst, stride: stride, width: dw, height: dh, layout: .xrgb, rotation: rotation, mirror: mirror)
        let t = now() - t0
        best = min(best, t); total += t
    }
    print("\(format) \(sw)x\(sh) -> \(dw)x\(dh) rot \(rotation) mirror \(mirror): best \(String(format3(best * 1000))) ms, mean \(String(format3(total / Double(n) * 1000))) ms")
    buf.deallocate(); dst.deallocate()
}
func format3(_ x: Double) -> String { let v = (x * 1000).rounded() / 1000; return "\(v)" }

bench(.yuyv, 1280, 720, 480, 270)
bench(.i420, 1920, 1080, 480, 270)
bench(.i420, 640, 360, 1280, 720)
bench(.yuyv, 1280, 720, 480, 270, rotation: .deg90, mirror: true)
bench(.nv12, 1280, 720, 480, 270)
bench(.bgra, 1280, 720, 480, 270)
bench(.i420, 640, 360, 720, 1280, rotation: .deg90)
bench(.i420, 1920, 1080, 270, 480, rotation: .deg270, mirror: true)
bench(.yuyv, 1280, 720, 1280, 720)
bench(.rgb24, 1280, 720, 480, 270)

// `bench share-digest`: a digest of what the share's conversion writes, over formats, sizes,
// ranges, framings and padded rows, to compare the bytes before and after a change to it.
import CameraSource
import PipCore

func shareDigest() {
    func fnv(_ bytes: UnsafeRawBufferPointer, _ h: inout UInt64) {
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100000001b3 }
    }
    let sources: [PixelFormat] = [.yuyv, .i420, .i422, .i444, .nv12, .gray, .bgra, .rgb24]
    let sizes = [(16, 8), (12, 10), (8, 8), (32, 16), (30, 18), (15, 9), (64, 36), (6, 10)]
    let framings = [Framing.full, Framing(zoom: 2, centreX: 0.75, centreY: 0.5), Framing(zoom: 1.5, centreX: 0.3, centreY: 0.6)]
    for out in [PixelFormat.yuyv, .i420] {
        for (ow, oh) in [(16, 8), (12, 10)] {
            let converter = ShareFrameConverter(format: out, width: ow, height: oh)
            for source in sources {
                var h: UInt64 = 0xcbf29ce484222325
                for (sw, sh) in sizes {
                    let layout = source.packedLayout(width: sw, height: sh)!
                    for padding in [0, 8] {
                        let strides = [layout.strides.0, layout.strides.1, layout.strides.2].map { $0 == 0 ? 0 : $0 + padding }
                        let rows = [layout.rows.0, layout.rows.1, layout.rows.2]
                        var seed: UInt32 = UInt32(sw * 131 + sh * 7 + padding)
                        let planes: [UnsafeMutableRawPointer] = (0..<layout.count).map { p in
                            let n = strides[p] * rows[p]
                            let b = UnsafeMutableRawPointer.allocate(byteCount: max(n, 1), alignment: 16)
                            for i in 0..<n {
                                seed = seed &* 1103515245 &+ 12345
                                b.storeBytes(of: UInt8(truncatingIfNeeded: seed >> 16), toByteOffset: i, as: UInt8.self)
                            }
                            return b
                        }
                        func plane(_ i: Int) -> FramePlane? { i < planes.count ? FramePlane(base: UnsafeRawPointer(planes[i]), stride: strides[i]) : nil }
                        for range in [ColorRange.limited, .full] {
                            for framing in framings {
                                let frame = VideoFrame(
                                    format: source, width: sw, height: sh, plane0: plane(0)!, plane1: plane(1), plane2: plane(2),
                                    byteCount: layout.byteCount, colorimetry: Colorimetry(matrix: .bt601, range: range),
                                    timestamp: MonotonicInstant(nanoseconds: 0), sequence: 0, bufferIndex: 0)
                                fnv(converter.convert(frame, framing: framing)!, &h)
                            }
                        }
                        planes.forEach { $0.deallocate() }
                    }
                }
                print("digest \(source) -> \(out) \(ow)x\(oh): \(String(h, radix: 16))")
            }
        }
    }
}

import PipCore
import Testing
@testable import PipConvert

/// The share's conversion writes the bytes it wrote before it moved into PipConvert: a digest of
/// its output over every source format, sizes, padded rows, both ranges and three framings, into
/// both destination formats at two sizes, recorded from `ShareFrameConverter` as it was
/// (`bench share-digest`, Benchmarks/ConvertBench/Sources/bench/ShareDigest.swift, builds the same
/// inputs).
@Suite struct YCbCrDigestTests {
    static let recorded: [String: String] = [
        "yuyv -> yuyv 16x8": "b0f5e8299e35140d",
        "i420 -> yuyv 16x8": "e3f662ff81318ccf",
        "i422 -> yuyv 16x8": "1f9331ff6b398d52",
        "i444 -> yuyv 16x8": "62627bab2b4e35b7",
        "nv12 -> yuyv 16x8": "e31ba7e7bb1365a0",
        "gray -> yuyv 16x8": "6ca1dcfe0c51721d",
        "bgra -> yuyv 16x8": "a52eff8a4840dcd1",
        "rgb24 -> yuyv 16x8": "b7da058f7a2e6dc5",
        "yuyv -> yuyv 12x10": "341b7f81e54ffab0",
        "i420 -> yuyv 12x10": "6f2ed29a4365624c",
        "i422 -> yuyv 12x10": "5f0b2139db38421e",
        "i444 -> yuyv 12x10": "c510db416ce02a28",
        "nv12 -> yuyv 12x10": "77c6808c80aa6423",
        "gray -> yuyv 12x10": "bc6b09b47bc0d99f",
        "bgra -> yuyv 12x10": "5429b335d05f1281",
        "rgb24 -> yuyv 12x10": "6078c1a736ad0d31",
        "yuyv -> i420 16x8": "8b1156682a52e66",
        "i420 -> i420 16x8": "fbbf9a6ed1411b0a",
        "i422 -> i420 16x8": "3cd6b2ade0531846",
        "i444 -> i420 16x8": "729de33ca8f4b34b",
        "nv12 -> i420 16x8": "d92f4dd8300e2452",
        "gray -> i420 16x8": "d23ce6967e2ec80f",
        "bgra -> i420 16x8": "a2e590c0a8303599",
        "rgb24 -> i420 16x8": "dce1df185843fed",
        "yuyv -> i420 12x10": "cbcb6ce585ed4b76",
        "i420 -> i420 12x10": "977c8494bd40925",
        "i422 -> i420 12x10": "177b5a7c313796ec",
        "i444 -> i420 12x10": "fa54f3ffefaa071d",
        "nv12 -> i420 12x10": "aaef87afd5cacba9",
        "gray -> i420 12x10": "37ea59b94201e4dd",
        "bgra -> i420 12x10": "4b378b0d4948782d",
        "rgb24 -> i420 12x10": "55fce0f9778df191",
    ]

    @Test func bytesAreAsRecorded() {
        func fnv(_ bytes: [UInt8], _ h: inout UInt64) {
            for b in bytes { h = (h ^ UInt64(b)) &* 0x100000001b3 }
        }
        let sources: [PixelFormat] = [.yuyv, .i420, .i422, .i444, .nv12, .gray, .bgra, .rgb24]
        let sizes = [(16, 8), (12, 10), (8, 8), (32, 16), (30, 18), (15, 9), (64, 36), (6, 10)]
        let framings = [Framing.full, Framing(zoom: 2, centreX: 0.75, centreY: 0.5), Framing(zoom: 1.5, centreX: 0.3, centreY: 0.6)]
        var digests: [String: String] = [:]
        for out in [PixelFormat.yuyv, .i420] {
            for (ow, oh) in [(16, 8), (12, 10)] {
                let converter = YCbCrConverter()
                var output = [UInt8](repeating: 0, count: out.packedLayout(width: ow, height: oh)!.byteCount)
                for source in sources {
                    var h: UInt64 = 0xcbf2_9ce4_8422_2325
                    for (sw, sh) in sizes {
                        let layout = source.packedLayout(width: sw, height: sh)!
                        for padding in [0, 8] {
                            let strides = [layout.strides.0, layout.strides.1, layout.strides.2].map { $0 == 0 ? 0 : $0 + padding }
                            let rows = [layout.rows.0, layout.rows.1, layout.rows.2]
                            var seed = UInt32(sw * 131 + sh * 7 + padding)
                            let planes: [UnsafeMutableRawPointer] = (0..<layout.count).map { p in
                                let n = strides[p] * rows[p]
                                let b = UnsafeMutableRawPointer.allocate(byteCount: max(n, 1), alignment: 16)
                                for i in 0..<n {
                                    seed = seed &* 1_103_515_245 &+ 12345
                                    b.storeBytes(of: UInt8(truncatingIfNeeded: seed >> 16), toByteOffset: i, as: UInt8.self)
                                }
                                return b
                            }
                            func plane(_ i: Int) -> FramePlane? {
                                i < planes.count ? FramePlane(base: UnsafeRawPointer(planes[i]), stride: strides[i]) : nil
                            }
                            for range in [ColorRange.limited, .full] {
                                for framing in framings {
                                    let frame = VideoFrame(
                                        format: source, width: sw, height: sh, plane0: plane(0)!, plane1: plane(1), plane2: plane(2),
                                        byteCount: layout.byteCount, colorimetry: Colorimetry(matrix: .bt601, range: range),
                                        timestamp: MonotonicInstant(nanoseconds: 0), sequence: 0, bufferIndex: 0)
                                    output.withUnsafeMutableBytes {
                                        _ = converter.convert(frame, into: $0.baseAddress!, format: out, width: ow, height: oh, framing: framing)
                                    }
                                    fnv(output, &h)
                                }
                            }
                            planes.forEach { $0.deallocate() }
                        }
                    }
                    digests["\(source) -> \(out) \(ow)x\(oh)"] = String(h, radix: 16)
                }
            }
        }
        #expect(digests == Self.recorded)
    }
}

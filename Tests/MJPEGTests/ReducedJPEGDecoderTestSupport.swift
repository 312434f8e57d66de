import CTurboJPEG
import Foundation
import TestSupport
import Testing

@testable import MJPEG
import PipCore

/// The pictures and the reference (libjpeg-turbo's accurate full decode, box-averaged) the
/// reduced decoder is checked against.
extension ReducedJPEGDecoderTests {
    /// A smooth picture with texture and sharp edges (so every frequency occurs), encoded by libjpeg-turbo.
    static func picture(width: Int, height: Int, subsampling: TJSAMP, quality: Int32 = 90, flags: Int32 = 0) -> [UInt8] {
        var rng = SplitMix(seed: UInt64(width * 31 + height))
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let noise = Int(rng.next() % 48)
                let edge = (x / 13 + y / 7) % 2 == 0 ? 0 : 90
                rgb[(y * width + x) * 3] = UInt8(min(255, x * 200 / width + noise))
                rgb[(y * width + x) * 3 + 1] = UInt8(min(255, y * 150 / height + edge))
                rgb[(y * width + x) * 3 + 2] = UInt8(min(255, 60 + edge + noise))
            }
        }
        return Fixture.jpeg(rgb: rgb, width: width, height: height, subsampling: subsampling, quality: quality, flags: flags)
    }

    static func frame(_ bytes: UnsafeRawBufferPointer) -> VideoFrame {
        VideoFrame(
            format: .mjpeg, width: 0, height: 0, plane0: FramePlane(base: bytes.baseAddress!, stride: 0),
            byteCount: bytes.count, colorimetry: .jpeg, timestamp: MonotonicInstant(nanoseconds: 7),
            sequence: 3, bufferIndex: 1)
    }

    struct PlaneView {
        var plane: FramePlane, width: Int, height: Int
        func at(_ x: Int, _ y: Int) -> Int { Int(plane.base.load(fromByteOffset: y * plane.stride + x, as: UInt8.self)) }

        /// The rounded mean of the `side`×`side` box at box position `x`, `y`, and whether a pixel
        /// of it is 0 or 255.
        func box(x: Int, y: Int, side d: Int) -> (mean: Int, clamped: Bool) {
            var sum = 0, clamped = false
            for dy in 0..<d {
                for dx in 0..<d {
                    let v = at(x * d + dx, y * d + dy)
                    sum += v
                    if v == 0 || v == 255 { clamped = true }
                }
            }
            return ((sum + d * d / 2) / (d * d), clamped)
        }
    }

    static func planes(of f: VideoFrame) -> [PlaneView] {
        let cw = (f.width + 1) / 2, ch = (f.height + 1) / 2
        switch f.format {
        case .gray: return [PlaneView(plane: f.plane0, width: f.width, height: f.height)]
        case .i444: return [f.plane0, f.plane1!, f.plane2!].map { PlaneView(plane: $0, width: f.width, height: f.height) }
        case .i422: return [PlaneView(plane: f.plane0, width: f.width, height: f.height)] + [f.plane1!, f.plane2!].map { PlaneView(plane: $0, width: cw, height: f.height) }
        case .i420: return [PlaneView(plane: f.plane0, width: f.width, height: f.height)] + [f.plane1!, f.plane2!].map { PlaneView(plane: $0, width: cw, height: ch) }
        default: fatalError("unexpected \(f.format)")
        }
    }

    /// libjpeg-turbo's full-size decode with its accurate IDCT, planar: what the block means are of.
    static func accurateDecode(_ bytes: UnsafeRawBufferPointer) -> [PlaneView] {
        let handle = tjInitDecompress()!
        defer { tjDestroy(handle) }
        let jpeg = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        var w: Int32 = 0, h: Int32 = 0, sub: Int32 = 0, cs: Int32 = 0
        precondition(tjDecompressHeader3(handle, jpeg, UInt(bytes.count), &w, &h, &sub, &cs) == 0)
        let count = sub == Int32(TJSAMP_GRAY.rawValue) ? 1 : 3
        let sizes = (0..<count).map { (Int(tjPlaneWidth(Int32($0), w, sub)), Int(tjPlaneHeight(Int32($0), h, sub))) }
        let total = sizes.reduce(0) { $0 + $1.0 * $1.1 }
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: total)  // lives as long as the test process
        var pointers: [UnsafeMutablePointer<UInt8>?] = []
        var offset = 0
        for (pw, ph) in sizes {
            pointers.append(buffer + offset)
            offset += pw * ph
        }
        var strides = sizes.map { Int32($0.0) }
        precondition(tjDecompressToYUVPlanes(handle, jpeg, UInt(bytes.count), &pointers, w, &strides, h, 0) == 0)
        // Visible sizes (the planes may be padded to whole chroma pairs).
        let cw = sub == Int32(TJSAMP_444.rawValue) ? Int(w) : (Int(w) + 1) / 2
        let ch = sub == Int32(TJSAMP_420.rawValue) ? (Int(h) + 1) / 2 : Int(h)
        return (0..<count).map { i in
            PlaneView(
                plane: FramePlane(base: UnsafeRawPointer(pointers[i]!), stride: sizes[i].0),
                width: i == 0 ? Int(w) : cw, height: i == 0 ? Int(h) : ch)
        }
    }

    /// Largest and mean difference between the reduced planes and box averages of the full decode,
    /// over the output pixels whose box lies inside the picture; `maxUnclamped`, the largest where
    /// no pixel of the box is 0 or 255 (the full decode clamps pixels before they are averaged, the
    /// reduced one only the means).
    static func compare(_ jpeg: [UInt8], denominator d: Int) throws -> (max: Int, mean: Double, reduced: VideoFrame, maxUnclamped: Int) {
        try jpeg.withUnsafeBytes { bytes in
            let source = frame(bytes)
            let reducedDecoder = JPEGDecoder(), full = JPEGDecoder(reducedDecoding: false)
            let (w, h) = try full.header(of: bytes)
            let reduced = try reducedDecoder.decode(source, minWidth: (w + d - 1) / d, minHeight: (h + d - 1) / d)
            let reference = try full.decode(source, minWidth: w, minHeight: h)
            let referencePlanes = accurateDecode(bytes)
            #expect(reduced.width == (w + d - 1) / d && reduced.height == (h + d - 1) / d)
            #expect(reduced.format == reference.format)
            #expect(reduced.timestamp == source.timestamp && reduced.sequence == 3 && reduced.bufferIndex == 1)
            var worst = 0, worstUnclamped = 0, total = 0, count = 0
            for (small, big) in zip(planes(of: reduced), referencePlanes) {
                for y in 0..<(big.height / d) {
                    for x in 0..<(big.width / d) {
                        let box = big.box(x: x, y: y, side: d)
                        let error = abs(small.at(x, y) - box.mean)
                        worst = max(worst, error)
                        if !box.clamped { worstUnclamped = max(worstUnclamped, error) }
                        total += error
                        count += 1
                    }
                }
            }
            return (worst, Double(total) / Double(max(count, 1)), reduced, worstUnclamped)
        }
    }
}

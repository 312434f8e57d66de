import CTurboJPEG
import Glibc
import TestSupport
import Testing
@testable import PipConvert
import PipCore
import MJPEG

/// MJPEG frames: decoded at a reduced DCT scale, then converted like planar frames.
@Suite struct ConvertMJPEGTests {
    /// A JPEG of random-ish (smooth plus noise) RGB content.
    static func encode(width: Int, height: Int, subsampling: TJSAMP, seed: UInt64) -> [UInt8] {
        var rng = SplitMix(seed: seed)
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let noise = Int(rng.byte() % 64)
                rgb[(y * width + x) * 3] = UInt8(min(255, x * 255 / width + noise))
                rgb[(y * width + x) * 3 + 1] = UInt8(min(255, y * 255 / height + noise))
                rgb[(y * width + x) * 3 + 2] = rng.byte()
            }
        }
        let handle = tjInitCompress()!
        defer { tjDestroy(handle) }
        var out: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        let status = tjCompress2(handle, rgb, Int32(width), 0, Int32(height), Int32(TJPF_RGB.rawValue),
                                 &out, &size, Int32(subsampling.rawValue), 90, 0)
        precondition(status == 0, "tjCompress2 failed")
        defer { tjFree(out) }
        return Array(UnsafeBufferPointer(start: out, count: Int(size)))
    }

    static func frame(_ bytes: UnsafeRawBufferPointer, width: Int, height: Int) -> VideoFrame {
        VideoFrame(format: .mjpeg, width: width, height: height,
                   plane0: FramePlane(base: bytes.baseAddress!, stride: bytes.count), byteCount: bytes.count,
                   colorimetry: .jpeg, timestamp: MonotonicInstant(nanoseconds: 0), sequence: 0, bufferIndex: 0)
    }

    @Test(arguments: [TJSAMP_420, TJSAMP_422, TJSAMP_444, TJSAMP_GRAY, TJSAMP_440])
    func matchesReferenceFromDecoderOutput(subsampling: TJSAMP) throws {
        let (w, h) = (67, 45)
        let jpeg = Self.encode(width: w, height: h, subsampling: subsampling, seed: UInt64(subsampling.rawValue))
        try jpeg.withUnsafeBytes { bytes in
            let source = Self.frame(bytes, width: w, height: h)
            let converter = FrameConverter()
            let referenceDecoder = JPEGDecoder()
            // Destinations picking 1/1, 1/2, 1/4 and 1/8 DCT scales, and rotations.
            for (dw, dh, rotation, mirror) in [(80, 60, Rotation.deg0, false), (30, 20, .deg90, true),
                                               (16, 11, .deg180, false), (9, 9, .deg270, true)] {
                let rect = Rect(sourceWidth: w, sourceHeight: h, rotation: rotation,
                                           destinationWidth: dw, destinationHeight: dh)
                let (mw, mh) = rotation.rotatedSize(width: rect.width, height: rect.height)
                let decoded = try referenceDecoder.decode(source, minWidth: mw, minHeight: mh)
                let r = try compareWithReference(source, referenceFrame: decoded, dw: dw, dh: dh,
                                                 rotation: rotation, mirror: mirror, converter: converter)
                #expect(r.maxError <= 2, "\(subsampling) \(dw)×\(dh) \(rotation) decoded \(decoded.width)×\(decoded.height) \(decoded.format): \(r.worst)")
                #expect(r.barsBlack && r.paddingUntouched)
            }
        }
    }

    /// A picture whose header gives a size libjpeg-turbo refuses (0, or over 65500) must not
    /// spoil the pictures after it: libjpeg-turbo leaves its handle mid-header after such an
    /// error, and every later picture of the stream (a camera's too) failed as "two SOI markers".
    @Test(arguments: [(0, 0), (0xFF, 0xF0)])
    func aBadHeaderDoesNotSpoilTheNextPicture(badHeight: (UInt8, UInt8)) throws {
        let good = Self.encode(width: 67, height: 45, subsampling: TJSAMP_420, seed: 7)
        var bad = good
        let sof = try #require((0..<bad.count - 1).first { bad[$0] == 0xFF && bad[$0 + 1] == 0xC0 })
        (bad[sof + 5], bad[sof + 6]) = badHeight
        let decoder = JPEGDecoder()
        // Full size (libjpeg-turbo) and half size (the reduced decoder, which leaves this to libjpeg-turbo).
        for (mw, mh) in [(67, 45), (34, 23)] {
            for (jpeg, decodes) in [(good, true), (bad, false), (good, true), (good, true)] {
                try jpeg.withUnsafeBytes { bytes in
                    let frame = Self.frame(bytes, width: 67, height: 45)
                    if decodes {
                        let picture = try decoder.decode(frame, minWidth: mw, minHeight: mh)
                        #expect(picture.width >= mw && picture.height >= mh)
                    } else {
                        #expect(throws: JPEGError.self) { try decoder.decode(frame, minWidth: mw, minHeight: mh) }
                    }
                }
            }
        }
    }

    @Test func corruptJPEGThrows() {
        let garbage: [UInt8] = (0..<200).map { UInt8(truncatingIfNeeded: $0 &* 37) }
        let dest = TestDestination(width: 8, height: 8)
        garbage.withUnsafeBytes { bytes in
            _ = #expect(throws: JPEGError.self) {
                try FrameConverter().convert(Self.frame(bytes, width: 16, height: 16), into: dest.base,
                                             stride: dest.stride, width: 8, height: 8, layout: .xrgb,
                                             rotation: .deg0, mirror: false)
            }
        }
    }
}

/// JPEG rows converted as the decoder finishes them (`ProgressivePass`) give the pixels converting
/// the decoded picture afterwards gives, byte for byte, bars and padding included.
@Suite struct ConvertProgressiveTests {
    @Test(arguments: [TJSAMP_420, TJSAMP_422, TJSAMP_GRAY])
    func givesThePicturesConvertingAfterDecodingGives(subsampling: TJSAMP) throws {
        // 640×360 with noise: coded data large enough for the two-thread decode. Two pictures in
        // turn, so a row converted before it is final would still hold the other one.
        let (w, h) = (640, 360)
        let jpegs = [9, 10].map { ConvertMJPEGTests.encode(width: w, height: h, subsampling: subsampling, seed: UInt64($0)) }
        for jpeg in jpegs { #expect(jpeg.count > 64 * 1024, "\(jpeg.count) bytes: too small to decode on two threads") }
        try jpegs[0].withUnsafeBytes { first in
            try jpegs[1].withUnsafeBytes { second in
                let sources = [first, second].map { ConvertMJPEGTests.frame($0, width: w, height: h) }
                try compareEarlyAndLate(sources, subsampling: subsampling)
            }
        }
    }

    /// Restart markers: a picture shown at full size is decoded in two halves by libjpeg-turbo, the
    /// upper one converted while the lower one decodes.
    @Test(arguments: [TJSAMP_420, TJSAMP_422])
    func restartMarkedPicturesToo(subsampling: TJSAMP) throws {
        let (w, h) = (640, 360)
        let jpegs = try [11, 12].map {
            try JPEGTran.withRestarts(ConvertMJPEGTests.encode(width: w, height: h, subsampling: subsampling, seed: UInt64($0)), every: "1")
        }
        try jpegs[0].withUnsafeBytes { first in
            try jpegs[1].withUnsafeBytes { second in
                let sources = [first, second].map { ConvertMJPEGTests.frame($0, width: w, height: h) }
                let progressive = FrameConverter(), afterwards = FrameConverter()
                afterwards.path = .wholePicture
                for (dw, dh) in [(640, 360), (700, 394)] {
                    let a = TestDestination(width: dw, height: dh), b = TestDestination(width: dw, height: dh)
                    for i in 0..<4 {
                        try progressive.convert(sources[i % 2], into: a.base, stride: a.stride, width: dw, height: dh,
                                                layout: .xrgb, rotation: .deg0, mirror: false)
                        try afterwards.convert(sources[i % 2], into: b.base, stride: b.stride, width: dw, height: dh,
                                               layout: .xrgb, rotation: .deg0, mirror: false)
                        #expect(memcmp(a.base, b.base, a.stride * dh) == 0, "\(subsampling) \(dw)×\(dh) picture \(i)")
                    }
                    #expect(progressive.progressive.lastEarlyRows > 0, "\(dw)×\(dh): nothing converted while the lower half decoded")
                }
            }
        }
    }

    private func compareEarlyAndLate(_ sources: [VideoFrame], subsampling: TJSAMP) throws {
        let progressive = FrameConverter(), afterwards = FrameConverter()
        afterwards.path = .wholePicture
        // 1/4 and 1/2 scale exactly (DirectPass), mirrored, turned 180°, letterboxed; resampled
        // (UprightPass), mirrored, 180°, pillarboxed; a picture larger than the source (decoded at
        // full size, rows reported as well). Converted after decoding: a quarter turn.
        let cases: [(Int, Int, Rotation, Bool, early: Bool)] = [
            (160, 90, .deg0, false, true), (160, 90, .deg0, true, true), (320, 180, .deg180, false, true),
            (160, 106, .deg180, true, true), (174, 90, .deg0, false, true),
            (150, 84, .deg0, false, true), (150, 84, .deg180, true, true), (700, 394, .deg0, false, true),
            (300, 100, .deg0, true, true), (90, 160, .deg90, false, false),
        ]
        for (dw, dh, rotation, mirror, early) in cases {
            let a = TestDestination(width: dw, height: dh), b = TestDestination(width: dw, height: dh)
            for i in 0..<4 {  // the split point moves between pictures
                let source = sources[i % 2]
                try progressive.convert(source, into: a.base, stride: a.stride, width: dw, height: dh,
                                        layout: .xrgb, rotation: rotation, mirror: mirror)
                try afterwards.convert(source, into: b.base, stride: b.stride, width: dw, height: dh,
                                       layout: .xrgb, rotation: rotation, mirror: mirror)
                #expect(memcmp(a.base, b.base, a.stride * dh) == 0, "\(subsampling) \(dw)×\(dh) \(rotation) mirror \(mirror) picture \(i)")
                #expect(a.paddingUntouched)
            }
            let earlyRows = progressive.progressive.lastEarlyRows
            #expect(early ? earlyRows > 0 : earlyRows == 0, "\(subsampling) \(dw)×\(dh) \(rotation): \(earlyRows) rows converted while decoding")
        }
    }
}

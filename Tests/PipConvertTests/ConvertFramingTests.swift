import Testing
@testable import PipConvert
import PipCore

/// The digital zoom happens in the scaling pass: a zoomed conversion gives exactly the pixels of
/// the unzoomed conversion of the shown part cut out beforehand, for every format, turn and mirror.
@Suite struct ConvertFramingTests {
    static let formats: [PixelFormat] = [.yuyv, .i420, .nv12, .i422, .i444, .gray, .bgra, .rgb24]

    /// The shown part of `source` copied into a picture of its own.
    static func cutOut(_ source: TestFrame, _ crop: Rect) -> TestFrame {
        let frame = source.frame
        return TestFrame(source.format, width: crop.width, height: crop.height, colorimetry: source.colorimetry) { p, row, x in
            let plane = p == 0 ? frame.plane0 : p == 1 ? frame.plane1! : frame.plane2!
            let (bytesPerPixel, hShift, vShift) = layout(source.format, plane: p)
            let offset = (crop.y >> vShift + row) * plane.stride + (crop.x >> hShift) * bytesPerPixel + x
            return plane.base.load(fromByteOffset: offset, as: UInt8.self)
        }
    }

    /// Bytes per stored sample (a YUYV pair counts as two pixels of two bytes) and the plane's subsampling.
    static func layout(_ format: PixelFormat, plane: Int) -> (Int, Int, Int) {
        switch (format, plane) {
        case (.yuyv, _): return (2, 0, 0)
        case (.bgra, _): return (4, 0, 0)
        case (.rgb24, _): return (3, 0, 0)
        case (.i420, 1), (.i420, 2): return (1, 1, 1)
        case (.nv12, 1): return (2, 1, 1)
        case (.i422, 1), (.i422, 2): return (1, 1, 0)
        default: return (1, 0, 0)
        }
    }

    @Test(arguments: formats)
    func zoomedIsTheShownPartConverted(format: PixelFormat) throws {
        // (source size, destination size, framing): shrinking, growing, the crop's own size.
        let cases: [(Int, Int, Int, Int, Framing)] = [
            (64, 36, 40, 22, Framing(zoom: 2, centreX: 0.3, centreY: 0.6)),
            (48, 32, 90, 60, Framing(zoom: 3.5, centreX: 0.9, centreY: 0.1)),
            (40, 30, 20, 16, Framing(zoom: 2, centreX: 0.5, centreY: 0.5)),
            (37, 23, 50, 31, Framing(zoom: 1.7, centreX: 0, centreY: 1)),
        ]
        var index = 0
        for (sw, sh, dw, dh, framing) in cases {
            for rotation in Rotation.allCases {
                for mirror in [false, true] {
                    index += 1
                    let source = TestFrame(random: format, width: sw, height: sh, padding: index % 3, seed: UInt64(900 + index))
                    let crop = framing.crop(width: sw, height: sh)
                    let part = Self.cutOut(source, crop)
                    let (tw, th) = rotation.rotatedSize(width: dw, height: dh)
                    let content = Rect(x: 1, y: 2, width: tw - 2, height: th - 3)
                    let zoomed = TestDestination(width: tw, height: th), cut = TestDestination(width: tw, height: th)
                    try FrameConverter().convert(
                        source.frame, content: content, into: zoomed.base, stride: zoomed.stride, width: tw, height: th,
                        layout: .xrgb, rotation: rotation, mirror: mirror, framing: framing)
                    try FrameConverter().convert(
                        part.frame, content: content, into: cut.base, stride: cut.stride, width: tw, height: th,
                        layout: .xrgb, rotation: rotation, mirror: mirror)
                    let same = (0..<th).allSatisfy { y in (0..<tw).allSatisfy { zoomed.pixel($0, y) == cut.pixel($0, y) } }
                    #expect(same && zoomed.paddingUntouched, "\(format) \(sw)×\(sh) \(framing) crop \(crop) \(rotation) mirror \(mirror)")
                }
            }
        }
    }

    /// The whole picture (zoom 1) converts exactly as without a framing, direct pass included.
    @Test(arguments: formats)
    func noZoomChangesNothing(format: PixelFormat) throws {
        let source = TestFrame(random: format, width: 32, height: 18, seed: 7)
        let a = TestDestination(width: 32, height: 18), b = TestDestination(width: 32, height: 18)
        try FrameConverter().convert(source.frame, into: a.base, stride: a.stride, width: 32, height: 18, layout: .xrgb, rotation: .deg0, mirror: true)
        try FrameConverter().convert(
            source.frame, into: b.base, stride: b.stride, width: 32, height: 18, layout: .xrgb, rotation: .deg0, mirror: true,
            framing: Framing(zoom: 1, centreX: 0.2, centreY: 0.9))
        #expect((0..<18).allSatisfy { y in (0..<32).allSatisfy { a.pixel($0, y) == b.pixel($0, y) } })
    }
}

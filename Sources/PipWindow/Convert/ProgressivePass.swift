import CameraSource

/// Converts a JPEG picture's rows while the decoder is still at work on the rest (`DecodedRows`),
/// when the picture goes through `DirectPass`: on two decoding threads the first then converts the
/// rows it decoded while the second still records, instead of converting all of them after both
/// (the split point moves to even out the extra work). `finish` converts the rows left.
/// One per converter, reused frame after frame.
final class ProgressivePass: DecodedRows {
    private var content = ContentGeometry(sourceWidth: 1, sourceHeight: 1, rotation: .deg0, destinationWidth: 1, destinationHeight: 1)
    private var rotation = Rotation.deg0, mirror = false
    private var layout: PixelLayout?
    private var target: ImageTarget?
    /// Whether the first report of this picture has been seen (and `pass` decided).
    private var decided = false
    private var pass: DirectPass?
    private var convertedRows = 0
    /// How many rows of the last picture were converted before its decode ended; for tests.
    private(set) var lastEarlyRows = 0

    /// Gets ready for the next picture, to be shown in `content` of `target`.
    func begin(content: ContentGeometry, rotation: Rotation, mirror: Bool, layout: PixelLayout, target: ImageTarget) {
        self.content = content
        self.rotation = rotation
        self.mirror = mirror
        self.layout = layout
        self.target = target
        decided = false
        pass = nil
        convertedRows = 0
    }

    func decoded(_ picture: VideoFrame, rows: Int) {
        if !decided {
            decided = true
            pass = makePass(for: picture)
            pass?.fillAboveAndBelow()
        }
        guard let pass, rows > convertedRows else { return }
        pass.run(sourceRows: convertedRows..<rows)
        convertedRows = rows
    }

    /// Converts the rows not converted yet; false when this picture was not converted here (not
    /// reported, or not one for `DirectPass`), and the caller converts it all.
    func finish() -> Bool {
        defer { target = nil }
        lastEarlyRows = convertedRows
        guard let pass else { return false }
        if convertedRows < content.height { pass.run(sourceRows: convertedRows..<content.height) }
        return true
    }

    private func makePass(for picture: VideoFrame) -> DirectPass? {
        guard let layout, let target, let planes = try? FrameConverter.planes(of: picture) else { return nil }
        let key = ConversionPlan.Key(
            format: picture.format, sourceWidth: picture.width, sourceHeight: picture.height,
            content: content, rotation: rotation, mirror: mirror)
        guard DirectPass.handles(key) else { return nil }
        return DirectPass(
            key: key, planes: planes, coefficients: YUVCoefficients16(picture.colorimetry), layout: layout, target: target)
    }
}

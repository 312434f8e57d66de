import PipCore

/// A 90° or 270° conversion in two steps: the upright conversion (`UprightPass` or `DirectPass`,
/// with the scaling, colour conversion and a flip) into a scratch picture of the content as it is
/// before the turn, then a transpose of its 32-bit pixels, four by four, into the content
/// rectangle. Reading rows, as the upright passes do, is far cheaper than gathering each output
/// line's samples down a source column (docs/PERFORMANCE.md, "Conversion").
///
/// A turn is a transpose of the picture flipped one way or another first:
/// turned 90° (output `(x, y)` = picture `(y, h − 1 − x)`) it is the picture upside down,
/// mirrored it is the picture itself; turned 270° it is the picture mirrored, and mirrored as
/// well it is the picture turned 180°.
final class QuarterTurn {
    /// The turned conversion this is for.
    let key: ConversionKey
    /// The upright conversion into `scratch`.
    let uprightKey: ConversionKey
    /// `uprightKey.content`'s pixels, rows `scratchStride` bytes apart.
    let scratch: UnsafeMutableRawPointer
    let scratchStride: Int

    static func handles(_ key: ConversionKey) -> Bool { key.rotation.swapsAxes }

    init(key: ConversionKey) {
        precondition(Self.handles(key))
        self.key = key
        let content = key.content
        let flip: (Rotation, Bool) =
            switch (key.rotation, key.mirror) {
            case (.deg90, false): (.deg180, true)
            case (.deg90, true): (.deg0, false)
            case (_, false): (.deg0, true)
            case (_, true): (.deg180, false)
            }
        uprightKey = ConversionKey(
            format: key.format, sourceWidth: key.sourceWidth, sourceHeight: key.sourceHeight,
            content: Rect(x: 0, y: 0, width: content.height, height: content.width),
            rotation: flip.0, mirror: flip.1, crop: key.crop)
        scratchStride = max(1, content.height) * 4
        scratch = .allocate(byteCount: scratchStride * max(1, content.width), alignment: 64)
    }

    deinit { scratch.deallocate() }

    /// The scratch picture as a target for the upright conversion.
    var scratchTarget: ImageTarget {
        ImageTarget(pixels: scratch, stride: scratchStride, width: uprightKey.content.width, height: uprightKey.content.height)
    }

    /// Writes the scratch picture, transposed, into the content rectangle of `target`, and black
    /// bars around it.
    func transpose(into target: ImageTarget, black: UInt32) {
        let content = key.content, stride = target.stride
        let bars = Bars(target: target, content: content, black: black)
        bars.fillAboveAndBelow()
        let source = UnsafeRawPointer(scratch), origin = target.pixels + content.y &* stride + content.x &* 4
        let fullRows = content.height & ~3, fullColumns = content.width & ~3
        var y = 0
        while y < content.height {
            for row in y..<min(y + 4, content.height) { bars.fillSides(ofRow: content.y + row) }
            let out = origin + y &* stride
            if y < fullRows {
                var x = 0
                while x < fullColumns {
                    // Output rows y…y+3 at x…x+3 are picture rows x…x+3 at y…y+3, crosswise.
                    Lanes.transpose4x4(
                        source + x &* scratchStride + y &* 4, sourceStride: scratchStride, into: out + x &* 4,
                        destinationStride: stride)
                    x &+= 4
                }
                for x in fullColumns..<content.width {
                    for k in 0..<4 { copyPixel(x: x, y: y + k, source: source, out: out + k &* stride) }
                }
            } else {
                for k in 0..<(content.height - y) {
                    for x in 0..<content.width { copyPixel(x: x, y: y + k, source: source, out: out + k &* stride) }
                }
            }
            y &+= 4
        }
    }

    @inline(__always)
    private func copyPixel(x: Int, y: Int, source: UnsafeRawPointer, out: UnsafeMutableRawPointer) {
        out.storeBytes(of: source.load(fromByteOffset: x &* scratchStride + y &* 4, as: UInt32.self), toByteOffset: x &* 4, as: UInt32.self)
    }
}

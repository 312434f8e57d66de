import PipCore

/// Draws the test pattern into I420 buffers: 75 % colour bars scrolling left, a white box
/// bouncing around, and the frame number in big digits in the top-left corner.
///
/// The bars are the same on every row, so each frame is mostly row copies out of a
/// double-width template made once; only the box and the digits are drawn pixel by pixel.
final class PatternPainter {
    let width: Int
    let height: Int
    let layout: PlaneLayout
    private let chromaWidth: Int
    private let lumaTemplate: UnsafeMutablePointer<UInt8>
    private let uTemplate: UnsafeMutablePointer<UInt8>
    private let vTemplate: UnsafeMutablePointer<UInt8>
    /// Pixels the bars move per frame (even, so chroma moves by whole samples).
    static let scrollStep = 4
    /// BT.601 limited-range Y′CbCr of 75 % white, yellow, cyan, green, magenta, red, blue, black.
    static let bars: [(y: UInt8, u: UInt8, v: UInt8)] = [
        (180, 128, 128), (162, 44, 142), (131, 156, 44), (112, 72, 58),
        (84, 184, 198), (65, 100, 212), (35, 212, 114), (16, 128, 128),
    ]

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        layout = PixelFormat.i420.packedLayout(width: width, height: height)!
        chromaWidth = (width + 1) / 2
        lumaTemplate = .allocate(capacity: 2 * width)
        uTemplate = .allocate(capacity: 2 * chromaWidth)
        vTemplate = .allocate(capacity: 2 * chromaWidth)
        let bars = Self.bars
        for x in 0..<(2 * width) { lumaTemplate[x] = bars[(x % width) * bars.count / width].y }
        for cx in 0..<(2 * chromaWidth) {
            let bar = bars[min(2 * (cx % chromaWidth), width - 1) * bars.count / width]
            uTemplate[cx] = bar.u
            vTemplate[cx] = bar.v
        }
    }

    deinit {
        lumaTemplate.deallocate()
        uTemplate.deallocate()
        vTemplate.deallocate()
    }

    /// Draws frame number `frame` into the I420 buffer at `base` (`layout.byteCount` bytes).
    func draw(frame: UInt64, into base: UnsafeMutableRawPointer) {
        let y = base.assumingMemoryBound(to: UInt8.self)
        let u = y + layout.offsets.1, v = y + layout.offsets.2
        let shift = Int((frame &* UInt64(Self.scrollStep)) % UInt64(2 * chromaWidth)) & ~1
        let lumaShift = shift % width, chromaShift = shift / 2
        for row in 0..<height { (y + row * width).update(from: lumaTemplate + lumaShift, count: width) }
        for row in 0..<layout.rows.1 {
            (u + row * chromaWidth).update(from: uTemplate + chromaShift, count: chromaWidth)
            (v + row * chromaWidth).update(from: vTemplate + chromaShift, count: chromaWidth)
        }
        drawBox(frame: frame, y: y, u: u, v: v)
        drawCounter(frame, y: y, u: u, v: v)
    }

    /// Box position at `frame`: a triangle wave along each axis, on even pixels.
    func boxRect(frame: UInt64) -> (x: Int, y: Int, size: Int) {
        let size = max(2, min(width, height) / 6) & ~1
        func bounce(_ speed: UInt64, _ range: Int) -> Int {
            guard range > 0 else { return 0 }
            let p = Int((frame &* speed) % UInt64(2 * range))
            return (p <= range ? p : 2 * range - p) & ~1
        }
        return (bounce(6, width - size), bounce(4, height - size), size)
    }

    /// Digit scale and the counter's background rectangle for a number of `digits` digits.
    func counterRect(digits: Int) -> (x: Int, y: Int, width: Int, height: Int, scale: Int) {
        let scale = max(1, height / 50)
        let margin = 2 * scale
        return (margin, margin, digits * (DigitFont.columns + 1) * scale + scale, (DigitFont.rows + 2) * scale, scale)
    }

    private func drawBox(frame: UInt64, y: UnsafeMutablePointer<UInt8>, u: UnsafeMutablePointer<UInt8>, v: UnsafeMutablePointer<UInt8>) {
        let box = boxRect(frame: frame)
        fill(x: box.x, y: box.y, width: box.size, height: box.size, luma: 235, y: y, u: u, v: v)
    }

    private func drawCounter(_ frame: UInt64, y: UnsafeMutablePointer<UInt8>, u: UnsafeMutablePointer<UInt8>, v: UnsafeMutablePointer<UInt8>) {
        var digits = 1, divisor: UInt64 = 1
        while frame / divisor >= 10 {
            digits += 1
            divisor *= 10
        }
        let rect = counterRect(digits: digits)
        fill(x: rect.x, y: rect.y, width: rect.width, height: rect.height, luma: 16, y: y, u: u, v: v)
        let s = rect.scale
        for i in 0..<digits {
            let digit = Int(frame / divisor % 10)
            divisor = max(1, divisor / 10)
            let left = rect.x + s + i * (DigitFont.columns + 1) * s
            for row in 0..<DigitFont.rows {
                for column in 0..<DigitFont.columns where DigitFont.isSet(digit: digit, column: column, row: row) {
                    fillLuma(x: left + column * s, y: rect.y + s + row * s, width: s, height: s, value: 235, plane: y)
                }
            }
        }
    }

    /// Fills a rectangle with a neutral (grey-axis) colour, clipped to the frame.
    private func fill(
        x: Int, y top: Int, width w: Int, height h: Int, luma: UInt8,
        y: UnsafeMutablePointer<UInt8>, u: UnsafeMutablePointer<UInt8>, v: UnsafeMutablePointer<UInt8>
    ) {
        fillLuma(x: x, y: top, width: w, height: h, value: luma, plane: y)
        let cx0 = max(0, x / 2), cy0 = max(0, top / 2)
        let cx1 = min(chromaWidth, (x + w + 1) / 2), cy1 = min(layout.rows.1, (top + h + 1) / 2)
        guard cx1 > cx0 else { return }
        for row in cy0..<max(cy0, cy1) {
            (u + row * chromaWidth + cx0).update(repeating: 128, count: cx1 - cx0)
            (v + row * chromaWidth + cx0).update(repeating: 128, count: cx1 - cx0)
        }
    }

    private func fillLuma(x: Int, y top: Int, width w: Int, height h: Int, value: UInt8, plane: UnsafeMutablePointer<UInt8>) {
        let x0 = max(0, x), y0 = max(0, top), x1 = min(width, x + w), y1 = min(height, top + h)
        guard x1 > x0 else { return }
        for row in y0..<max(y0, y1) { (plane + row * width + x0).update(repeating: value, count: x1 - x0) }
    }
}

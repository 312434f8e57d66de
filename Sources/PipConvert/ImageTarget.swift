import PipCore

/// The inner loops shared by the passes: raw pointers only, no bounds checks, no reference counting.
enum RowKernels {
    /// Writes `count` copies of `pixel` at `dst + i·step`.
    @inline(__always)
    static func fill(_ dst: UnsafeMutableRawPointer, pixel: UInt32, count: Int, step: Int) {
        for i in 0..<count { (dst + i &* step).storeBytes(of: pixel, as: UInt32.self) }
    }
}

/// A 32-bit picture to write: `width`×`height` pixels, rows `stride` bytes apart.
struct ImageTarget {
    let pixels: UnsafeMutableRawPointer
    let stride: Int
    let width: Int
    let height: Int
}

/// The black bars around the content rectangle of a target, for the passes that write the content.
struct Bars {
    let target: ImageTarget
    let content: Rect
    let black: UInt32

    /// Fills the whole rows above and below the content.
    func fillAboveAndBelow() {
        for y in 0..<target.height where y < content.y || y >= content.y + content.height {
            RowKernels.fill(target.pixels + y &* target.stride, pixel: black, count: target.width, step: 4)
        }
    }

    /// Fills destination row `y` left and right of the content.
    @inline(__always)
    func fillSides(ofRow y: Int) {
        let row = target.pixels + y &* target.stride, right = content.x + content.width
        RowKernels.fill(row, pixel: black, count: content.x, step: 4)
        RowKernels.fill(row + right &* 4, pixel: black, count: target.width - right, step: 4)
    }
}

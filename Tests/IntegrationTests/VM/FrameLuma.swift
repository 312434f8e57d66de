import Foundation
import TestSupport

/// The brightness of a YUYV frame read from a virtual camera: the mean and standard deviation of
/// its luma (every other pixel of every other row), and the mean luma of its left and right
/// quarters over the middle half of the rows. Whole numbers, as they are compared and logged.
struct FrameLuma: CustomStringConvertible {
    let mean: Int
    let sd: Int
    let left: Int
    let right: Int

    /// The last whole `width`x`height` YUYV frame of `data` (a file of such frames).
    init(yuyv data: Data, width: Int, height: Int) throws {
        let frameSize = width * height * 2
        guard data.count >= frameSize, data.count % frameSize == 0 else {
            throw HarnessError("\(data.count) bytes read, not whole \(width)x\(height) YUYV frames of \(frameSize) bytes")
        }
        let frame = [UInt8](data.suffix(frameSize))
        func luma(_ x: Int, _ y: Int) -> Double { Double(frame[2 * (y * width + x)]) }
        func average(rows: StrideTo<Int>, columns: StrideTo<Int>) -> (mean: Double, values: [Double]) {
            let values = rows.flatMap { y in columns.map { x in luma(x, y) } }
            return (values.reduce(0, +) / Double(values.count), values)
        }
        let middleRows = stride(from: height / 4, to: 3 * height / 4, by: 2)
        let all = average(rows: stride(from: 0, to: height, by: 2), columns: stride(from: 0, to: width, by: 2))
        let variance = all.values.reduce(0) { $0 + ($1 - all.mean) * ($1 - all.mean) } / Double(all.values.count)
        mean = Self.whole(all.mean)
        sd = Self.whole(variance.squareRoot())
        left = Self.whole(average(rows: middleRows, columns: stride(from: 0, to: width / 4, by: 2)).mean)
        right = Self.whole(average(rows: middleRows, columns: stride(from: width - width / 4, to: width, by: 2)).mean)
    }

    /// Rounded as printf's `%.0f` rounds (half to even).
    private static func whole(_ value: Double) -> Int { Int(value.rounded(.toNearestOrEven)) }

    /// vivid's 75 % colour bars, not mirrored: white and yellow on the left, blue and black on the right.
    var isUnmirroredBars: Bool { mean > 60 && left > right + 60 }

    var description: String { "mean=\(mean) sd=\(sd) left=\(left) right=\(right)" }
}

import PipCore
import Testing

/// Numbers from outside (a D-Bus call, a driver's timestamp, a typed seek) become whole numbers
/// at the nearest end of the range, never a trap.
@Suite struct SaturatingTests {
    @Test(arguments: [
        (0.0, 0), (-0.9, 0), (41.99, 41), (-41.99, -41), (.nan, 0), (.infinity, Int.max), (-.infinity, Int.min),
        (9.223372036854775807e18, Int.max), (-9.223372036854775808e18, Int.min), (1e300, Int.max), (-1e300, Int.min),
    ])
    func doublesBecomeTheNearestInt(value: Double, whole: Int) {
        #expect(Int(saturating: value) == whole)
    }

    @Test func smallerTypesSaturateAtTheirOwnEnds() {
        #expect(Int32(saturating: 3e9) == .max && Int32(saturating: -3e9) == .min && UInt8(saturating: -1) == 0)
        #expect(Int64(saturating: 9.3e18) == .max)
    }

    @Test func sumsSaturate() {
        #expect(Int.max.addingSaturated(1) == .max && Int.min.addingSaturated(-1) == .min && 40.addingSaturated(2) == 42)
    }

    /// A driver's (or a loopback writer's) timestamp of any size: at most what Int64 nanoseconds hold.
    @Test(arguments: [
        (Int.max, Int.max), (Int.min, Int.min), (1 << 40, 0), (-5, 999_999), (9_223_372_036, 854_775), (9_223_372_036, 854_776),
    ])
    func timestampsClamp(seconds: Int, microseconds: Int) {
        let instant = MonotonicInstant(seconds: seconds, microseconds: microseconds)
        #expect(instant.nanoseconds <= UInt64(Int64.max))
    }

    @Test func ordinaryTimestampsAreExact() {
        #expect(MonotonicInstant(seconds: 12, microseconds: 345_678).nanoseconds == 12_345_678_000)
        #expect(MonotonicInstant(seconds: -1, microseconds: 5).nanoseconds == 5_000)
    }
}

/// Whole numbers from values that come from outside (a D-Bus call, a typed seek, a file's
/// header): out of range is the nearest end, never a trap or a wrapped value.
extension FixedWidthInteger {
    /// `value` rounded toward zero and clamped to this type's range; NaN is 0.
    @inlinable
    public init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value >= Double(Self.max) {
            // Double(Self.max) rounds up to 2^bits for 64-bit types: that value would not fit.
            self = Self.max
        } else if value <= Double(Self.min) {
            self = Self.min
        } else {
            self = Self(value)
        }
    }

    /// `self + other`, or the nearest end of the range when that does not fit.
    @inlinable
    public func addingSaturated(_ other: Self) -> Self {
        let (sum, overflow) = addingReportingOverflow(other)
        guard overflow else { return sum }
        return other > 0 ? Self.max : Self.min
    }
}

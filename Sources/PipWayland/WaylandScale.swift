/// The scale a Wayland surface's pictures are drawn at, in 120ths as fractional-scale-v1 says it
/// (`wp_fractional_scale_v1.preferred_scale`; an output's integer `wl_output.scale` is 120 times
/// it). Its buffers are the surface's logical size at this scale; the surface stays at its logical
/// size on the output. Pure.
public struct WaylandScale: Sendable, Equatable, CustomStringConvertible {
    /// The scale times 120 (180: 1.5).
    public let oneHundredTwentieths: UInt32

    /// 1: a pixel of the picture for each of the output's logical ones.
    public static let one = WaylandScale(oneHundredTwentieths: LibWayland.scaleOne)

    /// A scale of `n`/120 (0, which no compositor says, is taken as 1).
    public init(oneHundredTwentieths n: UInt32) {
        oneHundredTwentieths = n == 0 ? LibWayland.scaleOne : n
    }

    /// An output's integer scale (`wl_output.scale`; less than 1 is taken as 1).
    public init(integer: Int) {
        self.init(oneHundredTwentieths: UInt32(clamping: max(1, integer)) &* LibWayland.scaleOne)
    }

    /// The scale as a number (1.5 for 180).
    public var factor: Double { Double(oneHundredTwentieths) / Double(LibWayland.scaleOne) }

    /// The pixels a logical length takes at this scale, rounded half away from zero.
    public func pixels(_ logical: Int) -> Int { LibWayland.scaledExtent(logical, scale: self) }

    /// A buffer's size for a surface of `logical` size.
    public func pixels(width: Int, height: Int) -> (width: Int, height: Int) { (pixels(width), pixels(height)) }

    public var description: String { "\(factor)" }
}

/// The largest frames pipcam accepts, so a typo or a corrupt header cannot make it allocate gigabytes.
public enum FrameLimits {
    /// Most pixels per side.
    public static let maxSide = 16384
    /// Most pixels per frame (64 Mpixel).
    public static let maxPixels = 64 * 1024 * 1024
    /// Largest single JPEG in an MJPEG stream.
    public static let maxJPEGBytes = 32 * 1024 * 1024

    /// Nil when `width`×`height` is acceptable, otherwise why not (for a message).
    public static func problem(width: Int, height: Int) -> String? {
        if width < 1 || height < 1 { return "frame size \(width)x\(height) is empty" }
        if width > maxSide || height > maxSide || width * height > maxPixels {
            return "frame size \(width)x\(height) is too large (at most \(maxSide) per side and 64 Mpixel)"
        }
        return nil
    }
}

import PipCore

/// Where a picture goes inside a destination: the largest centred rectangle with the picture's
/// aspect ratio (letterbox or pillarbox); the rest of the destination is bars. The one fit both
/// the windows (`FrameConverter`) and the shared stream use.
///
/// Rounding: the fitted side is the multiple of `alignment` nearest `other × aspect` (halves round
/// up), at least `alignment`; the offsets are `floor((destination − content) / 2)` rounded down to
/// a multiple of `alignment`, so an odd leftover puts the extra bar pixel at the right or bottom.
/// An empty picture or destination gives an empty rectangle at the origin.
public enum Letterbox {
    /// The rectangle a `pictureWidth`×`pictureHeight` picture takes in a
    /// `destinationWidth`×`destinationHeight` area. `alignment` 2 keeps the place and size even
    /// (whole chroma pairs of a 4:2:0 destination); the destination's sides should be multiples of it.
    public static func fit(
        pictureWidth rw: Int, pictureHeight rh: Int, destinationWidth dw: Int, destinationHeight dh: Int,
        alignment a: Int = 1
    ) -> Rect {
        precondition(a > 0, "alignment is at least 1")
        guard rw > 0, rh > 0, dw > 0, dh > 0 else { return Rect(x: 0, y: 0, width: 0, height: 0) }
        var w = dw - dw % a, h = dh - dh % a
        if dw * rh <= dh * rw {
            // Destination is relatively narrower: full width, bars above and below.
            h = max(a, min(h, (2 * dw * rh + a * rw) / (2 * a * rw) * a))
        } else {
            w = max(a, min(w, (2 * dh * rw + a * rh) / (2 * a * rh) * a))
        }
        let x = (dw - w) / 2, y = (dh - h) / 2
        return Rect(x: x - x % a, y: y - y % a, width: w, height: h)
    }
}

extension Rect {
    /// The letterboxed rectangle (`Letterbox.fit`) for a `sourceWidth`×`sourceHeight` picture
    /// turned by `rotation`, shown in a `destinationWidth`×`destinationHeight` area.
    public init(
        sourceWidth: Int, sourceHeight: Int, rotation: Rotation,
        destinationWidth: Int, destinationHeight: Int
    ) {
        let (rw, rh) = rotation.rotatedSize(width: sourceWidth, height: sourceHeight)
        self = Letterbox.fit(
            pictureWidth: rw, pictureHeight: rh, destinationWidth: destinationWidth, destinationHeight: destinationHeight)
    }
}

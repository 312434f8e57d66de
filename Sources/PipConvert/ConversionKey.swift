import PipCore

/// What a conversion's precomputed tables depend on: a frame with the same key reuses them.
struct ConversionKey: Equatable {
    var format: PixelFormat
    var sourceWidth: Int
    var sourceHeight: Int
    var content: Rect
    var rotation: Rotation
    var mirror: Bool
    /// The part of the picture shown (the whole of it unless zoomed).
    var crop: Rect
}

extension ConversionKey {
    /// The key for `picture`'s part `framing` shows, in `content`, turned and mirrored.
    init(picture: VideoFrame, content: Rect, rotation: Rotation, mirror: Bool, framing: Framing = .full) {
        self.init(
            format: picture.format, sourceWidth: picture.width, sourceHeight: picture.height,
            content: content, rotation: rotation, mirror: mirror, crop: framing.crop(width: picture.width, height: picture.height))
    }

    /// The whole picture shown.
    init(format: PixelFormat, sourceWidth: Int, sourceHeight: Int, content: Rect, rotation: Rotation, mirror: Bool) {
        self.init(
            format: format, sourceWidth: sourceWidth, sourceHeight: sourceHeight, content: content, rotation: rotation,
            mirror: mirror, crop: .whole(width: sourceWidth, height: sourceHeight))
    }

    /// Whether the whole picture is shown.
    var showsWholePicture: Bool { crop.isWhole(width: sourceWidth, height: sourceHeight) }
}

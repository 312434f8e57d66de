import PipCore

/// What a conversion's precomputed tables depend on: a frame with the same key reuses them.
struct ConversionKey: Equatable {
    var format: PixelFormat
    var sourceWidth: Int
    var sourceHeight: Int
    var content: ContentGeometry
    var rotation: Rotation
    var mirror: Bool
}

extension ConversionKey {
    /// The key for `picture` shown in `content`, turned and mirrored.
    init(picture: VideoFrame, content: ContentGeometry, rotation: Rotation, mirror: Bool) {
        self.init(
            format: picture.format, sourceWidth: picture.width, sourceHeight: picture.height,
            content: content, rotation: rotation, mirror: mirror)
    }
}

import PipCore
import PipWindow
import PipConvert

/// How the picture is turned and mirrored, and the shape it has once turned — what the windows'
/// shape and the source's display size follow. A pure value.
struct PictureSettings {
    /// `--mirror` / `--no-mirror`; nil: as the source prefers (cameras mirrored, files not).
    let mirrorOption: Bool?
    /// Chosen with PiP's mirror control: wins over the option and the source.
    private(set) var mirrorOverride: Bool?
    /// `--rotate`, then `r` in the PiP window.
    private(set) var rotation: Rotation
    /// The picture's size after rotation, as the windows' shape was last set from it.
    private(set) var contentSize: (width: Int, height: Int)
    /// The part of the picture shown: `--zoom` / `--pan`, then the user's gestures.
    var framing = Framing.full

    /// Settings for a source of `width`×`height` (0×0: not known yet, laid out as a large 16:9
    /// picture until the first frame says otherwise, not as a 1×1 one).
    init(mirror: Bool?, rotation: Rotation, sourceWidth width: Int, sourceHeight height: Int) {
        mirrorOption = mirror
        self.rotation = rotation
        let known = width > 0 && height > 0
        contentSize = rotation.rotatedSize(width: known ? width : 1920, height: known ? height : 1080)
    }

    /// Whether the picture is mirrored, for a source that prefers `sourcePrefers`.
    func mirror(sourcePrefers: Bool) -> Bool { mirrorOverride ?? mirrorOption ?? sourcePrefers }

    /// PiP's mirror control: the other way round from now.
    mutating func toggleMirror(sourcePrefers: Bool) { mirrorOverride = !mirror(sourcePrefers: sourcePrefers) }

    /// The framing after `gesture` in a window that draws the picture in `content`.
    mutating func frame(_ gesture: FramingGesture, in content: Rect, sourcePrefersMirror: Bool) {
        framing = gesture.applied(
            to: framing, content: content, rotation: rotation, mirror: mirror(sourcePrefers: sourcePrefersMirror))
    }

    /// A quarter turn clockwise.
    mutating func rotate() { rotation = rotation.followed(by: .deg90) }

    /// The turned size of a `width`×`height` frame when its shape differs from the one set last
    /// (which it becomes); nil when the same, or for an empty frame.
    mutating func reshape(width: Int, height: Int) -> (width: Int, height: Int)? {
        guard width > 0, height > 0 else { return nil }
        let turned = rotation.rotatedSize(width: width, height: height)
        guard turned != contentSize else { return nil }
        contentSize = turned
        return turned
    }

    /// The size a window of `rect`'s size shows the unturned picture at (what the source is told).
    /// Zoomed in, the shown part needs that many more of the camera's pixels to stay sharp.
    func sourceSize(of rect: Rect) -> (width: Int, height: Int) {
        let (w, h) = rotation.rotatedSize(width: rect.width, height: rect.height)
        return (Int((Double(w) * framing.zoom).rounded()), Int((Double(h) * framing.zoom).rounded()))
    }
}

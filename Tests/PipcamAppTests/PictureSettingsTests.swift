import Testing
import PipWindow
@testable import PipcamApp
import PipCore

/// The picture's turn, mirror and shape.
@Suite struct PictureSettingsTests {
    @Test func aSourceOfUnknownSizeIsLaidOutAsALarge16By9Picture() {
        #expect(PictureSettings(mirror: nil, rotation: .deg0, sourceWidth: 0, sourceHeight: 0).contentSize == (1920, 1080))
        #expect(PictureSettings(mirror: nil, rotation: .deg90, sourceWidth: 0, sourceHeight: 0).contentSize == (1080, 1920))
        #expect(PictureSettings(mirror: nil, rotation: .deg270, sourceWidth: 640, sourceHeight: 480).contentSize == (480, 640))
    }

    /// The mirror control wins over the option, which wins over the source's preference.
    @Test(arguments: [nil, false, true] as [Bool?])
    func mirroringFollowsTheControlThenTheOptionThenTheSource(option: Bool?) {
        var picture = PictureSettings(mirror: option, rotation: .deg0, sourceWidth: 2, sourceHeight: 2)
        for prefers in [false, true] { #expect(picture.mirror(sourcePrefers: prefers) == (option ?? prefers)) }
        picture.toggleMirror(sourcePrefers: true)
        let chosen = !(option ?? true)
        for prefers in [false, true] { #expect(picture.mirror(sourcePrefers: prefers) == chosen, "the control's choice stays") }
        picture.toggleMirror(sourcePrefers: false)
        #expect(picture.mirror(sourcePrefers: false) == !chosen)
    }

    @Test func aFrameOfANewShapeReshapesOnceAndTurnedSizesFollowTheRotation() {
        var picture = PictureSettings(mirror: nil, rotation: .deg0, sourceWidth: 640, sourceHeight: 360)
        #expect(picture.reshape(width: 640, height: 360) == nil, "the same shape")
        #expect(picture.reshape(width: 0, height: 360) == nil, "an empty frame")
        #expect(picture.reshape(width: 640, height: 480)! == (640, 480))
        #expect(picture.reshape(width: 640, height: 480) == nil)
        picture.rotate()
        #expect(picture.rotation == .deg90)
        #expect(picture.reshape(width: 640, height: 480)! == (480, 640), "the turned picture is taller than wide")
        #expect(picture.sourceSize(of: Rect(x: 5, y: 5, width: 270, height: 480)) == (480, 270), "the source is told the unturned size")
        for _ in 0..<3 { picture.rotate() }
        #expect(picture.rotation == .deg0)
    }
}

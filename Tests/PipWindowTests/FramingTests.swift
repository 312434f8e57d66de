import Testing
@testable import PipWindow
import PipCore
import PipConvert

/// The framing maths: zoom around a point, pan clamped to the picture, the pixel crop, and window
/// gestures composed with rotation and mirror.
@Suite struct FramingTests {
    @Test func rangeIsClamped() {
        #expect(Framing(zoom: 0.5, centreX: 0.5, centreY: 0.5).zoom == 1)
        #expect(Framing(zoom: 20, centreX: 0.5, centreY: 0.5).zoom == Framing.maximumZoom)
        #expect(Framing(zoom: .nan, centreX: .nan, centreY: 0.5) == .full)
        // At 2× the shown half of the picture stays inside: its middle between 0.25 and 0.75.
        let f = Framing(zoom: 2, centreX: 0, centreY: 1)
        #expect(f.centreX == 0.25 && f.centreY == 0.75)
        #expect(Framing(zoom: 1, centreX: 0.1, centreY: 0.9) == .full)
    }

    @Test func zoomKeepsThePointInPlace() {
        // Zooming 2× around (0.2, 0.8) of the whole picture: that point stays at 20 % / 80 % of the view.
        let z = Framing.full.zoomed(to: 2, keepingX: 0.2, y: 0.8)
        #expect(z.zoom == 2)
        #expect(abs((0.2 - z.originX) * z.zoom - 0.2) < 1e-12 && abs((0.8 - z.originY) * z.zoom - 0.8) < 1e-12)
        // And back out to the whole picture.
        #expect(z.zoomed(to: 1, keepingX: 0.3, y: 0.3) == .full)
        // At an edge the point moves rather than the view leave the picture.
        let edge = Framing(zoom: 4, centreX: 0.5, centreY: 0.5).zoomed(to: 2, keepingX: 0.6, y: 0.5)
        #expect(edge.originX >= 0 && edge.originX + edge.span <= 1)
    }

    @Test func panStopsAtTheEdges() {
        let f = Framing(zoom: 4, centreX: 0.5, centreY: 0.5)
        #expect(f.panned(byX: 0.1, y: -0.05) == Framing(zoom: 4, centreX: 0.6, centreY: 0.45))
        let far = f.panned(byX: 5, y: -5)
        #expect(far.centreX == 0.875 && far.centreY == 0.125)
    }

    @Test func cropIsWholeEvenPixelsInsideThePicture() {
        #expect(Framing.full.crop(width: 641, height: 361) == Rect(x: 0, y: 0, width: 641, height: 361))
        #expect(Framing(zoom: 2, centreX: 0.5, centreY: 0.5).crop(width: 1280, height: 720) == Rect(x: 320, y: 180, width: 640, height: 360))
        #expect(Framing(zoom: 4, centreX: 1, centreY: 1).crop(width: 640, height: 360) == Rect(x: 480, y: 270, width: 160, height: 90))
        for zoom in stride(from: 1.1, through: 8, by: 0.37) {
            for (w, h) in [(641, 361), (37, 23), (1920, 1080), (6, 4)] {
                let c = Framing(zoom: zoom, centreX: 0.77, centreY: 0.13).crop(width: w, height: h)
                #expect(c.x % 2 == 0 && c.y % 2 == 0 && c.width % 2 == 0 && c.height % 2 == 0, "\(zoom) \(w)×\(h): \(c)")
                #expect(c.x >= 0 && c.y >= 0 && c.x + c.width <= w && c.y + c.height <= h && c.width >= 2 && c.height >= 2)
            }
        }
    }

    /// The picture point under the pointer stays under it when Ctrl + wheel zooms, whatever the turn and mirror.
    @Test(arguments: Rotation.allCases)
    func wheelZoomKeepsThePointUnderThePointer(rotation: Rotation) {
        let content = Rect(x: 10, y: 20, width: 400, height: 300)
        for mirror in [false, true] {
            let view = FramingView(content: content, rotation: rotation, mirror: mirror)
            let before = Framing(zoom: 1.5, centreX: 0.45, centreY: 0.5)
            let point = view.picturePoint(x: 150, y: 100, framing: before)
            let after = FramingGesture.zoom(by: 1.25, atX: 150, y: 100).applied(to: before, content: content, rotation: rotation, mirror: mirror)
            let again = view.picturePoint(x: 150, y: 100, framing: after)
            #expect(abs(after.zoom - 1.875) < 1e-12)
            #expect(abs(point.x - again.x) < 1e-9 && abs(point.y - again.y) < 1e-9, "\(rotation) mirror \(mirror)")
        }
    }

    /// Dragging moves the picture with the pointer: the point under it follows it.
    @Test(arguments: Rotation.allCases)
    func dragMovesThePictureWithThePointer(rotation: Rotation) {
        let content = Rect(x: 0, y: 0, width: 400, height: 400)
        for mirror in [false, true] {
            let view = FramingView(content: content, rotation: rotation, mirror: mirror)
            let before = Framing(zoom: 4, centreX: 0.5, centreY: 0.5)
            let grabbed = view.picturePoint(x: 200, y: 200, framing: before)
            let after = FramingGesture.pan(dx: 40, dy: -20).applied(to: before, content: content, rotation: rotation, mirror: mirror)
            let now = view.picturePoint(x: 240, y: 180, framing: after)
            #expect(abs(grabbed.x - now.x) < 1e-9 && abs(grabbed.y - now.y) < 1e-9, "\(rotation) mirror \(mirror)")
        }
    }

    /// Turned a quarter clockwise, the picture's top-left corner shows at the window's top right.
    @Test func cornersFollowTheTurnAndMirror() {
        let content = Rect(x: 0, y: 0, width: 100, height: 100)
        func corner(_ r: Rotation, _ m: Bool) -> (Double, Double) {
            let p = FramingView(content: content, rotation: r, mirror: m).picturePoint(x: 99, y: 0, framing: .full)
            return ((p.x * 10).rounded() / 10, (p.y * 10).rounded() / 10)
        }
        #expect(corner(.deg0, false) == (1, 0))
        #expect(corner(.deg0, true) == (0, 0))
        #expect(corner(.deg90, false) == (0, 0))
        #expect(corner(.deg180, false) == (0, 1))
        #expect(corner(.deg270, false) == (1, 1))
    }

    @Test func inputMakesGestures() {
        var input = FramingInput()
        let ctrl = UInt32(KeyModifiers.control.rawValue)
        func press(_ button: Int, _ x: Int, _ y: Int, _ state: UInt32) -> InputEvent {
            .press(PointerEvent(window: 1, button: button, x: x, y: y, rootX: x, rootY: y, time: 0, state: state))
        }
        func motion(_ x: Int, _ y: Int) -> InputEvent {
            .motion(PointerEvent(window: 1, button: 0, x: x, y: y, rootX: x, rootY: y, time: 0, state: ctrl))
        }
        // A plain wheel is the window's (it resizes PiP); with Ctrl it zooms the picture.
        #expect(input.handle(press(4, 5, 6, 0)).consumed == false)
        #expect(input.handle(press(4, 5, 6, ctrl)).gesture == .zoom(by: 1.25, atX: 5, y: 6))
        #expect(input.handle(press(5, 5, 6, ctrl)).gesture == .zoom(by: 0.8, atX: 5, y: 6))
        // Ctrl + drag pans, step by step; the release ends it.
        #expect(input.handle(press(1, 10, 10, ctrl)) == (true, nil))
        #expect(input.handle(motion(14, 7)).gesture == .pan(dx: 4, dy: -3))
        #expect(input.handle(motion(20, 7)).gesture == .pan(dx: 6, dy: 0))
        #expect(input.handle(.release(PointerEvent(window: 1, button: 1, x: 20, y: 7, rootX: 0, rootY: 0, time: 0, state: ctrl))).consumed)
        #expect(input.handle(motion(30, 7)).consumed == false)
        // A plain press is the window's (move, double-click).
        #expect(input.handle(press(1, 10, 10, 0)).consumed == false)
        #expect(input.handle(.key(.z, state: 0)).gesture == .reset)
        #expect(input.handle(.key(.digit0, state: ctrl)).gesture == .reset)
        #expect(input.handle(.key(.plus, state: ctrl)).gesture == .zoom(by: 1.25, atX: nil, y: nil))
        // Plain + is PiP's own resize.
        #expect(input.handle(.key(.plus, state: 0)).consumed == false)
    }
}

import Testing
@testable import PipWindow
import PipCore

@Suite struct GestureTests {
    @Test func hitTestFindsBodyEdgesAndCorners() {
        let (w, h) = (480, 270)
        #expect(DragKind.hitTest(x: 240, y: 135, width: w, height: h) == .move)
        #expect(DragKind.hitTest(x: 0, y: 0, width: w, height: h) == .resizeTopLeft)
        #expect(DragKind.hitTest(x: 479, y: 269, width: w, height: h) == .resizeBottomRight)
        #expect(DragKind.hitTest(x: 479, y: 0, width: w, height: h) == .resizeTopRight)
        #expect(DragKind.hitTest(x: 0, y: 269, width: w, height: h) == .resizeBottomLeft)
        #expect(DragKind.hitTest(x: 240, y: 3, width: w, height: h) == .resizeTop)
        #expect(DragKind.hitTest(x: 240, y: 265, width: w, height: h) == .resizeBottom)
        #expect(DragKind.hitTest(x: 2, y: 135, width: w, height: h) == .resizeLeft)
        #expect(DragKind.hitTest(x: 475, y: 135, width: w, height: h) == .resizeRight)
        // The corner zone reaches along the edge band further than the band is deep.
        #expect(DragKind.hitTest(x: 12, y: 2, width: w, height: h) == .resizeTopLeft)
        #expect(DragKind.hitTest(x: 8, y: 135, width: w, height: h) == .move)
    }

    @Test func moveTranslates() {
        let r = DragKind.move.apply(to: Rect(x: 10, y: 20, width: 480, height: 270), dx: -5, dy: 7, aspect: 16.0 / 9, minWidth: 96)
        #expect(r == Rect(x: 5, y: 27, width: 480, height: 270))
    }

    @Test func cornerResizeKeepsAspectAndOppositeCorner() {
        let start = Rect(x: 100, y: 100, width: 480, height: 270)
        let br = DragKind.resizeBottomRight.apply(to: start, dx: 160, dy: 10, aspect: 16.0 / 9, minWidth: 96)
        #expect(br == Rect(x: 100, y: 100, width: 640, height: 360))
        let tl = DragKind.resizeTopLeft.apply(to: start, dx: -10, dy: -90, aspect: 16.0 / 9, minWidth: 96)
        #expect(tl == Rect(x: 100 + 480 - 640, y: 100 + 270 - 360, width: 640, height: 360))
        #expect(tl.maxX == start.maxX && tl.maxY == start.maxY)
    }

    @Test func sideResizeKeepsAspectAndCentre() {
        let start = Rect(x: 0, y: 0, width: 400, height: 300)
        let r = DragKind.resizeRight.apply(to: start, dx: 40, dy: 999, aspect: 4.0 / 3, minWidth: 96)
        #expect(r == Rect(x: 0, y: -15, width: 440, height: 330))
        let b = DragKind.resizeBottom.apply(to: start, dx: 0, dy: -60, aspect: 4.0 / 3, minWidth: 96)
        #expect(b == Rect(x: 40, y: 0, width: 320, height: 240))
    }

    @Test func resizeClampsToMinimum() {
        let r = DragKind.resizeBottomRight.apply(
            to: Rect(x: 0, y: 0, width: 480, height: 270), dx: -1000, dy: -1000, aspect: 16.0 / 9, minWidth: 96)
        #expect(r.width == 96 && r.height == 54)
    }

    @Test func aspectIsKeptForManyDrags() {
        for dx in stride(from: -300, through: 300, by: 37) {
            for dy in stride(from: -200, through: 200, by: 41) {
                for kind in DragKind.allCases where kind != .move {
                    let r = kind.apply(to: Rect(x: 50, y: 50, width: 480, height: 270), dx: dx, dy: dy, aspect: 16.0 / 9, minWidth: 96)
                    #expect(abs(Double(r.width) / Double(r.height) - 16.0 / 9) < 0.02, "\(kind) \(dx) \(dy) → \(r)")
                }
            }
        }
    }
}

@Suite struct PlacementTests {
    let area = Rect(x: 0, y: 0, width: 1280, height: 720)

    @Test func defaultIsAQuarterOfTheWorkAreaInTheCorner() {
        let r = Placement.initialRect(workArea: area, corner: .bottomRight, aspect: 16.0 / 9)
        #expect(r == Rect(x: 1280 - 24 - 320, y: 720 - 24 - 180, width: 320, height: 180))
        let tl = Placement.initialRect(workArea: Rect(x: 0, y: 30, width: 1280, height: 690), corner: .topLeft, aspect: 4.0 / 3)
        #expect(tl == Rect(x: 24, y: 54, width: 320, height: 240))
    }

    @Test func explicitSizeIsKeptAndTooBigIsShrunk() {
        #expect(Placement.initialRect(workArea: area, corner: .topRight, aspect: 1, size: (480, 270))
            == Rect(x: 1280 - 24 - 480, y: 24, width: 480, height: 270))
        let big = Placement.initialRect(workArea: area, corner: .topLeft, aspect: 1, size: (4000, 2000))
        #expect(big.width <= 1232 && big.height <= 672 && big.x == 24)
    }

    @Test func aspectRatioIsReduced() {
        #expect(Placement.aspectRatio(width: 1280, height: 720) == (16, 9))
        #expect(Placement.aspectRatio(width: 640, height: 480) == (4, 3))
        #expect(Placement.aspectRatio(width: 7, height: 5) == (7, 5))
    }
}

@Suite struct WindowPlacementMathTests {
    let area = Rect(x: 0, y: 30, width: 1280, height: 690)

    /// A new shape keeps the area and the nearest corner: turned in the bottom-right corner, the
    /// bottom-right stays; in the top-left, the top-left.
    @Test func reshapedKeepsAreaAndNearestCorner() {
        #expect(WindowPlacementMath.reshaped(Rect(x: 936, y: 516, width: 320, height: 180), toAspect: 9.0 / 16, in: area)
            == Rect(x: 1076, y: 376, width: 180, height: 320))
        #expect(WindowPlacementMath.reshaped(Rect(x: 24, y: 54, width: 320, height: 180), toAspect: 4.0 / 3, in: area)
            == Rect(x: 24, y: 54, width: 277, height: 208))
    }

    /// A frame off a smaller work area is moved onto it; one larger than it is also shrunk, its shape kept.
    @Test func fittedMovesOntoTheAreaAndShrinksAsAWhole() {
        #expect(WindowPlacementMath.fitted(Rect(x: 1600, y: 900, width: 320, height: 180), into: area)
            == Rect(x: 960, y: 540, width: 320, height: 180))
        #expect(WindowPlacementMath.fitted(Rect(x: 100, y: 100, width: 320, height: 180), into: area)
            == Rect(x: 100, y: 100, width: 320, height: 180))
        let big = WindowPlacementMath.fitted(Rect(x: 0, y: 0, width: 1920, height: 1080), into: area)
        #expect(big == Rect(x: 0, y: 30, width: 1226, height: 690), "\(big)")
    }

    @Test func movesEndingNearEdgesSnapFlush() {
        // Near the right edge only.
        #expect(WindowPlacementMath.snapped(Rect(x: 950, y: 300, width: 320, height: 180), to: area)
            == Rect(x: 960, y: 300, width: 320, height: 180))
        // Near the bottom-left corner: both edges.
        #expect(WindowPlacementMath.snapped(Rect(x: 10, y: 530, width: 320, height: 180), to: area)
            == Rect(x: 0, y: 540, width: 320, height: 180))
        // 16 px away snaps, 17 px away does not.
        #expect(WindowPlacementMath.snapped(Rect(x: 16, y: 300, width: 320, height: 180), to: area).x == 0)
        #expect(WindowPlacementMath.snapped(Rect(x: 17, y: 300, width: 320, height: 180), to: area)
            == Rect(x: 17, y: 300, width: 320, height: 180))
        // Past the top edge (over a panel): pulled in.
        #expect(WindowPlacementMath.snapped(Rect(x: 400, y: 0, width: 320, height: 180), to: area).y == 30)
    }

    /// Where a new PiP goes (every corner, the margin from both edges) is off the snap line: a
    /// PiP dropped back where it started stays there.
    @Test func theStartPlaceDoesNotSnap() {
        for corner in Corner.allCases {
            let start = Placement.initialRect(workArea: area, corner: corner, aspect: 16.0 / 9, size: (320, 180))
            #expect(WindowPlacementMath.snapped(start, to: area) == start, "\(corner): \(start)")
        }
        #expect(Placement.margin > WindowPlacementMath.snapDistance)
    }

    @Test func wheelScalingKeepsThePointAndAspectAndStaysInside() {
        let r = Rect(x: 400, y: 300, width: 320, height: 180)
        let bigger = WindowPlacementMath.scaled(r, by: 1.25, around: 480, 345, aspect: 16.0 / 9, minWidth: 96, area: area)
        #expect(bigger == Rect(x: 380, y: 289, width: 400, height: 225))
        let clampedSmall = WindowPlacementMath.scaled(r, by: 0.1, around: 400, 300, aspect: 16.0 / 9, minWidth: 96, area: area)
        #expect(clampedSmall.width == 96 && clampedSmall.height == 54)
        let huge = WindowPlacementMath.scaled(r, by: 10, around: 560, 390, aspect: 16.0 / 9, minWidth: 96, area: area)
        #expect(huge.width == 1226 && huge.height == 690 && huge.x >= 0 && huge.maxX <= 1280 && huge.y == 30)
    }

    /// A corner dragged inward along one axis shrinks the window: the pointer's larger move wins,
    /// whether it grows or shrinks.
    @Test func aCornerDraggedInwardAlongOneAxisShrinks() {
        let start = Rect(x: 100, y: 100, width: 480, height: 270)
        #expect(DragKind.resizeBottomRight.apply(to: start, dx: -100, dy: 0, aspect: 16.0 / 9, minWidth: 96).width == 380)
        #expect(DragKind.resizeBottomRight.apply(to: start, dx: -100, dy: -10, aspect: 16.0 / 9, minWidth: 96).width == 380)
        #expect(DragKind.resizeBottomRight.apply(to: start, dx: 0, dy: -90, aspect: 16.0 / 9, minWidth: 96) == Rect(x: 100, y: 100, width: 320, height: 180))
        #expect(DragKind.resizeTopLeft.apply(to: start, dx: 100, dy: 0, aspect: 16.0 / 9, minWidth: 96) == Rect(x: 200, y: 156, width: 380, height: 214))
    }

    /// `+` then `-` around a remembered exact centre come back to the same rectangle, ten times
    /// over; around the integer centre of each new rectangle they drifted a pixel a cycle.
    @Test func zoomingInAndOutAroundTheCentreDoesNotDrift() {
        let area = Rect(x: 0, y: 0, width: 1280, height: 720)
        let start = Rect(x: 700, y: 400, width: 320, height: 180)
        var r = start
        var centre: (x: Double, y: Double)? = (860, 490)
        for factor in Array(repeating: [1.15, 1 / 1.15], count: 10).joined() {
            let z = WindowPlacementMath.scaled(r, by: factor, aroundCentre: centre!, aspect: 16.0 / 9, minWidth: 96, area: area)
            (r, centre) = (z.rect, z.centre)
            #expect(centre != nil)
        }
        #expect(r == start)
    }
}

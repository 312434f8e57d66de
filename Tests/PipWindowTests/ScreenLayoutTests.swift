import Testing
@testable import PipWindow
import PipCore

/// A 1920×1200 primary with a 1280×1024 monitor to its right (dead space below the small one),
/// and a work area with a 30 px panel along the top of the whole screen.
@Suite struct ScreenLayoutTests {
    let big = Rect(x: 0, y: 0, width: 1920, height: 1200)
    let small = Rect(x: 1920, y: 0, width: 1280, height: 1024)
    let workArea = Rect(x: 0, y: 30, width: 3200, height: 1170)
    var layout: ScreenLayout { ScreenLayout(monitors: [big, small], workArea: workArea) }

    @Test func eachMonitorGetsItsPartOfTheWorkArea() {
        #expect(layout.areas == [Rect(x: 0, y: 30, width: 1920, height: 1170), Rect(x: 1920, y: 30, width: 1280, height: 994)])
        #expect(layout.primaryArea == layout.areas[0])
    }

    /// No Xinerama (or an empty answer): the work area is the one monitor. Mirrored outputs
    /// report one rectangle twice; a zero-size head is dropped.
    @Test func noMonitorsDuplicatesAndEmptyHeads() {
        #expect(ScreenLayout(monitors: [], workArea: workArea).areas == [workArea])
        let mirrored = ScreenLayout(monitors: [big, big, Rect(x: 5, y: 5, width: 0, height: 10)], workArea: workArea)
        #expect(mirrored.monitors == [big])
    }

    /// A work area that misses a monitor (stale, or another client's) leaves that monitor whole.
    @Test func aMonitorOutsideTheWorkAreaIsUsedWhole() {
        let l = ScreenLayout(monitors: [big, small], workArea: Rect(x: 0, y: 0, width: 1920, height: 1200))
        #expect(l.areas[1] == small)
    }

    /// mutter's `_GTK_WORKAREAS_D<n>`: its top bar is on the primary only, so `_NET_WORKAREA` takes
    /// 30 px off the top of both monitors while the small one's own work area is all of it. The
    /// rectangles come in any order; one that lies within no monitor (stale) is not used.
    @Test func perMonitorWorkAreasWinOverTheCommonOne() {
        let own = [Rect(x: 1920, y: 0, width: 1280, height: 1024), Rect(x: 0, y: 30, width: 1920, height: 1130)]
        let l = ScreenLayout(monitors: [big, small], workArea: workArea, monitorWorkAreas: own)
        #expect(l.areas == [own[1], own[0]])
        let stale = ScreenLayout(
            monitors: [big, small], workArea: workArea, monitorWorkAreas: [Rect(x: 1900, y: 0, width: 1300, height: 1024)])
        #expect(stale.areas == layout.areas)
    }

    /// Overlapping monitors (a 1280×1024 one showing the top left of a 1920×1080 one): each takes
    /// the largest area within it, whatever the order, so the larger is not confined to the smaller's.
    @Test func overlappingMonitorsTakeTheLargestAreaWithinThem() {
        let large = Rect(x: 0, y: 0, width: 1920, height: 1080), small = Rect(x: 0, y: 0, width: 1280, height: 1024)
        let own = [Rect(x: 0, y: 27, width: 1280, height: 997), Rect(x: 0, y: 27, width: 1920, height: 1053)]
        let l = ScreenLayout(monitors: [large, small], workArea: large, monitorWorkAreas: own)
        #expect(l.areas == [own[1], own[0]])
    }

    @Test func thePointsMonitorElseTheNearest() {
        #expect(layout.area(containing: 2500, 500) == layout.areas[1])
        #expect(layout.area(containing: 100, 1100) == layout.areas[0])
        // Below the small monitor, in dead space: nearer the small monitor than the big one.
        #expect(layout.area(containing: 2600, 1150) == layout.areas[1])
        // Far off every monitor, left of the big one.
        #expect(layout.area(containing: -500, 300) == layout.areas[0])
    }

    @Test func aRectBelongsToTheMonitorShowingMostOfIt() {
        // Straddling the boundary, 200 px on the big monitor and 120 on the small one.
        #expect(layout.area(for: Rect(x: 1720, y: 100, width: 320, height: 180)) == layout.areas[0])
        #expect(layout.area(for: Rect(x: 1800, y: 100, width: 320, height: 180)) == layout.areas[1])
        // Wholly in the dead area: the nearest monitor to its centre.
        #expect(layout.area(for: Rect(x: 2800, y: 1050, width: 300, height: 100)) == layout.areas[1])
    }

    @Test func shownMeansItsCentreIsOnAMonitor() {
        #expect(layout.shows(Rect(x: 2800, y: 900, width: 320, height: 180)))
        #expect(!layout.shows(Rect(x: 2800, y: 1000, width: 320, height: 180)))
        #expect(!layout.shows(Rect(x: 4000, y: 100, width: 320, height: 180)))
    }

    @Test func rectIntersection() {
        #expect(big.intersection(small) == nil)
        #expect(Rect(x: 0, y: 0, width: 10, height: 10).intersection(Rect(x: 5, y: -5, width: 10, height: 10))
            == Rect(x: 5, y: 0, width: 5, height: 5))
    }

    /// Remembered PiP geometry names its monitor and comes back there while it is connected;
    /// without it (unplugged, or a file from before) it goes to the given area.
    @Test func rememberedGeometryComesBackToItsMonitor() {
        let pip = Rect(x: 2856, y: 820, width: 320, height: 180)
        let memory = GeometryMemory(rect: pip, in: layout)
        #expect(memory.line == "bottom-right 24 24 320 180 1920 0 1280 1024")
        let loaded = GeometryMemory(line: memory.line)
        #expect(loaded == memory)
        #expect(loaded?.rect(in: layout, otherwise: layout.areas[0]) == pip)
        let alone = ScreenLayout(monitors: [big], workArea: big)
        #expect(loaded?.rect(in: alone, otherwise: big) == Rect(x: 1576, y: 996, width: 320, height: 180))
        let old = GeometryMemory(line: "bottom-right 24 24 320 180")
        #expect(old?.monitor == nil)
        #expect(old?.rect(in: layout, otherwise: layout.areas[1]) == pip)
        #expect(GeometryMemory(line: "top-left 24 24 320 180 19200 0 3840 2160")?.monitor == Rect(x: 19200, y: 0, width: 3840, height: 2160))
        for bad in ["bottom-right 24 24 320 180 1920 0 1280", "bottom-right 20000 24 320 180", "bottom-right 24 24 320 180 1920 0 0 1024",
                    "bottom-right 24 24 320 180 1920 0 1280 x"] {
            #expect(GeometryMemory(line: bad) == nil, "\(bad)")
        }
    }
}

import Foundation
import Testing
@testable import PipWindow

@Suite struct GeometryMemoryTests {
    let area = Rect(x: 0, y: 30, width: 1280, height: 690)

    @Test func remembersTheNearestCornerAndOffsets() {
        let m = GeometryMemory(rect: Rect(x: 936, y: 516, width: 320, height: 180), in: area)
        #expect(m.line == "bottom-right 24 24 320 180")
        let tl = GeometryMemory(rect: Rect(x: 10, y: 40, width: 400, height: 225), in: area)
        #expect(tl.line == "top-left 10 10 400 225")
    }

    @Test func restoresOntoAnotherScreenAndClamps() {
        let m = GeometryMemory(line: "bottom-right 24 24 320 180")!
        #expect(m.rect(in: Rect(x: 0, y: 0, width: 1920, height: 1080)) == Rect(x: 1576, y: 876, width: 320, height: 180))
        // Bigger than the screen and far off it: shrunk and pulled on.
        let huge = GeometryMemory(line: "top-left 5000 5000 2000 1500")!
        let r = huge.rect(in: Rect(x: 0, y: 0, width: 800, height: 600))
        #expect(r.x >= 0 && r.y >= 0 && r.maxX <= 800 && r.maxY <= 600)
    }

    /// One file per instance name, under XDG_STATE_HOME (an absolute one), else ~/.local/state.
    @Test func theFileFollowsTheStateDirectoryAndTheInstanceName() {
        let env = ["XDG_STATE_HOME": "/s", "HOME": "/h"]
        #expect(GeometryMemory.filePath(name: nil) { env[$0] } == "/s/pipcam/geometry")
        #expect(GeometryMemory.filePath(name: "b") { env[$0] } == "/s/pipcam/geometry-b")
        let relative = ["XDG_STATE_HOME": "state", "HOME": "/h"]
        #expect(GeometryMemory.filePath(name: nil) { relative[$0] } == "/h/.local/state/pipcam/geometry")
        #expect(GeometryMemory.filePath(name: nil) { _ in nil } == nil)
    }

    @Test func malformedLinesAreIgnored() {
        for bad in ["", "middle 1 2 3 4", "top-left 1 2 3", "top-left a 2 300 200", "top-left 1 2 3 4", "top-left 1 2 99999 200"] {
            #expect(GeometryMemory(line: bad) == nil, "\(bad)")
        }
    }

    @Test func savesAndLoadsThroughAFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pipcam-geo-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/state/pipcam/geometry"
        let m = GeometryMemory(rect: Rect(x: 100, y: 600, width: 480, height: 270), in: Rect(x: 0, y: 0, width: 1280, height: 900))
        m.save(to: path)
        #expect(GeometryMemory.load(from: path) == m)
        #expect(GeometryMemory.load(from: dir + "/nothing") == nil)
    }
}

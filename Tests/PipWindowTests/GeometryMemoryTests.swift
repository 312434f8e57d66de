import Foundation
import Testing
@testable import PipWindow
import PipCore

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
        // Shrunk as a whole: a 16:9 PiP stays 16:9 on a smaller work area.
        let big = GeometryMemory(line: "bottom-right 24 24 1800 1012")!.rect(in: Rect(x: 0, y: 0, width: 1366, height: 740))
        #expect(big.maxX <= 1366 && big.maxY <= 740 && big.x >= 0 && big.y >= 0, "\(big)")
        #expect(abs(Double(big.width) / Double(big.height) / (1800.0 / 1012) - 1) < 0.01, "\(big)")
    }

    /// A picture of another shape (turned a quarter, another camera) keeps the PiP's area and
    /// corner; the same shape keeps its width.
    @Test func aNewShapeKeepsTheArea() {
        let m = GeometryMemory(line: "bottom-right 24 24 480 270")!
        #expect(m.fitted(toAspect: 16.0 / 9) == m)
        #expect(m.fitted(toAspect: 9.0 / 16).line == "bottom-right 24 24 270 480")
        let fourThree = m.fitted(toAspect: 4.0 / 3)
        #expect(fourThree.width == 416 && fourThree.height == 312, "\(fourThree.line)")
        // On a 1280x720 screen the turned PiP fits without being stretched to the screen's height.
        #expect(m.fitted(toAspect: 9.0 / 16).rect(in: Rect(x: 0, y: 0, width: 1280, height: 720))
            == Rect(x: 986, y: 216, width: 270, height: 480))
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
        for bad in ["", "middle 1 2 3 4", "top-left 1 2 3", "top-left a 2 300 200", "top-left 1 2 3 4", "top-left 1 2 99999 200",
                    "bottom-right -9223372036854775808 0 320 180"] {
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

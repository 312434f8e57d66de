import Foundation
import TestSupport
import Testing

/// Nothing spent while nothing shows (docs/BEHAVIOUR.md, "When nothing shows the camera"): a main
/// window showing a live source that another window covers entirely draws no frames, and draws
/// them again as soon as it is uncovered.
@Suite(.serialized) struct MainWindowCoveredTests {
    private func shown(_ x: XServer) throws -> Int { try x.pipcamStatus().object["shown"] as? Int ?? -1 }
    private func dropped(_ x: XServer) throws -> Int { try x.pipcamStatus().object["dropped"] as? Int ?? -1 }
    private func unseen(_ x: XServer) throws -> Int { try x.pipcamStatus().object["unseen"] as? Int ?? -1 }

    /// pipcam showing the test pattern in its main window (PiP never starts by itself), once frames are shown.
    private func startShowingFrames(_ x: XServer) throws -> (RunningProcess, XWindowID) {
        let pipcam = try x.startPipcam(["--source", "test", "--auto-pip", "never"])
        let main = try x.waitForWindow(className: "pipcam", role: "main")
        try waitUntil("frames are shown", timeout: .seconds(10)) { try shown(x) > 10 }
        return (pipcam, main)
    }

    /// xmessage over the whole screen (no window manager: it stays where it asks to be), once
    /// frames stopped being shown under it.
    private func coverTheScreen(_ x: XServer) throws -> RunningProcess {
        let cover = try x.start(["xmessage", "-geometry", "\(x.width)x\(x.height)+0+0", "-bg", "black", "covering"])
        try waitUntil("frames stop being shown under the cover", timeout: .seconds(5)) {
            let before = try shown(x)
            Thread.sleep(forTimeInterval: 0.5)
            return try shown(x) == before
        }
        return cover
    }

    /// How often the display thread (the process's first) has slept and been woken so far.
    private func displayWakeups(_ pid: pid_t) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/task/\(pid)/status", encoding: .utf8)
        let line = status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") }
        return line.flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? -1
    }

    @Test func aCoveredMainWindowDrawsNoFramesUntilUncovered() throws {
        let x = try XServer()
        let (pipcam, main) = try startShowingFrames(x)
        let cover = try coverTheScreen(x)
        defer { cover.terminate(grace: .milliseconds(200)) }
        let covered = try shown(x)
        Thread.sleep(forTimeInterval: 1)
        #expect(try shown(x) == covered, "frames drawn into a covered window")
        #expect(try x.isViewable(main))

        cover.terminate(grace: .milliseconds(200))
        try waitUntil("frames are shown again once uncovered", timeout: .seconds(5)) { try shown(x) > covered + 5 }
        #expect(pipcam.isRunning && pipcam.stderrText.isEmpty, "\(pipcam.stderrText)")
    }

    /// Unseen, a live source's frames go straight back on the capture thread: the display thread
    /// sleeps (woken by its once-a-second stats tick, not by 30 frames a second), and the frames it
    /// never took are counted as unseen, not dropped, once the window is uncovered.
    @Test func coveredTheDisplayThreadSleepsAndNothingCountsAsDropped() throws {
        let x = try XServer()
        let (pipcam, _) = try startShowingFrames(x)
        let cover = try coverTheScreen(x)
        defer { cover.terminate(grace: .milliseconds(200)) }
        let covered = try shown(x), droppedCovered = try dropped(x), unseenBefore = try unseen(x)
        let wakeups = try displayWakeups(pipcam.pid)
        Thread.sleep(forTimeInterval: 2)
        let woken = try displayWakeups(pipcam.pid) - wakeups
        // 2 s of frames would be 60; the stats tick, and `pipcam status` asked twice here, a few.
        #expect((0..<15).contains(woken), "the display thread was woken \(woken) times in 2 s with nothing shown")
        // Nothing taken while covered: not a frame shown or dropped.
        #expect(try shown(x) == covered && dropped(x) == droppedCovered && unseen(x) == unseenBefore)

        cover.terminate(grace: .milliseconds(200))
        try waitUntil("frames are shown again once uncovered", timeout: .seconds(5)) { try shown(x) > covered }
        // The gap of the 2 s covered, 60 frames, is all unseen: the first frame taken again
        // restarts the count, whatever a busy machine drops of its own after it.
        #expect(try unseen(x) - unseenBefore >= 30, "frames nothing showed were not counted as unseen")
        #expect(pipcam.isRunning && pipcam.stderrText.isEmpty, "\(pipcam.stderrText)")
    }
}

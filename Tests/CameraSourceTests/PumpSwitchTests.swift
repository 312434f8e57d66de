import Foundation
import Testing
import TestSupport
@testable import CameraSource
import PipCore

/// `pipcam switch` with `--share`: the virtual camera keeps its format and size whatever the new
/// source sends, and every frame keeps reaching it across the switch (docs/BEHAVIOUR.md,
/// "Switching the source").
@Suite struct PumpSwitchTests {
    /// A raw file of `frames` flat frames of luma `y` (chroma neutral).
    private func flatRaw(_ format: PixelFormat, width: Int, height: Int, y: UInt8, frames: Int) throws -> String {
        let frame: [UInt8]
        switch format {
        case .yuyv: frame = (0..<(width * height)).flatMap { _ in [y, 128] }
        default: frame = [UInt8](repeating: y, count: width * height) + [UInt8](repeating: 128, count: width * height / 2)
        }
        let path = "\(try Scratch.makeDirectory("switch"))/\(format)-\(width)x\(height).raw"
        try Data((0..<frames).flatMap { _ in frame }).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func theSharedStreamKeepsItsFormatAndSizeAcrossASwitch() throws {
        let first = RawSource(path: try flatRaw(.i420, width: 32, height: 32, y: 50, frames: 3), width: 32, height: 32, format: .i420, fps: 1000)
        let second = RawSource(path: try flatRaw(.yuyv, width: 64, height: 64, y: 200, frames: 3), width: 64, height: 64, format: .yuyv, fps: 1000)
        try first.start()
        try second.start()
        let out = FakeOutputDevice()
        let share = CameraShare(device: "/dev/video10", output: out, format: .i420, width: 16, height: 16, frameRate: 30)
        let switcher = SourceSwitcher(first)
        let pump = FramePump(source: switcher, share: share)
        pump.run()
        var taken = 0
        func takeFrames(until done: () -> Bool) -> Bool {
            eventually(timeout: .seconds(3)) {
                if let frame = pump.mailbox.take() {
                    taken += 1
                    pump.mailbox.giveBack(frame.bufferIndex)
                }
                return done()
            }
        }
        #expect(takeFrames { out.frames.count >= 2 })
        switcher.inbox.propose(second, name: "raw:b")
        pump.mailbox.toCapture.signal()
        #expect(takeFrames { out.frames.count >= 5 && pump.mailbox.ending != nil })
        pump.stop()
        let outcomes = switcher.inbox.takeOutcomes()
        #expect(outcomes.count == 1 && { if case .switched(name: "raw:b", _)? = outcomes.first { true } else { false } }(), "\(outcomes)")
        let frames = out.frames
        #expect(frames.allSatisfy { $0.count == 16 * 16 * 3 / 2 }, "one size for every frame: \(frames.map(\.count))")
        // Limited-range luma as it came: the first source's frames, then the second's, never a gap.
        let lumas = frames.map { $0[0] }
        let firstOfSecond = try #require(lumas.firstIndex(of: 200), "\(lumas)")
        #expect(firstOfSecond >= 2 && lumas[..<firstOfSecond].allSatisfy { $0 == 50 } && lumas[firstOfSecond...].allSatisfy { $0 == 200 },
                "\(lumas)")
        #expect(frames.allSatisfy { $0[16 * 16] == 128 }, "neutral chroma")
    }
}

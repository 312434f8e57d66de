import Foundation
import Glibc
import TestSupport

/// The virtual camera's side (v4l2loopback at `VMDevices.loopback`): readers, writers, frames.
extension ScenarioRun {
    static let loopback = VMDevices.loopback
    /// What a reader of the loopback is offered while pipcam shares: "640x360 YUYV".
    static var sharedFormat: String { "\(VMDevices.shareSize) YUYV" }

    /// Waits (20 s) until the loopback offers readers the shared format.
    func waitForSharedFormat(_ failure: @autoclosure () -> String) throws {
        guard try wait(20, until: { V4L2Queries.sizeAndFourCC(of: Self.loopback) == Self.sharedFormat }) else {
            throw HarnessError(failure())
        }
    }

    /// A reader of the loopback (v4l2-ctl, mmap streaming): one stamped "cap dqbuf" line a frame.
    /// Waits (30 s) for its first 3 frames.
    func startReader() throws -> StampedProcess {
        let reader = try start("reader", ["bash", "-c", "exec stdbuf -oL v4l2-ctl -d \"$0\" --stream-mmap --verbose >&2", Self.loopback])
        guard try wait(30, until: { reader.count("cap dqbuf", after: 0, until: .infinity) >= 3 }) else {
            throw HarnessError("the reader of \(Self.loopback) got no frames within 30 s: \(Self.lastWords(of: reader))")
        }
        return reader
    }

    /// What the reader said last besides its frames.
    static func lastWords(of reader: StampedProcess) -> String {
        reader.lines.last { !$0.text.contains("cap dqbuf") && !$0.text.isEmpty }?.text ?? ""
    }

    /// Frames the reader got with stamps in (a, b].
    func readerFrames(_ reader: StampedProcess, _ a: Double, _ b: Double) -> Int {
        reader.count("cap dqbuf", after: a, until: b)
    }

    /// The longest time in [a, b] without a frame at the reader, in seconds.
    func readerLongestGap(_ reader: StampedProcess, _ a: Double, _ b: Double) -> Double {
        var last = a, gap = 0.0
        for line in reader.lines where line.time >= a && line.time <= b && line.text.contains("cap dqbuf") {
            gap = max(gap, line.time - last)
            last = line.time
        }
        return max(gap, b - last)
    }

    /// Stops a reader or writer (SIGTERM) and waits 10 s for it to end.
    func stop(_ process: StampedProcess, _ failure: String) throws {
        kill(process.pid, SIGTERM)
        guard try wait(10, until: { process.hasExited }) else { throw HarnessError(failure) }
    }

    /// The newest frame on the loopback as a second reader sees it, kept in `NAME.yuyv`, and its luma.
    func grab(_ name: String) throws -> FrameLuma {
        let path = "\(directory)/\(name).yuyv"
        try? FileManager.default.removeItem(atPath: path)
        let result: ProcessResult
        do {
            result = try run(["v4l2-ctl", "-d", Self.loopback, "--stream-mmap", "--stream-count=2", "--stream-to=\(path)"], timeout: 30)
        } catch {
            throw HarnessError("could not read a frame from \(Self.loopback) (\(name)): \(error)")
        }
        write("\(name).grab.txt", result.stdoutText + result.stderrText)
        guard result.succeeded else {
            throw HarnessError("could not read a frame from \(Self.loopback) (\(name)): \(lastLine(result.stdoutText + result.stderrText))")
        }
        let size = VMDevices.shareSize.split(separator: "x").compactMap { Int($0) }
        let luma: FrameLuma
        do {
            luma = try FrameLuma(yuyv: (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data(), width: size[0], height: size[1])
        } catch {
            throw HarnessError("frame from \(Self.loopback) (\(name)): \(error)")
        }
        note("\(name): \(luma)")
        return luma
    }

    /// The writer stand-in (scripts/vm-loopback-writer, a camera app feeding the loopback), once
    /// it streams at `size`.
    func startWriter(_ name: String, size: String, fps: Int) throws -> StampedProcess {
        let writer = try start(name, [Pipcam.packageRoot + "/scripts/vm-loopback-writer", Self.loopback, size, "\(fps)"])
        let streaming: () -> [Substring] = { writer.stdoutText.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("streaming") } }
        guard try wait(30, until: { !streaming().isEmpty }) else {
            throw HarnessError("the writer (\(name)) did not start streaming to \(Self.loopback): \(writer.lastMessage)")
        }
        guard streaming().first.map(String.init) == "streaming \(size)" else {
            let got = streaming().first?.split(separator: " ").dropFirst().first ?? ""
            throw HarnessError("the writer (\(name)) asked for \(size) and got \(got): something still holds \(Self.loopback)")
        }
        return writer
    }

    /// `pipcam status`'s `share` object (empty when there is none); every answer is kept in `status.json`.
    func shareStatus() throws -> [String: Any] {
        let (object, text) = try x.pipcamStatus(name: nil)
        append("status.json", text)
        return object["share"] as? [String: Any] ?? [:]
    }

    /// The end of `status.json`, for failure messages.
    var statusTail: String {
        String(((try? String(contentsOfFile: "\(directory)/status.json", encoding: .utf8)) ?? "").suffix(300))
    }

    /// From one stats line to the first `seconds` later (`during` runs in between): the frames
    /// vivid delivered to pipcam (shown + dropped), pipcam wrote to the loopback (`shared`) and
    /// the reader got. Both counts must reach 95 % of vivid's.
    func shareWindow(
        _ name: String, _ seconds: Double, pipcam: StampedProcess, reader: StampedProcess, during: () throws -> Void = {}
    ) throws {
        let t0 = GuestClock.now()
        guard try wait(5, until: { pipcam.firstStats(after: t0) != nil }), let first = pipcam.firstStats(after: t0) else {
            try aliveOrFail(pipcam, name)
            throw HarnessError("\(name): no stats line")
        }
        let (t1, l1) = first
        guard let shared1 = l1.shared else { throw HarnessError("\(name): no shared= field in the stats line: \(l1)") }
        try during()
        guard try wait(seconds + 10, until: { pipcam.firstStats(after: t1 + seconds) != nil }),
            let second = pipcam.firstStats(after: t1 + seconds)
        else {
            try aliveOrFail(pipcam, name)
            throw HarnessError("\(name): stats stopped")
        }
        let (t2, l2) = second
        let vivid = l2.shown + l2.dropped - l1.shown - l1.dropped
        let written = (l2.shared ?? 0) - shared1
        let got = readerFrames(reader, t1, t2)
        func rate(_ count: Int) -> String { String(format: "%.2f", Double(count) / (t2 - t1)) }
        metric("\(name)_vivid_fps", rate(vivid))
        metric("\(name)_written_fps", rate(written))
        metric("\(name)_reader_fps", rate(got))
        metric("\(name)_reader_ratio", String(format: "%.3f", vivid > 0 ? Double(got) / Double(vivid) : 0))
        guard vivid > 0 else { throw HarnessError("\(name): no frames from the camera in \(Int(seconds)) s (\(l2))") }
        guard written * 100 >= vivid * 95 else {
            throw HarnessError("\(name): pipcam wrote \(written) frames to \(Self.loopback) while vivid delivered \(vivid) (< 95 %)")
        }
        guard got * 100 >= vivid * 95 else {
            throw HarnessError("\(name): the reader got \(got) frames while vivid delivered \(vivid) and pipcam wrote \(written) (< 95 %)")
        }
    }
}

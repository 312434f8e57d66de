import Foundation
import TestSupport

/// Loading and unloading the guest's camera drivers: vivid (the webcams) and v4l2loopback (the
/// virtual cameras).
enum KernelModules {
    static func isLoaded(_ module: String) -> Bool {
        FileManager.default.fileExists(atPath: "/sys/module/\(module)")
    }

    /// `modprobe ARGUMENTS`; throws with its last line of stderr.
    static func modprobe(_ arguments: [String]) throws {
        let result = try run(["modprobe"] + arguments, timeout: .seconds(60))
        guard result.succeeded else {
            throw HarnessError("modprobe \(arguments.joined(separator: " ")): \(lastLine(result.stderrText))")
        }
    }

    /// Unloads `module` if it is loaded. The guest's udev (started by virtme-ng) opens a new
    /// video node for a moment to read its identity; a module unloaded meanwhile is "in use". So
    /// udev's queue is waited for, and an unload refused as in use is tried again for 5 s.
    static func unload(_ module: String) throws {
        guard isLoaded(module) else { return }
        settleUdev()
        var refused: Error?
        let gone = eventually(timeout: .seconds(5)) {
            do {
                try modprobe(["-r", module])
                return true
            } catch {
                refused = error
                return !isLoaded(module)
            }
        }
        if !gone, let refused { throw HarnessError("\(refused); open: \(openVideoNodes().joined(separator: ", "))") }
    }

    /// Waits (10 s at most) until udev has handled the events so far, where udev runs.
    static func settleUdev() {
        _ = try? run(["udevadm", "settle", "--timeout=10"], timeout: .seconds(15))
    }

    /// Who has a video node open: "COMMAND[PID]:PATH" for each (for a refused unload's message).
    private static func openVideoNodes() -> [String] {
        let pids = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).filter { Int($0) != nil }
        return pids.flatMap { pid -> [String] in
            let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
            let command = ((try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? "?").trimmingCharacters(in: .whitespacesAndNewlines)
            return fds.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)") }
                .filter { $0.hasPrefix("/dev/video") || $0.hasPrefix("/dev/v4l") || $0.hasPrefix("/dev/media") }
                .map { "\(command)[\(pid)]:\($0)" }
        }
    }

    /// vivid afresh with `options`, waiting (10 s) until its first node answers.
    static func reloadVivid(_ options: [String]) throws {
        try unload("vivid")
        try modprobe(["vivid"] + options)
        settleUdev()
        let up = eventually(timeout: .seconds(10)) {
            (try? run(["v4l2-ctl", "-d", VMDevices.camera, "--info"]))?.succeeded == true
        }
        guard up else { throw HarnessError("\(VMDevices.camera) did not answer v4l2-ctl --info within 10 s") }
    }

    /// v4l2loopback afresh, waiting (10 s) for its first device. `unavailable` is why the host
    /// could not build the module, if it could not (scripts/vm-test writes it).
    static func reloadLoopback(unavailable: String?) throws {
        if let unavailable { throw HarnessError("v4l2loopback unavailable: \(unavailable)") }
        try unload("v4l2loopback")
        try modprobe(["v4l2loopback"] + VMDevices.loopbackOptions)
        guard eventually(timeout: .seconds(10), { FileManager.default.fileExists(atPath: VMDevices.loopback) }) else {
            throw HarnessError("no \(VMDevices.loopback) after modprobe v4l2loopback \(VMDevices.loopbackOptions.joined(separator: " "))")
        }
        // The writer stand-in (scripts/vm-loopback-writer) is a Python program.
        guard (try? run(["python3", "-c", ""]))?.succeeded == true else {
            throw HarnessError("no python3 in the guest (scripts/vm-loopback-writer needs it)")
        }
    }
}

/// The last non-empty line of `text`.
func lastLine(_ text: String) -> String {
    text.split(whereSeparator: \.isNewline).last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.map(String.init) ?? ""
}

import Foundation
import Testing
import TestSupport
@testable import CameraSource

/// Who holds a camera, from a /proc laid out by the test: a process with the device open (a
/// descriptor links to it) or mapped (its buffers), named by its command.
@Suite struct DeviceHoldersTests {
    /// A fake /proc and a fake device; `processes` are (pid, command, opens it, maps it).
    private func proc(_ processes: [(Int32, String, Bool, Bool)]) throws -> (proc: String, device: String) {
        let root = try Scratch.makeDirectory("proc-\(UUID().uuidString.prefix(8))")
        let device = root + "/video0"
        FileManager.default.createFile(atPath: device, contents: nil)
        let real = try #require(DevicePath.real(device))
        for (pid, command, opens, maps) in processes {
            let dir = "\(root)/proc/\(pid)"
            try FileManager.default.createDirectory(atPath: dir + "/fd", withIntermediateDirectories: true)
            try Data((command + "\n").utf8).write(to: URL(fileURLWithPath: dir + "/comm"))
            try FileManager.default.createSymbolicLink(atPath: dir + "/fd/0", withDestinationPath: "/dev/null")
            if opens { try FileManager.default.createSymbolicLink(atPath: dir + "/fd/7", withDestinationPath: real) }
            let mapped = maps ? "7f0000000000-7f0000100000 rw-s 00000000 00:05 123 \(real)\n" : ""
            try Data(("55d000000000-55d000001000 r-xp 00000000 08:01 42 /usr/bin/\(command)\n" + mapped).utf8)
                .write(to: URL(fileURLWithPath: dir + "/maps"))
        }
        return (root + "/proc", device)
    }

    @Test func holdersAreTheProcessesWithTheDeviceOpenOrMappedButThisOne() throws {
        let (proc, device) = try proc([(4242, "firefox", true, true), (77, "obs", false, true), (9, "bash", false, false), (500, "pipcam", true, false)])
        let holders = try #require(DeviceOpeners.holders(of: device, proc: proc, except: 500))
        #expect(holders == [.init(pid: 77, command: "obs"), .init(pid: 4242, command: "firefox")])
        #expect(DeviceOpeners.others(of: device, proc: proc) == 3, "this test process is not 500")
    }

    @Test func theInUseReasonNamesThemWhenTheyCanBeSeen() throws {
        let (proc, device) = try proc([(4242, "firefox", true, false)])
        #expect(DeviceOpeners.inUseReason(of: device, proc: proc) == "in use by another application (firefox, pid 4242)")
        let (empty, alone) = try self.proc([])
        #expect(DeviceOpeners.inUseReason(of: alone, proc: empty) == "in use by another application")
        #expect(DeviceOpeners.holders(of: "/nonexistent/video9", proc: empty) == nil)
    }
}

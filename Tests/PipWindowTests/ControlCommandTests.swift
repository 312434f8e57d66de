import Testing
@testable import PipWindow

@Suite struct ControlCommandTests {
    @Test func codesRoundTripAndStatusHasNone() {
        #expect(ControlCommand.toggle.code == 1 && ControlCommand.start.code == 2)
        #expect(ControlCommand.stop.code == 3 && ControlCommand.quit.code == 4)
        #expect(ControlCommand.status.code == nil)
        for command in ControlCommand.allCases {
            if let code = command.code { #expect(ControlCommand(code: code) == command) }
        }
    }

    @Test(arguments: [0, 5, -1, 255, 1 << 33, Int.min, Int.max])
    func unknownCodesAreNoCommand(code: Int) {
        #expect(ControlCommand(code: code) == nil)
    }

    /// `pipcam switch`'s answer: what it says, and nothing else passes for one.
    @Test func switchRepliesRoundTripAndGarbageIsNone() {
        for reply in [SwitchReply.switched(source: "y4m:/tmp/a b.y4m"), .failed("pipcam: cannot switch to x: no such file (still showing test)")] {
            #expect(SwitchReply(reply.encoded) == reply)
        }
        #expect(SwitchReply.switched(source: "/dev/video2").encoded == Array("switched\n/dev/video2".utf8))
        for garbage in ["", "switched", "ok\n/dev/video0", "SWITCHED\nx", "\nx"] {
            #expect(SwitchReply(Array(garbage.utf8)) == nil, "\(garbage)")
        }
        #expect(SwitchReply([0xFF, 0xFE, 0x0A]) == nil)
    }

    @Test func selectionNamesPerScreenAndName() {
        #expect(InstanceName.selection(screen: 0, name: nil) == "_PIPCAM_S0")
        #expect(InstanceName.selection(screen: 1, name: "cam-2") == "_PIPCAM_S1_cam-2")
        #expect(InstanceName.describe(display: ":3", name: "a") == ":3 (name 'a')")
    }

    @Test func noneMeansTheUnnamedInstance() {
        #expect(InstanceName.given("none") == nil)
        #expect(InstanceName.given(nil) == nil)
        #expect(InstanceName.given("cam") == "cam")
        #expect(InstanceName.given("None") == "None", "names are case-sensitive, as selections are")
    }

    @Test(arguments: ["a", "cam-2", "Work_cam.1", String(repeating: "x", count: 64)])
    func goodNames(name: String) {
        #expect(InstanceName.problem(with: name) == nil)
    }

    @Test(arguments: ["", "a b", "a/b", "é", "x\n", String(repeating: "x", count: 65)])
    func badNames(name: String) {
        #expect(InstanceName.problem(with: name)?.hasPrefix("--name: ") == true)
    }
}

import Testing
@testable import PipWindow

@Suite struct InstanceNameTests {
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

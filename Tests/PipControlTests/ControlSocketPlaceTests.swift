import Testing
@testable import PipControl

@Suite struct ControlSocketPlaceTests {
    @Test func oneFilePerDisplayAndName() {
        let unnamed = ControlSocketPlace(directory: "/run/user/1000/pipcam", display: ":0.0", name: nil)
        #expect(unnamed.socketPath == "/run/user/1000/pipcam/:0.sock" && unnamed.lockPath == "/run/user/1000/pipcam/:0.lock")
        #expect(ControlSocketPlace(directory: "/d", display: "host:10.1", name: "cam").fileName == "host:10@cam.sock")
        #expect(ControlSocketPlace(directory: "/d", display: "unix/:0", name: nil).fileName == "unix%2F:0.sock")
        #expect(ControlSocketPlace(directory: "/d", display: "a@b", name: "x.y").fileName == "a%40b@x.y.sock")
    }

    @Test func fileNamesReadBack() {
        for (display, name) in [(":0", nil), (":12", "cam-2"), ("unix/:0", "a.b"), ("h%st:1", nil), ("wayland-1", "x")] as [(String, String?)] {
            let place = ControlSocketPlace(directory: "/d", display: display, name: name)
            #expect(ControlSocketPlace.parse(fileName: place.fileName, in: "/d") == place, "\(display)")
        }
        for other in [":0.lock", "x.sockets", ".sock", ":0@.sock", "%zz.sock", "%4.sock"] {
            #expect(ControlSocketPlace.parse(fileName: other, in: "/d") == nil, "\(other)")
        }
    }

    @Test func theRuntimeDirectoryMustBeAnAbsolutePath() {
        #expect(ControlSocketPlace.directory(runtimeDirectory: "/run/user/1000/") == "/run/user/1000/pipcam")
        #expect(ControlSocketPlace.directory(runtimeDirectory: nil) == nil)
        #expect(ControlSocketPlace.directory(runtimeDirectory: "") == nil)
        #expect(ControlSocketPlace.directory(runtimeDirectory: "run") == nil)
    }

    @Test func messagesNameTheDisplayAndTheName() {
        #expect(ControlSocketPlace(directory: "/d", display: ":3", name: "cam").described == ":3 (name 'cam')")
    }
}

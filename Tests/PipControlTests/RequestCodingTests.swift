import CameraSource
import PipCore
import Testing
@testable import PipControl

@Suite struct RequestCodingTests {
    static let every: [PipRequest] = [
        .pip(.toggle), .pip(.start), .pip(.stop), .status, .quit,
        .switchSource(.next), .switchSource(.source(.y4m(path: "/tmp/a b:c.y4m"), text: "y4m:/tmp/a b:c.y4m")),
        .switchSource(.source(.camera(path: "/dev/video2"), text: "/dev/video2")),
        .camera(.list), .camera(.set(["brightness=140", "focus_automatic_continuous=off"])), .camera(.reset(nil)), .camera(.reset("gain")),
        .playback(.play), .playback(.pause), .playback(.toggle),
        .playback(.seek(.relative(-10))), .playback(.seek(.relative(2.5e300))), .playback(.seek(.seconds(90.125))),
        .playback(.seek(.frame(Int.max))), .playback(.seek(.seconds(0))),
    ]

    @Test func everyRequestReadsBackAsItself() {
        for request in Self.every {
            #expect(PipRequest(request.encoded) == request, "\(request)")
            #expect(PipRequest.decode(.request(request.encoded)) == .request(request))
        }
    }

    @Test func theWireFormIsLinesWithTheWordFirst() {
        #expect(PipRequest.pip(.toggle).encoded == Array("toggle".utf8))
        #expect(PipRequest.switchSource(.next).encoded == Array("switch\nnext".utf8))
        #expect(PipRequest.playback(.seek(.frame(120))).encoded == Array("seek\nframe\n120".utf8))
        #expect(PipRequest.camera(.set(["a=1", "b=2"])).encoded == Array("set\na=1\nb=2".utf8))
    }

    @Test(arguments: [
        "", "toggle\n", "Toggle", "status\nx", "switch", "switch\nnext\nx", "switch\nsource", "switch\nsource\ny4m:-",
        "switch\nsource\nraw:x:640x:yuyv", "switch\nwhatever\n/dev/video0", "set", "set\nbrightness", "set\n=3", "reset\na\nb",
        "reset\na=1", "seek", "seek\n+10", "seek\nrelative\nnan", "seek\nrelative\ninf", "seek\nseconds\n-1", "seek\nframe\n-3",
        "seek\nframe\n1.5", "seek\nminutes\n3", "play\n", "quit now", "controls\n\n",
    ])
    func garbageIsNoRequest(_ text: String) {
        #expect(PipRequest(Array(text.utf8)) == nil)
        #expect(PipRequest.decode(.request(Array(text.utf8))) == .refused(.failed("pipcam: not a request pipcam knows")))
    }

    @Test func bytesThatAreNotUTF8AreNoRequest() {
        #expect(PipRequest([0xFF, 0xFE]) == nil)
        #expect(PipRequest(Array("toggle".utf8) + [0xC3]) == nil)
    }

    @Test func aRequestTooLongIsRefusedWithTheLimit() {
        #expect(
            PipRequest.decode(.tooLong)
                == .refused(.failed("pipcam: the request is longer than \(ControlWire.requestLimit) bytes, the most pipcam reads")))
    }

    @Test func repliesReadBack() {
        for reply in [PipReply.done(""), .done("{\"state\":\"idle\"}\nsecond line"), .failed("pipcam: cannot switch to x: gone")] {
            #expect(PipReply(reply.encoded) == reply)
        }
        #expect(PipReply.done("x").encoded == Array("done\nx".utf8))
        for garbage in ["", "done", "ok\nx", "switched\n/dev/video0"] { #expect(PipReply(Array(garbage.utf8)) == nil, "\(garbage)") }
    }

    @Test func everyRequestHasItsSubcommandAndEverySubcommandARequest() {
        let verbs = Set(Self.every.map(\.verb))
        #expect(verbs == Set(ControlVerb.allCases))
        #expect(PipRequest.camera(.reset(nil)).verb == .set && PipRequest.playback(.toggle).verb == .play)
    }
}

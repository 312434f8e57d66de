import Foundation
import Testing
import PipCore
@testable import PipWindow

@Suite struct ControlStatusTests {
    let sample = InstanceStatus(
        state: "active", source: "/dev/video0", camera: "streaming", shown: 1234, dropped: 0, fps: 30,
        pip: Rect(x: 1400, y: 780, width: 480, height: 270), main: Rect(x: 100, y: 100, width: 1280, height: 720),
        mainVisible: false)

    @Test func encodesTheDocumentedExampleExactly() {
        #expect(
            sample.json.encoded
                == #"{"state":"active","source":"/dev/video0","camera":"streaming","shown":1234,"dropped":0,"unseen":0,"fps":30.0,"pip":{"x":1400,"y":780,"width":480,"height":270},"main":{"x":100,"y":100,"width":1280,"height":720,"visible":false},"zoom":1.0,"pan":{"x":0.5,"y":0.5},"controls":{},"window_system":"x11","pip_role":"window"}"#
        )
    }

    /// `--share`: a `share` object after `main`, `readers` null when unknown, latency once known.
    @Test func aSharedStreamAddsItsObjectLast() {
        var status = sample
        status.share = SharedStreamStatus(
            device: "/dev/video10", format: "yuyv", width: 1280, height: 720, written: 1300, placeholders: 66, readers: nil,
            latency: nil)
        #expect(status.json.encoded.hasSuffix(
            #","visible":false},"zoom":1.0,"pan":{"x":0.5,"y":0.5},"controls":{},"window_system":"x11","pip_role":"window","share":{"route":"v4l2loopback","device":"/dev/video10","format":"yuyv","width":1280,"height":720,"written":1300,"placeholders":66,"readers":null}}"#))
        status.share?.readers = 2
        status.share?.latency = (0.25, 1.5)
        #expect(status.json.encoded.hasSuffix(#""readers":2,"latency_p50_ms":0.25,"latency_p99_ms":1.5}}"#))
    }

    /// `--share pipewire`: the route, the node's name and its id (null while no daemon has it).
    @Test func aPipeWireShareNamesItsNode() {
        var status = sample
        status.share = SharedStreamStatus(
            route: "pipewire", device: "pipewire:pipcam", node: "pipcam", nodeID: 42, format: "i420", width: 640, height: 360, written: 10, placeholders: 0,
            readers: 1, latency: nil)
        #expect(status.json.encoded.hasSuffix(
            #""share":{"route":"pipewire","device":"pipewire:pipcam","node":"pipcam","node_id":42,"format":"i420","width":640,"height":360,"written":10,"placeholders":0,"readers":1}}"#))
        status.share?.nodeID = nil
        #expect(status.json.encoded.contains(#""node":"pipcam","node_id":null,"#))
    }

    /// A camera in use by another program: who holds it, right after `camera`, when known.
    @Test func aCameraInUseNamesItsHolderAfterTheCamera() {
        var status = sample
        status.camera = "interrupted:in-use"
        status.holder = "firefox, pid 4242"
        #expect(status.json.encoded.hasPrefix(
            #"{"state":"active","source":"/dev/video0","camera":"interrupted:in-use","holder":"firefox, pid 4242","shown":1234,"#))
        #expect(!sample.json.encoded.contains("holder"))
    }

    /// Zoomed in, with a control changed: the framing and the control after `main`.
    @Test func framingAndChangedControlsFollowTheMainWindow() {
        var status = sample
        status.framing = Framing(zoom: 2, centreX: 0.4, centreY: 0.55)
        status.controls = [("brightness", "200"), ("auto_exposure", "Manual Mode")]
        #expect(status.json.encoded.hasSuffix(
            #""visible":false},"zoom":2.0,"pan":{"x":0.4,"y":0.55},"controls":{"brightness":"200","auto_exposure":"Manual Mode"},"window_system":"x11","pip_role":"window"}"#))
    }

    @Test func fieldOrderIsTheContractsOrder() throws {
        let keys = sample.json.encoded.matches(of: /"([a-z]+)":/).map { String($0.output.1) }
        #expect(
            keys == [
                "state", "source", "camera", "shown", "dropped", "unseen", "fps", "pip", "x", "y", "width", "height", "main", "x", "y",
                "width", "height", "visible", "zoom", "pan", "x", "y", "controls",
            ])
    }

    @Test(arguments: [
        ("plain", #""plain""#), ("a\"b", #""a\"b""#), ("back\\slash", #""back\\slash""#), ("line\nbreak", #""line\nbreak""#),
        ("tab\there", #""tab\there""#), ("\u{01}\u{1f}\u{7f}", #""\u0001\u001f\u007f""#), ("é🎥", "\"é🎥\""),
        ("\r\u{08}\u{0C}", #""\r\b\f""#),
    ])
    func stringsAreEscaped(text: String, json: String) {
        #expect(JSONText.string(text).encoded == json)
    }

    @Test func oddSourceNamesStillGiveValidJSON() throws {
        var status = sample
        status.source = "y4m:/tmp/a \"quoted\"\\\n\u{0}name é.y4m"
        let object = try JSONSerialization.jsonObject(with: Data(status.json.encoded.utf8)) as? [String: Any]
        #expect(object?["source"] as? String == status.source)
    }

    @Test(arguments: [
        (30.0, "30.0"), (29.97002997, "29.97"), (0, "0.0"), (-0.0001, "0.0"), (Double.nan, "0.0"), (.infinity, "0.0"),
        (1234.5678, "1234.57"), (0.004, "0.0"), (0.005, "0.01"),
    ])
    func numbersAreRoundedAndAlwaysValid(value: Double, text: String) throws {
        #expect(JSONText.number(value, decimals: 2).encoded == text)
        _ = try JSONSerialization.jsonObject(with: Data("[\(text)]".utf8))
    }

    /// Found by the fuzz-control target (Fuzz/Corpus/control/huge-fps): a value that overflowed to
    /// infinity when scaled for rounding was written `inf`, which is no JSON.
    @Test(arguments: [Double(bitPattern: 0x7f90_0100_5d00_0000), .greatestFiniteMagnitude, -1e307])
    func numbersTooLargeToRoundStayValidJSON(value: Double) throws {
        var status = sample
        status.fps = value
        let object = try JSONSerialization.jsonObject(with: Data(status.json.encoded.utf8)) as? [String: Any]
        #expect((object?["fps"] as? NSNumber)?.doubleValue == value)
    }

    @Test func everyStateAndCameraValueRoundTrips() throws {
        for state in ["idle", "starting", "active", "stopping"] {
            for camera in ["streaming", "waiting", "interrupted:in-use", "interrupted:disconnected", "interrupted:pressure"] {
                var status = sample
                status.state = state
                status.camera = camera
                let object = try #require(
                    try JSONSerialization.jsonObject(with: Data(status.json.encoded.utf8)) as? [String: Any])
                #expect(object["state"] as? String == state && object["camera"] as? String == camera)
            }
        }
    }
}

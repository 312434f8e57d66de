import Foundation
import TestSupport
import Testing

/// `--share pipewire` (docs/BEHAVIOUR.md, "Sharing the camera"): a private daemon and WirePlumber;
/// pipcam publishes a camera node, GStreamer reads it. The node has a camera's class and role,
/// carries the unmirrored picture to several readers at once, placeholders while the camera gives
/// nothing, and goes with pipcam, its readers ending instead of waiting.
@Suite(.serialized, .timeLimit(.minutes(3)), .enabled(if: PrivatePipeWire.isAvailable))
struct PipeWireShareTests {
    /// `pipcam status`'s share block (empty before pipcam answers).
    private func share(_ x: XServer) -> [String: Any] { ((try? x.pipcamStatus().object["share"]) as? [String: Any]) ?? [:] }

    /// The node named `name` in `pw-dump`: its properties.
    private func nodeProperties(_ x: XServer, _ pw: PrivatePipeWire, named name: String) throws -> [String: Any]? {
        let dump = try x.run(["pw-dump"], timeout: .seconds(10))
        let objects = (try? JSONSerialization.jsonObject(with: dump.stdout) as? [[String: Any]]) ?? []
        return objects.lazy.compactMap { ($0["info"] as? [String: Any])?["props"] as? [String: Any] }.first { $0["node.name"] as? String == name }
    }

    /// The test pattern's 75 % bars, in the order they lie left to right (cyclically: they scroll).
    private static let bars: [(Int, Int, Int)] = [
        (191, 191, 191), (191, 191, 0), (0, 191, 191), (0, 191, 0), (191, 0, 191), (191, 0, 0), (0, 0, 191), (0, 0, 0),
    ]

    /// The bars of one RGB row, left to right, each as its index in `bars` (runs of 16 pixels or more).
    private static func barOrder(row: ArraySlice<UInt8>) -> [Int] {
        var order: [Int] = [], run = 0, last = -1
        for x in 0..<(row.count / 3) {
            let i = row.startIndex + 3 * x
            let (r, g, b) = (Int(row[i]), Int(row[i + 1]), Int(row[i + 2]))
            let nearest = bars.indices.min { a, c in
                let (p, q) = (bars[a], bars[c])
                return abs(p.0 - r) + abs(p.1 - g) + abs(p.2 - b) < abs(q.0 - r) + abs(q.1 - g) + abs(q.2 - b)
            }!
            run = nearest == last ? run + 1 : 1
            last = nearest
            if run == 16 && order.last != nearest { order.append(nearest) }
        }
        return order
    }

    @Test func readersGetTheUnmirroredPictureAndEndWithPipcam() throws {
        let x = try makeServer()
        let pw = try PrivatePipeWire(on: x)
        // Mirrored in its window: the call must still get the picture as the camera sees it.
        let pipcam = try x.startPipcam(["--source", "test", "--share", "pipewire", "--mirror", "--pip", "--size", "320x180"], extraEnvironment: pw.environment)
        try waitUntil("the node (stderr: \(pipcam.stderrText))", timeout: .seconds(15)) { share(x)["node_id"] is Int }
        let block = share(x)
        #expect(block["route"] as? String == "pipewire" && block["node"] as? String == "pipcam" && block["device"] as? String == "pipewire:pipcam")
        let properties = try nodeProperties(x, pw, named: "pipcam")
        #expect(properties?["media.class"] as? String == "Video/Source" && properties?["media.role"] as? String == "Camera", "\(properties ?? [:])")
        let (width, height) = (block["width"] as? Int ?? 0, block["height"] as? Int ?? 0)

        // Two readers at once: one counts frames, one keeps 30 of them as RGB.
        let counter = try pw.startReader(of: "pipcam", caps: "video/x-raw")
        let file = "\(x.directory)/share.rgb"
        let keeper = try x.start(
            ["gst-launch-1.0", "-q", "pipewiresrc", "target-object=pipcam", "num-buffers=30", "!", "video/x-raw", "!", "videoconvert", "!",
             "video/x-raw,format=RGB", "!", "filesink", "location=\(file)"], extraEnvironment: pw.environment)
        try waitUntil("two readers linked", timeout: .seconds(15)) { share(x)["readers"] as? Int == 2 }
        let kept = try keeper.wait(timeout: .seconds(30))
        #expect(kept.succeeded, "\(kept)")
        let bytes = [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: file))) ?? Data())
        let frameBytes = width * height * 3
        try #require(frameBytes > 0 && bytes.count >= frameBytes, "\(bytes.count) bytes for \(width)x\(height)")
        let last = bytes.suffix(frameBytes)
        // A row below the box and the frame number: the bars only.
        let rowStart = last.startIndex + (height - 8) * width * 3
        let order = Self.barOrder(row: last[rowStart..<(rowStart + width * 3)])
        #expect(order.count >= 6, "bars found: \(order)")
        for (a, b) in zip(order, order.dropFirst()) {
            #expect(b == (a + 1) % Self.bars.count, "bars out of order (mirrored?): \(order)")
        }
        #expect(counter.frames >= 30 && counter.process.isRunning)

        // pipcam ends: the node goes, and the reader still linked ends instead of waiting.
        let quitAt = ContinuousClock.now
        _ = try x.runPipcam(["quit"])
        _ = try pipcam.wait(timeout: .seconds(10))
        _ = try counter.process.wait(timeout: .seconds(2) - (ContinuousClock.now - quitAt))
        #expect(try nodeProperties(x, pw, named: "pipcam") == nil)
    }

    /// A call app's camera must start every time: readers linking and unlinking 100 times (some
    /// two at once, some to a node the session manager suspended meanwhile) each get the node's
    /// one format once, the same every time, and the node never offers another.
    @Test(.timeLimit(.minutes(4))) func theNodesFormatIsOneAndStableAcrossAHundredLinks() throws {
        let x = try makeServer()
        let pw = try PrivatePipeWire(on: x)
        let pipcam = try x.startPipcam(["--source", "test", "--share", "pipewire"], extraEnvironment: pw.environment)
        try waitUntil("the node (stderr: \(pipcam.stderrText))", timeout: .seconds(15)) { share(x)["node_id"] is Int }
        let node = try #require(share(x)["node_id"] as? Int)
        let offered = try enumFormat(x, node)
        // `-v` prints the caps each time the source's pad gets a format: once per link. At a lower
        // priority: a hundred GStreamer starts must not starve timed tests running beside.
        let read = ["nice", "-n", "10", "gst-launch-1.0", "-v", "pipewiresrc", "target-object=pipcam", "num-buffers=2", "!", "video/x-raw", "!", "fakesink"]
        var formats: [String: Int] = [:]
        func formatsSeen(_ output: String) -> [String] {
            output.split(separator: "\n").filter { $0.contains("GstPipeWireSrc:pipewiresrc0.GstPad:src: caps = ") }
                .map { String($0.split(separator: "caps = ", maxSplits: 1).last ?? "") }
        }
        for link in 1...100 {
            // Every 40th link after a pause longer than WirePlumber's 5 s: to a suspended node.
            if link % 40 == 0 { Thread.sleep(forTimeInterval: 6) }
            let second = link % 10 == 0 ? try x.start(read, extraEnvironment: pw.environment) : nil
            let reader = try IntegrationTests.run(read, environment: x.environment.merging(pw.environment) { $1 }, timeout: .seconds(20))
            #expect(reader.succeeded, "link \(link): \(reader)")
            let seen = formatsSeen(reader.stdoutText)
            #expect(seen.count == 1, "link \(link): the format came \(seen.count) times: \(seen)")
            for format in seen { formats[format, default: 0] += 1 }
            if let second {
                let both = try second.wait(timeout: .seconds(20))
                #expect(both.succeeded && formatsSeen(both.stdoutText).count == 1, "link \(link), the second reader: \(both)")
            }
        }
        #expect(formats.count == 1, "formats the readers got: \(formats)")
        #expect(try enumFormat(x, node) == offered, "the node's offer changed")
        #expect(pipcam.isRunning && pipcam.stderrText.isEmpty, "\(pipcam.stderrText)")
    }

    /// The formats node `id` offers, as `pw-cli enum-params` prints them.
    private func enumFormat(_ x: XServer, _ id: Int) throws -> String {
        let listed = try x.run(["pw-cli", "enum-params", String(id), "EnumFormat"], timeout: .seconds(10))
        #expect(listed.succeeded && listed.stdoutText.contains("Object"), "\(listed)")
        return listed.stdoutText
    }

    /// While the camera is away (its node gone) the readers get dark placeholders at the camera's
    /// rate, and the camera again once it is back.
    @Test func aCameraThatGoesIsReplacedByPlaceholdersUntilItIsBack() throws {
        let x = try makeServer()
        let pw = try PrivatePipeWire(on: x)
        let camera = try pw.publishCamera("cam")
        let pipcam = try x.startPipcam(["--source", "pipewire:cam", "--share", "pipewire:call", "--pip", "--size", "320x180"], extraEnvironment: pw.environment)
        try waitUntil("the node (stderr: \(pipcam.stderrText))", timeout: .seconds(15)) { share(x)["node_id"] is Int }
        let reader = try pw.startReader(of: "call", caps: "video/x-raw,format=YUY2")
        try waitUntil("the reader's frames", timeout: .seconds(15)) { reader.frames >= 10 }
        #expect(share(x)["format"] as? String == "yuyv", "a YUYV camera is shared as it comes")
        _ = camera.terminate(grace: .seconds(2))
        try pw.waitUntilGone("cam")
        try waitUntil("placeholders", timeout: .seconds(10)) { (share(x)["placeholders"] as? Int ?? 0) > 0 }
        let before = reader.frames
        let placeholdersBefore = share(x)["placeholders"] as? Int ?? 0
        Thread.sleep(forTimeInterval: 2)
        let rate = Double(reader.frames - before) / 2
        let placeholders = (share(x)["placeholders"] as? Int ?? 0) - placeholdersBefore
        #expect(rate >= 20 && placeholders >= 40, "\(rate) frames a second while the camera is away, \(placeholders) placeholders")
        try pw.publishCamera("cam")
        let resumed = share(x)["written"] as? Int ?? 0
        try waitUntil("the camera's frames again", timeout: .seconds(10)) {
            let now = share(x)
            return (now["written"] as? Int ?? 0) - resumed >= 30 && (now["placeholders"] as? Int ?? 0) - placeholdersBefore - placeholders < 15
        }
        #expect(pipcam.isRunning && reader.process.isRunning)
    }

    /// The daemon restarting takes the node with it; pipcam publishes it again, and a reader
    /// started then gets frames.
    @Test func theNodeIsPublishedAgainWhenTheDaemonComesBack() throws {
        let x = try makeServer()
        var pw = try PrivatePipeWire(on: x)
        let pipcam = try x.startPipcam(["--source", "test", "--share", "pipewire", "--pip", "--size", "320x180"], extraEnvironment: pw.environment)
        try waitUntil("the node (stderr: \(pipcam.stderrText))", timeout: .seconds(15)) { share(x)["node_id"] is Int }
        try pw.restart()
        try waitUntil("the node again", timeout: .seconds(15)) { try nodeProperties(x, pw, named: "pipcam") != nil }
        let reader = try pw.startReader(of: "pipcam", caps: "video/x-raw")
        try waitUntil("the reader's frames (status: \(share(x)))", timeout: .seconds(15)) { reader.frames >= 10 }
        #expect(pipcam.isRunning && share(x)["node_id"] is Int)
    }

    /// With no camera, the test pattern stands in and the finder looks for one: pipcam's own node
    /// (a Video/Source like any camera) is never taken for it nor switched to, and is listed as
    /// what it is.
    @Test func theSharedNodeIsNeverTakenForTheCamera() throws {
        let x = try makeServer()
        let pw = try PrivatePipeWire(on: x)
        let pipcam = try x.startPipcam(["--share", "pipewire", "--pip", "--size", "320x180"], extraEnvironment: pw.environment)
        try waitUntil("the node (stderr: \(pipcam.stderrText))", timeout: .seconds(15)) { share(x)["node_id"] is Int }
        // The finder looks twice a second: a few looks.
        Thread.sleep(forTimeInterval: 2)
        #expect(try x.pipcamStatus().object["source"] as? String == "test")
        let switched = try x.runPipcam(["switch", "next"])
        #expect(!switched.stdoutText.contains("pipewire:pipcam") && !switched.stderrText.contains("pipewire:pipcam"), "\(switched)")
        #expect(try x.pipcamStatus().object["source"] as? String != "pipewire:pipcam")
        // Listed for what it is: a pipcam's shared picture, which --source takes only by name.
        let listed = try IntegrationTests.run(
            [try Pipcam.binaryPath(), "--list-cameras"], environment: x.environment.merging(pw.environment) { $1 }, timeout: .seconds(10))
        #expect(listed.stdoutText.contains("pipewire:pipcam: pipcam (through PipeWire; the picture a pipcam shares)"), "\(listed.stdoutText)")
    }
}

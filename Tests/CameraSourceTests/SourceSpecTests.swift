import TestSupport
import Testing
@testable import CameraSource

@Suite struct SourceSpecTests {
    func parse(_ text: String) -> Result<SourceSpec, SourceError> {
        do throws(SourceError) { return .success(try SourceSpec.parse(text)) } catch { return .failure(error) }
    }

    func message(_ text: String) -> String? {
        if case .failure(let error) = parse(text) { return error.description }
        return nil
    }

    @Test(arguments: [
        ("/dev/video0", SourceSpec.camera(path: "/dev/video0")),
        ("/dev/v4l/by-id/usb-Cam_123-video-index0", .camera(path: "/dev/v4l/by-id/usb-Cam_123-video-index0")),
        ("test", .test),
        ("y4m:clip.y4m", .y4m(path: "clip.y4m")),
        ("y4m:-", .y4m(path: "-")),
        ("y4m:C:/odd:name.y4m", .y4m(path: "C:/odd:name.y4m")),
        ("y4m:/tmp/a@30.y4m", .y4m(path: "/tmp/a@30.y4m")),
        ("raw:x.yuv:640x360:yuyv", .raw(path: "x.yuv", width: 640, height: 360, format: .yuyv, fps: 30)),
        ("raw:x.yuv:640x360:i420@25", .raw(path: "x.yuv", width: 640, height: 360, format: .i420, fps: 25)),
        ("raw:-:1280x720:nv12@59.94", .raw(path: "-", width: 1280, height: 720, format: .nv12, fps: 59.94)),
        ("raw:a:b:c.raw:1x1:bgra", .raw(path: "a:b:c.raw", width: 1, height: 1, format: .bgra, fps: 30)),
        ("raw:f:16384x4096:rgb24@1000", .raw(path: "f", width: 16384, height: 4096, format: .rgb24, fps: 1000)),
        ("raw:f:2X2:RGB24", .raw(path: "f", width: 2, height: 2, format: .rgb24, fps: 30)),
        ("mjpeg:cam.mjpeg", .mjpeg(path: "cam.mjpeg", fps: 30)),
        ("mjpeg:cam.mjpeg@15", .mjpeg(path: "cam.mjpeg", fps: 15)),
        ("mjpeg:-@.5", .mjpeg(path: "-", fps: 0.5)),
        ("mjpeg:a:b.mjpeg@24", .mjpeg(path: "a:b.mjpeg", fps: 24)),
        ("mjpeg:me@host.mjpeg", .mjpeg(path: "me@host.mjpeg", fps: 30)),
        ("mjpeg:a@2x.mjpeg@30", .mjpeg(path: "a@2x.mjpeg", fps: 30)),
        ("pipewire", .pipewire(node: nil)),
        ("pipewire:Integrated Camera", .pipewire(node: "Integrated Camera")),
        ("pipewire:v4l2_input.pci-0000:00:14.0", .pipewire(node: "v4l2_input.pci-0000:00:14.0")),
    ])
    func validForms(text: String, expected: SourceSpec) {
        #expect(parse(text) == .success(expected))
    }

    @Test func exactMessages() {
        #expect(message("raw:x.yuv:640x:yuyv") == "raw:x.yuv:640x:yuyv: bad size '640x': expected WxH")
        #expect(
            message("foo")
                == "foo: unknown source (expected /dev/videoN, pipewire[:NAME], test, y4m:PATH, raw:PATH:WxH:FMT[@FPS] or mjpeg:PATH[@FPS])")
        #expect(message("pipewire:") == "pipewire:: missing node (expected pipewire:NAME)")
        #expect(
            message("raw:x:640x360:abcd")
                == "raw:x:640x360:abcd: unknown format 'abcd' (expected yuyv, i420, nv12, bgra or rgb24)")
        #expect(message("raw:x:0x360:yuyv") == "raw:x:0x360:yuyv: bad size '0x360': width and height must be 1 to 16384")
        #expect(message("raw:x:16385x1:yuyv") == "raw:x:16385x1:yuyv: bad size '16385x1': width and height must be 1 to 16384")
        #expect(message("raw:x:16384x16384:yuyv") == "raw:x:16384x16384:yuyv: bad size '16384x16384': more than 64 Mpixel")
        #expect(message("raw:x:64x64:yuyv@0") == "raw:x:64x64:yuyv@0: bad frame rate '0': expected a number from 0.01 to 1000")
        #expect(message("raw:x:64x64:yuyv@1001") == "raw:x:64x64:yuyv@1001: bad frame rate '1001': expected a number from 0.01 to 1000")
        // A rate so slow that the pacing's nanoseconds would overflow.
        #expect(message("mjpeg:x@0.0000000001") == "mjpeg:x@0.0000000001: bad frame rate '0.0000000001': expected a number from 0.01 to 1000")
        #expect(message("mjpeg:x@0.009")?.hasSuffix("expected a number from 0.01 to 1000") == true)
        #expect(message("mjpeg:x@0.01") == nil)
        #expect(message("mjpeg:x@30fps") == "mjpeg:x@30fps: bad frame rate '30fps': expected a number from 0.01 to 1000")
        #expect(message("y4m:") == "y4m:: missing path (expected y4m:PATH)")
        #expect(message("mjpeg:@30") == "mjpeg:@30: missing path (expected mjpeg:PATH[@FPS])")
        #expect(message("raw::64x64:yuyv") == "raw::64x64:yuyv: missing path (expected raw:PATH:WxH:FMT[@FPS])")
        #expect(message("raw:x.yuv") == "raw:x.yuv: expected raw:PATH:WxH:FMT[@FPS]")
        #expect(message("") == "--source: empty (expected \(SourceSpec.forms))")
    }

    @Test(arguments: [
        "/dev/", "/dev", "dev/video0", "Test", "tests", "raw:x:64x64:mjpeg", "raw:x:64x64:i422", "raw:x:64x64:",
        "raw:x:64:yuyv", "raw:x:x64:yuyv", "raw:x:64x64x2:yuyv", "raw:x:-64x64:yuyv", "raw:x:+64x64:yuyv",
        "raw:x:64x64:yuyv@", "raw:x:64x64:yuyv@nan", "raw:x:64x64:yuyv@inf", "raw:x:64x64:yuyv@1e2",
        "raw:x:64x64:yuyv@-5", "raw:x:64x64:yuyv@1.2.3", "raw:x:64x64:yuyv@.", "raw:x:9999999999x1:yuyv",
        "raw:x:١٢x34:yuyv", "mjpeg:x@0", "mjpeg:x@0.0", "mjpeg:x@1000.5", "mjpeg:", "y4m", "mjpeg", "raw",
        "v4l2:/dev/video0", " test", "mjpeg:x@-5", "mjpeg:x@+5", "mjpeg:x@",
    ])
    func rejected(text: String) {
        guard case .failure(let error) = parse(text) else {
            Issue.record("\(text) parsed")
            return
        }
        guard case .badInput(let thing, let reason) = error else {
            Issue.record("\(text): not badInput")
            return
        }
        #expect(thing == (text.isEmpty ? "--source" : text))
        #expect(!reason.isEmpty && !reason.contains("\n"))
    }

    @Test func descriptionRoundTrips() throws {
        for text in ["/dev/video2", "test", "y4m:a:b", "raw:p:q:2x3:nv12@12.5", "mjpeg:m@7", "raw:-:8x8:bgra"] {
            let spec = try SourceSpec.parse(text)
            #expect(try SourceSpec.parse(spec.description) == spec)
        }
        #expect(SourceSpec.raw(path: "x", width: 4, height: 2, format: .i420, fps: 30).description == "raw:x:4x2:i420@30")
    }

    /// U+0605 joins the character after it into one grapheme: a separator right after it is still
    /// one (found by the fuzzer: `mjpeg:a@V\u{605}` printed back as a spec with another path).
    @Test func aCharacterThatPrependsItselfHidesNoSeparator() throws {
        let mark = "\u{605}"
        let mjpeg = try SourceSpec.parse("mjpeg:xuv:2L90@V\u{FFFD}8" + mark)
        #expect(mjpeg == .mjpeg(path: "xuv:2L90@V\u{FFFD}8" + mark, fps: 30))
        #expect(try SourceSpec.parse(mjpeg.description) == mjpeg)
        #expect(try SourceSpec.parse("mjpeg:a" + mark + "@12") == .mjpeg(path: "a" + mark, fps: 12))
        let raw = try SourceSpec.parse("raw:p" + mark + ":2x2:yuyv@5")
        #expect(raw == .raw(path: "p" + mark, width: 2, height: 2, format: .yuyv, fps: 5))
        #expect(try SourceSpec.parse(raw.description) == raw)
    }

    @Test func isFileAndMakeSource() throws {
        #expect(!SourceSpec.camera(path: "/dev/video0").isFile)
        #expect(!SourceSpec.test.isFile)
        #expect(SourceSpec.y4m(path: "x").isFile)
        #expect(SourceSpec.camera(path: "/dev/video0").makeSource() == nil)
        #expect(SourceSpec.test.makeSource() is TestPatternSource)
        #expect(SourceSpec.y4m(path: "-").makeSource()?.name == "stdin")
        let raw = try #require(SourceSpec.parse("raw:f:8x4:nv12@10").makeSource() as? RawSource)
        #expect(raw.format == .nv12 && raw.name == "f")
        #expect(SourceSpec.mjpeg(path: "m", fps: 5).makeSource() is MJPEGSource)
    }

    @Test func fuzzNeverCrashes() {
        var rng = SplitMix(seed: 42)
        let pieces = [
            "raw:", "y4m:", "mjpeg:", "/dev/", "test", ":", "::", "@", "x", "X", "640", "360", "0", "1.5", ".", "-",
            "yuyv", "i420", "nv12", "bgra", "rgb24", "mjpeg", "é", "🎥", " ", "\n", "\0", "99999999999999", "@@", "1e9",
        ]
        let valid = ["raw:x.yuv:640x360:yuyv@30", "mjpeg:cam.mjpeg@15", "y4m:-", "/dev/video0", "test"]
        var parsed = 0, rejected = 0
        for round in 0..<6000 {
            var text: String
            if round % 2 == 0 {
                text = (0..<Int.random(in: 0...8, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            } else {
                var chars = Array(valid.randomElement(using: &rng)!.unicodeScalars)
                for _ in 0..<Int.random(in: 1...4, using: &rng) {
                    let scalar = Unicode.Scalar(UInt8.random(in: 0...127, using: &rng))
                    switch Int.random(in: 0..<3, using: &rng) {
                    case 0 where !chars.isEmpty: chars.remove(at: Int.random(in: 0..<chars.count, using: &rng))
                    case 1: chars.insert(scalar, at: Int.random(in: 0...chars.count, using: &rng))
                    default: if !chars.isEmpty { chars[Int.random(in: 0..<chars.count, using: &rng)] = scalar }
                    }
                }
                text = String(String.UnicodeScalarView(chars))
            }
            switch parse(text) {
            case .success(let spec):
                parsed += 1
                if case .raw(_, let w, let h, _, let fps) = spec {
                    #expect((1...16384).contains(w) && (1...16384).contains(h) && fps > 0 && fps <= 1000)
                }
            case .failure(let error):
                rejected += 1
                guard case .badInput(_, let reason) = error else {
                    Issue.record("\(text): \(error)")
                    continue
                }
                #expect(!reason.isEmpty)
            }
        }
        #expect(parsed > 100 && rejected > 100)
    }

    /// `pipcam switch SPEC` as the running instance gets it: a relative file path made absolute
    /// (the instance runs elsewhere), everything else as typed; standard input refused.
    @Test func switchSpecsGetAbsolutePaths() throws {
        #expect(try SourceSpec.forSwitch("y4m:clip.y4m", directory: "/home/u") == "y4m:/home/u/clip.y4m")
        #expect(try SourceSpec.forSwitch("mjpeg:a/b.mjpeg@15", directory: "/w/") == "mjpeg:/w/a/b.mjpeg@15")
        #expect(try SourceSpec.forSwitch("raw:x.yuv:64x48:i420", directory: "/d") == "raw:/d/x.yuv:64x48:i420@30")
        for asTyped in ["y4m:/abs/clip.y4m", "test", "/dev/video2", "/dev/v4l/by-id/usb-x-video-index0", "mjpeg:/a.mjpeg"] {
            #expect(try SourceSpec.forSwitch(asTyped, directory: "/d") == asTyped)
        }
        for stdin in ["y4m:-", "mjpeg:-@10", "raw:-:8x8:yuyv"] {
            let error = sourceError { _ = try SourceSpec.forSwitch(stdin, directory: "/d") }
            #expect(error?.description == "\(stdin): standard input can only be read as --source" && error?.exitCode == 2)
        }
        #expect(sourceError { _ = try SourceSpec.forSwitch("bogus", directory: "/d") }?.exitCode == 2)
    }
}

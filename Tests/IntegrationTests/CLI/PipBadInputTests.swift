import Foundation
import TestSupport
import Testing

/// Input pipcam must refuse with exit 2 and one `pipcam: …` line naming the culprit.
enum BadInput: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case noDisplay, unknownSource, missingFile, badY4MHeader, truncatedY4M, mjpegNotJPEG,
        unknownRawFormat, badSize, sizeOutOfRange, negativeSize, badRotate, badCorner, rotateOutOfRange, negativeRotate, negativeFrames, newlineInPath, tinyRate,
        shareNotLoopback, shareMissingDevice, badShareSize, badAutoPip, badShape, badHotkey, badWid, negativePan

    var testDescription: String { rawValue }

    /// The `pipcam` arguments (files made in `directory`).
    func arguments(directory: String) throws -> [String] {
        func write(_ name: String, _ data: Data) throws -> String {
            let path = "\(directory)/\(name)"
            try data.write(to: URL(fileURLWithPath: path))
            return path
        }
        switch self {
        case .noDisplay: return ["--pip", "--source", "test"]
        case .unknownSource: return ["--pip", "--source", "nope"]
        case .missingFile: return ["--pip", "--source", "y4m:\(directory)/missing-clip.y4m"]
        case .badY4MHeader:
            // 'W' with no number where the width should be.
            var data = Data("YUV4MPEG2 Wabc H36 F30:1 C420jpeg\nFRAME\n".utf8)
            data.append(Data(repeating: 128, count: 64 * 36 * 3 / 2))
            return ["--pip", "--source", "y4m:" + (try write("bad-header.y4m", data))]
        case .truncatedY4M:
            // A valid header, then a first frame cut off after 1000 of its 3456 bytes.
            var data = Data("YUV4MPEG2 W64 H36 F30:1 C420jpeg\nFRAME\n".utf8)
            data.append(Data(repeating: 128, count: 1000))
            return ["--pip", "--source", "y4m:" + (try write("truncated.y4m", data))]
        case .mjpegNotJPEG:
            let text = String(repeating: "this is a text file, not a JPEG stream\n", count: 100)
            return ["--pip", "--source", "mjpeg:" + (try write("not-a-jpeg.mjpeg", Data(text.utf8)))]
        case .unknownRawFormat:
            let path = try write("frames.raw", Data(repeating: 0, count: 640 * 360 * 2))
            return ["--pip", "--source", "raw:\(path):640x360:abcd"]
        case .badSize: return ["--pip", "--source", "test", "--size", "10"]
        case .sizeOutOfRange: return ["--pip", "--source", "test", "--size", "15x15"]
        case .negativeSize: return ["--pip", "--source", "test", "--size", "-480x270"]
        case .badRotate: return ["--pip", "--source", "test", "--rotate", "45"]
        case .badCorner: return ["--pip", "--source", "test", "--corner", "middle"]
        case .rotateOutOfRange: return ["--pip", "--source", "test", "--rotate", "450"]
        case .negativeRotate: return ["--pip", "--source", "test", "--rotate", "-90"]
        case .negativeFrames: return ["--pip", "--source", "test", "--frames", "-1"]
        case .newlineInPath: return ["--pip", "--source", "y4m:\(directory)/first\nsecond.y4m"]
        case .tinyRate: return ["--pip", "--source", "mjpeg:\(directory)/clip.mjpeg@0.0000000001"]
        // The camera (here the test source) is started first and let go again.
        case .shareNotLoopback: return ["--pip", "--source", "test", "--share", "/dev/null"]
        case .shareMissingDevice: return ["--pip", "--source", "test", "--share", "\(directory)/video99"]
        case .badShareSize: return ["--pip", "--source", "test", "--share", "--share-size", "1280"]
        case .badAutoPip: return ["--source", "test", "--auto-pip", "sometimes"]
        case .badShape: return ["--pip", "--source", "test", "--shape", "oval"]
        case .badHotkey: return ["--pip", "--source", "test", "--hotkey", "super+"]
        case .badWid: return ["--source", "test", "--wid", "0xZZ"]
        case .negativePan: return ["--pip", "--source", "test", "--pan", "-0.1,0.5"]
        }
    }

    /// What the error line must name (case-insensitive).
    var named: String {
        switch self {
        case .noDisplay: "display"
        case .unknownSource: "nope"
        case .missingFile: "missing-clip.y4m"
        case .badY4MHeader: "bad-header.y4m"
        case .truncatedY4M: "truncated.y4m"
        case .mjpegNotJPEG: "not-a-jpeg.mjpeg"
        case .unknownRawFormat: "abcd"
        case .badSize: "size"
        case .sizeOutOfRange: "--size: 15x15: width and height must be 16 to 16384"
        case .negativeSize: "--size: -480x270: width and height"
        case .badRotate: "45"
        case .badCorner: "middle"
        case .rotateOutOfRange: "450"
        case .negativeRotate: "--rotate: -90"
        case .negativeFrames: "--frames: -1"
        case .newlineInPath: "first?second.y4m"
        case .tinyRate: "0.0000000001"
        case .shareNotLoopback: "/dev/null: not a v4l2loopback output device"
        case .shareMissingDevice: "video99: no such device"
        case .badShareSize: "--share-size: bad size '1280'"
        case .badAutoPip: "--auto-pip: unknown value 'sometimes'"
        case .badShape: "--shape: unknown shape 'oval'"
        case .badHotkey: "--hotkey: bad key 'super+'"
        case .badWid: "--wid: '0xZZ' is not a window id"
        case .negativePan: "--pan: '-0.1,0.5' is not X,Y with each from 0 to 1"
        }
    }
}

extension PipTests {
    @Suite struct BadInputs {
        @Test(arguments: BadInput.allCases)
        func refusedWithExitTwoAndOneLine(_ input: BadInput) throws {
            let directory = try Scratch.makeDirectory("bad-input")
            let arguments = try input.arguments(directory: directory)
            let result: ProcessResult
            var mapped: [String] = []
            if input == .noDisplay {
                var environment = ProcessInfo.processInfo.environment
                environment["DISPLAY"] = nil
                environment["WAYLAND_DISPLAY"] = nil
                result = try run([Pipcam.binaryPath()] + arguments, environment: environment, timeout: .seconds(10))
            } else {
                let x = try makeServer()
                (mapped, result) = try x.watchingForMappedWindows {
                    try x.runPipcam(arguments, timeout: .seconds(10))
                }
                #expect(try x.windows(className: PipIdentity.instance).isEmpty, "a pipcam window exists after the error")
            }

            #expect(result.exitCode == 2, "\(result)")
            #expect(result.stdout.isEmpty, "stdout: \(result.stdoutText)")
            let errorLines = result.stderrText.split(separator: "\n", omittingEmptySubsequences: false)
            // Exactly one line, newline-terminated.
            #expect(errorLines.count == 2 && errorLines[1].isEmpty, "expected exactly one stderr line, got:\n\(result.stderrText)")
            let line = String(errorLines.first ?? "")
            #expect(line.hasPrefix("pipcam: "), "\(line)")
            #expect(line.lowercased().contains(input.named.lowercased()), "'\(line)' does not name '\(input.named)'")
            #expect(mapped.isEmpty, "a window was mapped: \(mapped)")
        }
    }
}

import Foundation

/// jpegtran(1), for JPEGs with restart markers (libjpeg-turbo's TurboJPEG 2 API cannot write them).
public enum JPEGTran {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// `jpeg` rewritten with a restart marker every `interval` ("2": MCU rows, "3B": MCUs), losslessly.
    public static func withRestarts(_ jpeg: [UInt8], every interval: String) throws -> [UInt8] {
        let directory = try Scratch.makeDirectory("jpegtran")
        let input = directory + "/plain.jpg", output = directory + "/restarted.jpg"
        try Data(jpeg).write(to: URL(fileURLWithPath: input))
        let jpegtran = Process()
        jpegtran.executableURL = URL(fileURLWithPath: "/usr/bin/jpegtran")
        jpegtran.arguments = ["-restart", interval, "-outfile", output, input]
        try jpegtran.run()
        jpegtran.waitUntilExit()
        guard jpegtran.terminationStatus == 0 else { throw Failure(description: "jpegtran failed (\(jpegtran.terminationStatus))") }
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
    }
}

import PipCore

/// Where frames come from, as given to `--source`.
public enum SourceSpec: Sendable, Hashable, CustomStringConvertible {
    /// A V4L2 capture device (any path under `/dev/`).
    case camera(path: String)
    /// The built-in moving test pattern.
    case test
    /// A YUV4MPEG2 file (`-`: standard input).
    case y4m(path: String)
    /// Headerless frames of a given size and format (`-`: standard input).
    case raw(path: String, width: Int, height: Int, format: PixelFormat, fps: Double)
    /// Concatenated JPEGs (`-`: standard input).
    case mjpeg(path: String, fps: Double)
    /// A camera through PipeWire: the node named so (its name, serial, description or nick), or
    /// the first camera node (nil).
    case pipewire(node: String?)

    /// Frame rate of raw and MJPEG files when the spec gives none.
    public static let defaultFPS = 30.0
    /// Formats `raw:` accepts, in the order messages list them.
    public static let rawFormats: [PixelFormat] = [.yuyv, .i420, .nv12, .bgra, .rgb24]
    /// The accepted forms, for messages and help.
    public static let forms = "/dev/videoN, pipewire[:NAME], test, y4m:PATH, raw:PATH:WxH:FMT[@FPS] or mjpeg:PATH[@FPS]"

    /// Parses a `--source` value. Errors are `SourceError.badInput` naming the spec and the cause,
    /// e.g. `raw:x.yuv:640x:yuyv: bad size '640x': expected WxH`.
    ///
    /// Paths may contain ':'. For `mjpeg:` a trailing `@` followed by a digit or '.' starts the
    /// frame rate (write `mjpeg:a@2x.mjpeg@30` for a path that itself looks like that); `raw:` is
    /// parsed from the right, so only the last two ':' separate the size and format.
    public static func parse(_ text: String) throws(SourceError) -> SourceSpec {
        func bad(_ reason: String) -> SourceError { .badInput(thing: text, reason: reason) }
        if text.isEmpty { throw SourceError.badInput(thing: "--source", reason: "empty (expected \(forms))") }
        if text.hasPrefix("/dev/") && text.count > 5 { return .camera(path: text) }
        if text == "test" { return .test }
        if text == "pipewire" { return .pipewire(node: nil) }
        if text.hasPrefix("pipewire:") {
            let node = String(text.dropFirst(9))
            guard !node.isEmpty else { throw bad("missing node (expected pipewire:NAME)") }
            return .pipewire(node: node)
        }
        if text.hasPrefix("y4m:") {
            let path = String(text.dropFirst(4))
            guard !path.isEmpty else { throw bad("missing path (expected y4m:PATH)") }
            return .y4m(path: path)
        }
        if text.hasPrefix("mjpeg:") {
            var path = Substring(text.dropFirst(6))
            var fps = defaultFPS
            // '@' may be part of a path; it starts a rate when a number (or a sign) follows, or nothing.
            if let (before, rate) = split(path, atLast: "@") {
                if rate.first.map({ $0.isASCII && ($0.isNumber || "+-.".contains($0)) }) ?? true {
                    fps = try parseFPS(rate, bad)
                    path = before
                }
            }
            guard !path.isEmpty else { throw bad("missing path (expected mjpeg:PATH[@FPS])") }
            return .mjpeg(path: String(path), fps: fps)
        }
        if text.hasPrefix("raw:") {
            let rest = Substring(text.dropFirst(4))
            guard let (beforeFormat, formatAndRate) = split(rest, atLast: ":"),
                let (path, sizeText) = split(beforeFormat, atLast: ":")
            else { throw bad("expected raw:PATH:WxH:FMT[@FPS]") }
            var formatText = formatAndRate
            var fps = defaultFPS
            if let (format, rate) = split(formatText, atLast: "@") {
                fps = try parseFPS(rate, bad)
                formatText = format
            }
            guard !path.isEmpty else { throw bad("missing path (expected raw:PATH:WxH:FMT[@FPS])") }
            let (width, height) = try parseSize(sizeText, bad)
            guard let format = PixelFormat(rawValue: formatText.lowercased()), rawFormats.contains(format) else {
                throw bad("unknown format '\(formatText)' (expected yuyv, i420, nv12, bgra or rgb24)")
            }
            return .raw(path: String(path), width: width, height: height, format: format, fps: fps)
        }
        throw bad("unknown source (expected \(forms))")
    }

    /// `WxH` with each side 1…16384 and at most 64 Mpixel.
    static func parseSize(_ text: Substring, _ bad: (String) -> SourceError) throws(SourceError) -> (Int, Int) {
        guard let x = text.firstIndex(where: { $0 == "x" || $0 == "X" }),
            let width = digits(text[..<x]), let height = digits(text[text.index(after: x)...])
        else { throw bad("bad size '\(text)': expected WxH") }
        guard (1...FrameLimits.maxSide).contains(width), (1...FrameLimits.maxSide).contains(height) else {
            throw bad("bad size '\(text)': width and height must be 1 to \(FrameLimits.maxSide)")
        }
        guard width * height <= FrameLimits.maxPixels else { throw bad("bad size '\(text)': more than 64 Mpixel") }
        return (width, height)
    }

    /// `text` before and after its last `separator`, looked for among its Unicode scalars: a
    /// character that joins the next one into its grapheme (U+0605 prepends itself) must not hide
    /// a separator, or a spec would print back as one that parses differently.
    private static func split(_ text: Substring, atLast separator: Unicode.Scalar) -> (Substring, Substring)? {
        let scalars = text.unicodeScalars
        guard let i = scalars.lastIndex(of: separator) else { return nil }
        return (Substring(scalars[..<i]), Substring(scalars[scalars.index(after: i)...]))
    }

    /// A plain decimal number (digits, at most one '.') from 0.01 to 1000.
    static func parseFPS(_ text: Substring, _ bad: (String) -> SourceError) throws(SourceError) -> Double {
        let plain = !text.isEmpty && text.count <= 16 && text.filter { $0 == "." }.count <= 1
            && text.allSatisfy { $0 == "." || ($0.isASCII && $0.isNumber) } && text != "."
        guard plain, let fps = Double(text), fps >= 0.01, fps <= 1000 else {
            throw bad("bad frame rate '\(text)': expected a number from 0.01 to 1000")
        }
        return fps
    }

    /// Up to 9 ASCII digits as an Int.
    private static func digits(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 9, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }

    /// Whether frames come from a file or pipe (played once, not mirrored).
    public var isFile: Bool {
        switch self {
        case .camera, .test, .pipewire: return false
        case .y4m, .raw, .mjpeg: return true
        }
    }

    /// The spec in the form `parse` accepts, with the frame rate spelled out.
    public var description: String {
        switch self {
        case .camera(let path): return path
        case .test: return "test"
        case .pipewire(let node): return node.map { "pipewire:\($0)" } ?? "pipewire"
        case .y4m(let path): return "y4m:\(path)"
        case .raw(let path, let w, let h, let format, let fps): return "raw:\(path):\(w)x\(h):\(format)@\(Self.format(fps))"
        case .mjpeg(let path, let fps): return "mjpeg:\(path)@\(Self.format(fps))"
        }
    }

    private static func format(_ fps: Double) -> String {
        fps == fps.rounded() ? String(Int(fps)) : String(fps)
    }

    /// A source for this spec, not started yet; nil for `.camera`, which the V4L2 module opens.
    public func makeSource(request: SourceRequest = SourceRequest()) -> (any FrameSource)? {
        switch self {
        case .camera: return nil
        case .pipewire(let node): return PipeWireCamera(node: node, request: request)
        case .test: return TestPatternSource()
        case .y4m(let path): return Y4MSource(path: path, request: request)
        case .raw(let path, let w, let h, let format, let fps):
            return RawSource(path: path, width: w, height: h, format: format, fps: fps, request: request)
        case .mjpeg(let path, let fps): return MJPEGSource(path: path, fps: fps, request: request)
        }
    }
}

extension SourceSpec {
    /// The V4L2 device a camera opened directly is (nil for everything else).
    public var devicePath: String? {
        if case .camera(let path) = self { return path }
        return nil
    }

    /// Whether frames come from standard input (`PATH` `-`), which only `--source` can read.
    public var readsStandardInput: Bool { path == "-" }

    /// The file's path (nil for a camera or the test pattern).
    public var path: String? {
        switch self {
        case .camera, .test, .pipewire: return nil
        case .y4m(let path), .raw(let path, _, _, _, _), .mjpeg(let path, _): return path
        }
    }

    /// The spec with a relative file path made absolute against `directory`.
    public func absolute(in directory: String) -> SourceSpec {
        guard let path, !path.hasPrefix("/"), path != "-" else { return self }
        let full = (directory.hasSuffix("/") ? directory : directory + "/") + path
        switch self {
        case .camera, .test, .pipewire: return self
        case .y4m: return .y4m(path: full)
        case .raw(_, let w, let h, let format, let fps): return .raw(path: full, width: w, height: h, format: format, fps: fps)
        case .mjpeg(_, let fps): return .mjpeg(path: full, fps: fps)
        }
    }

    /// `pipcam switch TEXT` as the running instance gets it, which runs in another directory: the
    /// text itself when it names no relative path, else the spec with its path made absolute
    /// against `directory`. Throws what `parse` throws, and for standard input.
    public static func forSwitch(_ text: String, directory: String) throws(SourceError) -> String {
        let spec = try parse(text)
        if spec.readsStandardInput {
            throw SourceError.badInput(thing: text, reason: "standard input can only be read as --source")
        }
        let absolute = spec.absolute(in: directory)
        return absolute == spec ? text : absolute.description
    }
}

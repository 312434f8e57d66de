#if canImport(Glibc)
import Glibc
#endif

/// A capture device node and what it can do, for `pipcam --list-cameras` and the default source.
public struct CameraDescription: Sendable, Equatable {
    public var path: String
    public var card: String
    public var driver: String
    public var busInfo: String
    public var formats: [Format]

    /// One pixel format and the sizes and rates the camera offers in it.
    public struct Format: Sendable, Equatable {
        public var fourcc: FourCC
        public var description: String
        public var isEmulated: Bool
        public var sizes: [Size]
        /// For drivers that take any size in a range: the range (then `sizes` holds its largest size).
        public var sizeRange: (min: V4L2Size, max: V4L2Size, step: V4L2Size)?

        public init(fourcc: FourCC, description: String, isEmulated: Bool = false, sizes: [Size],
                    sizeRange: (min: V4L2Size, max: V4L2Size, step: V4L2Size)? = nil) {
            self.fourcc = fourcc
            self.description = description
            self.isEmulated = isEmulated
            self.sizes = sizes
            self.sizeRange = sizeRange
        }

        public static func == (a: Format, b: Format) -> Bool {
            a.fourcc == b.fourcc && a.description == b.description && a.isEmulated == b.isEmulated
                && a.sizes == b.sizes && a.sizeRange?.min == b.sizeRange?.min
                && a.sizeRange?.max == b.sizeRange?.max && a.sizeRange?.step == b.sizeRange?.step
        }
    }

    /// One frame size and its frame intervals.
    public struct Size: Sendable, Equatable {
        public var size: V4L2Size
        public var intervals: V4L2FrameIntervals
        public init(size: V4L2Size, intervals: V4L2FrameIntervals) {
            self.size = size
            self.intervals = intervals
        }
    }

    public init(path: String, card: String, driver: String, busInfo: String = "", formats: [Format]) {
        self.path = path
        self.card = card
        self.driver = driver
        self.busInfo = busInfo
        self.formats = formats
    }
}

/// Finds V4L2 capture cameras: `/dev/video*` nodes (in numeric order) whose node can capture video.
///
/// Metadata and output nodes (a UVC camera has both a capture and a metadata node) are skipped,
/// as are nodes that cannot be opened.
public struct CameraDiscovery {
    /// Lists candidate node paths; `CameraDiscovery.videoNodePaths()` by default.
    public var nodePaths: () -> [String]
    public var openDevice: V4L2DeviceOpener

    public init(
        nodePaths: @escaping () -> [String] = CameraDiscovery.videoNodePaths,
        openDevice: @escaping V4L2DeviceOpener = LibV4L2Device.open(path:)
    ) {
        self.nodePaths = nodePaths
        self.openDevice = openDevice
    }

    /// Every capture camera with its formats, sizes and rates.
    public func cameras() -> [CameraDescription] {
        nodePaths().compactMap { path in
            guard let dev = try? openDevice(path) else { return nil }
            defer { dev.close() }
            return describe(dev, path: path)
        }
    }

    /// The first node that can capture and stream video by itself, without enumerating its modes;
    /// none of `excluded`. A real camera comes before a virtual one (v4l2loopback, which another
    /// program — or pipcam's own `--share` — writes).
    public func firstCaptureCameraPath(excluding excluded: Set<String> = []) -> String? {
        var loopback: String?
        for path in nodePaths() where !excluded.contains(path) {
            guard let isLoopback = captureKind(path) else { continue }
            if !isLoopback { return path }
            loopback = loopback ?? path
        }
        return loopback
    }

    /// Every node that can capture and stream video by itself, none of `excluded`: real cameras
    /// in node order, then virtual ones (`pipcam switch next` cycles through them).
    public func captureCameraPaths(excluding excluded: Set<String> = []) -> [String] {
        var real: [String] = [], loopback: [String] = []
        for path in nodePaths() where !excluded.contains(path) {
            guard let isLoopback = captureKind(path) else { continue }
            if isLoopback { loopback.append(path) } else { real.append(path) }
        }
        return real + loopback
    }

    /// Whether `path` is a virtual camera, when it can capture and stream; nil when it cannot.
    private func captureKind(_ path: String) -> Bool? {
        guard let dev = try? openDevice(path) else { return nil }
        defer { dev.close() }
        guard let caps = try? dev.queryCapabilities(), caps.canCapture && caps.canStream && !caps.isMediaControlled else { return nil }
        return caps.isLoopback
    }

    private func describe(_ dev: any V4L2Device, path: String) -> CameraDescription? {
        guard let caps = try? dev.queryCapabilities(), caps.canCapture else { return nil }
        let formats = (try? dev.enumerateFormats()) ?? []
        return CameraDescription(
            path: path, card: caps.card, driver: caps.driver, busInfo: caps.busInfo,
            formats: formats.map { describe(dev, format: $0) })
    }

    private func describe(_ dev: any V4L2Device, format: V4L2FormatDescription) -> CameraDescription.Format {
        func size(_ s: V4L2Size) -> CameraDescription.Size {
            CameraDescription.Size(size: s, intervals: (try? dev.enumerateFrameIntervals(format.fourcc, size: s)) ?? .unknown)
        }
        var result = CameraDescription.Format(
            fourcc: format.fourcc, description: format.description, isEmulated: format.isEmulated, sizes: [])
        switch (try? dev.enumerateFrameSizes(format.fourcc)) ?? .unknown {
        case .discrete(let list): result.sizes = list.map(size)
        case .stepwise(let lo, let hi, let step):
            result.sizeRange = (lo, hi, step)
            result.sizes = [size(hi)]
        case .unknown: break
        }
        return result
    }

    /// `/dev/video<N>` paths that exist, sorted by N (`video2` before `video10`).
    public static func videoNodePaths() -> [String] {
        guard let dir = opendir("/dev") else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            names.append(withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
            })
        }
        return videoNodePaths(names: names)
    }

    /// The `/dev/video<N>` paths among directory entry names, sorted by N.
    public static func videoNodePaths(names: [String]) -> [String] {
        var numbered: [(Int, String)] = []
        for name in names where name.hasPrefix("video") {
            let digits = name.dropFirst(5)
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(digits) else { continue }
            numbered.append((n, "/dev/" + name))
        }
        return numbered.sorted { $0.0 < $1.0 }.map(\.1)
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// A name for one camera that stays the same across unplugging, reboots and other cameras coming
/// and going, safe as a file name: what its settings are remembered under. Never `/dev/videoN`,
/// whose number depends on the order devices appeared in.
public struct CameraIdentity: Sendable, Hashable, CustomStringConvertible {
    public let key: String

    /// `key` when it is already a safe file name (letters, digits, `.`, `_`, `-`, `+`, `@`, not
    /// starting with `.`, at most `longest` characters); nil otherwise.
    public init?(key: String) {
        guard !key.isEmpty, key.utf8.count <= Self.longest, !key.hasPrefix("."),
            key.utf8.allSatisfy(Self.isSafe)
        else { return nil }
        self.key = key
    }

    private init(sanitising text: String) {
        var bytes = Array(text.utf8.prefix(Self.longest)).map { Self.isSafe($0) ? $0 : UInt8(ascii: "_") }
        if bytes.first == UInt8(ascii: ".") { bytes[0] = UInt8(ascii: "_") }
        key = String(decoding: bytes, as: UTF8.self)
    }

    public var description: String { key }

    /// Characters kept in a key.
    static let longest = 200

    private static func isSafe(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "._-+@".utf8.contains(byte)
        }
    }

    /// A link in `/dev/v4l/by-id` or `/dev/v4l/by-path`: its name and the device it resolves to.
    public struct Link: Sendable, Equatable {
        public var name: String
        public var target: String
        public init(name: String, target: String) {
            self.name = name
            self.target = target
        }
    }

    /// The identity of the device node `device` (its real path): the name of the by-id link to it
    /// (`usb-Logitech_C920_ABCD1234-video-index0`: model and serial number, wherever it is
    /// plugged), else of the by-path link (`platform-vivid.0-video-index0`: the port), else the
    /// driver's card name and bus (`vivid@platform_vivid-000`). Nil when nothing names it.
    public static func of(
        device: String, byID: [Link], byPath: [Link], capabilities: V4L2Capabilities?
    ) -> CameraIdentity? {
        for links in [byID, byPath] {
            let names = links.filter { $0.target == device && !$0.name.isEmpty && !$0.name.hasPrefix(".") }.map(\.name)
            if let name = names.min() { return CameraIdentity(sanitising: name) }
        }
        guard let caps = capabilities, !caps.card.isEmpty else { return nil }
        let card = CameraIdentity(sanitising: caps.card).key
        return CameraIdentity(sanitising: caps.busInfo.isEmpty ? card : card + "@" + CameraIdentity(sanitising: caps.busInfo).key)
    }

    /// Where the links are looked for.
    public static let linkDirectories = (byID: "/dev/v4l/by-id", byPath: "/dev/v4l/by-path")

    /// The identity of the camera at `path` (any name of its node) from the links in
    /// `directories` as they are now; `capabilities` for a camera without links.
    public static func find(
        for path: String, capabilities: V4L2Capabilities?,
        directories: (byID: String, byPath: String) = linkDirectories
    ) -> CameraIdentity? {
        guard let device = DevicePath.real(path) else {
            return of(device: path, byID: [], byPath: [], capabilities: capabilities)
        }
        return of(device: device, byID: links(in: directories.byID), byPath: links(in: directories.byPath), capabilities: capabilities)
    }

    /// Every entry of `directory` with the path it resolves to (those that resolve).
    static func links(in directory: String) -> [Link] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var links: [Link] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard !name.hasPrefix("."), let target = DevicePath.real(directory + "/" + name) else { continue }
            links.append(Link(name: name, target: target))
        }
        return links
    }
}

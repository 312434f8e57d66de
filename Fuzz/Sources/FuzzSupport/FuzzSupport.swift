import CameraSource
import Glibc
import PipCore

/// A fuzz input read from the front: a few bytes that choose how to use the rest, then the rest.
public struct FuzzInput {
    public private(set) var bytes: UnsafeRawBufferPointer

    public init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        bytes = UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size)
    }

    /// The next byte (0 once the input is used up).
    public mutating func byte() -> UInt8 {
        guard let first = bytes.first else { return 0 }
        bytes = UnsafeRawBufferPointer(rebasing: bytes.dropFirst())
        return first
    }

    /// The next two bytes, big-endian.
    public mutating func uint16() -> Int { Int(byte()) << 8 | Int(byte()) }

    /// The next `count` bytes (fewer at the end).
    public mutating func take(_ count: Int) -> UnsafeRawBufferPointer {
        let n = min(count, bytes.count)
        defer { bytes = UnsafeRawBufferPointer(rebasing: bytes.dropFirst(n)) }
        return UnsafeRawBufferPointer(rebasing: bytes.prefix(n))
    }

    /// The rest as text (invalid UTF-8 repaired, as `String(decoding:)` does for a file or argument).
    public var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// An in-memory file holding `bytes`, open for reading at offset 0 (the caller closes it).
public func memoryFile(holding bytes: UnsafeRawBufferPointer) -> Int32 {
    // memfd_create is not in Swift's Glibc module: an unlinked file in tmpfs is the same thing.
    var template = Array("/dev/shm/pipcam-fuzz-XXXXXX".utf8CString)
    let fd = mkstemp(&template)
    precondition(fd >= 0, "mkstemp failed: \(errno)")
    unlink(template)
    var written = 0
    while written < bytes.count {
        let n = write(fd, bytes.baseAddress! + written, bytes.count - written)
        precondition(n > 0, "write failed: \(errno)")
        written += n
    }
    lseek(fd, 0, SEEK_SET)
    return fd
}

/// What pipcam prints for an error, `pipcam: <thing>: <cause>`, must be one line.
public func expectOneLine(_ error: Any) {
    let text = "\(error)"
    precondition(!text.isEmpty && !text.contains("\n"), "error message is not one line: \(text)")
}

/// Starts a file source and reads it to its end unpaced, as pipcam would show it; each frame
/// goes to `show` and back to the source. Errors must be one-line `SourceError`s.
public func play(_ source: any FrameSource, maxFrames: Int = 64, show: (VideoFrame) -> Void = { _ in }) {
    defer { source.stop() }
    do {
        try source.start()
        for _ in 0..<maxFrames {
            switch try source.nextFrame(now: .now()) {
            case .frame(let frame):
                show(frame)
                source.recycle(bufferIndex: frame.bufferIndex)
            case .end:
                return
            case .wait:
                preconditionFailure("an unpaced file source waited")
            }
        }
    } catch let error as SourceError {
        expectOneLine(error)
    } catch {
        preconditionFailure("not a SourceError: \(error)")
    }
}

/// Reads the first and last byte of every row of every plane `frame` says it has, so that
/// AddressSanitizer sees a frame that claims more than its buffer holds.
public func touchRows(_ frame: VideoFrame) {
    var sum = 0
    let planes = [frame.plane0, frame.plane1, frame.plane2]
    for (index, plane) in planes.enumerated() {
        guard let plane else { continue }
        let (width, rows) = planeSize(frame, plane: index)
        guard width > 0 else { continue }
        for y in 0..<rows {
            let row = plane.base + y * plane.stride
            sum &+= Int(row.load(as: UInt8.self)) &+ Int(row.load(fromByteOffset: width - 1, as: UInt8.self))
        }
    }
    blackHole(sum)
}

/// Bytes across and rows of plane `index` of `frame`.
private func planeSize(_ frame: VideoFrame, plane index: Int) -> (bytes: Int, rows: Int) {
    let w = frame.width, h = frame.height
    let halfW = (w + 1) / 2, halfH = (h + 1) / 2
    switch (frame.format, index) {
    case (.i420, 0), (.i422, 0), (.i444, _), (.gray, _), (.nv12, 0): return (w, h)
    case (.i420, _): return (halfW, halfH)
    case (.i422, _): return (halfW, h)
    case (.nv12, _): return (2 * halfW, halfH)
    case (.yuyv, _): return (2 * w, h)
    case (.rgb24, _): return (3 * w, h)
    case (.bgra, _): return (4 * w, h)
    default: return (0, 0)
    }
}

@inline(never)
public func blackHole(_ value: Int) {
    if value == 0x5EED_F00D { print("") }
}

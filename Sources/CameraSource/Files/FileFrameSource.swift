#if canImport(Glibc)
import Glibc
#endif
import PipCore

/// What a file format read for one frame; the shared part adds buffer, time and sequence.
struct FileFrame {
    var format: PixelFormat
    var width: Int
    var height: Int
    var byteCount: Int
    var colorimetry: Colorimetry
    /// Where the frame lies in the file's mapping; nil: read into its ring buffer.
    var base: UnsafeRawPointer? = nil
}

/// What a format's `readFrame` throws when the file ends inside a frame: `got` bytes of the
/// frame's `expected` (nil where the format gives no length: a JPEG without its end marker).
struct TruncatedFrame: Error, CustomStringConvertible {
    var got: Int
    var expected: Int?

    /// `3 of 6 bytes`, or `3 bytes, no end of image` for a JPEG.
    var description: String { expected.map { "\(got) of \($0) bytes" } ?? "\(got) bytes, no end of image" }
}

/// The part all file sources share: opening the file (or taking a descriptor), the ring of three
/// frame buffers, pacing at the stream's rate, and turning read failures into `SourceError`s.
///
/// Subclasses (`Y4MSource`, `RawSource`, `MJPEGSource`) only parse their format: the stream header
/// in `openStream` and one frame in `readFrame`. `start()` reads the first frame already, so a
/// malformed or empty input fails there rather than in the middle of playback.
///
/// A file that ends inside a frame (a recording cut off, a pipe whose writer was killed) is one
/// rule for every format, as players such as mpv have it: a truncated last frame is dropped with
/// one warning line and the stream ends normally; a truncated first frame, with nothing before
/// it to show, is bad input. Garbage in the middle stays an error (MJPEG hands such a frame out
/// for the decoder to skip).
public class FileFrameSource: FrameSource {
    public let name: String
    public var isLive: Bool { false }
    public var mirroredByDefault: Bool { false }
    public internal(set) var frameWidth = 0
    public internal(set) var frameHeight = 0
    public internal(set) var frameRate: Double?
    /// The first frame's format (read by `start()`).
    public private(set) var frameFormat: PixelFormat?
    public var pollDescriptor: Int32? { nil }
    /// What the window asked for; only `paced` matters to files.
    public let request: SourceRequest

    /// How many buffers frames can be lent out in at once.
    static let bufferCount = 3

    private enum Origin {
        case path(String)
        case descriptor(Int32, owned: Bool)
    }
    private let origin: Origin
    private var fd: Int32 = -1
    private var reader: ByteReader?
    /// The file mapped (regular files): frames borrowed from it stay valid until the source goes.
    private var mapping: MappedFile?
    /// The bytes of the file each lent-out buffer index stands for, when borrowed from `mapping`.
    private var borrowed = [Range<Int>?](repeating: nil, count: FileFrameSource.bufferCount)
    var ring = BufferRing()
    private var pacer = FramePacer(fps: 30)
    private var prefetched: (index: Int, frame: FileFrame)?
    private var nextSequence: UInt64 = 0
    /// Which frame of the file goes out next, playing or paused (`PlayerClock`).
    private var clock = PlayerClock(frameRate: 30)
    /// Where each frame read so far starts in the stream: frame n at `frameStarts[n]`.
    private var frameStarts: [Int] = []
    /// The number of the frame the reader reads next.
    private var readerFrame = 0
    /// At the end, stay on the last frame instead of ending (`PlaybackRequest.holdsAtEnd`).
    private var holdsAtEnd = false
    /// Held on its last frame at the end.
    private var ended = false
    /// The truncated last frame was said.
    private var truncationSaid = false
    /// The seeks asked for that this source has seen (carried out, or asked of a source before it).
    private var seeksSeen = 0
    private var finished = false
    /// Frames completely read so far; the number of the frame being read, for messages.
    private(set) var framesRead = 0
    /// Where the warning about a dropped last frame goes (a line without the `pipcam: ` prefix).
    var warn: (String) -> Void = { writeErrorLine("pipcam: " + $0) }

    /// Which file kind it is, at `path`: the subclass's.
    public var spec: SourceSpec { fatalError("subclass must override") }
    /// The path given (`-`: standard input, or an open descriptor).
    var path: String { if case .path(let path) = origin { path } else { "-" } }

    /// Reads the file at `path`; `-` means standard input (not closed by `stop()`).
    init(path: String, request: SourceRequest) {
        if path == "-" {
            origin = .descriptor(0, owned: false)
            name = "stdin"
        } else {
            origin = .path(path)
            name = path
        }
        self.request = request
    }

    /// Reads an already open descriptor (a pipe, say), which `stop()` closes.
    init(fileDescriptor: Int32, name: String, request: SourceRequest) {
        origin = .descriptor(fileDescriptor, owned: true)
        self.name = name
        self.request = request
    }

    deinit {
        stop()
        ring.deallocate()
    }

    // MARK: Format hooks

    /// Parses the stream header and sets the frame size and rate; returns the bytes a buffer needs.
    func openStream(_ reader: ByteReader) throws -> Int { fatalError("subclass must override") }

    /// Reads the next frame into buffer `index`; nil at a clean end of stream.
    func readFrame(_ reader: ByteReader, into index: Int) throws -> FileFrame? { fatalError("subclass must override") }

    /// Whether every frame takes the same bytes (raw, Y4M): a regular file's length then says
    /// how many frames it holds.
    var framesTakeEqualBytes: Bool { false }

    /// The frames of a regular file whose frames take equal bytes, from its length and the first
    /// frame's; nil when that does not divide (a cut-off last frame) or cannot be known.
    private func countedFrames(_ reader: ByteReader) -> Int? {
        guard framesTakeEqualBytes, mapping != nil, let first = frameStarts.first, let size = MappedFile.size(of: fd) else { return nil }
        let each = reader.offset - first
        guard each > 0, (size - first) % each == 0 else { return nil }
        return (size - first) / each
    }

    /// Why a stream with no frame at all is rejected.
    var noFramesReason: String { "empty file" }

    func badInput(_ reason: String) -> SourceError { .badInput(thing: name, reason: reason) }

    // MARK: FrameSource

    public func start() throws {
        guard reader == nil, !finished else { return }
        switch origin {
        case .path(let path):
            fd = open(path, O_RDONLY | O_CLOEXEC)
            if fd < 0 { throw badInput(Errno.current.description) }
        case .descriptor(let descriptor, _):
            // `y4m:-` typed at a shell with nothing piped in would wait for the keyboard, silently.
            if isatty(descriptor) == 1 { throw badInput("is a terminal (pipe a stream into pipcam)") }
            fd = descriptor
        }
        let reader = ByteReader(fd: fd)
        self.reader = reader
        // Offsets in the stream are offsets in the file only for a file read from its start.
        if lseek(fd, 0, SEEK_CUR) == 0 { mapping = MappedFile(fd: fd) }
        reader.mapping = mapping
        do {
            let bufferBytes = try openStream(reader)
            pacer = FramePacer(fps: frameRate ?? 30)
            clock = PlayerClock(frameRate: frameRate ?? 30, loops: request.loops)
            ring.allocate(count: Self.bufferCount, byteCount: bufferBytes)
            if mapping != nil, let size = MappedFile.size(of: fd) { frameStarts.reserveCapacity(min(size / max(bufferBytes, 1) + 2, 1 << 20)) }
            let index = ring.acquire()!
            guard let first = try readIndexed(reader, into: index) else { throw badInput(noFramesReason) }
            framesRead = 1
            clock.frameCount = countedFrames(reader)
            prefetched = (index, first)
            frameFormat = first.format
        } catch let failure as Errno {
            stop()
            throw badInput(failure.description)
        } catch let truncated as TruncatedFrame {
            stop()
            throw badInput("truncated frame 0 (got \(truncated))")
        } catch {
            stop()
            throw error
        }
    }

    public func nextFrame(now: MonotonicInstant) throws -> SourceStep {
        guard let reader, !finished else { return .end }
        // Paused: nothing until play or a seek (the pump is woken by either).
        guard var wanted = clock.wantedFrame else { return .wait(deadline: nil) }
        if request.paced, let due = pacer.deadline(forFrame: nextSequence, now: now) {
            return .wait(deadline: due)
        }
        let index: Int
        let frame: FileFrame
        if let first = prefetched, readerFrame == wanted + 1 {
            prefetched = nil
            (index, frame) = first
        } else {
            guard let free = ring.acquire() else { return .wait(deadline: nil) }
            do {
                if readerFrame != wanted {
                    try go(to: wanted, reader)
                    wanted = readerFrame
                }
                var read = try readIndexed(reader, into: free)
                if read == nil, clock.reachedEnd() == .restart {
                    wanted = 0
                    try go(to: 0, reader)
                    read = try readIndexed(reader, into: free)
                }
                guard let read else {
                    ring.release(free)
                    if holdsAtEnd {
                        ended = true
                        return .wait(deadline: nil)
                    }
                    finished = true
                    return .end
                }
                ended = false
                framesRead += 1
                (index, frame) = (free, read)
            } catch let failure as Errno {
                ring.release(free)
                finished = true
                throw SourceError.runtime(thing: name, reason: failure.description)
            } catch let truncated as TruncatedFrame {
                ring.release(free)
                // Looping, a cut-off last frame is the end like any other.
                if clock.loops, clock.reachedEnd() == .restart, (try? go(to: 0, reader)) != nil {
                    sayTruncated(truncated)
                    return .wait(deadline: now)
                }
                sayTruncated(truncated)
                if holdsAtEnd {
                    ended = true
                    return .wait(deadline: nil)
                }
                finished = true
                return .end
            } catch {
                ring.release(free)
                finished = true
                throw error
            }
        }
        clock.handedOut(frame: wanted)
        if let mapping, let base = frame.base {
            let at = mapping.base.distance(to: base)
            borrowed[index] = at..<(at + frame.byteCount)
        }
        // The first frame was read in start(); it counts as read now, when it is handed out.
        var video = VideoFrame(
            packed: frame.format, width: frame.width, height: frame.height, base: frame.base ?? UnsafeRawPointer(ring.bases[index]),
            byteCount: frame.byteCount, colorimetry: frame.colorimetry, timestamp: .now(),
            sequence: nextSequence, bufferIndex: index)
        video.mediaFrame = wanted
        video.seeksAnswered = seeksSeen
        nextSequence += 1
        return .frame(video)
    }

    /// The dropped last frame, said once for the file however often it is met again (a loop, a
    /// seek to the end).
    private func sayTruncated(_ truncated: TruncatedFrame) {
        guard !truncationSaid else { return }
        truncationSaid = true
        warn("\(name): last frame truncated (\(truncated)); ignored")
    }

    /// Reads the next frame, noting where it starts in the stream the first time it is read.
    private func readIndexed(_ reader: ByteReader, into index: Int) throws -> FileFrame? {
        let start = reader.offset
        guard let frame = try readFrame(reader, into: index) else { return nil }
        // A pipe cannot go back: nothing to remember (and a stream may go on for days).
        if isSeekable && readerFrame == frameStarts.count { frameStarts.append(start) }
        readerFrame += 1
        return frame
    }

    /// Puts the reader at frame `target`: straight there when its start is known, else from the
    /// last start known, reading the frames between (borrowed from the mapping: not copied).
    /// Past the file's end it stops at the last frame.
    private func go(to target: Int, _ reader: ByteReader) throws {
        if let first = prefetched {
            prefetched = nil
            ring.release(first.index)
        }
        guard !frameStarts.isEmpty else { return }
        let known = min(target, frameStarts.count - 1)
        try reader.seek(to: frameStarts[known])
        readerFrame = known
        guard known < target, let scratch = ring.acquire() else { return }
        defer { ring.release(scratch) }
        while readerFrame < target {
            let frames = readerFrame
            let read: FileFrame?
            do { read = try readIndexed(reader, into: scratch) } catch is TruncatedFrame { read = nil }
            guard read != nil else {
                // The file has `frames` frames: the last one instead.
                clock.frameCount = frames
                try reader.seek(to: frameStarts[max(0, frames - 1)])
                readerFrame = max(0, frames - 1)
                return
            }
        }
    }

    public func apply(_ controls: SourceControls) {
        let playback = controls.playback
        holdsAtEnd = playback.holdsAtEnd
        if playback.playing != clock.isPlaying {
            if playback.playing { clock.play() } else { clock.pause() }
        }
        guard playback.seeks != seeksSeen else { return }
        seeksSeen = playback.seeks
        guard let target = playback.lastSeek else { return }
        guard isSeekable else { return warn("\(name): cannot seek (not a regular file); pausing still works") }
        clock.seek(target)
    }

    /// A regular file read from its start: frames can be found again by their offsets.
    private var isSeekable: Bool { mapping != nil }

    public var playback: PlaybackStatus? {
        var status = PlaybackStatus(
            playing: clock.isPlaying, frameRate: clock.frameRate, frameCount: clock.frameCount, seekable: isSeekable, loops: clock.loops)
        status.ended = ended
        return status
    }

    public func recycle(bufferIndex: Int) {
        if borrowed.indices.contains(bufferIndex), let range = borrowed[bufferIndex] {
            mapping?.dropPages(offset: range.lowerBound, count: range.count)
            borrowed[bufferIndex] = nil
        }
        ring.release(bufferIndex)
    }

    public func stop() {
        finished = true
        reader = nil
        if fd >= 0 {
            if case .descriptor(_, owned: false) = origin {} else { close(fd) }
            fd = -1
        }
    }
}

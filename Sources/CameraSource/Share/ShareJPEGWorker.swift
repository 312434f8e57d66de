#if canImport(Glibc)
import Glibc
#endif
import MJPEG
import PipCore

/// Decodes a shared camera's JPEG frames at full size on a thread of its own and writes them to
/// the virtual camera: the capture thread only copies the compressed bytes (a few hundred KB), so
/// the display's own reduced decode and this one run on both cores side by side.
///
/// Newest frame wins: a frame that arrives while the previous one is still being decoded
/// replaces the one waiting, so a slow decode never builds a queue (and latency).
final class ShareJPEGWorker: @unchecked Sendable {
    private struct Slot {
        var bytes: UnsafeMutableRawPointer
        var capacity: Int
        var count = 0
        var frame: VideoFrame?
    }

    private let converter: ShareFrameConverter
    private unowned let share: CameraShare
    /// The frame waiting (written by the capture thread) and whether the thread should end.
    private let pending: Locked<(slot: Slot, waiting: Bool, stopping: Bool)>
    /// The frame being decoded (the worker's own).
    private var working: Slot
    private let wake = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
    private var thread: pthread_t?

    init(converter: ShareFrameConverter, share: CameraShare) {
        self.converter = converter
        self.share = share
        let start = 512 * 1024
        pending = Locked((Slot(bytes: .allocate(byteCount: start, alignment: 64), capacity: start), false, false))
        working = Slot(bytes: .allocate(byteCount: start, alignment: 64), capacity: start)
        sem_init(wake, 0, 0)
        thread = ThreadSpawn.start { [self] in run() }
    }

    deinit {
        stop()
        pending.withLock { $0.slot.bytes.deallocate() }
        working.bytes.deallocate()
        sem_destroy(wake)
        wake.deallocate()
    }

    /// Copies `frame`'s compressed bytes for the thread (capture thread).
    func submit(_ frame: VideoFrame) {
        pending.withLock { p in
            if p.slot.capacity < frame.byteCount {
                // Grows rarely: a camera's JPEGs stay about the same size.
                p.slot.bytes.deallocate()
                p.slot.capacity = frame.byteCount * 2
                p.slot.bytes = .allocate(byteCount: p.slot.capacity, alignment: 64)
            }
            p.slot.bytes.copyMemory(from: frame.plane0.base, byteCount: frame.byteCount)
            p.slot.count = frame.byteCount
            p.slot.frame = frame
            p.waiting = true
        }
        sem_post(wake)
    }

    /// Ends the thread and waits for it.
    func stop() {
        guard let t = thread else { return }
        thread = nil
        pending.withLock { $0.stopping = true }
        sem_post(wake)
        pthread_join(t, nil)
    }

    private func run() {
        let decoder = JPEGDecoder(threads: 1)
        while true {
            _ = SystemCall.retryingInterrupts { sem_wait(wake) }
            let (go, stopping) = pending.withLock { p -> (Bool, Bool) in
                guard p.waiting, !p.stopping else { return (false, p.stopping) }
                swap(&p.slot, &working)
                p.waiting = false
                return (true, false)
            }
            if stopping { return }
            guard go, var frame = working.frame else { continue }
            frame.plane0 = FramePlane(base: UnsafeRawPointer(working.bytes), stride: working.count)
            frame.byteCount = working.count
            do {
                let framing = share.framing
                // Zoomed in, the shown part must still cover the stream's size.
                let decoded = try decoder.decode(
                    frame, minWidth: Int(Double(converter.width) * framing.zoom), minHeight: Int(Double(converter.height) * framing.zoom))
                if let bytes = converter.convert(decoded, framing: framing) {
                    share.write(bytes, placeholder: false, capturedAt: frame.timestamp)
                }
            } catch {
                share.noteFailure()
            }
        }
    }
}

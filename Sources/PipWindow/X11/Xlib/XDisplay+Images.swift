import CX11
#if canImport(Glibc)
import Glibc
#endif

/// A client-side image the converter writes into and the presenter puts on a window: in shared
/// memory when the server allows it, else in ordinary memory sent with the request.
public final class ImageBuffer {
    let image: UnsafeMutablePointer<XImage>
    let segment: UnsafeMutablePointer<XShmSegmentInfo>?
    public let width: Int
    public let height: Int
    /// Bytes from one row to the next.
    public let stride: Int
    public var pixels: UnsafeMutableRawPointer { UnsafeMutableRawPointer(image.pointee.data) }
    public var usesSharedMemory: Bool { segment != nil }
    /// The server-side id of the shared segment (what completion events name), 0 without one.
    public var segmentID: UInt { segment?.pointee.shmseg ?? 0 }
    /// True from the put until the server says it has finished reading (shared memory only).
    public var inFlight = false
    /// Whether its pages have been written since it was made (by a frame or `touchPages`), so
    /// writing it again costs no page faults.
    public private(set) var touched = false
    /// Whether the server has read its shared memory (a put, or `XDisplay.readOnServer`).
    public internal(set) var readByServer = false

    /// Notes that a frame has just been written into it.
    public func noteWritten() { touched = true }

    /// Writes every page now (black), so the first frame put through this image does not pay
    /// for their page faults (docs/PERFORMANCE.md, "First frames").
    public func touchPages() {
        memset(pixels, 0, stride * height)
        touched = true
    }

    init(image: UnsafeMutablePointer<XImage>, segment: UnsafeMutablePointer<XShmSegmentInfo>?) {
        self.image = image
        self.segment = segment
        width = Int(image.pointee.width)
        height = Int(image.pointee.height)
        stride = Int(image.pointee.bytes_per_line)
    }
}

extension XDisplay {
    /// Makes an image of the window's visual. Shared memory is tried first (unless `allowShm` is false)
    /// and checked with a trapped, synced attach: the extension being present does not mean attaching
    /// works (containers, remote displays).
    public func makeImage(width: Int, height: Int, allowShm: Bool) -> ImageBuffer? {
        if allowShm && hasShm && !shmRefused, let image = makeSharedImage(width: width, height: height) { return image }
        guard let data = malloc(max(1, width * height * 4)) else { return nil }
        guard let image = XCreateImage(
            raw, visual, UInt32(depth), ZPixmap, 0, data.assumingMemoryBound(to: CChar.self),
            UInt32(width), UInt32(height), 32, 0)
        else {
            free(data)
            return nil
        }
        return ImageBuffer(image: image, segment: nil)
    }

    private func makeSharedImage(width: Int, height: Int) -> ImageBuffer? {
        let info = UnsafeMutablePointer<XShmSegmentInfo>.allocate(capacity: 1)
        info.initialize(to: XShmSegmentInfo())
        guard let image = XShmCreateImage(raw, visual, UInt32(depth), ZPixmap, nil, info, UInt32(width), UInt32(height))
        else {
            info.deallocate()
            return nil
        }
        let size = Int(image.pointee.bytes_per_line) * height
        info.pointee.shmid = CX11_ShmGet(size)
        guard info.pointee.shmid >= 0, let address = CX11_ShmAtNull(info.pointee.shmid),
            address != UnsafeMutableRawPointer(bitPattern: -1)
        else {
            if info.pointee.shmid >= 0 { _ = CX11_ShmRemove(info.pointee.shmid) }
            image.pointee.data = nil
            _ = CX11_DestroyImage(image)
            info.deallocate()
            return nil
        }
        info.pointee.shmaddr = address.assumingMemoryBound(to: CChar.self)
        info.pointee.readOnly = 0
        image.pointee.data = info.pointee.shmaddr
        // Marked for removal before the server attaches (Linux lets it attach a segment so
        // marked): the segment then vanishes with the last process using it, even if pipcam is
        // killed during the attach's two round trips.
        _ = CX11_ShmRemove(info.pointee.shmid)
        let (_, error) = withErrorTrap { XShmAttach(raw, info) }
        guard error == nil else {
            // Refused once (a remote display, another IPC namespace), refused again: not asked again.
            shmRefused = true
            shmdt(address)
            image.pointee.data = nil
            _ = CX11_DestroyImage(image)
            info.deallocate()
            return nil
        }
        return ImageBuffer(image: image, segment: info)
    }

    /// Releases an image (detaching its shared memory first).
    public func destroy(_ buffer: ImageBuffer) {
        if let info = buffer.segment {
            XShmDetach(raw, info)
            XSync(raw, 0)
            shmdt(info.pointee.shmaddr)
            buffer.image.pointee.data = nil
            info.deallocate()
        }
        _ = CX11_DestroyImage(buffer.image)
    }

    /// Has the server read all of `buffer`'s shared memory once (a put into a scratch pixmap, no
    /// completion event), so that its first put on a window does not wait for the server's page
    /// faults (docs/PERFORMANCE.md, "First frames"). `gc` must suit the window's depth.
    public func readOnServer(_ buffer: ImageBuffer, gc: OpaquePointer) {
        guard buffer.segment != nil else { return }
        let w = UInt32(buffer.width), h = UInt32(buffer.height)
        let pixmap = XCreatePixmap(raw, root.rawValue, w, h, UInt32(depth))
        XShmPutImage(raw, pixmap, gc, buffer.image, 0, 0, 0, 0, w, h, 0)
        XFreePixmap(raw, pixmap)
        buffer.readByServer = true
    }

    /// Puts `buffer`'s top-left `size` at `origin` of `window`. A shared-memory put asks for a
    /// completion event (`WindowEvent.shmCompletion`); a plain put is complete once sent.
    public func put(_ buffer: ImageBuffer, on window: WindowID, gc: OpaquePointer, at origin: (Int, Int), size: (Int, Int)) {
        let w = UInt32(min(size.0, buffer.width)), h = UInt32(min(size.1, buffer.height))
        if let _ = buffer.segment {
            XShmPutImage(raw, window.rawValue, gc, buffer.image, 0, 0, Int32(origin.0), Int32(origin.1), w, h, 1)
            buffer.inFlight = true
            buffer.readByServer = true
        } else {
            XPutImage(raw, window.rawValue, gc, buffer.image, 0, 0, Int32(origin.0), Int32(origin.1), w, h)
        }
    }
}

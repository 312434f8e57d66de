import MJPEG
import PipCore
import PipConvert

/// Puts converted frames on a window through two images, so one can be filled while the server
/// still reads the other; an image is written again only after the server reported its put complete.
public final class Presenter: VideoSurface {
    /// What happened to a frame handed to `present`.
    public typealias Outcome = PresentOutcome

    private let display: XDisplay
    private let window: WindowID
    private let gc: OpaquePointer
    private let layout: PixelLayout
    private let allowShm: Bool
    private let converter: FrameConverter
    private var images: [ImageBuffer] = []
    private var captureTimes: [MonotonicInstant?] = []
    /// Puts whose images were freed (the window grew) before the server reported them complete:
    /// the server still shows them, so their completions still count.
    private var retiredPuts: [(segment: UInt, capturedAt: MonotonicInstant?)] = []
    private static let retiredPutsKept = 8
    private var lastPresented: Int?
    private var next = 0
    /// The window's size, as last given to `resize`.
    private var windowSize = (width: 0, height: 0)
    /// The part of the window pictures are drawn in, in window coordinates (`DrawnArea`).
    public private(set) var drawn = Rect(x: 0, y: 0, width: 0, height: 0)
    /// The size of the pictures drawn: the window's, or the part of it on the screen.
    public var width: Int { drawn.width }
    public var height: Int { drawn.height }
    public var rotation: Rotation = .deg0
    public var mirror = false
    /// The part of the picture shown (digital zoom and pan).
    public var framing = Framing.full

    /// A picture could not be put because both images were still with the server (or the last one
    /// was, for `redraw`): the owner should draw it again after the next completion, since a static
    /// picture (a placeholder, a notice, a paused frame) is not followed by another.
    public private(set) var owesRedraw = false
    public var onPutCompleted: ((MonotonicInstant?) -> Void)?

    /// Whether frames go through shared memory (false after a failed attach or when opted out).
    public var usesSharedMemory: Bool { images.first?.usesSharedMemory ?? false }

    /// `jpegDecodeThreads`: the threads MJPEG frames are decoded with (`JPEGDecoder`).
    public init(
        display: XDisplay, window: WindowID, allowShm: Bool, jpegDecodeThreads: Int = JPEGDecoder.standardThreads
    ) throws {
        let masks = display.visualMasks
        guard let layout = PixelLayout(masks) else {
            throw DisplayError.unsupportedVisual(
                "depth \(display.depth), \(masks.bitsPerPixel) bits per pixel (pipcam needs 24-bit colour)")
        }
        self.display = display
        self.window = window
        self.layout = layout
        self.allowShm = allowShm
        converter = FrameConverter(decodeThreads: jpegDecodeThreads)
        gc = display.createGC(window)
    }

    /// Images made so far (pairs count twice); for tests.
    private(set) var imagesMade = 0

    /// Matches the images to the window's size. Images are reallocated only when the window grows
    /// past them, or shrinks to under a quarter of them, so an animation or a resize costs no
    /// allocation at most steps. The first images are the window's size; a window that outgrows
    /// them gets a quarter more each way (up to the screen's size), so the next steps of a drag or
    /// a zoom fit without new shared memory. A window larger than the screen is drawn only where
    /// it is on the screen (`DrawnArea`): nothing is sized by what a window claims beyond that.
    public func resize(width: Int, height: Int) {
        guard width > 0, height > 0, width != windowSize.width || height != windowSize.height else { return }
        windowSize = (width, height)
        let origin = oversized ? display.rootGeometry(of: window).map { ($0.x, $0.y) } : nil
        _ = updateArea(DrawnArea.rect(windowAt: origin, width: width, height: height, screen: display.screenSize))
    }

    /// Notes that the window moved: a window larger than the screen is drawn where it now is on
    /// it. Costs nothing for a window that fits the screen. Returns whether the part drawn
    /// changed (the picture is then to be drawn again).
    @discardableResult
    public func windowMoved() -> Bool {
        guard oversized else { return false }
        let origin = display.rootGeometry(of: window).map { ($0.x, $0.y) }
        return updateArea(DrawnArea.rect(windowAt: origin, width: windowSize.width, height: windowSize.height, screen: display.screenSize))
    }

    /// Whether the window is larger than the screen in either direction.
    private var oversized: Bool { !DrawnArea.fits(width: windowSize.width, height: windowSize.height, screen: display.screenSize) }

    private func updateArea(_ area: Rect) -> Bool {
        guard area != drawn else { return false }
        let growing = !images.isEmpty && (images[0].width < area.width || images[0].height < area.height)
        drawn = area
        lastPresented = nil
        if let first = images.first,
            !DrawnArea.needsNewImages(capacity: (first.width, first.height), needed: (area.width, area.height))
        {
            return true
        }
        releaseImages()
        let screen = display.screenSize
        let (w, h) = growing
            ? (max(width, min(width + width / 4, screen.width)), max(height, min(height + height / 4, screen.height)))
            : (width, height)
        for _ in 0..<2 {
            guard let image = display.makeImage(width: w, height: h, allowShm: allowShm) else { continue }
            images.append(image)
            captureTimes.append(nil)
            imagesMade += 1
        }
        return true
    }

    /// The images' size, 0×0 without images; for tests.
    var imageSize: (width: Int, height: Int) { images.first.map { ($0.width, $0.height) } ?? (0, 0) }

    /// The frames a source will send (format and size), when it knows before the first one: what
    /// `warmUp` gets the converter ready for. A presenter already showing frames gets ready for new
    /// ones as soon as they are set (a camera plugged in, a camera's new mode).
    public var expectedFrames: ExpectedFrames? {
        didSet { if expectedFrames != oldValue && showsFrames { prepareConverter() } }
    }
    /// Whether the window has been warmed up or shown a picture: from then on it holds its memory.
    private var showsFrames = false
    /// What the converter was last got ready for; for tests.
    private(set) var preparedFrames: ExpectedFrames?

    /// Gets ready for the window's first frames when it is about to show them: writes the images'
    /// pages, has the server read them once, and has the converter allocate for `expectedFrames`.
    /// Otherwise the first frame pays for all of it, and comes late (docs/PERFORMANCE.md, "First
    /// frames"). Not at `resize`: a window that never shows a frame (a hidden main window)
    /// would hold all that memory for nothing.
    public func warmUp() {
        var serverReads = false
        for image in images where !image.inFlight {
            if !image.touched { image.touchPages() }
            if image.usesSharedMemory && !image.readByServer {
                display.readOnServer(image, gc: gc)
                serverReads = true
            }
        }
        // Done before the first frame is put, which would otherwise queue behind the reads.
        if serverReads { display.sync() }
        showsFrames = true
        prepareConverter()
    }

    private func prepareConverter() {
        guard let e = expectedFrames else { return }
        converter.prepare(
            format: e.format, sourceWidth: e.width, sourceHeight: e.height, width: width, height: height,
            rotation: rotation, framing: framing)
        preparedFrames = e
    }

    /// Whether every image has been written and read by the server (`warmUp`, or frames put).
    public var isWarm: Bool { !images.isEmpty && images.allSatisfy { $0.touched && $0.readByServer } }

    /// Whether an image is free to take a new frame.
    public var canPresent: Bool { images.contains { !$0.inFlight } }

    /// Whether every put has completed.
    public var isIdle: Bool { !images.contains { $0.inFlight } }

    /// Drawn over each picture before it is put (controls, badges); gets the image's pixels, stride,
    /// width and height.
    public var overlay: ((UnsafeMutableRawPointer, Int, Int, Int) -> Void)?

    /// Converts `frame` into a free image, draws the overlay and puts it on the window.
    /// Throws what the converter throws (a corrupt JPEG); the frame is then not shown.
    /// `counted: false` marks a redraw of a frame already shown: its completion reports no capture time.
    public func present(_ frame: VideoFrame, counted: Bool = true) throws -> Outcome {
        try render(capturedAt: counted ? frame.timestamp : nil) { pixels, stride, width, height in
            try converter.convert(
                frame, into: pixels, stride: stride, width: width, height: height,
                layout: layout, rotation: rotation, mirror: mirror, framing: framing)
        }
    }

    /// Puts a picture drawn by `body` (a placeholder) instead of a frame.
    @discardableResult
    public func present(drawing body: (UnsafeMutableRawPointer, Int, Int, Int) -> Void) -> Outcome {
        (try? render(capturedAt: nil) { pixels, stride, width, height in body(pixels, stride, width, height) }) ?? .busy
    }

    private func render(
        capturedAt timestamp: MonotonicInstant?, _ body: (UnsafeMutableRawPointer, Int, Int, Int) throws -> Void
    ) throws -> Outcome {
        guard let index = freeImage() else {
            owesRedraw = true
            return .busy
        }
        owesRedraw = false
        let image = images[index]
        showsFrames = true
        try body(image.pixels, image.stride, width, height)
        overlay?(image.pixels, image.stride, width, height)
        captureTimes[index] = timestamp
        display.put(image, on: window, gc: gc, at: (drawn.x, drawn.y), size: (width, height))
        lastPresented = index
        next = (index + 1) % images.count
        // The next frame goes to the other image: its pages are faulted in now, while the server
        // works on this put, rather than in that frame. Not at creation: a presenter that never
        // shows a frame (a hidden main window's) would then hold its images' memory.
        image.noteWritten()
        if !images[next].touched && !images[next].inFlight { images[next].touchPages() }
        if image.usesSharedMemory { return .pending }
        // Without shared memory the put is finished once the server has processed the request.
        display.sync()
        return .completed(timestamp)
    }

    /// The pixel layout of the window's visual (for overlay drawing).
    public var pixelLayout: PixelLayout { layout }

    /// Marks the image whose shared segment the server finished with. Returns whether the segment
    /// was this presenter's, and the capture time of a counted frame.
    public func completed(segment: UInt) -> (mine: Bool, capturedAt: MonotonicInstant?) {
        guard let index = images.firstIndex(where: { $0.segmentID == segment && $0.inFlight }) else {
            guard let retired = retiredPuts.firstIndex(where: { $0.segment == segment }) else { return (false, nil) }
            return (true, retiredPuts.remove(at: retired).capturedAt)
        }
        images[index].inFlight = false
        return (true, captureTimes[index])
    }

    /// Puts the last shown picture again (after an Expose).
    public func redraw() {
        guard let index = lastPresented else { return }
        guard !images[index].inFlight else {
            owesRedraw = true
            return
        }
        // Its completion must not count the frame as shown a second time.
        captureTimes[index] = nil
        display.put(images[index], on: window, gc: gc, at: (drawn.x, drawn.y), size: (width, height))
    }

    /// Frees the images and the graphics context.
    public func close() {
        releaseImages()
        display.freeGC(gc)
    }

    private func freeImage() -> Int? {
        guard !images.isEmpty else { return nil }
        for offset in 0..<images.count {
            let i = (next + offset) % images.count
            if !images[i].inFlight { return i }
        }
        return nil
    }

    private func releaseImages() {
        for (image, captured) in zip(images, captureTimes) {
            if image.inFlight && image.usesSharedMemory { retiredPuts.append((image.segmentID, captured)) }
            display.destroy(image)
        }
        // Growths in one batch of events (a fast drag, a maximize) come before the completions:
        // the puts of several are kept. A put that failed (its window gone) never completes, so
        // only the newest few are.
        if retiredPuts.count > Self.retiredPutsKept { retiredPuts.removeFirst(retiredPuts.count - Self.retiredPutsKept) }
        images.removeAll()
        captureTimes.removeAll()
    }
}

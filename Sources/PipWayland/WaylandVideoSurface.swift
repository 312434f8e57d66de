import PipConvert
import PipCore
import PipWindow

/// What draws pictures in a Wayland PiP or animation surface: frames converted by `FrameConverter`
/// (turned, mirrored, framed, with the overlay drawn over them) straight into the overlay
/// surface's shared-memory buffer, in XRGB8888, at the surface's scale (`pixelScale`). A put is complete when the compositor asks for the
/// next picture (its frame callback): `onPutCompleted` then gives the frame's capture time.
///
/// Its window hands it the overlay surface while it shows (`attach`); without one nothing can be
/// put, and the pictures wait for the next show.
public final class WaylandVideoSurface: VideoSurface {
    /// wl_shm's XRGB8888: 0x00RRGGBB words.
    public let pixelLayout = PixelLayout.xrgb
    /// The whole window: a layer surface is drawn whole.
    public private(set) var drawn = Rect(x: 0, y: 0, width: 0, height: 0)
    /// Whether pictures are flipped left-right.
    public var mirror = false
    /// How pictures are turned (clockwise).
    public var rotation: Rotation = .deg0
    /// The part of the picture shown (digital zoom and pan).
    public var framing = Framing.full
    /// What the source will send; the converter gets ready for it once the window shows pictures.
    public var expectedFrames: ExpectedFrames? {
        didSet { if expectedFrames != oldValue && showsFrames { prepareConverter() } }
    }
    /// PiP's shape and opacity, in each picture's alpha (`WaylandStyleMask`); none is needed for
    /// an opaque rectangle, whose pictures stay XRGB8888.
    public var style = PipWindowStyle() {
        didSet {
            guard style != oldValue else { return }
            mask = nil
            // The buffers are remade in the other format: the last picture's is gone.
            last = nil
            surface?.drawsAlpha = WaylandStyleMask.needsAlpha(style)
        }
    }
    /// Drawn over every picture after conversion: pixels, stride, width, height.
    public var overlay: ((UnsafeMutableRawPointer, Int, Int, Int) -> Void)?
    /// Called when the compositor showed a put, with a counted frame's capture time; also (with
    /// nil) when a buffer came back that a missed put waited for.
    public var onPutCompleted: ((MonotonicInstant?) -> Void)?
    /// A picture could not be put: its owner draws it again after the next completion.
    public private(set) var owesRedraw = false

    private let converter: FrameConverter
    private var surface: WaylandOverlaySurface?
    /// Counts the surfaces attached: a picture drawn into an earlier one's buffers is gone.
    private var generation = 0
    /// The capture time of the put waiting for its frame callback.
    private var pendingCapture: MonotonicInstant?
    private var last: LastPicture?
    private var showsFrames = false
    /// The style's mask at the last picture's size (made again at another size).
    private var mask: WaylandStyleMask?

    /// The last picture put, where it still is: the buffer it was drawn in.
    private struct LastPicture {
        let pixels: UnsafeMutableRawPointer
        let stride: Int, width: Int, height: Int
        let generation: Int
    }

    /// A surface converting frames with `options`' decode threads.
    public init(options: VideoSurfaceOptions) {
        converter = FrameConverter(decodeThreads: options.jpegDecodeThreads)
    }

    /// Draws into `surface` from now on (nil: its window hid; nothing is put until the next one).
    public func attach(_ surface: WaylandOverlaySurface?) {
        self.surface?.onPutCompleted = nil
        self.surface = surface
        generation += 1
        last = nil
        pendingCapture = nil
        surface?.onPutCompleted = { [weak self] _ in self?.completed() }
        surface?.drawsAlpha = WaylandStyleMask.needsAlpha(style)
    }

    /// Pixels of the picture per logical one: the surface's scale (1 without one).
    public var pixelScale: Double { surface?.scale.factor ?? 1 }

    /// Whether a picture can be put now: the surface shows and the last put was shown.
    public var canPresent: Bool { surface?.canPresent ?? false }

    /// Whether every put has been shown.
    public var isIdle: Bool { surface?.isIdle ?? true }

    /// Converts `frame` into the surface's free buffer, draws the overlay and puts it. Throws what
    /// the converter throws (a corrupt JPEG); nothing is put then.
    public func present(_ frame: VideoFrame, counted: Bool) throws -> PresentOutcome {
        try put(capturedAt: counted ? frame.timestamp : nil) { pixels, stride, width, height in
            try converter.convert(
                frame, into: pixels, stride: stride, width: width, height: height,
                layout: pixelLayout, rotation: rotation, mirror: mirror, framing: framing)
        }
    }

    /// Puts a picture drawn by `body` (a notice), with the overlay over it.
    public func present(drawing body: (UnsafeMutableRawPointer, Int, Int, Int) -> Void) -> PresentOutcome {
        (try? put(capturedAt: nil) { pixels, stride, width, height in body(pixels, stride, width, height) }) ?? .busy
    }

    private func put(
        capturedAt timestamp: MonotonicInstant?, _ body: (UnsafeMutableRawPointer, Int, Int, Int) throws -> Void
    ) throws -> PresentOutcome {
        guard let surface, surface.canPresent else {
            owesRedraw = true
            return .busy
        }
        var drawnInto: LastPicture?
        let outcome = try surface.present { pixels, stride, width, height in
            try body(pixels, stride, width, height)
            overlay?(pixels, stride, width, height)
            applyStyle(pixels, stride, width, height)
            drawnInto = LastPicture(pixels: pixels, stride: stride, width: width, height: height, generation: generation)
        }
        guard case .pending = outcome else {
            owesRedraw = true
            return outcome
        }
        owesRedraw = false
        showsFrames = true
        last = drawnInto
        pendingCapture = timestamp
        return .pending
    }

    /// Puts the last picture again, copied from the buffer it was drawn in (still the compositor's,
    /// read only); nothing when none was put on this surface at its size.
    public func redraw() {
        guard let surface, let last, last.generation == generation,
              surface.pixelSize.width == last.width, surface.pixelSize.height == last.height
        else { return }
        // Buffers are remade only at a new size, so at the same size `last` still points at them.
        let outcome = surface.present { pixels, stride, width, height in
            guard pixels != last.pixels else { return }
            let rowBytes = min(width, last.width) * 4
            for row in 0..<min(height, last.height) {
                (pixels + row * stride).copyMemory(from: last.pixels + row * last.stride, byteCount: rowBytes)
            }
            self.last = LastPicture(pixels: pixels, stride: stride, width: width, height: height, generation: generation)
        }
        guard case .pending = outcome else {
            owesRedraw = true
            return
        }
        owesRedraw = false
        pendingCapture = nil
    }

    /// Notes the window's size (logical); pictures are drawn at the size the compositor
    /// configured, which is the one asked for, at the surface's scale.
    public func resize(width: Int, height: Int) {
        guard width > 0, height > 0 else { return }
        drawn = Rect(x: 0, y: 0, width: width, height: height)
    }

    /// A layer surface is drawn whole wherever it is.
    public func windowMoved() -> Bool { false }

    /// Gets the converter ready for `expectedFrames` before the first frame. The buffers are made
    /// at the first put (the shim makes them at the configured size).
    public func warmUp() {
        showsFrames = true
        prepareConverter()
    }

    /// The surface's scale changed: the converter gets ready for the new size.
    func scaleChanged() {
        if showsFrames { prepareConverter() }
    }

    /// Lets go of the surface; its window destroys it.
    public func close() {
        attach(nil)
        onPutCompleted = nil
    }

    private func applyStyle(_ pixels: UnsafeMutableRawPointer, _ stride: Int, _ width: Int, _ height: Int) {
        guard WaylandStyleMask.needsAlpha(style) else { return }
        if mask?.width != width || mask?.height != height { mask = WaylandStyleMask(style: style, width: width, height: height) }
        mask?.apply(to: pixels, stride: stride, width: width, height: height)
    }

    private func prepareConverter() {
        guard let e = expectedFrames else { return }
        // At the buffers' size: the window's at the surface's scale.
        let pixels = surface?.scale.pixels(width: drawn.width, height: drawn.height) ?? (width: drawn.width, height: drawn.height)
        converter.prepare(
            format: e.format, sourceWidth: e.width, sourceHeight: e.height, width: pixels.width, height: pixels.height,
            rotation: rotation, framing: framing)
    }

    private func completed() {
        guard let surface else { return }
        // A buffer released while a put still waits for its frame callback is what a missed put
        // waited for, not that put shown: its capture time waits for the callback.
        let captured = surface.isIdle ? pendingCapture : nil
        if surface.isIdle { pendingCapture = nil }
        onPutCompleted?(captured)
    }
}

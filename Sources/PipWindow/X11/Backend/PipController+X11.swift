import MJPEG
import PipConvert
import PipCore

/// PiP on an X display, without a window system of the application's.
extension PipController {
    /// Whether PiP can work on `display`: 24-bit colour, which the presenter needs.
    public static func isSupported(display: XDisplay) -> Bool {
        PixelLayout(display.visualMasks) != nil
    }

    /// Creates the (unmapped) PiP and animation windows on `loop`'s X display.
    public convenience init(
        loop: DisplayLoop, contentSource: PipContentSource?, corner: Corner = .bottomRight, size: (Int, Int)? = nil,
        frame: Rect? = nil, allowSharedMemory: Bool = true, startsAutomaticallyWhenSourceHidden: Bool = false,
        automaticPip: AutomaticPip = .hidden, jpegDecodeThreads: Int = JPEGDecoder.standardThreads, output: VideoOutput? = nil
    ) throws {
        try self.init(
            windowSystem: X11WindowSystem(loop: loop), contentSource: contentSource, corner: corner, size: size, frame: frame,
            video: VideoSurfaceOptions(allowSharedMemory: allowSharedMemory, jpegDecodeThreads: jpegDecodeThreads),
            startsAutomaticallyWhenSourceHidden: startsAutomaticallyWhenSourceHidden, automaticPip: automaticPip, output: output)
        ownsWindowSystem = true
    }
}

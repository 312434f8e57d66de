import PipCore

/// What showing one frame of a capture mode costs in CPU at a window's size: an estimate from
/// costs measured per pixel with `make bench-kernels` (docs/PERFORMANCE.md, "Camera modes"), for
/// comparing modes, not for predicting a machine's load. Raw frames the content's size or exactly
/// twice it take straight passes; other sizes are resampled, which also reads every source row.
/// MJPEG is decoded first: at 1/2, 1/4 or 1/8 when that still covers the content (no inverse DCT),
/// else at full size, and the decoded picture is then converted like a raw one.
public struct ModeCost: Sendable, Equatable {
    /// Nanoseconds per pixel of each kind of work.
    public var directPerOutputPixel: Double
    public var halvingPerOutputPixel: Double
    public var resamplingPerOutputPixel: Double
    public var resamplingPerSourcePixel: Double
    public var fullDecodePerSourcePixel: Double
    public var reducedDecodePerSourcePixel: Double

    /// `make bench-kernels` on the project's 2-vCPU AMD EPYC bench machine, 2026-11-29: 1:1 and
    /// 2:1 passes of 720p and 1080p pictures; the resampling pass fitted to its 4:3, 3:2, 8:3 and
    /// 1:2 cases; a 1080p camera-like MJPEG stream decoded on one thread at full size and at 1/2.
    /// Only their ratios matter here.
    public static let measured = ModeCost(
        directPerOutputPixel: 0.6, halvingPerOutputPixel: 0.8, resamplingPerOutputPixel: 1.2,
        resamplingPerSourcePixel: 0.15, fullDecodePerSourcePixel: 3.4, reducedDecodePerSourcePixel: 1.1)

    public init(
        directPerOutputPixel: Double, halvingPerOutputPixel: Double, resamplingPerOutputPixel: Double,
        resamplingPerSourcePixel: Double, fullDecodePerSourcePixel: Double, reducedDecodePerSourcePixel: Double
    ) {
        self.directPerOutputPixel = directPerOutputPixel
        self.halvingPerOutputPixel = halvingPerOutputPixel
        self.resamplingPerOutputPixel = resamplingPerOutputPixel
        self.resamplingPerSourcePixel = resamplingPerSourcePixel
        self.fullDecodePerSourcePixel = fullDecodePerSourcePixel
        self.reducedDecodePerSourcePixel = reducedDecodePerSourcePixel
    }

    /// Milliseconds of CPU a frame of `mode` costs shown at `displayWidth`×`displayHeight` (the
    /// picture fitted inside it, its shape kept).
    public func milliseconds(_ mode: V4L2Mode, displayWidth: Int, displayHeight: Int) -> Double {
        let source = mode.size
        guard source.area > 0, displayWidth > 0, displayHeight > 0 else { return 0 }
        let content = Self.fitted(source, displayWidth, displayHeight)
        var picture = source, nanoseconds = 0.0
        if mode.fourcc.pixelFormat == .mjpeg {
            let scale = [8, 4, 2].first { source.width / $0 >= content.width && source.height / $0 >= content.height } ?? 1
            picture = V4L2Size(source.width / scale, source.height / scale)
            nanoseconds += Double(source.area) * (scale > 1 ? reducedDecodePerSourcePixel : fullDecodePerSourcePixel)
        }
        let shown = Double(content.area)
        if picture == content {
            nanoseconds += shown * directPerOutputPixel
        } else if picture.width == 2 * content.width && picture.height == 2 * content.height {
            nanoseconds += shown * halvingPerOutputPixel
        } else {
            nanoseconds += shown * resamplingPerOutputPixel + Double(picture.area) * resamplingPerSourcePixel
        }
        return nanoseconds / 1e6
    }

    /// `size` scaled to fit `width`×`height`, its shape kept.
    static func fitted(_ size: V4L2Size, _ width: Int, _ height: Int) -> V4L2Size {
        if size.width * height <= size.height * width {
            return V4L2Size(max(1, size.width * height / size.height), height)
        }
        return V4L2Size(width, max(1, size.height * width / size.width))
    }
}

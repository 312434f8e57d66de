/// One plane of a frame: where its first row starts and how far apart rows are.
public struct FramePlane: @unchecked Sendable {
    public var base: UnsafeRawPointer
    public var stride: Int
    public init(base: UnsafeRawPointer, stride: Int) {
        self.base = base
        self.stride = stride
    }
}

/// A frame as a source hands it out: a view of pixels in the source's own buffer.
///
/// The pixels stay valid until the frame's buffer is given back to its source
/// (`FrameSource.recycle(bufferIndex:)`, done by `FramePump`), so a frame is never copied on
/// its way from the capture buffer to the window image. Up to three planes; for `.mjpeg`,
/// plane 0 holds the compressed bytes and `byteCount` their length.
public struct VideoFrame: @unchecked Sendable {
    public var format: PixelFormat
    public var width: Int
    public var height: Int
    public var plane0: FramePlane
    public var plane1: FramePlane?
    public var plane2: FramePlane?
    /// Bytes of payload (meaningful for compressed formats; the whole buffer otherwise).
    public var byteCount: Int
    public var colorimetry: Colorimetry
    /// When the frame was captured (V4L2 monotonic timestamp) or read (files, test source).
    public var timestamp: MonotonicInstant
    /// Source sequence number; gaps mean frames the source dropped.
    public var sequence: UInt64
    /// The source's buffer this frame lives in, to give back once the frame is shown.
    public var bufferIndex: Int
    /// For a file, the number of the file's frame (from 0), which seeks and loops move; nil for
    /// live sources.
    public var mediaFrame: Int? = nil
    /// For a file's frame: how many of the seeks asked of its playback it answers (it comes after
    /// them), so that a `seek` can be answered once its frame shows.
    public var seeksAnswered: Int? = nil

    public init(
        format: PixelFormat, width: Int, height: Int,
        plane0: FramePlane, plane1: FramePlane? = nil, plane2: FramePlane? = nil,
        byteCount: Int, colorimetry: Colorimetry, timestamp: MonotonicInstant,
        sequence: UInt64, bufferIndex: Int
    ) {
        self.format = format
        self.width = width
        self.height = height
        self.plane0 = plane0
        self.plane1 = plane1
        self.plane2 = plane2
        self.byteCount = byteCount
        self.colorimetry = colorimetry
        self.timestamp = timestamp
        self.sequence = sequence
        self.bufferIndex = bufferIndex
    }

    /// A frame over tightly packed pixels starting at `base` (planes one after another).
    public init(
        packed format: PixelFormat, width: Int, height: Int, base: UnsafeRawPointer,
        byteCount: Int, colorimetry: Colorimetry, timestamp: MonotonicInstant,
        sequence: UInt64, bufferIndex: Int
    ) {
        let layout = format.packedLayout(width: width, height: height)
            ?? PlaneLayout(count: 1, strides: (byteCount, 0, 0), rows: (1, 0, 0))
        let offsets = layout.offsets
        self.init(
            format: format, width: width, height: height,
            plane0: FramePlane(base: base, stride: layout.strides.0),
            plane1: layout.count > 1 ? FramePlane(base: base + offsets.1, stride: layout.strides.1) : nil,
            plane2: layout.count > 2 ? FramePlane(base: base + offsets.2, stride: layout.strides.2) : nil,
            byteCount: byteCount, colorimetry: colorimetry, timestamp: timestamp,
            sequence: sequence, bufferIndex: bufferIndex)
    }
}

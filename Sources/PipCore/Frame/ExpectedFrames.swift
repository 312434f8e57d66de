/// What frames a source will send, as far as it knows before the first one.
public struct ExpectedFrames: Equatable, Sendable {
    public var format: PixelFormat
    public var width: Int
    public var height: Int
    public init(format: PixelFormat, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }
}

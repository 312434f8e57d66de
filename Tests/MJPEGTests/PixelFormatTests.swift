import MJPEG
import PipCore
import Testing

@Suite struct PixelFormatTests {
    @Test func packedLayoutOfOddI420() {
        let layout = PixelFormat.i420.packedLayout(width: 5, height: 3)!
        #expect(layout.strides == (5, 3, 3))
        #expect(layout.rows == (3, 2, 2))
        #expect(layout.byteCount == 15 + 12)
    }
    @Test func scaleDenominatorCoversTarget() {
        #expect(JPEGDecoder.scaleDenominator(width: 1920, height: 1080, minWidth: 480, minHeight: 270) == 4)
        #expect(JPEGDecoder.scaleDenominator(width: 1920, height: 1080, minWidth: 481, minHeight: 270) == 2)
        #expect(JPEGDecoder.scaleDenominator(width: 1920, height: 1080, minWidth: 240, minHeight: 135) == 8)
        #expect(JPEGDecoder.scaleDenominator(width: 640, height: 480, minWidth: 1280, minHeight: 720) == 1)
    }
}

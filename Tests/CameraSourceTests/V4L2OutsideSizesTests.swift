@testable import CameraSource
import PipCore
import Testing

/// What a driver answers is outside input: sizes past pipcam's limits are no format it shows,
/// and a listed size of any magnitude orders modes without a trap.
@Suite struct V4L2OutsideSizesTests {
    @Test func aFormatPastTheLimitsHasNoLayout() {
        #expect(V4L2FrameLayout(format: V4L2PixFormat(fourcc: .yuyv, width: 640, height: 360, bytesPerLine: 1280)) != nil)
        #expect(V4L2FrameLayout(format: V4L2PixFormat(fourcc: .yuyv, width: 640, height: Int(Int32.max), bytesPerLine: Int(UInt32.max))) == nil)
        #expect(V4L2FrameLayout(format: V4L2PixFormat(fourcc: .yuyv, width: 0, height: 360)) == nil)
        #expect(V4L2FrameLayout(format: V4L2PixFormat(fourcc: .nv12, width: 16385, height: 2)) == nil)
    }

    @Test func anyListedSizeHasAnArea() {
        #expect(V4L2Size(640, 360).area == 230_400)
        #expect(V4L2Size(Int(UInt32.max), Int(UInt32.max)).area == .max, "(2^32 - 1)^2 is past Int.max")
        #expect(V4L2Size(Int(UInt32.max), 2).area == Int(UInt32.max) * 2)
        #expect(V4L2Size(Int.max, 2).area == .max)
    }
}

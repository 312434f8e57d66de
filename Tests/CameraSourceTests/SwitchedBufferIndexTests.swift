@testable import CameraSource
import Testing

/// `SwitchedBufferIndex`: a source's generation and its own buffer index, packed into the frame's
/// one index and read back.
@Suite struct SwitchedBufferIndexTests {
    @Test func packsTheGenerationAboveTheSourcesOwnIndex() {
        #expect(SwitchedBufferIndex.stride == 65_536)
        #expect(SwitchedBufferIndex(generation: 3, index: 7).packed == 196_615)
        #expect(SwitchedBufferIndex(generation: 1, index: 0).packed == 65_536)
    }

    /// Frames of the first source go out with their own indexes, as if no switcher were there.
    @Test func theFirstSourcesIndexesAreItsOwn() {
        for index in [0, 1, 255, 65_535] {
            #expect(SwitchedBufferIndex(generation: 0, index: index).packed == index)
        }
    }

    @Test func readsBackWhatWasPacked() {
        #expect(SwitchedBufferIndex(packed: 196_615) == SwitchedBufferIndex(generation: 3, index: 7))
        #expect(SwitchedBufferIndex(packed: 65_535) == SwitchedBufferIndex(generation: 0, index: 65_535))
        #expect(SwitchedBufferIndex(packed: 65_536) == SwitchedBufferIndex(generation: 1, index: 0))
        for (generation, index) in [(0, 0), (2, 65_535), (40_000, 12)] {
            let buffer = SwitchedBufferIndex(generation: generation, index: index)
            #expect(SwitchedBufferIndex(packed: buffer.packed) == buffer)
        }
    }

    /// Made for every frame: two integers, nothing counted or allocated.
    @Test func isTwoPlainIntegers() {
        #expect(MemoryLayout<SwitchedBufferIndex>.size == 2 * MemoryLayout<Int>.size)
        #expect(_isPOD(SwitchedBufferIndex.self))
    }
}

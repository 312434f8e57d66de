/// The buffer index a `SourceSwitcher` hands out with a frame: which of its sources the frame came
/// from (that source's generation: 0 for the first, one more for each proposed) and the source's
/// own index for it. Frames of two sources may be out at once; the pair, packed into the frame's
/// one `Int` (`VideoFrame.bufferIndex`) and read back when the buffer is given back, takes it to
/// the source it came from. Two integers, no allocation: it is made for every frame.
struct SwitchedBufferIndex: Equatable, Sendable {
    /// A source's own buffer indexes stay below this.
    static let stride = 1 << 16

    /// The source the buffer belongs to.
    let generation: Int
    /// The buffer's index as that source numbers it.
    let index: Int

    init(generation: Int, index: Int) {
        self.generation = generation
        self.index = index
    }

    /// The pair read back from the index a frame went out with.
    init(packed: Int) {
        generation = packed / Self.stride
        index = packed % Self.stride
    }

    /// The index the frame goes out with.
    var packed: Int { generation * Self.stride + index }
}

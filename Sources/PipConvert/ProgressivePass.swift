import PipCore
import MJPEG

/// Converts a JPEG picture's rows while the decoder is still at work on the rest (`DecodedRows`):
/// on two decoding threads the first then converts the rows it decoded while the second still
/// records, instead of converting all of them after both (the split point moves to even out the
/// extra work). A picture the content's size goes through `DirectPass` row by row; an upright one
/// that needs resampling through `UprightPass`, a block of output lines as soon as the rows its
/// taps read are final. `finish` converts what is left. Quarter turns are converted after decoding.
/// One per converter, reused frame after frame.
final class ProgressivePass: DecodedRows {
    /// Where the next picture goes (`begin`).
    private struct Destination {
        let content: Rect
        let rotation: Rotation
        let mirror: Bool
        let framing: Framing
        let layout: PixelLayout
        let target: ImageTarget
        /// Makes or finds the resampling plan (the converter's, shared with its other passes). The
        /// converter owns this pass: a strong reference, left here by a decode that throws, would
        /// keep both alive.
        unowned let plans: FrameConverter
    }

    private enum State {
        case idle
        /// Begun; no rows reported yet.
        case waiting(Destination)
        /// Converting through `DirectPass`; its first `rows` picture rows are done.
        case converting(DirectPass, rows: Int)
        /// Converting through `UprightPass`; its first `blocks` blocks of output lines are done.
        case resampling(UprightPass, blocks: Int)
        /// Not a picture converted here: the converter does it after decoding.
        case declined
    }

    private var state = State.idle
    /// How many rows of the last picture were converted before its decode ended (output lines,
    /// when it was resampled); for tests.
    private(set) var lastEarlyRows = 0

    /// Gets ready for the next picture, to be shown in `content` of `target`; `plans` makes the
    /// resampling plans.
    func begin(
        content: Rect, rotation: Rotation, mirror: Bool, framing: Framing, layout: PixelLayout,
        target: ImageTarget, plans: FrameConverter
    ) {
        state = .waiting(Destination(
            content: content, rotation: rotation, mirror: mirror, framing: framing, layout: layout, target: target,
            plans: plans))
    }

    func decoded(_ picture: VideoFrame, rows: Int) {
        if case .waiting(let d) = state { state = Self.start(picture, at: d) }
        switch state {
        case .converting(let pass, let done) where rows > done:
            pass.run(sourceRows: done..<rows)
            state = .converting(pass, rows: rows)
        case .resampling(let pass, let done):
            var ready = done
            while ready < pass.plan.blockCount && Int(pass.plan.rowsNeeded[ready]) <= rows { ready += 1 }
            guard ready > done else { return }
            pass.run(blocks: done..<ready)
            state = .resampling(pass, blocks: ready)
        default:
            break
        }
    }

    /// The pass for `picture` at `d`, with the bars above and below the content filled.
    private static func start(_ picture: VideoFrame, at d: Destination) -> State {
        let key = ConversionKey(picture: picture, content: d.content, rotation: d.rotation, mirror: d.mirror, framing: d.framing)
        guard let planes = try? FrameConverter.planes(of: picture) else { return .declined }
        if let pass = DirectPass(RowPassInput(picture: picture, planes: planes, key: key, layout: d.layout, target: d.target)) {
            pass.fillAboveAndBelow()
            return .converting(pass, rows: 0)
        }
        guard UprightPlan.handles(key.rotation) else { return .declined }
        let pass = UprightPass(
            plan: d.plans.uprightPlan(for: key), planes: planes,
            coefficients: YUVCoefficients16(picture.colorimetry), layout: d.layout, target: d.target)
        pass.fillAboveAndBelow()
        return .resampling(pass, blocks: 0)
    }

    /// Converts the rows not converted yet; false when this picture was not converted here (not
    /// reported, or a quarter turn), and the caller converts it all.
    func finish() -> Bool {
        defer { state = .idle }
        switch state {
        case .converting(let pass, let done):
            lastEarlyRows = done
            let height = pass.key.content.height
            if done < height { pass.run(sourceRows: done..<height) }
            return true
        case .resampling(let pass, let done):
            lastEarlyRows = min(done * UprightPlan.block, pass.plan.outerCount)
            pass.run(blocks: done..<pass.plan.blockCount)
            return true
        default:
            lastEarlyRows = 0
            return false
        }
    }
}

import CameraSource

/// Converts a JPEG picture's rows while the decoder is still at work on the rest (`DecodedRows`),
/// when the picture goes through `DirectPass`: on two decoding threads the first then converts the
/// rows it decoded while the second still records, instead of converting all of them after both
/// (the split point moves to even out the extra work). `finish` converts the rows left.
/// One per converter, reused frame after frame.
final class ProgressivePass: DecodedRows {
    /// Where the next picture goes (`begin`).
    private struct Destination {
        let content: ContentGeometry
        let rotation: Rotation
        let mirror: Bool
        let layout: PixelLayout
        let target: ImageTarget
    }

    private enum State {
        case idle
        /// Begun; no rows reported yet.
        case waiting(Destination)
        /// Converting through `DirectPass`; its first `rows` picture rows are done.
        case converting(DirectPass, rows: Int)
        /// Not a picture for `DirectPass`: the converter does it after decoding.
        case declined
    }

    private var state = State.idle
    /// How many rows of the last picture were converted before its decode ended; for tests.
    private(set) var lastEarlyRows = 0

    /// Gets ready for the next picture, to be shown in `content` of `target`.
    func begin(content: ContentGeometry, rotation: Rotation, mirror: Bool, layout: PixelLayout, target: ImageTarget) {
        state = .waiting(Destination(content: content, rotation: rotation, mirror: mirror, layout: layout, target: target))
    }

    func decoded(_ picture: VideoFrame, rows: Int) {
        if case .waiting(let d) = state {
            let key = ConversionPlan.Key(picture: picture, content: d.content, rotation: d.rotation, mirror: d.mirror)
            if let planes = try? FrameConverter.planes(of: picture),
                let pass = DirectPass(picture: picture, planes: planes, key: key, layout: d.layout, target: d.target)
            {
                pass.fillAboveAndBelow()
                state = .converting(pass, rows: 0)
            } else {
                state = .declined
            }
        }
        guard case .converting(let pass, let done) = state, rows > done else { return }
        pass.run(sourceRows: done..<rows)
        state = .converting(pass, rows: rows)
    }

    /// Converts the rows not converted yet; false when this picture was not converted here (not
    /// reported, or not one for `DirectPass`), and the caller converts it all.
    func finish() -> Bool {
        defer { state = .idle }
        guard case .converting(let pass, let done) = state else {
            lastEarlyRows = 0
            return false
        }
        lastEarlyRows = done
        let height = pass.key.content.height
        if done < height { pass.run(sourceRows: done..<height) }
        return true
    }
}

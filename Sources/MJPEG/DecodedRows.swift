import PipCore

/// Told as a picture's rows come out of the decoder, top to bottom, so they can be used (converted
/// for the screen) while the rest is still decoding: on two threads the first then does that work
/// while the second still records, instead of after both. Rows reported are final.
public protocol DecodedRows: AnyObject {
    /// Rows `0..<rows` of `picture` (its own rows; every plane's rows for those) are final.
    /// `picture` describes the decoder's output, valid until the next decode.
    func decoded(_ picture: VideoFrame, rows: Int)
}

/// Turns the scan's finished MCU rows into picture rows for a `DecodedRows`.
struct RowReport {
    let sink: DecodedRows
    let picture: VideoFrame
    /// Picture rows per MCU row.
    let rowsPerMCURow: Int

    /// MCU rows `0..<count` are decoded.
    func mcuRowsDone(_ count: Int) {
        sink.decoded(picture, rows: min(count * rowsPerMCURow, picture.height))
    }
}

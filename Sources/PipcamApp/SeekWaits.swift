import PipCore

/// `pipcam seek` answers once the frame sought is shown, as `switch` does (docs/BEHAVIOUR.md,
/// "Playing a file"): the seeks waiting, by their number among the seeks asked
/// (`PlaybackRequest.seeks`), and when each stops waiting. A pure value: seeks asked, frames
/// shown and time in; the seeks to answer out.
struct SeekWaits: Equatable {
    /// How long a seek waits for its frame before it is answered anyway (no window shows frames,
    /// the source stopped): the seek was asked of the source either way.
    static let patienceNanoseconds: Int64 = 1_500_000_000

    struct Wait: Equatable {
        /// The seek's number among the seeks asked.
        let number: Int
        let until: MonotonicInstant
    }

    private(set) var waiting: [Wait] = []

    /// Seek `number` was asked at `now`.
    mutating func asked(number: Int, at now: MonotonicInstant) {
        waiting.append(Wait(number: number, until: now.advanced(byNanoseconds: Self.patienceNanoseconds)))
    }

    /// A frame that answers the first `answered` seeks was shown: the seeks it answers.
    mutating func shown(answering answered: Int) -> [Int] { take { $0.number <= answered } }

    /// The seeks whose wait ended by `now`.
    mutating func expired(at now: MonotonicInstant) -> [Int] { take { $0.until <= now } }

    /// The file is gone (another source, the end): every seek waiting.
    mutating func dropAll() -> [Int] { take { _ in true } }

    /// When the next wait ends.
    var nextDeadline: MonotonicInstant? { waiting.map(\.until).min() }

    private mutating func take(_ done: (Wait) -> Bool) -> [Int] {
        let taken = waiting.filter(done).map(\.number)
        waiting.removeAll(where: done)
        return taken
    }
}

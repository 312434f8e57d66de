/// A way to decode an MJPEG picture.
public enum DecodePath: Int, CaseIterable, Sendable, CustomStringConvertible {
    /// pipcam's decoder (`ReducedJPEGDecoder`) on the caller's thread.
    case own
    /// pipcam's decoder, a large picture split with its second thread (`SplitScan`).
    case ownSplit
    /// libjpeg-turbo, with its SIMD inverse DCT, on the caller's thread.
    case libjpegTurbo

    public var description: String {
        switch self {
        case .own: return "own"
        case .ownSplit: return "own, two threads"
        case .libjpegTurbo: return "libjpeg-turbo"
        }
    }
}

/// Which way to decode a stream's pictures at one size and scale, chosen from what each way cost
/// on the pictures before, measured as the stream plays rather than by a fixed rule: the cheapest
/// in CPU among the ways that finished within the deadline, else the quickest. Which is cheapest
/// depends on the machine (libjpeg-turbo's SIMD inverse DCT against pipcam's own), the scale (at
/// 1/2, 1/4 and 1/8 pipcam's decoder skips the inverse DCT) and the pictures, so each way is tried
/// on a few pictures first, and one picture now and then after that, as pictures change. Each
/// way's first picture is left out (it makes its buffers, starts its thread). Pure: costs in,
/// the next way out.
public struct DecodePathChoice: Sendable, Equatable {
    /// What one way cost: the mean of its tried pictures, then an average that follows changes.
    public struct Cost: Sendable, Equatable {
        public var cpuMilliseconds: Double
        public var wallMilliseconds: Double
        public var samples: Int
        /// The picture (counted by `next`) this way last decoded.
        public var lastUsed: Int
    }

    /// Pictures each way decodes before the choice, its first one left out.
    public static let trialPictures = 3
    /// Every this many pictures, the way tried longest ago decodes one again.
    public static let retryEvery = 240
    /// How much a later picture moves a way's cost.
    static let smoothing = 0.25

    public let candidates: [DecodePath]
    /// Wall milliseconds a picture may take.
    public let deadline: Double
    public private(set) var costs: [DecodePath: Cost] = [:]
    private var warmedUp: Set<DecodePath> = []
    private var pictures = 0

    /// A choice among `candidates` (the first is taken while nothing is known) for pictures that
    /// must be decoded within `deadline` milliseconds (`.infinity`: only CPU counts).
    public init(candidates: [DecodePath], deadline: Double) {
        precondition(!candidates.isEmpty)
        self.candidates = candidates
        self.deadline = deadline
    }

    /// The way the next picture is decoded.
    public mutating func next() -> DecodePath {
        pictures += 1
        if let untried = candidates.first(where: { (costs[$0]?.samples ?? 0) < Self.trialPictures }) { return untried }
        let best = chosen!
        if pictures % Self.retryEvery == 0,
            let stale = candidates.filter({ $0 != best }).min(by: { costs[$0]!.lastUsed < costs[$1]!.lastUsed })
        {
            return stale
        }
        return best
    }

    /// The way the costs so far choose; nil until every way was tried.
    public var chosen: DecodePath? {
        guard candidates.allSatisfy({ (costs[$0]?.samples ?? 0) >= Self.trialPictures }) else { return nil }
        let timely = candidates.filter { costs[$0]!.wallMilliseconds <= deadline }
        if !timely.isEmpty { return timely.min { costs[$0]!.cpuMilliseconds < costs[$1]!.cpuMilliseconds } }
        return candidates.min { costs[$0]!.wallMilliseconds < costs[$1]!.wallMilliseconds }
    }

    /// What decoding a picture along `path` cost: `cpu` milliseconds of CPU on all its threads,
    /// `wall` milliseconds from start to end.
    public mutating func record(_ path: DecodePath, cpu: Double, wall: Double) {
        guard warmedUp.contains(path) else {
            warmedUp.insert(path)
            return
        }
        var cost = costs[path] ?? Cost(cpuMilliseconds: 0, wallMilliseconds: 0, samples: 0, lastUsed: 0)
        let weight = cost.samples < Self.trialPictures ? 1 / Double(cost.samples + 1) : Self.smoothing
        cost.cpuMilliseconds += (cpu - cost.cpuMilliseconds) * weight
        cost.wallMilliseconds += (wall - cost.wallMilliseconds) * weight
        cost.samples += 1
        cost.lastUsed = pictures
        costs[path] = cost
    }
}

/// A block of a scan (its index in picture order) and the bit of the entropy data it starts at.
struct ScanPosition: Equatable {
    var block: Int, bit: Int
}

/// What `ScanDecoder.scan` checks before each block; `NoWatch` compiles the checks away.
protocol BlockWatch {
    static var isActive: Bool { get }
    var startBit: Int { get }
    var isHopeless: Bool { get }
    mutating func match(bitOffset: Int, slot: Int) -> Int?
    /// Where this thread tells how far it has decoded (`SplitProgress.noteFirstThread`).
    var report: SplitProgress? { get }
}

/// The one-thread scan: no recording parser to meet.
struct NoWatch: BlockWatch {
    static var isActive: Bool { false }
    var startBit: Int { .max }
    var isHopeless: Bool { true }
    func match(bitOffset: Int, slot: Int) -> Int? { nil }
    var report: SplitProgress? { nil }
}

extension SpliceWatch: BlockWatch {
    static var isActive: Bool { true }
    var report: SplitProgress? { progress }
}

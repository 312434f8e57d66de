import Testing
@testable import MJPEG

/// Which way MJPEG pictures are decoded: each way tried first, then the cheapest in CPU of those
/// within the deadline, one picture of another way now and then.
@Suite struct DecodePathChoiceTests {
    /// Decodes `count` pictures, each way costing what `costs` says (cpu, wall); returns the ways taken.
    private func run(_ choice: inout DecodePathChoice, _ count: Int, _ costs: [DecodePath: (Double, Double)]) -> [DecodePath] {
        (0..<count).map { _ in
            let way = choice.next()
            choice.record(way, cpu: costs[way]!.0, wall: costs[way]!.1)
            return way
        }
    }

    @Test func triesEachWayThenTakesTheCheapestWithinTheDeadline() {
        var choice = DecodePathChoice(candidates: [.ownSplit, .own, .libjpegTurbo], deadline: 2)
        // 1080p at 1/4 scale on two threads: quick; on one, cheaper but over 2 ms.
        let costs: [DecodePath: (Double, Double)] = [.ownSplit: (2.6, 1.3), .own: (2.3, 2.3), .libjpegTurbo: (4.4, 4.4)]
        let ways = run(&choice, 12, costs)
        // Each way's first picture is left out: four pictures each.
        #expect(ways == [DecodePath](repeating: .ownSplit, count: 4) + [DecodePath](repeating: .own, count: 4)
            + [DecodePath](repeating: .libjpegTurbo, count: 4))
        #expect(choice.chosen == .ownSplit)
        #expect(run(&choice, 10, costs) == [DecodePath](repeating: .ownSplit, count: 10))
        // Without a deadline (frames that queue anyway), the cheapest in CPU.
        var untimed = DecodePathChoice(candidates: [.own, .libjpegTurbo], deadline: .infinity)
        _ = run(&untimed, 8, [.own: (7.0, 7.0), .libjpegTurbo: (5.6, 5.6)])
        #expect(untimed.chosen == .libjpegTurbo)
    }

    @Test func noWayInTimeTakesTheQuickest() {
        var choice = DecodePathChoice(candidates: [.ownSplit, .own, .libjpegTurbo], deadline: 2)
        _ = run(&choice, 12, [.ownSplit: (7.5, 4.0), .own: (7.0, 7.0), .libjpegTurbo: (5.6, 5.6)])
        #expect(choice.chosen == .ownSplit)
    }

    @Test func theFirstPictureOfAWayIsLeftOut() {
        var choice = DecodePathChoice(candidates: [.own, .libjpegTurbo], deadline: .infinity)
        choice.record(choice.next(), cpu: 50, wall: 50)  // own's start-up
        for _ in 0..<3 { choice.record(choice.next(), cpu: 3, wall: 3) }
        #expect(choice.costs[.own]?.cpuMilliseconds == 3 && choice.costs[.own]?.samples == 3)
        #expect(choice.chosen == nil, "libjpeg-turbo not tried yet")
        #expect(choice.next() == .libjpegTurbo)
    }

    /// Pictures change: every `retryEvery` pictures the way tried longest ago decodes one, and a
    /// way that became cheaper takes over.
    @Test func triesTheOtherWaysAgainNowAndThen() {
        var choice = DecodePathChoice(candidates: [.own, .libjpegTurbo], deadline: .infinity)
        var costs: [DecodePath: (Double, Double)] = [.own: (3, 3), .libjpegTurbo: (4, 4)]
        var ways = run(&choice, 8, costs)
        #expect(choice.chosen == .own)
        ways = run(&choice, DecodePathChoice.retryEvery, costs)
        #expect(ways.filter { $0 == .libjpegTurbo }.count == 1)
        // The own decoder's pictures got dearer: the retries move libjpeg-turbo's cost, and it takes over.
        costs[.own] = (6, 6)
        costs[.libjpegTurbo] = (2, 2)
        ways = run(&choice, 4 * DecodePathChoice.retryEvery, costs)
        #expect(choice.chosen == .libjpegTurbo)
        #expect(ways.suffix(DecodePathChoice.retryEvery).filter { $0 == .own }.count == 1, "own only to retry")
    }
}

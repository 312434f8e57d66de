import Glibc
import Testing

@testable import PipCore

/// The table both event loops wait on: how long they sleep, timers, and readers that come and go
/// while handlers run.
struct LoopTableTests {
    static let now = MonotonicInstant(nanoseconds: 5_000_000_000)

    @Test func theLoopSleepsUntilTheNearestTimerRoundedUpAndAtMostAMinute() {
        #expect(LoopTable.pollTimeout(nearest: nil, now: Self.now) == -1)
        #expect(LoopTable.pollTimeout(nearest: Self.now, now: Self.now) == 0)
        #expect(LoopTable.pollTimeout(nearest: Self.now.advanced(byNanoseconds: -1), now: Self.now) == 0)
        // Never early: a part of a millisecond counts as a whole one.
        #expect(LoopTable.pollTimeout(nearest: Self.now.advanced(byNanoseconds: 1), now: Self.now) == 1)
        #expect(LoopTable.pollTimeout(nearest: Self.now.advanced(byNanoseconds: 250_000_000), now: Self.now) == 250)
        #expect(LoopTable.pollTimeout(nearest: Self.now.advanced(byNanoseconds: 3_600_000_000_000), now: Self.now) == 60_000)
    }

    @Test func dueTimersRunOnceAndACancelledOneNever() {
        let table = LoopTable()
        var ran: [String] = []
        let past = MonotonicInstant.now().advanced(byNanoseconds: -1)
        table.schedule(at: past) { ran.append("due") }
        let cancelled = table.schedule(at: past) { ran.append("cancelled") }
        table.schedule(at: .now().advanced(byNanoseconds: 60_000_000_000)) { ran.append("later") }
        // A timer scheduled by a running one waits for the next look.
        table.schedule(at: past) { table.schedule(at: past) { ran.append("next look") } }
        table.cancelTimer(cancelled)
        table.runDueTimers()
        #expect(ran == ["due", "next look"] || ran == ["due"])
        table.runDueTimers()
        #expect(ran.filter { $0 == "next look" }.count == 1)
        #expect(!ran.contains("cancelled") && !ran.contains("later"))
    }

    @Test func aReaderRemovedByAnEarlierOneDoesNotRunAndTheConnectionIsReported() throws {
        var first: [Int32] = [0, 0], second: [Int32] = [0, 0], connection: [Int32] = [0, 0]
        for i in 0..<3 {
            let fds = UnsafeMutablePointer<Int32>.allocate(capacity: 2)
            defer { fds.deallocate() }
            #expect(pipe(fds) == 0)
            let pair = [fds[0], fds[1]]
            if i == 0 { first = pair } else if i == 1 { second = pair } else { connection = pair }
        }
        defer { for fd in first + second + connection { close(fd) } }
        let table = LoopTable()
        var ran: [String] = []
        table.addReader(first[0]) { ran.append("first"); table.removeReader(second[0]) }
        table.addReader(second[0]) { ran.append("second") }
        var byte: UInt8 = 1
        #expect(write(first[1], &byte, 1) == 1 && write(second[1], &byte, 1) == 1)
        #expect(table.poll(connection: connection[0], events: Int16(POLLIN), wait: true) == 0)
        table.runReadyReaders()
        #expect(ran == ["first"])

        #expect(write(connection[1], &byte, 1) == 1)
        #expect(table.poll(connection: connection[0], events: Int16(POLLIN), wait: false) & Int16(POLLIN) != 0)
        table.runReadyReaders()
        #expect(ran == ["first", "first"], "the first reader's byte is still there; the second is gone")
    }
}

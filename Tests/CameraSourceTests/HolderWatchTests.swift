import Testing
@testable import CameraSource
import PipCore

/// When the holder of a camera in use is looked up: on becoming in use, every 5 s while it stays
/// so, at once for another device, never while it streams or for a source that is no device.
@Suite struct HolderWatchTests {
    private let t0 = MonotonicInstant(nanoseconds: 50_000_000_000)
    private func at(_ ms: Int64) -> MonotonicInstant { t0.advanced(byNanoseconds: ms * 1_000_000) }

    /// A lookup that answers `answers` in turn and records the devices asked for.
    private final class Lookup {
        var asked: [String] = []
        var answers: [String?]
        init(_ answers: [String?]) { self.answers = answers }
        func callAsFunction(_ device: String) -> String? {
            asked.append(device)
            return answers.isEmpty ? nil : answers.removeFirst()
        }
    }

    @Test func lookedUpOnBecomingInUseThenEveryFiveSeconds() {
        var watch = HolderWatch()
        let lookup = Lookup(["firefox, pid 10", "zoom, pid 20"])
        #expect(watch.update(camera: .streaming, device: "/dev/video0", now: at(0), lookUp: lookup.callAsFunction) == nil)
        #expect(lookup.asked.isEmpty)
        #expect(watch.update(camera: .interrupted(.inUse), device: "/dev/video0", now: at(100), lookUp: lookup.callAsFunction) == "firefox, pid 10")
        #expect(watch.update(camera: .interrupted(.inUse), device: "/dev/video0", now: at(5_099), lookUp: lookup.callAsFunction) == "firefox, pid 10")
        #expect(lookup.asked.count == 1)
        #expect(watch.update(camera: .interrupted(.inUse), device: "/dev/video0", now: at(5_100), lookUp: lookup.callAsFunction) == "zoom, pid 20")
        #expect(lookup.asked.count == 2)
    }

    @Test func anotherDeviceIsLookedUpAtOnce() {
        var watch = HolderWatch()
        let lookup = Lookup(["a, pid 1", "b, pid 2"])
        _ = watch.update(camera: .interrupted(.inUse), device: "/dev/video0", now: at(0), lookUp: lookup.callAsFunction)
        #expect(watch.update(camera: .interrupted(.inUse), device: "/dev/video2", now: at(10), lookUp: lookup.callAsFunction) == "b, pid 2")
        #expect(lookup.asked == ["/dev/video0", "/dev/video2"])
    }

    @Test func streamingAgainForgetsTheHolderAndTheNextInUseLooksAgain() {
        var watch = HolderWatch()
        let lookup = Lookup(["a, pid 1", "a, pid 1"])
        _ = watch.update(camera: .interrupted(.inUse), device: "/dev/video0", now: at(0), lookUp: lookup.callAsFunction)
        #expect(watch.update(camera: .streaming, device: "/dev/video0", now: at(1_000), lookUp: lookup.callAsFunction) == nil)
        #expect(watch.update(camera: .interrupted(.disconnected), device: "/dev/video0", now: at(1_500), lookUp: lookup.callAsFunction) == nil)
        #expect(watch.update(camera: .interrupted(.inUse), device: "/dev/video0", now: at(2_000), lookUp: lookup.callAsFunction) == "a, pid 1")
        #expect(lookup.asked.count == 2)
    }

    @Test func aSourceThatIsNoDeviceHasNoHolder() {
        var watch = HolderWatch()
        let lookup = Lookup(["a, pid 1"])
        #expect(watch.update(camera: .interrupted(.inUse), device: nil, now: at(0), lookUp: lookup.callAsFunction) == nil)
        #expect(lookup.asked.isEmpty)
    }
}

import CameraSource
import PipCore
import PipWindow
import Testing

/// The `--stats` line read back as it is written (docs/BEHAVIOUR.md, "Stats line").
@Suite struct StatsLineTests {
    static let contract =
        "pipcam: state=active camera=streaming fps=29.97 shown=300 dropped=2 latency_p50_ms=0.61 latency_p99_ms=1.40 cpu_ms_per_frame=0.52"

    @Test func readsTheContractLine() throws {
        let line = try #require(StatsLine(Self.contract))
        #expect(line.state == "active" && line.camera == .streaming)
        #expect(line.fps == 29.97 && line.shown == 300 && line.dropped == 2)
        #expect(line.latencyP50 == 0.61 && line.latencyP99 == 1.40 && line.cpuPerFrame == 0.52)
        #expect(line.shared == nil && line.switches == nil && line.firstFrame == nil)
        #expect(line.description == Self.contract)
    }

    @Test(arguments: [
        " shared=12", " switches=3", " first_frame_ms=84.20", " shared=12 switches=3", " shared=0 switches=1 first_frame_ms=9.05",
    ])
    func readsTheFieldsThatFollow(_ tail: String) throws {
        let line = try #require(StatsLine(Self.contract + tail))
        #expect(line.description == Self.contract + tail)
    }

    @Test(arguments: CameraInterruption.allCases)
    func readsEveryInterruption(_ why: CameraInterruption) throws {
        let text = Self.contract.replacingOccurrences(of: "camera=streaming", with: "camera=interrupted:\(why.rawValue)")
        #expect(StatsLine(text)?.camera == .interrupted(why))
    }

    /// What pipcam writes reads back the same, at every field's extremes.
    @Test func whatIsWrittenReadsBack() {
        let lines = [
            StatsLine(state: "idle", camera: .waiting, fps: 0, shown: 0, dropped: 0, latencyP50: 0, latencyP99: 0, cpuPerFrame: 0),
            StatsLine(
                state: "stopping", camera: .interrupted(.pressure), fps: 120.005, shown: 1 << 40, dropped: 7,
                latencyP50: 10_000, latencyP99: 10_000.5, cpuPerFrame: 0.004, shared: 5, switches: 2, firstFrame: 1234.5),
        ]
        for line in lines {
            let read = StatsLine(line.description)
            #expect(read?.description == line.description, "\(line)")
        }
    }

    @Test(arguments: [
        "",
        "state=active camera=streaming",
        contract.replacingOccurrences(of: "state=active", with: "state=running"),
        contract.replacingOccurrences(of: "camera=streaming", with: "camera=interrupted:gone"),
        contract.replacingOccurrences(of: "fps=29.97", with: "fps=nan"),
        contract.replacingOccurrences(of: "fps=29.97", with: "fps=-1.00"),
        contract.replacingOccurrences(of: "shown=300", with: "shown=-3"),
        contract.replacingOccurrences(of: " dropped=2", with: ""),
        contract.replacingOccurrences(of: "shown=300 dropped=2", with: "dropped=2 shown=300"),
        contract + " ",
        contract + " extra=1",
        contract + " switches=1 shared=2",
        contract + " shared=",
        "pipcam: /dev/video0: no such device",
    ])
    func refusesWhatIsNotALine(_ text: String) {
        #expect(StatsLine(text) == nil, "\(text)")
    }

    @Test func theLastLineAmongOthers() {
        let text = "pipcam: no camera found; showing the test pattern\n" + Self.contract
            + "\n" + Self.contract.replacingOccurrences(of: "shown=300", with: "shown=301") + " first_frame_ms=80.00\nbye\n"
        #expect(StatsLine.last(in: text)?.shown == 301)
        #expect(StatsLine.last(in: "nothing here\n") == nil)
    }
}

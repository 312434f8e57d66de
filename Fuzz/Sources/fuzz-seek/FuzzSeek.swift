// Seeks from outside: `pipcam seek` text and a media player's Int64 microseconds (MPRIS Seek and
// SetPosition) on a file of any rate and length. Whatever is asked, the frame sought is inside
// the file (or, its length unknown, no further than `PlayerClock.farthest`), and nothing traps.
@testable import CameraSource
import FuzzSupport
@testable import PipcamApp

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSeek(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    func word() -> UInt64 { (0..<8).reduce(UInt64(0)) { value, _ in value << 8 | UInt64(input.byte()) } }
    let rate = Double(bitPattern: word())
    let count = input.uint16()
    let shown = input.uint16()
    let micros = Int64(bitPattern: word())
    let text = input.text
    var asked: [SeekTarget] = SeekTarget.parse(text).map { [$0] } ?? []
    for media in [MediaCommand.seek(by: Double(micros) / 1_000_000), .setPosition(Double(micros) / 1_000_000)] {
        for command in MediaDesk.commands(for: media) {
            guard case .playback(.seek(let target)) = command else { continue }
            asked.append(target)
        }
    }
    for target in asked {
        var clock = PlayerClock(frameRate: rate, frameCount: count == 0 ? nil : count)
        clock.handedOut(frame: count == 0 ? shown : min(shown, count - 1))
        let frame = clock.seek(target)
        let last = count == 0 ? PlayerClock.farthest : count - 1
        precondition((0...last).contains(frame), "\(target) at \(rate) fps in \(count) frames goes to \(frame)")
        clock.handedOut(frame: frame)
        _ = clock.position
    }
    return 0
}

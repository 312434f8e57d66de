import CameraSource
import PipCore

/// The keys that step the common camera controls in the windows, in pairs like mpv's picture keys:
/// `1`/`2` brightness, `3`/`4` exposure, `5`/`6` focus, `7`/`8` white balance, `9`/`0` the
/// camera's own (optical) zoom. A pure value.
enum ControlKeys {
    /// The controls a pair of keys steps, the first the camera has: V4L2 control IDs.
    static let pairs: [(name: String, ids: [UInt32])] = [
        ("brightness", [0x0098_0900]),
        ("exposure", [0x009a_0902, 0x0098_0911]),
        ("focus", [0x009a_090a]),
        ("white balance", [0x0098_091a]),
        ("zoom", [0x009a_090d]),
    ]
    /// Steps from one end of a control's range to the other.
    static let stepsPerRange: Int64 = 20

    /// What digit key `digit` steps: the pair's controls and the direction (`1` down, `2` up, …, `0` up).
    static func step(forDigit digit: Int) -> (name: String, ids: [UInt32], direction: Int64)? {
        guard (0...9).contains(digit) else { return nil }
        let index = (digit + 9) % 10  // 1…9, 0 → 0…9
        return (pairs[index / 2].name, pairs[index / 2].ids, index % 2 == 0 ? -1 : 1)
    }

    /// `control`'s value one key step from `value` in `direction`: a twentieth of its range,
    /// whole steps of the control, within its range.
    static func stepped(_ control: CameraControl, from value: Int64, direction: Int64) -> Int64 {
        // A driver may give any 64-bit range, step and value: differences are taken unsigned and
        // sums saturate, so the result is the same as plain arithmetic wherever that fits.
        let low = control.minimum, high = max(control.minimum, control.maximum)
        let step = UInt64(max(1, control.step))
        let span = UInt64(bitPattern: high &- low)
        let stride = Int64(clamping: max(step, (span / UInt64(stepsPerRange) + step / 2) / step * step))
        let target = min(max(value.addingSaturated(direction > 0 ? stride : -stride), low), high)
        // Back onto the control's grid of steps from its minimum.
        let onGrid = low &+ Int64(bitPattern: UInt64(bitPattern: target &- low) / step * step)
        let (up, past) = onGrid.addingReportingOverflow(Int64(clamping: step))
        return direction > 0 && onGrid < target && !past && up <= high ? up : onGrid
    }
}

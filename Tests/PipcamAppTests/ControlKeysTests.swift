import CameraSource
import TestSupport
import Testing
@testable import PipcamApp

/// The digit keys step a camera control by a twentieth of its range, on its grid, within it, for
/// any range a driver gives (64-bit ones included).
@Suite struct ControlKeysTests {
    private func control(_ minimum: Int64, _ maximum: Int64, step: Int64 = 1) -> CameraControl {
        CameraControl(id: 0x0098_0900, label: "Brightness", kind: .integer, minimum: minimum, maximum: maximum, step: step)
    }

    @Test func aStepIsATwentiethOfTheRangeOnTheGrid() {
        #expect(ControlKeys.stepped(control(-64, 64), from: 0, direction: 1) == 6)
        #expect(ControlKeys.stepped(control(-64, 64), from: 0, direction: -1) == -6)
        #expect(ControlKeys.stepped(control(0, 255, step: 5), from: 100, direction: 1) == 110)
        #expect(ControlKeys.stepped(control(0, 255, step: 5), from: 250, direction: 1) == 255)
        #expect(ControlKeys.stepped(control(0, 10), from: 0, direction: -1) == 0)
        #expect(ControlKeys.stepped(control(2800, 6500, step: 10), from: 6490, direction: 1) == 6500)
    }

    /// The same as plain arithmetic on every range where that fits, as before.
    @Test func smallRangesStepAsPlainArithmetic() {
        var random = SplitMix(seed: 7)
        for _ in 0..<20_000 {
            let a = Int64(Int32.random(in: .min ... .max, using: &random)), b = Int64(Int32.random(in: .min ... .max, using: &random))
            let (low, high) = (min(a, b), max(a, b))
            let step = Int64.random(in: 1...1000, using: &random)
            let value = Int64.random(in: low...high, using: &random)
            for direction: Int64 in [-1, 1] {
                let span = high - low
                let stride = max(step, (span / ControlKeys.stepsPerRange + step / 2) / step * step)
                let target = min(max(value + direction * stride, low), high)
                let onGrid = low + (target - low) / step * step
                let plain = direction > 0 && onGrid < target && onGrid + step <= high ? onGrid + step : onGrid
                #expect(ControlKeys.stepped(control(low, high, step: step), from: value, direction: direction) == plain)
            }
        }
    }

    /// A driver's 64-bit extremes: the value stays within the range, nothing traps.
    @Test(arguments: [
        [Int64.min, .max, 1, .max], [Int64.min, .max, 1, .min], [0, .max, .max, .max - 1],
        [Int64.max - 10, .max, 3, .max], [Int64.min, .min + 5, 1, .min], [-1, 1, .max, 0],
    ] as [[Int64]])
    func extremeRangesStayInside(range: [Int64]) {
        let (minimum, maximum, step, value) = (range[0], range[1], range[2], range[3])
        for direction: Int64 in [-1, 1] {
            let stepped = ControlKeys.stepped(control(minimum, maximum, step: step), from: value, direction: direction)
            #expect((minimum...maximum).contains(stepped), "\(direction): \(stepped)")
        }
    }
}

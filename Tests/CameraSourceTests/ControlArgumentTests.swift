import Testing
@testable import CameraSource

/// `NAME=VALUE` against a camera's controls: what each kind of control takes, and one line for
/// every refusal.
@Suite struct ControlArgumentTests {
    private let controls = FakeCameras.uvcControls().values.sorted { $0.id < $1.id } + [
        CameraControl(id: 0x009a_0922, label: "Zoom, Continuous", kind: .integer64, minimum: -5_000_000_000, maximum: 5_000_000_000, defaultValue: 0),
        CameraControl(
            id: 0x009f_0901, label: "Link Frequency", kind: .integerMenu, maximum: 2, defaultValue: 0,
            menu: [.init(index: 0, name: "336000000"), .init(index: 2, name: "5")]),
        CameraControl(id: 0x009f_0902, label: "Test Bits", kind: .bitmask, maximum: 0x8000_000f, defaultValue: 0),
        CameraControl(id: 0x009f_0903, label: "Camera Name", kind: .other),
    ]

    private func value(_ argument: String) -> Int64? { try? ControlArgument.parse(argument, controls: controls).value }

    private func refusal(_ argument: String) -> String? {
        do {
            _ = try ControlArgument.parse(argument, controls: controls)
            return nil
        } catch {
            return error.line
        }
    }

    @Test func integersInRangeWithTheirWords() throws {
        #expect(try ControlArgument.parse("brightness=12", controls: controls) == ControlSetting(id: 0x0098_0900, name: "brightness", value: 12))
        #expect(value("brightness=-64") == -64)
        #expect(value("brightness=+5") == 5)
        #expect(value(" brightness = 3 ") == 3)
        #expect(value("brightness=0x10") == 16)
        #expect(value("contrast=default") == 32)
        #expect(value("contrast=MAX") == 95)
        #expect(value("contrast=min") == 0)
        #expect(value("white_balance_temperature=2810") == 2810)
        #expect(value("zoom_continuous=4000000000") == 4_000_000_000)
    }

    @Test func namesAreFoundByAnySpellingThatCanonicalisesOrByID() {
        #expect(value("White Balance Temperature=3000") == 3000)
        #expect(value("BRIGHTNESS=1") == 1)
        #expect(value("0x00980901=7") == 7)
    }

    @Test func integersOutOfRangeOrOffTheirStepAreRefused() {
        #expect(refusal("brightness=65") == "pipcam: 'brightness=65': brightness is from -64 to 64 (got 65)")
        #expect(refusal("white_balance_temperature=4005")
            == "pipcam: 'white_balance_temperature=4005': white_balance_temperature goes in steps of 10 from 2800 (got 4005)")
        #expect(refusal("brightness=bright") == "pipcam: 'brightness=bright': brightness takes a whole number (got 'bright')")
        #expect(refusal("brightness=99999999999999999999") != nil)
        #expect(refusal("brightness") == "pipcam: 'brightness': brightness needs a value (brightness=VALUE)")
        #expect(refusal("brightness=") == "pipcam: 'brightness=': brightness needs a value (brightness=VALUE)")
    }

    @Test func booleansTakeOnOffWords() {
        for on in ["on", "true", "yes", "1", "ON", "Yes", "max"] { #expect(value("white_balance_automatic=\(on)") == 1, "\(on)") }
        for off in ["off", "false", "no", "0", "Off", "min"] { #expect(value("white_balance_automatic=\(off)") == 0, "\(off)") }
        #expect(value("white_balance_automatic=default") == 1)
        #expect(refusal("white_balance_automatic=maybe")
            == "pipcam: 'white_balance_automatic=maybe': white_balance_automatic is on or off (got 'maybe')")
        #expect(refusal("white_balance_automatic=2") == "pipcam: 'white_balance_automatic=2': white_balance_automatic is on or off (got '2')")
    }

    @Test func menusTakeAnItemsNameInAnyCaseWithSpacesAsUnderscoresOrItsIndex() {
        #expect(value("auto_exposure=Manual Mode") == 1)
        #expect(value("auto_exposure=manual_mode") == 1)
        #expect(value("auto_exposure=APERTURE PRIORITY MODE") == 3)
        #expect(value("auto_exposure=3") == 3)
        #expect(value("power_line_frequency=50 hz") == 1)
        #expect(value("power_line_frequency=60_Hz") == 2)
        #expect(value("power_line_frequency=0") == 0)
        #expect(value("auto_exposure=default") == 3)
        // Index 0 and 2 are not in this UVC menu, though within its range.
        #expect(refusal("auto_exposure=0")
            == "pipcam: 'auto_exposure=0': auto_exposure is one of: 1 Manual Mode, 3 Aperture Priority Mode (got '0')")
        #expect(refusal("auto_exposure=shutter")
            == "pipcam: 'auto_exposure=shutter': auto_exposure is one of: 1 Manual Mode, 3 Aperture Priority Mode (got 'shutter')")
    }

    @Test func integerMenusTakeTheNumberShownFirstThenAnIndex() {
        #expect(value("link_frequency=336000000") == 0)
        #expect(value("link_frequency=5") == 2, "the item named 5, not index 5")
        #expect(value("link_frequency=2") == 2, "index 2")
        #expect(refusal("link_frequency=1") == "pipcam: 'link_frequency=1': link_frequency is one of: 0 336000000, 2 5 (got '1')")
    }

    @Test func bitmasksTakeOnlyTheirBits() {
        #expect(value("test_bits=0x80000005") == 0x8000_0005)
        #expect(refusal("test_bits=16") == "pipcam: 'test_bits=16': test_bits takes the bits of 0x8000000f only (got 16)")
        #expect(refusal("test_bits=-1") == "pipcam: 'test_bits=-1': test_bits takes the bits of 0x8000000f only (got -1)")
    }

    @Test func buttonsTakeNoValueOrOne() throws {
        #expect(try ControlArgument.parse("button", controls: controls) == ControlSetting(id: 0x0098_0f00, name: "button", value: 1))
        #expect(value("button=1") == 1)
        #expect(refusal("button=2") == "pipcam: 'button=2': button is a button: give it no value or 1 (got '2')")
    }

    @Test func readOnlyDisabledAndUnsettableControlsAreRefused() {
        #expect(refusal("read_only_integer_32_bits=3") == "pipcam: 'read_only_integer_32_bits=3': read_only_integer_32_bits is read-only")
        #expect(refusal("pan_absolute=0") == "pipcam: 'pan_absolute=0': pan_absolute is disabled on this camera")
        #expect(refusal("camera_name=x") == "pipcam: 'camera_name=x': camera_name is of a kind pipcam cannot set")
        // Inactive is no refusal: the plan switches its automatic mode off.
        #expect(value("exposure_time_absolute=100") == 100)
    }

    @Test func anUnknownNameListsTheCamerasControls() throws {
        #expect(refusal("brightnes=3") == "pipcam: 'brightnes=3': the camera has no control 'brightnes' (it has brightness, contrast, "
            + "white_balance_automatic, power_line_frequency, white_balance_temperature, button, read_only_integer_32_bits, auto_exposure, …)")
        #expect(throws: ControlProblem("pipcam: 'focus': the camera has no control 'focus' (it has none)")) {
            _ = try ControlArgument.lookUp("focus", in: [])
        }
        #expect(refusal("=3") == "pipcam: '=3': expected NAME=VALUE")
        #expect(try ControlArgument.lookUp("Contrast", in: controls).id == 0x0098_0901)
    }
}

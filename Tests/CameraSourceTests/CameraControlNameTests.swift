import Testing
@testable import CameraSource

/// The names users type for controls: the driver's label as v4l2-ctl writes it.
@Suite struct CameraControlNameTests {
    @Test func labelsBecomeLowerCaseWordsJoinedByUnderscores() {
        #expect(CameraControl.canonicalName("Brightness") == "brightness")
        #expect(CameraControl.canonicalName("White Balance Temperature") == "white_balance_temperature")
        #expect(CameraControl.canonicalName("Exposure, Auto") == "exposure_auto")
        #expect(CameraControl.canonicalName("Exposure (Absolute)") == "exposure_absolute")
        #expect(CameraControl.canonicalName("Exposure Time, Absolute") == "exposure_time_absolute")
        #expect(CameraControl.canonicalName("Power Line Frequency") == "power_line_frequency")
        #expect(CameraControl.canonicalName("Read-Only Integer 32 Bits") == "read_only_integer_32_bits")
    }

    @Test func runsOfOtherCharactersAreOneUnderscoreAndNoneAtTheEnds() {
        #expect(CameraControl.canonicalName("  Gain -- (dB)  ") == "gain_db")
        #expect(CameraControl.canonicalName("LED1 Mode") == "led1_mode")
        #expect(CameraControl.canonicalName("Zoom, Absolute") == "zoom_absolute")
        #expect(CameraControl.canonicalName("already_canonical") == "already_canonical")
        // Only ASCII letters and digits are kept: anything else is a gap.
        #expect(CameraControl.canonicalName("Schärfe Stärke") == "sch_rfe_st_rke")
    }

    @Test func aLabelWithNothingToKeepIsNamedByItsID() {
        #expect(CameraControl.canonicalName("", id: 0x0098_0900) == "control_00980900")
        #expect(CameraControl.canonicalName(" ,() ", id: 0x009a_0901) == "control_009a0901")
    }

    @Test func aControlIsNamedFromItsLabel() {
        let control = CameraControl(id: 0x0098_091a, label: "White Balance Temperature", kind: .integer)
        #expect(control.name == "white_balance_temperature")
        #expect(control.label == "White Balance Temperature")
        #expect(CameraControl.hex(0x0098_0900) == "0x00980900")
        #expect(CameraControl.hex(0x1) == "0x00000001")
    }
}

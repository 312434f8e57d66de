import Testing
@testable import CameraSource
#if canImport(Glibc)
import Glibc
#endif

/// The writes that carry out settings: automatic modes switched to manual for the values they
/// govern, automatic controls first; `--reset` back to defaults, automatic controls last.
@Suite struct ControlPlanTests {
    private func webcam(_ change: (inout [UInt32: CameraControl]) -> Void = { _ in }) -> [CameraControl] {
        var controls = FakeCameras.uvcControls()
        change(&controls)
        return controls.values.sorted { $0.id < $1.id }
    }

    private func setting(_ argument: String, _ controls: [CameraControl]) throws -> ControlSetting {
        try ControlArgument.parse(argument, controls: controls)
    }

    private let autoExposureManual = ControlSetting(id: 0x009a_0901, name: "auto_exposure", value: 1)
    private let autoWhiteBalanceOff = ControlSetting(id: 0x0098_090c, name: "white_balance_automatic", value: 0)

    @Test func aManualValueSwitchesItsAutomaticModeToManualFirst() throws {
        let controls = webcam()
        let exposure = try setting("exposure_time_absolute=100", controls)
        let brightness = try setting("brightness=10", controls)
        let temperature = try setting("white_balance_temperature=3000", controls)
        let plan = ControlPlan.setting([brightness, exposure, temperature], on: controls)
        #expect(plan.writes == [autoExposureManual, autoWhiteBalanceOff, brightness, exposure, temperature])
        #expect(plan.notes == [
            "auto_exposure set to Manual Mode so exposure_time_absolute applies",
            "white_balance_automatic set to off so white_balance_temperature applies",
        ])
    }

    @Test func anAutomaticModeAlreadyManualIsLeftAlone() throws {
        let controls = webcam { $0[0x009a_0901]!.value = 1 }
        let exposure = try setting("exposure_time_absolute=100", controls)
        #expect(ControlPlan.setting([exposure], on: controls) == ControlPlan(writes: [exposure]))
    }

    @Test func theUsersOwnAutomaticSettingWinsAndGoesFirst() throws {
        let controls = webcam()
        let exposure = try setting("exposure_time_absolute=100", controls)
        let aperture = try setting("auto_exposure=3", controls)
        #expect(ControlPlan.setting([exposure, aperture], on: controls) == ControlPlan(writes: [aperture, exposure]))
    }

    @Test func aControlSetTwiceTakesTheLaterValue() throws {
        let controls = webcam()
        let plan = ControlPlan.setting([try setting("brightness=1", controls), try setting("brightness=2", controls)], on: controls)
        #expect(plan.writes == [ControlSetting(id: 0x0098_0900, name: "brightness", value: 2)])
    }

    @Test func aCameraWithoutTheAutomaticControlOrItsManualItemGetsNoSwitch() throws {
        let withoutAuto = webcam { $0[0x009a_0901] = nil }
        let exposure = try setting("exposure_time_absolute=100", withoutAuto)
        #expect(ControlPlan.setting([exposure], on: withoutAuto) == ControlPlan(writes: [exposure]))

        let noManualItem = webcam { $0[0x009a_0901]!.menu = [.init(index: 3, name: "Aperture Priority Mode")] }
        #expect(ControlPlan.setting([exposure], on: noManualItem)
            == ControlPlan(writes: [exposure], notes: ["auto_exposure has no manual setting, so exposure_time_absolute may not apply"]))
    }

    @Test func aValueNoAutomaticModeGovernsChangesNothingElse() throws {
        let controls = webcam()
        let contrast = try setting("contrast=40", controls)
        #expect(ControlPlan.setting([contrast], on: controls) == ControlPlan(writes: [contrast]))
    }

    @Test func resetWritesEveryChangedControlBackAutomaticControlsLast() {
        let controls = webcam {
            $0[0x009a_0901]!.value = 1  // exposure manual
            $0[0x009a_0902]!.value = 100
            $0[0x0098_0900]!.value = 20
            $0[0x0098_090c]!.value = 0  // white balance manual
            $0[0x0098_0f01]!.value = 9  // read-only: not ours to reset
            $0[0x009a_0908]!.value = 3600  // disabled
        }
        #expect(ControlPlan.reset(controls) == ControlPlan(writes: [
            ControlSetting(id: 0x0098_0900, name: "brightness", value: 0),
            ControlSetting(id: 0x009a_0902, name: "exposure_time_absolute", value: 250),
            ControlSetting(id: 0x0098_090c, name: "white_balance_automatic", value: 1),
            ControlSetting(id: 0x009a_0901, name: "auto_exposure", value: 3),
        ]))
        #expect(ControlPlan.reset(webcam()) == ControlPlan())
    }

    @Test func resetOfOneControlWritesOnlyIt() {
        let controls = webcam {
            $0[0x0098_0900]!.value = 20
            $0[0x0098_0901]!.value = 50
        }
        #expect(ControlPlan.reset(controls, only: 0x0098_0901) == ControlPlan(writes: [ControlSetting(id: 0x0098_0901, name: "contrast", value: 32)]))
        #expect(ControlPlan.reset(controls, only: 0x009a_0901)
            == ControlPlan(notes: ["auto_exposure is at its default (Aperture Priority Mode) already"]))
    }

    @Test func applyWritesInOrderAndReturnsTheRefusals() throws {
        let device = FakeCameras.uvcWebcam()
        device.controls = FakeCameras.uvcControls()
        let controls = try device.queryControls()
        let plan = ControlPlan.setting([try setting("exposure_time_absolute=100", controls), try setting("contrast=40", controls)], on: controls)
        device.fail("S_CTRL", EINVAL, times: 1)
        let failures = plan.apply(to: device)
        #expect(failures.map(\.setting.name) == ["auto_exposure"])
        #expect(failures.map(\.error) == [V4L2Error(call: "VIDIOC_S_CTRL", errno: EINVAL)])
        #expect(device.log.filter { $0.hasPrefix("S_CTRL") } == [
            "S_CTRL auto_exposure=1", "S_CTRL exposure_time_absolute=100", "S_CTRL contrast=40",
        ])
        #expect(device.controls[0x009a_0902]?.value == 100 && device.controls[0x0098_0901]?.value == 40)
        #expect(device.controls[0x009a_0901]?.value == 3, "the refused write changed nothing")
    }
}

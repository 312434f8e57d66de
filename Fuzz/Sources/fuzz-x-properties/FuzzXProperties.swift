// Values pipcam reads from other clients' X properties, which any client may set to anything:
// `_NET_WORKAREA` with `_NET_CURRENT_DESKTOP`, `_GTK_WORKAREAS_D<n>`, `WM_STATE`, `_NET_WM_STATE`
// and `_NET_FRAME_EXTENTS`, then the screen layout built from them. Format-32 values reach pipcam
// as sign-extended 32-bit numbers (Xlib's `long`s), so the input is read as Int32s.
@testable import PipWindow
import FuzzSupport
import PipCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXProperties(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    func values(_ count: Int) -> [Int] {
        (0..<count).map { _ in Int(Int32(truncatingIfNeeded: input.uint16() << 16 | input.uint16())) }
    }
    let counts = (0..<5).map { _ in Int(input.byte() % 24) }
    let desktop = values(1)[0]
    let workAreaValues = values(counts[0]), monitorValues = values(counts[1])
    let wmState = values(counts[2]), netWMState = values(counts[3]), extents = values(counts[4] % 6)
    let monitorBoxes = values(8)
    let screen = Rect(x: 0, y: 0, width: 3200, height: 1080)

    let workArea = WindowManagerInfo.workArea(values: workAreaValues, desktop: desktop, screen: screen)
    precondition(workArea.width > 0 && workArea.height > 0 && workArea.intersection(screen) == workArea, "work area \(workArea)")
    let monitorAreas = WindowManagerInfo.monitorWorkAreas(values: monitorValues)
    precondition(monitorAreas.allSatisfy { $0.width > 0 && $0.height > 0 })
    // Monitors come from RandR/Xinerama (the server, not a client), but may be odd: empty, overlapping.
    let monitors = [
        Rect(x: 0, y: 0, width: 1280, height: 1080), Rect(x: 1280, y: 0, width: 1920, height: 1080),
        Rect(x: monitorBoxes[0] % 4096, y: monitorBoxes[1] % 4096, width: monitorBoxes[2] % 4096, height: monitorBoxes[3] % 4096),
    ]
    let layout = ScreenLayout(monitors: monitors, workArea: workArea, monitorWorkAreas: monitorAreas)
    for area in layout.areas { precondition(area.width > 0 && area.height > 0, "area \(area)") }
    let point = (monitorBoxes[4] % 65536, monitorBoxes[5] % 65536)  // the pointer: X coordinates are 16-bit
    let home = layout.area(containing: point.0, point.1)
    precondition(layout.areas.contains(home))
    let window = Rect(x: monitorBoxes[4] % 8192, y: monitorBoxes[5] % 8192, width: abs(monitorBoxes[6] % 4096) + 1,
                      height: abs(monitorBoxes[7] % 4096) + 1)
    precondition(layout.areas.contains(layout.area(for: window)))
    _ = layout.shows(window)

    var hiding = SourceWindowWatcher.hiding(
        wmState: wmState, netWMState: netWMState, hiddenAtom: Atom(bitPattern: desktop), marksMinimized: desktop & 1 == 0)
    hiding.desktop = wmState.last
    hiding.currentDesktop = netWMState.last
    for mode in AutomaticPip.allCases { _ = hiding.isHidden(under: mode) }
    let outer = SourceWindowWatcher.outerFrame(inner: window, extents: extents)
    precondition(outer.width >= window.width && outer.height >= window.height, "frame \(outer) of \(window)")
    return 0
}

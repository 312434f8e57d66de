import PipCore

/// The icons and lines of text for what a window shows while the camera is interrupted.
package struct NoticeAssets {
    private let cameraOff: AlphaMask
    private let inUse: AlphaMask
    private let disconnected: AlphaMask
    /// The banner over the test pattern while pipcam waits for a camera.
    package let noCamera: AlphaMask

    /// The space the PiP controls' bottom row takes above a window's bottom edge, which the
    /// banner stays clear of.
    package let controlsClearance: Int
    private let doubleSize: Bool

    /// - Parameter doubleSize: 2× text, as the PiP controls have on a high-DPI screen. The
    ///   camera-off icon is the 2× one at both: it is meant large.
    package init(doubleSize: Bool) {
        self.doubleSize = doubleSize
        noCamera = AlphaMask.asset("notice-no-camera", doubleSize: doubleSize)!
        cameraOff = AlphaMask.asset("camera-off", doubleSize: true)!
        inUse = AlphaMask.asset("notice-in-use", doubleSize: doubleSize)!
        disconnected = AlphaMask.asset("notice-disconnected", doubleSize: doubleSize)!
        controlsClearance = PipControls.bottomClearance(doubleSize: doubleSize)
    }

    /// The notice's icon and lines in `state`: a camera in use says who holds it (`holder`,
    /// e.g. `firefox, pid 4242`) on a second line when that is known.
    package func notice(for state: CameraState, holder: String?) -> (icon: AlphaMask, lines: [AlphaMask])? {
        guard let notice = notice(for: state) else { return nil }
        let held = state == .interrupted(.inUse) ? holder.flatMap { TextLine.mask("Held by \($0)", doubleSize: doubleSize) } : nil
        return (notice.icon, [notice.text] + (held.map { [$0] } ?? []))
    }

    /// The notice that replaces the picture in `state`, or nil when frames are shown.
    /// Pressure only lowers the frame rate: the picture stays.
    package func notice(for state: CameraState) -> (icon: AlphaMask, text: AlphaMask)? {
        switch state {
        case .interrupted(.inUse): return (cameraOff, inUse)
        case .interrupted(.disconnected): return (cameraOff, disconnected)
        // Idle: the camera is let go while nothing shows it; it is back before anything does.
        case .streaming, .waiting, .interrupted(.pressure), .interrupted(.idle): return nil
        }
    }
}

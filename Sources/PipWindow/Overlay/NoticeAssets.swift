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

    /// - Parameter doubleSize: 2× text, as the PiP controls have on a high-DPI screen. The
    ///   camera-off icon is the 2× one at both: it is meant large.
    package init(doubleSize: Bool) {
        noCamera = AlphaMask.asset("notice-no-camera", doubleSize: doubleSize)!
        cameraOff = AlphaMask.asset("camera-off", doubleSize: true)!
        inUse = AlphaMask.asset("notice-in-use", doubleSize: doubleSize)!
        disconnected = AlphaMask.asset("notice-disconnected", doubleSize: doubleSize)!
        controlsClearance = PipControls.bottomClearance(doubleSize: doubleSize)
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

import CameraSource

/// The icons and lines of text for what a window shows while the camera is interrupted.
struct NoticeAssets {
    private let cameraOff: AlphaMask
    private let inUse: AlphaMask
    private let disconnected: AlphaMask
    /// The banner over the test pattern while pipcam waits for a camera.
    let noCamera: AlphaMask

    init() {
        noCamera = AlphaMask.asset("notice-no-camera")!
        cameraOff = AlphaMask.asset("camera-off", doubleSize: true)!
        inUse = AlphaMask.asset("notice-in-use")!
        disconnected = AlphaMask.asset("notice-disconnected")!
    }

    /// The notice that replaces the picture in `state`, or nil when frames are shown.
    /// Pressure only lowers the frame rate: the picture stays.
    func notice(for state: CameraState) -> (icon: AlphaMask, text: AlphaMask)? {
        switch state {
        case .interrupted(.inUse): return (cameraOff, inUse)
        case .interrupted(.disconnected): return (cameraOff, disconnected)
        case .streaming, .waiting, .interrupted(.pressure): return nil
        }
    }
}

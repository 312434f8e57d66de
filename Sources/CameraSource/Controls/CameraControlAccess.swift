/// What can be done with a camera's controls: the seam between the rules in this folder and the
/// kernel (`LibV4L2Device`, `LibV4L2Controls`) or a test's fake.
///
/// Calls throw `V4L2Error` with the ioctl's name and errno.
public protocol CameraControlAccess: AnyObject {
    /// Every control the camera offers, in ID order, with menus and current values
    /// (`VIDIOC_QUERY_EXT_CTRL`, else `VIDIOC_QUERYCTRL`; `VIDIOC_QUERYMENU`). Control-class
    /// headers and compound controls are left out.
    func queryControls() throws(V4L2Error) -> [CameraControl]
    /// One control's current value (`VIDIOC_G_CTRL`, or `VIDIOC_G_EXT_CTRLS` for 64-bit ones).
    func controlValue(_ id: UInt32) throws(V4L2Error) -> Int64
    /// Sets one control (`VIDIOC_S_CTRL`, or `VIDIOC_S_EXT_CTRLS` for 64-bit ones).
    func setControl(_ id: UInt32, to value: Int64) throws(V4L2Error)
}

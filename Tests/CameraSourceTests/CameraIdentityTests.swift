import Foundation
import Testing
import TestSupport
@testable import CameraSource

/// A camera's stable name for its memory: the by-id link, else the by-path link, else card and
/// bus; never the /dev/videoN number.
@Suite struct CameraIdentityTests {
    private let c920 = V4L2Capabilities(
        driver: "uvcvideo", card: "HD Pro Webcam C920", busInfo: "usb-0000:00:14.0-2", canCapture: true, canStream: true)
    private let byID = [
        CameraIdentity.Link(name: "usb-Logitech_C920_ABCD1234-video-index1", target: "/dev/video3"),
        CameraIdentity.Link(name: "usb-Logitech_C920_ABCD1234-video-index0", target: "/dev/video2"),
        CameraIdentity.Link(name: "usb-Other_Cam-video-index0", target: "/dev/video0"),
    ]
    private let byPath = [
        CameraIdentity.Link(name: "pci-0000:00:14.0-usb-0:2:1.0-video-index0", target: "/dev/video2"),
        CameraIdentity.Link(name: "platform-vivid.0-video-index0", target: "/dev/video5"),
    ]

    @Test func theByIDLinkToTheDeviceComesFirst() {
        #expect(CameraIdentity.of(device: "/dev/video2", byID: byID, byPath: byPath, capabilities: c920)?.key
            == "usb-Logitech_C920_ABCD1234-video-index0")
    }

    @Test func thenTheByPathLink() {
        #expect(CameraIdentity.of(device: "/dev/video5", byID: byID, byPath: byPath, capabilities: nil)?.key
            == "platform-vivid.0-video-index0")
        // Colons, which some tools take for separators, become underscores.
        #expect(CameraIdentity.of(device: "/dev/video2", byID: [], byPath: byPath, capabilities: nil)?.key
            == "pci-0000_00_14.0-usb-0_2_1.0-video-index0")
    }

    @Test func thenCardAndBusSanitised() {
        #expect(CameraIdentity.of(device: "/dev/video7", byID: byID, byPath: byPath, capabilities: c920)?.key
            == "HD_Pro_Webcam_C920@usb-0000_00_14.0-2")
        let vivid = V4L2Capabilities(driver: "vivid", card: "vivid", busInfo: "platform:vivid-000", canCapture: true, canStream: true)
        #expect(CameraIdentity.of(device: "/dev/video7", byID: [], byPath: [], capabilities: vivid)?.key == "vivid@platform_vivid-000")
        let hidden = V4L2Capabilities(driver: "x", card: ".hidden/../cam", busInfo: "", canCapture: true, canStream: true)
        #expect(CameraIdentity.of(device: "/dev/video7", byID: [], byPath: [], capabilities: hidden)?.key == "_hidden_.._cam")
    }

    @Test func nothingToNameItByIsNoIdentity() {
        #expect(CameraIdentity.of(device: "/dev/video7", byID: byID, byPath: byPath, capabilities: nil) == nil)
        let nameless = V4L2Capabilities(driver: "x", card: "", busInfo: "usb-1", canCapture: true, canStream: true)
        #expect(CameraIdentity.of(device: "/dev/video7", byID: [], byPath: [], capabilities: nameless) == nil)
    }

    @Test func keysAreCheckedWhenGivenWhole() {
        #expect(CameraIdentity(key: "usb-Logitech_C920-video-index0")?.key == "usb-Logitech_C920-video-index0")
        #expect(CameraIdentity(key: "a/b") == nil)
        #expect(CameraIdentity(key: "..") == nil)
        #expect(CameraIdentity(key: "") == nil)
        #expect(CameraIdentity(key: String(repeating: "a", count: 201)) == nil)
    }

    /// The links as a udev would lay them out, in a scratch directory.
    @Test func findReadsTheLinksAsTheyAre() throws {
        let root = try Scratch.makeDirectory("v4l")
        let fm = FileManager.default
        for directory in ["by-id", "by-path"] { try fm.createDirectory(atPath: "\(root)/\(directory)", withIntermediateDirectories: true) }
        for node in ["video0", "video1", "video2"] { _ = fm.createFile(atPath: "\(root)/\(node)", contents: nil) }
        try fm.createSymbolicLink(atPath: "\(root)/by-id/usb-Cam_SN1-video-index0", withDestinationPath: "../video0")
        try fm.createSymbolicLink(atPath: "\(root)/by-path/platform-x-video-index0", withDestinationPath: "../video0")
        try fm.createSymbolicLink(atPath: "\(root)/by-path/platform-y-video-index0", withDestinationPath: "../video1")
        try fm.createSymbolicLink(atPath: "\(root)/by-path/dangling", withDestinationPath: "../video9")
        let directories = (byID: root + "/by-id", byPath: root + "/by-path")
        #expect(CameraIdentity.find(for: root + "/video0", capabilities: nil, directories: directories)?.key == "usb-Cam_SN1-video-index0")
        #expect(CameraIdentity.find(for: root + "/by-id/usb-Cam_SN1-video-index0", capabilities: nil, directories: directories)?.key
            == "usb-Cam_SN1-video-index0")
        #expect(CameraIdentity.find(for: root + "/video1", capabilities: nil, directories: directories)?.key == "platform-y-video-index0")
        #expect(CameraIdentity.find(for: root + "/video2", capabilities: c920, directories: directories)?.key == "HD_Pro_Webcam_C920@usb-0000_00_14.0-2")
        #expect(CameraIdentity.find(for: root + "/video2", capabilities: nil, directories: directories) == nil)
    }
}

import Foundation
import Testing
@testable import CameraSource
import PipCore
#if canImport(Glibc)
import Glibc
#endif

/// The camera went away (ENODEV): wait for every frame to come back, close every handle, reopen
/// with back-off 250 ms doubling to 2 s.
@Suite struct ResilientDisconnectTests {
    private let t0 = MonotonicInstant(nanoseconds: 10_000_000_000)
    private let unmapAllAndClose = ["MUNMAP 0", "MUNMAP 1", "MUNMAP 2", "MUNMAP 3", "CLOSE"]

    @Test func unplugWhileAFrameIsHeldWaitsForItThenClosesAndReopensWithBackOff() throws {
        let shop = FakeCameraShop()
        shop.prepare = { $0.dequeueScript = [.frame(sequence: 0)] }
        let cam = shop.resilient()
        try cam.start(now: t0)
        let first = shop.device
        let held = try #require(expectFrame(try cam.nextFrame(now: t0)))
        let mark = first.log.count

        // Unplugged while the display holds a frame mapped from the device.
        first.dequeueScript = [.fail(.noDevice)]
        let t1 = t0 + ms(100)
        #expect(try cam.nextFrame(now: t1).waitDeadline == .some(nil))
        #expect(cam.cameraState == .interrupted(.disconnected))
        #expect(cam.cameraState.description == "interrupted:disconnected")
        #expect(cam.needsBuffersBack)
        #expect(cam.pollDescriptor == nil)
        #expect(!first.isClosed && first.mapped.count == 4)
        // Asking again changes nothing while the frame is out.
        #expect(try cam.nextFrame(now: t1).waitDeadline == .some(nil))
        #expect(Array(first.log[mark...]) == ["DQBUF"])

        // The frame comes back: no QBUF to a dead device.
        cam.recycle(bufferIndex: held.bufferIndex)
        #expect(Array(first.log[mark...]) == ["DQBUF"])
        #expect(!cam.needsBuffersBack)
        shop.openErrno = ENOENT  // the node is gone for a while

        // Now it closes every handle without STREAMOFF (which could hang) and waits 250 ms
        // from the unplug before the first attempt.
        #expect(try cam.nextFrame(now: t1).waitDeadline == .some(t1 + ms(250)))
        #expect(Array(first.log[mark...]) == ["DQBUF"] + unmapAllAndClose)
        #expect(first.isClosed && first.mapped.isEmpty)
        #expect(shop.opens == 1)
        #expect(cam.cameraState == .interrupted(.disconnected))

        // Each failed attempt doubles the wait, up to 2 s.
        var attempt = t1 + ms(250)
        for backOff in [500, 1000, 2000, 2000, 2000].map(ms) {
            #expect(try cam.nextFrame(now: attempt - 1).waitDeadline == .some(attempt))
            let opens = shop.opens
            #expect(try cam.nextFrame(now: attempt).waitDeadline == .some(attempt + backOff))
            #expect(shop.opens == opens + 1)
            #expect(cam.cameraState == .interrupted(.disconnected))
            #expect(!cam.needsBuffersBack)
            attempt = attempt + backOff
        }
        #expect(shop.opens == 6)

        // Plugged back in: it streams from the new device.
        shop.openErrno = nil
        shop.prepare = { $0.dequeueScript = [.frame(sequence: 0), .frame(sequence: 1)] }
        #expect(try cam.nextFrame(now: attempt).waitDeadline == .some(nil))
        #expect(cam.cameraState == .streaming && !cam.needsBuffersBack)
        #expect(shop.opens == 7 && shop.devices.count == 2)
        let second = shop.device
        #expect(second !== first)
        #expect(cam.pollDescriptor == 42)
        let a = try #require(expectFrame(try cam.nextFrame(now: attempt)))
        cam.recycle(bufferIndex: a.bufferIndex)
        let b = try #require(expectFrame(try cam.nextFrame(now: attempt)))
        cam.recycle(bufferIndex: b.bufferIndex)
        #expect([a.sequence, b.sequence] == [0, 1])
        #expect(first.log.count == mark + 6)  // the old device was not touched again

        // Back-off starts over: unplugged again with no frame out, it closes at once and waits 250 ms.
        second.dequeueScript = [.fail(.noDevice)]
        let t2 = attempt + 10_000_000_000
        #expect(try cam.nextFrame(now: t2).waitDeadline == .some(t2 + ms(250)))
        #expect(second.isClosed && !second.log.contains("STREAMOFF"))
        shop.openErrno = ENOENT
        #expect(try cam.nextFrame(now: t2 + ms(250)).waitDeadline == .some(t2 + ms(750)))
    }

    /// QBUF failing with ENODEV as a frame comes back is a disconnect too, found by the next call.
    @Test func unplugSeenWhenRecyclingIsADisconnect() throws {
        let shop = FakeCameraShop()
        shop.prepare = { $0.dequeueScript = [.frame(sequence: 0)] }
        let cam = shop.resilient()
        try cam.start(now: t0)
        let dev = shop.device
        let f = try #require(expectFrame(try cam.nextFrame(now: t0)))
        dev.fail("QBUF", ENODEV)
        cam.recycle(bufferIndex: f.bufferIndex)
        #expect(try cam.nextFrame(now: t0).waitDeadline == .some(t0 + ms(250)))
        #expect(cam.cameraState == .interrupted(.disconnected))
        #expect(dev.isClosed && !dev.log.contains("STREAMOFF"))
    }

    /// Every frame out must be back, not just some: two held frames, given back one at a time.
    @Test func closesOnlyWhenTheLastHeldFrameIsBack() throws {
        let shop = FakeCameraShop()
        shop.prepare = { $0.dequeueScript = [.frame(sequence: 0), .frame(sequence: 1), .fail(.noDevice)] }
        let cam = shop.resilient()
        try cam.start(now: t0)
        let dev = shop.device
        let a = try #require(expectFrame(try cam.nextFrame(now: t0)))
        let b = try #require(expectFrame(try cam.nextFrame(now: t0)))
        #expect(try cam.nextFrame(now: t0).waitDeadline == .some(nil))
        cam.recycle(bufferIndex: a.bufferIndex)
        #expect(cam.needsBuffersBack)
        #expect(try cam.nextFrame(now: t0 + ms(300)).waitDeadline == .some(nil))
        #expect(!dev.isClosed)
        cam.recycle(bufferIndex: b.bufferIndex)
        #expect(!cam.needsBuffersBack)
        // Past the first retry time already: it closes and reopens in the same call.
        #expect(try cam.nextFrame(now: t0 + ms(300)).waitDeadline == .some(nil))
        #expect(dev.isClosed && shop.opens == 2)
        #expect(cam.cameraState == .streaming)
    }

    /// A camera that comes back unusable for another reason fails the source instead of looping.
    /// Reopens that keep failing for another reason than a missing node are tried again with the
    /// disconnect's back-off a few times, then end the source with that error.
    @Test func reopenFailingForAnotherReasonThrowsAfterAFewTries() throws {
        let shop = FakeCameraShop()
        shop.prepare = { $0.dequeueScript = [.fail(.noDevice)] }
        let cam = shop.resilient()
        try cam.start(now: t0)
        #expect(try cam.nextFrame(now: t0).waitDeadline == .some(t0 + ms(250)))
        shop.prepare = { $0.fail("S_FMT", EINVAL) }
        var now = t0 + ms(250), error: SourceError?
        for _ in 0...ResilientCamera.failedReopensAllowed {
            error = sourceError {
                let step = try cam.nextFrame(now: now)
                now = try #require(step.waitDeadline ?? nil, "\(step)")
            }
        }
        #expect(shop.opens == 2 + ResilientCamera.failedReopensAllowed)
        #expect(error == .runtime(thing: "/nonexistent/video0", reason: "VIDIOC_S_FMT failed: invalid argument"))
    }

    /// A camera plugged back in that fails its first reopens (uvcvideo timing out) streams once
    /// one works; the state stays disconnected meanwhile.
    @Test func reopenFailingBrieflyStreamsAgain() throws {
        let shop = FakeCameraShop()
        shop.prepare = { $0.dequeueScript = [.fail(.noDevice)] }
        let cam = shop.resilient()
        try cam.start(now: t0)
        var now = try #require(try cam.nextFrame(now: t0).waitDeadline ?? nil)
        var failures = 2
        shop.prepare = { device in
            if failures > 0 { device.fail("STREAMON", ETIMEDOUT) }
            failures -= 1
        }
        for _ in 0..<2 {
            now = try #require(try cam.nextFrame(now: now).waitDeadline ?? nil)
            #expect(cam.cameraState == .interrupted(.disconnected))
        }
        _ = try cam.nextFrame(now: now)
        #expect(cam.cameraState == .streaming && shop.opens == 4)
    }

    /// Disconnected, then another application grabs the camera first: in use, retried each second.
    @Test func reopenFindingTheCameraBusyIsInUse() throws {
        let shop = FakeCameraShop()
        shop.prepare = { $0.dequeueScript = [.fail(.noDevice)] }
        let cam = shop.resilient()
        try cam.start(now: t0)
        #expect(try cam.nextFrame(now: t0).waitDeadline == .some(t0 + ms(250)))
        shop.prepare = { $0.fail("REQBUFS", EBUSY) }
        #expect(try cam.nextFrame(now: t0 + ms(250)).waitDeadline == .some(t0 + ms(1250)))
        #expect(cam.cameraState == .interrupted(.inUse))
    }

    /// Regression: unplugged while another application held it, the node disappears; the camera
    /// must wait for it (disconnected) rather than fail with "no such device" — it never ends on its own.
    @Test func inUseCameraThatIsUnpluggedBecomesDisconnected() throws {
        let shop = FakeCameraShop()
        shop.openErrno = EBUSY
        let cam = shop.resilient()
        try cam.start(now: t0)
        #expect(cam.cameraState == .interrupted(.inUse))
        shop.openErrno = ENOENT
        let t1 = t0 + Int64(ResilientCamera.inUseRetryNanoseconds)
        let step = try cam.nextFrame(now: t1)
        #expect(cam.cameraState == .interrupted(.disconnected))
        guard case .wait(let deadline?) = step else { Issue.record("expected a timed wait, got \(step)"); return }
        #expect(deadline > t1 && deadline <= t1 + Int64(ResilientCamera.reconnectLongestNanoseconds))
        shop.openErrno = nil
        #expect(try cam.nextFrame(now: deadline).waitDeadline == .some(nil))
        #expect(cam.cameraState == .streaming)
    }

    /// It reopens by the stable link (`/dev/v4l/by-id/...`), since the node may come back under another number.
    @Test func reopensByTheStableLink() throws {
        let dir = try TempDeviceTree()
        let node = try dir.node("video0")
        let link = try dir.link("by-id/usb-Acme_Cam-video-index0", to: "../video0")
        let shop = FakeCameraShop()
        shop.prepare = { $0.dequeueScript = [.fail(.noDevice)] }
        let cam = shop.resilient(path: node)
        cam.stablePathDirectories = [dir.path + "/by-id"]
        try cam.start(now: t0)
        #expect(try cam.nextFrame(now: t0).waitDeadline == .some(t0 + ms(250)))
        _ = try cam.nextFrame(now: t0 + ms(250))
        #expect(shop.openedPaths == [node, link])
        #expect(cam.name == node)
    }
}

/// A temporary directory standing in for `/dev`: nodes are plain files, links are symlinks.
final class TempDeviceTree {
    let path: String
    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("pipcam-dev-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Creates an empty file at `name`; returns its full path.
    func node(_ name: String) throws -> String {
        let full = path + "/" + name
        #expect(FileManager.default.createFile(atPath: full, contents: nil))
        return full
    }

    /// Creates a symlink at `name` (directories made as needed) pointing at `target`; returns its full path.
    func link(_ name: String, to target: String) throws -> String {
        let full = path + "/" + name
        try FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: full, withDestinationPath: target)
        return full
    }
}

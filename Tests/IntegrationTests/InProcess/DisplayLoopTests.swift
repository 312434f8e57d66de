import Foundation
@testable import PipWindow
import Testing
import PipCore

/// `DisplayLoop` on its own Xvfb, in this process.
@Suite struct DisplayLoopTests {
    /// A loop on its own Xvfb, and a window whose property changes it gets.
    private func loopWithAWindow() throws -> (XServer, XDisplay, DisplayLoop, WindowID) {
        let x = try makeServer()
        let display = try XDisplay(name: x.display)
        let loop = DisplayLoop(display: display)
        let window = display.createWindow(rect: Rect(x: 0, y: 0, width: 64, height: 64), events: [.propertyChange])
        return (x, display, loop, window)
    }

    /// X events arriving without pause (shared-memory completions of a frame every iteration, in
    /// a slow build or on a loaded machine) must not starve the loop's other descriptors: SIGTERM
    /// reaches pipcam through one, and it went unanswered while frames kept coming.
    @Test func descriptorsAreReadWhileXEventsKeepComing() throws {
        let (x, display, loop, window) = try loopWithAWindow()
        defer { display.close(); withExtendedLifetime(x) {} }  // the server lives as long as the test
        loop.register(window) { _ in }
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        var readerRan = false
        loop.addReader(ends[0]) {
            var byte: UInt8 = 0
            _ = read(ends[0], &byte, 1)
            readerRan = true
            loop.stop(exitCode: 0)
        }
        var iterations = 0
        loop.everyIteration {
            iterations += 1
            if iterations == 1 { _ = write(ends[1], "x", 1) }
            if iterations > 1000 { loop.stop(exitCode: 1) }
            // An event in Xlib's queue before the loop looks again, every time.
            display.setProperty(window, .WM_NAME, text: "\(iterations)", type: .STRING_)
            display.sync()
        }
        #expect(loop.run() == 0, "the descriptor was not read in \(iterations) iterations")
        #expect(readerRan)
    }

    /// A handler that unregisters one registered after it for the same window (an app releasing
    /// a PiP controller, whose source-window watcher is registered there too): the removed one
    /// does not run for that event.
    @Test func aHandlerRemovedDuringDispatchDoesNotRun() throws {
        let (x, display, loop, window) = try loopWithAWindow()
        defer { display.close(); withExtendedLifetime(x) {} }  // the server lives as long as the test
        var later: Int?, laterRan = 0
        loop.register(window) { _ in
            if let token = later { loop.unregister(token) }
            loop.stop(exitCode: 0)
        }
        later = loop.register(window) { _ in laterRan += 1 }
        display.setProperty(window, .WM_NAME, text: "x", type: .STRING_)
        display.sync()
        #expect(loop.run() == 0)
        #expect(laterRan == 0)
    }
}

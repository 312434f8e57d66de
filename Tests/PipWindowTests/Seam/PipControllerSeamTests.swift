import PipCore
import Testing
@testable import PipWindow

/// The controller on a window system with no display: the seam carries everything PiP does.
@Suite struct PipControllerSeamTests {
    static let source = PipContentSource(sourceWindow: 42, preferredContentSize: (1280, 720))

    /// A controller whose PiP has grown and is up; the log starts after that.
    static func activePip() throws -> (FakeWindowSystem, PipController) {
        let system = FakeWindowSystem()
        let pip = try PipController(windowSystem: system, contentSource: source)
        pip.start()
        system.loop.pass(milliseconds: 400)
        #expect(pip.isActive)
        system.log.removeAll()
        return (system, pip)
    }

    @Test func startGrowsOutOfTheSourceFrameIntoThePipSurface() throws {
        let system = FakeWindowSystem()
        let pip = try PipController(windowSystem: system, contentSource: Self.source, corner: .bottomRight)
        defer { pip.tearDown() }
        #expect(pip.isPossible)
        system.log.removeAll()
        pip.start()
        #expect(system.log.first == "animation show \(system.sourceFrame!)")
        system.loop.pass(milliseconds: 400)
        #expect(pip.isActive)
        #expect(system.log.contains("animation move"))
        let shown = try #require(system.log.firstIndex { $0.hasPrefix("pip show") })
        let hidden = try #require(system.log.firstIndex(of: "animation hide"))
        #expect(shown < hidden, "the PiP surface shows before the animation goes: \(system.log)")
        // Bottom right of the work area, a quarter of its width, the picture's shape.
        let frame = pip.pipFrame
        #expect(frame.x + frame.width > 1800 && frame.y + frame.height > 950 && frame.width * 9 == frame.height * 16, "\(frame)")
    }

    @Test func stopShrinksBackAndRestoresTheSourceWindow() throws {
        let (system, pip) = try Self.activePip()
        defer { pip.tearDown() }
        pip.stop()
        #expect(Array(system.log.prefix(2)) == ["animation show \(pip.pipFrame)", "pip hide"])
        system.loop.pass(milliseconds: 400)
        #expect(pip.phase == .idle)
        // The animation ends where the source window comes back, which is then shown and activated.
        #expect(Array(system.log.suffix(2)) == ["animation hide", "restore \(Self.source.sourceWindow)"], "\(system.log)")
    }

    @Test func theSourceHiddenStartsPipByItselfWhenAsked() throws {
        let system = FakeWindowSystem()
        let pip = try PipController(windowSystem: system, contentSource: Self.source, startsAutomaticallyWhenSourceHidden: true)
        defer { pip.tearDown() }
        let watch = try #require(system.watches.first)
        system.sourceHidden = true
        watch.report(.sourceHidden)
        system.loop.pass(milliseconds: 600)
        #expect(pip.isActive)
        system.sourceHidden = false
        watch.report(.sourceShown)
        system.loop.pass(milliseconds: 800)
        #expect(pip.phase == .idle)
        #expect(system.log.contains("restore \(Self.source.sourceWindow)"))
    }

    @Test func theCloseRequestEndsPipWithoutRestoring() throws {
        let (system, pip) = try Self.activePip()
        defer { pip.tearDown() }
        try #require(system.pip).onEvent(.input(.key(.escape, state: 0)))
        system.loop.pass(milliseconds: 400)
        #expect(pip.phase == .idle && system.log.contains("restore \(Self.source.sourceWindow)"), "Escape goes back: \(system.log)")
        pip.start()
        system.loop.pass(milliseconds: 400)
        system.log.removeAll()
        try #require(system.pip).onEvent(.closeRequested)
        system.loop.pass(milliseconds: 100)
        #expect(pip.phase == .idle && system.log == ["pip hide"], "\(system.log)")
    }

    /// Where pictures have twice the window's pixels (Wayland at scale 2) the 2× controls are
    /// drawn at their 1× place in the window, and hit there: the close button's top-right corner
    /// is inside it, though outside where 2× controls would be in the window's own coordinates.
    @Test func controlsAreHitWhereTheyAreDrawnInPicturesOfTwiceThePixels() throws {
        let system = FakeWindowSystem()
        system.doubleSize = true
        let pip = try PipController(windowSystem: system, contentSource: Self.source)
        defer { pip.tearDown() }
        pip.start()
        system.loop.pass(milliseconds: 400)
        let surface = try #require(system.pip)
        try #require(surface.video as? FakeVideo).pixelScale = 2
        system.log.removeAll()
        let rect = surface.rect
        #expect(pip.pipPixelFrame == Rect(x: rect.x, y: rect.y, width: 2 * rect.width, height: 2 * rect.height),
                "the source is asked for the pictures' pixels")
        func pointer(_ x: Int, _ y: Int) -> PointerEvent {
            PointerEvent(window: surface.id, button: 1, x: x, y: y, rootX: rect.x + x, rootY: rect.y + y, time: 0, state: 0)
        }
        surface.onEvent(.input(.motion(pointer(rect.width - 12, 12))))
        surface.onEvent(.input(.press(pointer(rect.width - 12, 12))))
        surface.onEvent(.input(.release(pointer(rect.width - 12, 12))))
        system.loop.pass(milliseconds: 100)
        #expect(pip.phase == .idle && system.log == ["pip hide"], "the close button closed PiP: \(system.log)")
    }

    @Test func tearDownDestroysTheSurfacesAndStopsWatching() throws {
        let system = FakeWindowSystem()
        let pip = try PipController(windowSystem: system, contentSource: Self.source)
        system.log.removeAll()
        pip.tearDown()
        #expect(system.log.contains("unwatch 0x2a") && system.log.contains("pip destroy") && system.log.contains("animation destroy"))
        #expect(!system.log.contains("stop"), "a window system given to the controller stays its owner's: \(system.log)")
    }
}

import Testing
@testable import PipWindow
import PipCore

/// Where a presenter draws in a window (`DrawnArea`): the whole window when it fits the screen,
/// else only its part on the screen, so nothing is sized by what a window claims beyond it.
@Suite struct DrawnAreaTests {
    let screen = (width: 1920, height: 1080)

    @Test func aWindowThatFitsIsDrawnWholeWhereverItIs() {
        for origin in [(0, 0), (-300, -200), (1800, 1000), (5000, 5000)] {
            #expect(DrawnArea.rect(windowAt: origin, width: 640, height: 360, screen: screen) == Rect(x: 0, y: 0, width: 640, height: 360))
        }
        #expect(DrawnArea.rect(windowAt: nil, width: 1920, height: 1080, screen: screen) == Rect(x: 0, y: 0, width: 1920, height: 1080))
    }

    @Test func aHugeWindowIsDrawnOnlyOnTheScreen() {
        #expect(DrawnArea.rect(windowAt: (0, 0), width: 65535, height: 65535, screen: screen) == Rect(x: 0, y: 0, width: 1920, height: 1080))
        // Its top-left corner off the screen: the part on it starts inside the window.
        #expect(DrawnArea.rect(windowAt: (-100, -50), width: 65535, height: 65535, screen: screen)
            == Rect(x: 100, y: 50, width: 1920, height: 1080))
        // Only partly over the screen's bottom-right.
        #expect(DrawnArea.rect(windowAt: (1000, 600), width: 4000, height: 3000, screen: screen)
            == Rect(x: 0, y: 0, width: 920, height: 480))
    }

    @Test func aSideThatFitsStaysWhole() {
        // Taller than the screen only: the whole width, the rows on screen.
        #expect(DrawnArea.rect(windowAt: (1500, -400), width: 800, height: 3000, screen: screen)
            == Rect(x: 0, y: 400, width: 800, height: 1080))
    }

    @Test func whollyOffTheScreenOrUnknownTheTopLeftScreenful() {
        let fallback = Rect(x: 0, y: 0, width: 1920, height: 1080)
        #expect(DrawnArea.rect(windowAt: (3000, 0), width: 8192, height: 8192, screen: screen) == fallback)
        #expect(DrawnArea.rect(windowAt: (-9000, 0), width: 8192, height: 8192, screen: screen) == fallback)
        #expect(DrawnArea.rect(windowAt: nil, width: 8192, height: 8192, screen: screen) == fallback)
        #expect(DrawnArea.rect(windowAt: nil, width: 8192, height: 500, screen: screen) == Rect(x: 0, y: 0, width: 1920, height: 500))
    }

    @Test func imagesAreRemadeWhenTooSmallOrFourTimesTooLarge() {
        #expect(DrawnArea.needsNewImages(capacity: (480, 270), needed: (481, 270)))
        #expect(DrawnArea.needsNewImages(capacity: (480, 270), needed: (480, 271)))
        #expect(!DrawnArea.needsNewImages(capacity: (480, 270), needed: (480, 270)))
        #expect(!DrawnArea.needsNewImages(capacity: (960, 540), needed: (480, 270)), "exactly four times: kept")
        #expect(DrawnArea.needsNewImages(capacity: (960, 540), needed: (479, 270)))
        #expect(DrawnArea.needsNewImages(capacity: (1920, 1080), needed: (320, 180)))
    }
}

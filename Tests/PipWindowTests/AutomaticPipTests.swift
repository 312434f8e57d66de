@testable import PipWindow
import Testing

/// What counts as the source window being hidden under each `--auto-pip` mode (docs/BEHAVIOUR.md,
/// "Automatic start"), from the X facts the watcher reads.
@Suite struct AutomaticPipTests {
    static let all = 0xFFFF_FFFF

    @Test func minimizedCountsInBothModesThatStartAutomatically() {
        for facts in [WindowHiding(netHidden: true, marksMinimized: true), WindowHiding(iconic: true, marksMinimized: false)] {
            #expect(facts.isHidden(under: .hidden))
            #expect(facts.isHidden(under: .minimize))
        }
    }

    /// openbox and fluxbox also mark windows of other desktops Iconic; minimized ones they mark
    /// `_NET_WM_STATE_HIDDEN` too.
    @Test func iconicWithoutHiddenIsAnotherDesktopWhereTheWindowManagerMarksMinimized() {
        let facts = WindowHiding(iconic: true, marksMinimized: true)
        #expect(facts.isHidden(under: .hidden))
        #expect(!facts.isHidden(under: .minimize))
    }

    /// i3's scratchpad and workspace switches, openbox's and fluxbox's desktop switches: the window
    /// manager unmaps the frame, the client stays mapped.
    @Test func leftUnviewableByTheWindowManagerCountsOnlyAsHidden() {
        let facts = WindowHiding(unviewable: true, desktop: 0, currentDesktop: 0)
        #expect(facts.isHidden(under: .hidden))
        #expect(!facts.isHidden(under: .minimize))
    }

    /// Compositing window managers (mutter, KWin) keep windows of other desktops mapped.
    @Test func onAnotherDesktopCountsOnlyAsHidden() {
        let facts = WindowHiding(desktop: 1, currentDesktop: 0)
        #expect(facts.isHidden(under: .hidden))
        #expect(!facts.isHidden(under: .minimize))
    }

    @Test func shownOnEveryDesktopOrTheCurrentOneIsNotHidden() {
        #expect(!WindowHiding(desktop: Self.all, currentDesktop: 2).isHidden(under: .hidden))
        #expect(!WindowHiding(desktop: 2, currentDesktop: 2).isHidden(under: .hidden))
        // Unknown desktops (no EWMH desktops at all): only the other facts decide.
        #expect(!WindowHiding(desktop: 3, currentDesktop: nil).isHidden(under: .hidden))
        #expect(!WindowHiding(desktop: nil, currentDesktop: 1).isHidden(under: .hidden))
    }

    /// Read from raw property values: `WM_STATE` Iconic is 3; `_NET_WM_STATE` atoms are
    /// sign-extended 32-bit values as Xlib gives them.
    @Test func theFactsFromPropertyValues() {
        #expect(SourceWindowWatcher.hiding(wmState: [3, 0], netWMState: [], hiddenAtom: 99, marksMinimized: false).iconic)
        #expect(SourceWindowWatcher.hiding(wmState: [1, 0], netWMState: [5, 99], hiddenAtom: 99, marksMinimized: true).netHidden)
        let none = SourceWindowWatcher.hiding(wmState: [], netWMState: [5, -1], hiddenAtom: 99, marksMinimized: true)
        #expect(!none.iconic && !none.netHidden)
        #expect(SourceWindowWatcher.hiding(wmState: [], netWMState: [-1], hiddenAtom: Atom(bitPattern: -1), marksMinimized: true).netHidden)
    }

    @Test func theModesByName() {
        #expect(AutomaticPip(rawValue: "hidden") == .hidden)
        #expect(AutomaticPip(rawValue: "minimize") == .minimize)
        #expect(AutomaticPip(rawValue: "never") == .never)
        #expect(AutomaticPip(rawValue: "minimized") == nil)
    }
}

import Foundation
import TestSupport
import Testing

/// The environments of the desktop tier: the window managers of the desktops people run, each on
/// its own Xvfb (docs/WINDOW-MANAGERS.md has the matrix they produce).
enum DesktopEnvironment: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case xfwm4, xfwm4Compositing = "xfwm4+compositor"
    case mutter = "mutter-x11"
    case kwin = "kwin_x11", kwinCompositing = "kwin_x11+compositing"
    case marco, metacity, muffin
    case openbox, fluxbox

    /// The desktop it belongs to, for the matrix.
    var desktop: String {
        switch self {
        case .xfwm4, .xfwm4Compositing: "Xfce"
        case .mutter: "GNOME (X11 session)"
        case .kwin, .kwinCompositing: "KDE Plasma (X11 session)"
        case .marco: "MATE"
        case .metacity: "GNOME Flashback"
        case .muffin: "Cinnamon"
        case .openbox: "LXDE / LXQt"
        case .fluxbox: "fluxbox"
        }
    }

    var manager: WindowManager {
        switch self {
        case .xfwm4: .xfwm4
        case .xfwm4Compositing: .xfwm4Compositing
        case .mutter: .mutter
        case .kwin: .kwin
        case .kwinCompositing: .kwinCompositing
        case .marco: .marco
        case .metacity: .metacity
        case .muffin: .muffin
        case .openbox: .openbox
        case .fluxbox: .fluxbox
        }
    }

    /// Whether something composites, so that `--opacity` can show.
    var composites: Bool { manager.composites }

    /// Why the screen cannot be trusted after a desktop switch, if it cannot: muffin on Xvfb stops
    /// repainting then (every window, not only pipcam's: the screen keeps showing the old desktop's
    /// windows, which are mapped but not painted, and no new picture).
    var stalesAfterDesktopSwitch: String? {
        self == .muffin ? "muffin on Xvfb stops repainting the screen after a workspace switch (any window)" : nil
    }

    var testDescription: String { rawValue }

    func makeServer() throws -> XServer { try IntegrationTests.makeServer(manager) }
}

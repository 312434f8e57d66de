#if canImport(Glibc)
import Glibc
#endif
import CameraSource
import PipControl
import PipCore
import PipWindow

/// pipcam as a media player on the session bus while a file plays (MPRIS: media keys,
/// `playerctl`, the desktop's media widget), docs/BEHAVIOUR.md "Playing a file". The bus name is
/// owned only while a file shows; without a session bus nothing is published, and a bus that
/// refuses is said in one line, once.
final class MediaDesk {
    private let loop: any EventLoop
    private var bus: MediaPlayerBus?
    private var refusalSaid = false
    /// What was said to the bus last, and the position it had then.
    private var lastState: MediaState?
    private var lastPosition = 0.0
    private var descriptor: Int32 = -1
    /// The file playing now; nil while no file shows.
    var state: () -> MediaState? = { nil }
    /// Carries out what a media player asked.
    var perform: (PipRequest) -> Void = { _ in }

    init(loop: any EventLoop) { self.loop = loop }

    deinit { close() }

    /// The source or its playback changed: the player appears, changes or goes with the file.
    func follow() {
        guard let now = state() else { return close() }
        if bus == nil { open() }
        guard let bus else { return }
        var comparable = now
        comparable.position = lastState?.position ?? now.position
        if lastState != comparable { bus.changed(now) }
        lastState = now
        lastPosition = now.position
    }

    /// A frame `position` seconds into the file was shown: a jump (a seek, a loop) is said to
    /// the bus, steady playing is not (players read Position when they need it).
    func shown(position: Double) {
        guard let bus else { return }
        if abs(position - lastPosition) > Self.jumpSeconds { bus.seeked(to: position) }
        lastPosition = position
    }

    /// Further than frames at any rate move between two shown: a seek.
    static let jumpSeconds = 1.0

    /// The playback commands a media player's ask means.
    static func commands(for asked: MediaCommand) -> [PipRequest] {
        switch asked {
        case .play: return [.playback(.play)]
        case .pause: return [.playback(.pause)]
        case .playPause: return [.playback(.toggle)]
        // Stopped is paused at the start: the file stays shown.
        case .stop: return [.playback(.pause), .playback(.seek(.seconds(0)))]
        case .seek(let seconds): return [.playback(.seek(.relative(seconds)))]
        case .setPosition(let seconds): return [.playback(.seek(.seconds(max(0, seconds))))]
        case .quit: return [.quit]
        }
    }

    /// The title and `file://` URL MPRIS shows for the source `spec`, called `name`.
    static func describe(source spec: SourceSpec?, named name: String) -> (title: String, url: String) {
        let path = spec?.path ?? name
        guard path != "-", path.hasPrefix("/") else { return (path == "-" ? "standard input" : path, "") }
        let title = path.split(separator: "/").last.map(String.init) ?? path
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/".utf8)
        let encoded = path.utf8.map { unreserved.contains($0) ? String(UnicodeScalar($0)) : "%" + String($0, radix: 16, uppercase: true).leftPadded }
        return (title, "file://" + encoded.joined())
    }

    private func open() {
        // No session bus for this user: nothing to publish on (and no bus started for it).
        let runtime = getenv("XDG_RUNTIME_DIR").map { String(cString: $0) }
        guard getenv("DBUS_SESSION_BUS_ADDRESS") != nil || runtime.map({ access("\($0)/bus", F_OK) == 0 }) == true else { return }
        switch MediaPlayerBus.open() {
        case .success(let opened):
            bus = opened
            descriptor = opened.descriptor
            loop.addReader(descriptor) { [unowned self] in dispatch() }
        case .failure(let error):
            if !refusalSaid { writeErrorLine("pipcam: media keys and playerctl cannot reach pipcam: \(error.line)") }
            refusalSaid = true
        }
    }

    private func dispatch() {
        guard let bus, let now = state() else { return }
        let (asked, connected) = bus.dispatch(now)
        for command in asked {
            for request in Self.commands(for: command) { perform(request) }
        }
        // Gone: not from inside the loop's own reader call.
        if !connected { loop.schedule(at: .now()) { [weak self] in self?.close() } }
    }

    private func close() {
        guard let bus else { return }
        loop.removeReader(descriptor)
        bus.close()
        self.bus = nil
        lastState = nil
    }
}

private extension String {
    /// Two hex digits.
    var leftPadded: String { count < 2 ? "0" + self : self }
}

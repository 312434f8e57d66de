import CDBus
import PipCore

/// What pipcam's MPRIS player says of the file playing (docs/BEHAVIOUR.md, "Playing a file").
struct MediaState: Equatable {
    var playing: Bool
    var canSeek: Bool
    var loops: Bool
    /// Seconds into the file of the frame shown.
    var position: Double
    /// The file's length in seconds, when known.
    var length: Double?
    var title: String
    var url: String
}

/// What a media player (media keys, `playerctl`, the desktop's media widget) asked.
enum MediaCommand: Equatable {
    case play, pause, playPause, stop, quit
    /// By this many seconds.
    case seek(by: Double)
    /// To this many seconds from the start.
    case setPosition(Double)
}

/// pipcam as an MPRIS player (`org.mpris.MediaPlayer2.pipcam`) on the session bus, through
/// libdbus-1 loaded at run time (`CDBus`): the one Swift file that calls it. Used from the
/// loop's thread.
final class MediaPlayerBus {
    private var handle: OpaquePointer?
    /// The bus name owned.
    let name: String

    /// Connects and owns the name; the one line why not.
    static func open() -> Result<MediaPlayerBus, MediaBusError> {
        var handle: OpaquePointer?
        var message = [CChar](repeating: 0, count: 256)
        guard mpris_open(&handle, &message, Int32(message.count)) == MPRIS_OK, let handle else {
            return .failure(MediaBusError(line: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))
        }
        return .success(MediaPlayerBus(handle))
    }

    private init(_ handle: OpaquePointer) {
        self.handle = handle
        name = String(cString: mpris_name(handle))
    }

    deinit { close() }

    /// The descriptor to watch for what the bus sends.
    var descriptor: Int32 { handle.map { mpris_fd($0) } ?? -1 }

    /// Answers what came from `state`; the commands asked, and false once the bus went away.
    func dispatch(_ state: MediaState) -> (commands: [MediaCommand], connected: Bool) {
        guard let handle else { return ([], false) }
        var raw = Self.raw(state)
        let connected = mpris_dispatch(handle, &raw) != 0
        var commands: [MediaCommand] = []
        var command = mpris_command()
        while mpris_next_command(handle, &command) == 1 {
            let seconds = Double(command.value_us) / 1_000_000
            switch Int(command.type) {
            case MPRIS_CMD_PLAY: commands.append(.play)
            case MPRIS_CMD_PAUSE: commands.append(.pause)
            case MPRIS_CMD_PLAY_PAUSE: commands.append(.playPause)
            case MPRIS_CMD_STOP: commands.append(.stop)
            case MPRIS_CMD_SEEK: commands.append(.seek(by: seconds))
            case MPRIS_CMD_SET_POSITION: commands.append(.setPosition(seconds))
            case MPRIS_CMD_QUIT: commands.append(.quit)
            default: break
            }
        }
        return (commands, connected)
    }

    /// Says to the bus that the playback's state changed.
    func changed(_ state: MediaState) {
        guard let handle else { return }
        var raw = Self.raw(state)
        mpris_changed(handle, &raw)
    }

    /// Says to the bus that playback jumped to `position` seconds.
    func seeked(to position: Double) {
        guard let handle else { return }
        mpris_seeked(handle, Self.micros(position))
    }

    func close() {
        if let handle { mpris_close(handle) }
        handle = nil
    }

    private static func raw(_ state: MediaState) -> mpris_state {
        var raw = mpris_state()
        raw.playing = state.playing ? 1 : 0
        raw.can_seek = state.canSeek ? 1 : 0
        raw.loops = state.loops ? 1 : 0
        raw.position_us = micros(state.position)
        raw.length_us = state.length.map(micros) ?? 0
        copy(state.title, into: &raw.title)
        copy(state.url, into: &raw.url)
        return raw
    }

    /// Seconds as MPRIS's Int64 microseconds (a file's rate from its header may make them any size).
    private static func micros(_ seconds: Double) -> Int64 { Int64(saturating: (seconds * 1_000_000).rounded()) }

    /// `text` into a fixed C string field, cut at a character boundary to fit.
    private static func copy<T>(_ text: String, into field: inout T) {
        withUnsafeMutableBytes(of: &field) { bytes in
            var utf8 = Array(text.utf8.prefix(bytes.count - 1))
            if utf8.count < text.utf8.count {
                // Cut inside a character: drop its first bytes too.
                while let last = utf8.last, last & 0xC0 == 0x80 { utf8.removeLast() }
                if let last = utf8.last, last >= 0xC0 { utf8.removeLast() }
            }
            bytes.copyBytes(from: utf8)
            bytes[utf8.count] = 0
        }
    }
}

/// Why pipcam is not on the session bus: one line.
struct MediaBusError: Error {
    let line: String
}

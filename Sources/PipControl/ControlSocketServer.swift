import PipCore
#if canImport(Glibc)
import Glibc
#endif

/// The instance's end of the control socket (`ControlSocketPlace`): requests from clients of the
/// same user, each one connection, its bytes up to the client's end of writing, answered with one
/// reply. It needs no X server.
///
/// A client costs the instance nothing it can hold on to: a request longer than
/// `ControlWire.requestLimit` is refused unread, one that does not arrive whole within
/// `requestNanoseconds` (2 s) is told so and closed, connections beyond `connectionLimit` are told to
/// try again and closed, another user's connection is told no and closed. The socket file removed
/// or replaced while running is made again within `checkNanoseconds` (1 s; the lock says it is ours).
public final class ControlSocketServer {
    /// Carries out what arrived; `reply` sends the answer (once), at once or later. `untilExit`
    /// keeps the connection open until this process ends (`quit`: the client waits for that).
    public typealias Handler = (_ received: ControlWire.Received, _ reply: @escaping (_ answer: [UInt8], _ untilExit: Bool) -> Void) -> Void

    public static let connectionLimit = 64

    public let place: ControlSocketPlace
    /// How long a client has to send its whole request.
    public var requestNanoseconds: Int64 = 2_000_000_000
    /// How often the socket file is looked at.
    public var checkNanoseconds: Int64 = 1_000_000_000
    public var onRequest: Handler?
    private let lock: Int32
    private var listener: Int32 = -1
    private var bound: (dev: UInt, ino: UInt) = (0, 0)
    private weak var loop: (any ReaderLoop)?
    private var connections: [Int32: Connection] = [:]
    private var nextID = 0
    private var checkTimer: Int?
    /// The last thing said about the socket file, so that a lasting trouble is said once.
    private var lastSaid: String?

    private struct Connection {
        let id: Int
        var bytes: [UInt8] = []
        var timer: Int?
        var answered = false
        /// Answered, and open until the process ends.
        var keptUntilExit = false
    }

    /// Why the socket could not be opened.
    public enum OpenFailure: Error, Equatable {
        /// Another instance holds the place's lock.
        case alreadyRunning
        /// The one line saying why not.
        case failed(String)
    }

    /// Takes the place's lock, then listens on its socket (a stale socket file is replaced).
    public static func open(_ place: ControlSocketPlace) throws(OpenFailure) -> ControlSocketServer {
        if mkdir(place.directory, 0o700) != 0 && errno != EEXIST {
            throw .failed("cannot make \(place.directory): \(Errno.current.description)")
        }
        var info = stat()
        guard stat(place.directory, &info) == 0, info.st_uid == geteuid(), info.st_mode & 0o022 == 0 else {
            throw .failed("\(place.directory) is not a directory of this user's that only it can write")
        }
        guard place.socketPath.utf8.count < MemoryLayout.size(ofValue: sockaddr_un().sun_path) else {
            throw .failed("the socket path \(place.socketPath) is too long for a Unix socket")
        }
        let lock = Glibc.open(place.lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lock >= 0 else { throw .failed("cannot open \(place.lockPath): \(Errno.current.description)") }
        guard flock(lock, LOCK_EX | LOCK_NB) == 0 else {
            close(lock)
            throw .alreadyRunning
        }
        let server = ControlSocketServer(place: place, lock: lock)
        if let problem = server.listen() {
            close(lock)
            throw .failed(problem)
        }
        return server
    }

    private init(place: ControlSocketPlace, lock: Int32) {
        self.place = place
        self.lock = lock
    }

    deinit {
        closeListener()
        for fd in connections.keys { close(fd) }
        close(lock)
    }

    /// Answers connections on `loop`'s thread, and looks after the socket file.
    public func install(on loop: any ReaderLoop) {
        self.loop = loop
        if listener >= 0 { loop.addReader(listener) { [unowned self] in acceptAll() } }
        scheduleCheck()
    }

    /// Stops answering: connections still to be answered are closed (no one answers them now);
    /// one answered and kept until this process ends (`quit`) stays open.
    public func uninstall() {
        guard let loop else { return }
        if let checkTimer { loop.cancelTimer(checkTimer) }
        checkTimer = nil
        if listener >= 0 { loop.removeReader(listener) }
        for (fd, connection) in connections where !connection.keptUntilExit { drop(fd) }
        self.loop = nil
    }

    /// Binds a new listening socket at the place's path, over whatever is there; nil or the line saying why not.
    private func listen() -> String? {
        let path = place.socketPath
        unlink(path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return "cannot make a socket: \(Errno.current.description)" }
        var address = Self.address(path)
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard rc == 0, chmod(path, 0o600) == 0, Glibc.listen(fd, 16) == 0 else {
            let why = Errno.current.description
            close(fd)
            return "cannot listen on \(path): \(why)"
        }
        var info = stat()
        stat(path, &info)
        bound = (UInt(info.st_dev), UInt(info.st_ino))
        listener = fd
        return nil
    }

    private func closeListener() {
        guard listener >= 0 else { return }
        close(listener)
        listener = -1
    }

    static func address(_ path: String) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[i] = byte }
        }
        return address
    }

    // MARK: - The socket file

    private func scheduleCheck() {
        guard let loop else { return }
        checkTimer = loop.schedule(at: MonotonicInstant.now().advanced(byNanoseconds: checkNanoseconds)) { [unowned self] in
            checkTimer = nil
            checkFile()
            scheduleCheck()
        }
    }

    /// Makes the socket file again when it was removed or replaced (docs/BEHAVIOUR.md, "Control channel").
    func checkFile() {
        var info = stat()
        let present = stat(place.socketPath, &info) == 0
        if present && (UInt(info.st_dev), UInt(info.st_ino)) == bound && listener >= 0 { return }
        let what = present ? "was replaced by another file" : "was removed"
        if let loop, listener >= 0 { loop.removeReader(listener) }
        closeListener()
        if mkdir(place.directory, 0o700) != 0 && errno != EEXIST {}
        if let problem = listen() {
            say("pipcam: the control socket \(place.socketPath) \(what), and \(problem); commands reach this pipcam through X only")
            return
        }
        if let loop { loop.addReader(listener) { [unowned self] in acceptAll() } }
        say("pipcam: the control socket \(place.socketPath) \(what); listening there again")
    }

    private func say(_ line: String) {
        guard line != lastSaid else { return }
        lastSaid = line
        writeErrorLine(line)
    }

    // MARK: - Connections

    private func acceptAll() {
        while true {
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { return }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            if let refusal = refusal(of: fd) {
                send(Array("failed\n\(refusal)".utf8), to: fd)
                closeAfterAnswer(fd)
                continue
            }
            nextID += 1
            var connection = Connection(id: nextID)
            connection.timer = loop?.schedule(at: MonotonicInstant.now().advanced(byNanoseconds: requestNanoseconds)) { [unowned self, id = nextID] in
                guard let fd = descriptor(of: id), connections[fd]?.answered == false else { return }
                connections[fd]?.timer = nil
                answer(fd, Array("failed\npipcam: the request did not arrive whole within \(requestNanoseconds / 1_000_000) ms".utf8))
            }
            connections[fd] = connection
            loop?.addReader(fd) { [unowned self] in read(fd) }
            // A client writes its request as it connects: read now, not a loop's turn later
            // (a turn can be long while a large window is drawn).
            read(fd)
        }
    }

    /// Why a new connection is turned away: another user's, or one too many.
    private func refusal(of fd: Int32) -> String? {
        var credentials = PeerCredentials()
        var length = socklen_t(MemoryLayout<PeerCredentials>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return "pipcam: cannot tell who is asking" }
        if credentials.uid != geteuid() { return "pipcam: refused: this pipcam answers only its own user" }
        if connections.count >= Self.connectionLimit {
            return "pipcam: \(Self.connectionLimit) control connections are open already; try again"
        }
        return nil
    }

    private func descriptor(of id: Int) -> Int32? { connections.first { $0.value.id == id }?.key }

    /// Reads what has arrived, up to the end of the request or of what is there now.
    private func read(_ fd: Int32) {
        guard connections[fd]?.answered == false else { return drainOrDrop(fd) }
        var chunk = [UInt8](repeating: 0, count: 1024)
        while let connection = connections[fd], !connection.answered {
            let (n, code) = SystemCall.retryingInterrupts { chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) } }
            if n < 0 { return code == EAGAIN ? () : drop(fd) }
            if n == 0 { return deliver(fd, .request(connection.bytes)) }
            connections[fd]?.bytes += chunk.prefix(n)
            if connection.bytes.count + n > ControlWire.requestLimit { return deliver(fd, .tooLong) }
        }
    }

    /// After the request: a client that writes on is not read; one that hangs up early is let go.
    private func drainOrDrop(_ fd: Int32) {
        var byte: UInt8 = 0
        if Glibc.read(fd, &byte, 1) == 0 { drop(fd) } else if let loop { loop.removeReader(fd) }
    }

    private func deliver(_ fd: Int32, _ received: ControlWire.Received) {
        guard let id = connections[fd]?.id else { return }
        connections[fd]?.answered = true
        if let timer = connections[fd]?.timer { loop?.cancelTimer(timer) }
        loop?.removeReader(fd)
        guard let onRequest else { return answer(fd, Array("failed\npipcam: not answering requests now".utf8)) }
        onRequest(received) { [weak self] bytes, untilExit in
            guard let self, let fd = descriptor(of: id) else { return }
            answer(fd, bytes, untilExit: untilExit)
        }
    }

    private func answer(_ fd: Int32, _ bytes: [UInt8], untilExit: Bool = false) {
        send(bytes, to: fd)
        if untilExit {
            // Kept open, unread and unwatched, until the process ends: the client's end of file is its exit.
            connections[fd]?.keptUntilExit = true
            return
        }
        drop(fd)
    }

    /// Closes a connection whose answer went out. Unread bytes at close would reset the
    /// connection, and the answer with it: what has arrived is read away first (a client still
    /// writing past that may lose it).
    private func closeAfterAnswer(_ fd: Int32) {
        shutdown(fd, Int32(SHUT_WR))
        var sink = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<16 where sink.withUnsafeMutableBytes({ Glibc.read(fd, $0.baseAddress, $0.count) }) > 0 {}
        close(fd)
    }

    private func send(_ bytes: [UInt8], to fd: Int32) {
        // Small answers into an empty socket buffer: a client that does not read loses its answer.
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    private func drop(_ fd: Int32) {
        guard let connection = connections.removeValue(forKey: fd) else { return }
        if let timer = connection.timer { loop?.cancelTimer(timer) }
        loop?.removeReader(fd)
        closeAfterAnswer(fd)
    }
}

/// `struct ucred` as SO_PEERCRED fills it (glibc shows it only with _GNU_SOURCE).
private struct PeerCredentials {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
}

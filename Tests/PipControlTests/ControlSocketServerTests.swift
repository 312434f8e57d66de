import Foundation
import PipCore
import Testing
import TestSupport
@testable import PipControl
#if canImport(Glibc)
import Glibc
#endif

/// The control socket end to end: a real `ControlSocketServer` on a `TestReaderLoop` thread in a
/// scratch runtime directory, asked by `ControlSocketClient` or by a client written by hand. The
/// server hands its handler the bytes as they came (decoding is the program's), so the handlers
/// here answer by what they were given.
@Suite struct ControlSocketServerTests {
    /// A place in a runtime directory of its own.
    static func place(_ display: String = ":5", name: String? = nil, runtime: String? = nil) throws -> ControlSocketPlace {
        let runtime = try runtime ?? Scratch.makeDirectory("control-socket")
        return ControlSocketPlace(directory: ControlSocketPlace.directory(runtimeDirectory: runtime)!, display: display, name: name)
    }

    static func ask(_ text: String, _ place: ControlSocketPlace, within milliseconds: Int = 5000) -> ControlWire.Exchange {
        ControlSocketClient.exchange(Array(text.utf8), with: place, within: milliseconds)
    }

    static func answered(_ text: String) -> ControlWire.Exchange { .answered(Array(text.utf8)) }

    static func isSocket(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK
    }

    /// A socket file as a crashed instance leaves it: bound, then closed, nothing listening.
    static func leaveStaleSocket(at path: String) {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = ControlSocketServer.address(path)
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        close(fd)
        #expect(rc == 0 && isSocket(path), "no stale socket at \(path)")
    }

    @Test func aRequestIsAnsweredWithTheHandlersReply() throws {
        let place = try Self.place()
        try withLoop { loop in
            let server = try HostedServer(place, on: loop) { received in
                switch received {
                case .request(let bytes) where bytes == Array("status".utf8): (Array("done\n{\"state\":\"idle\"}".utf8), false)
                default: (Array("failed\nnot status".utf8), false)
                }
            }
            #expect(Self.ask("status", place) == Self.answered("done\n{\"state\":\"idle\"}"))
            // Each request is a connection of its own, answered in turn.
            #expect(Self.ask("toggle", place) == Self.answered("failed\nnot status"))
            #expect(Self.ask("status", place) == Self.answered("done\n{\"state\":\"idle\"}"))
            #expect(server.received == [.request(Array("status".utf8)), .request(Array("toggle".utf8)), .request(Array("status".utf8))])
        }
    }

    @Test func garbageAndEmptyRequestsReachTheHandlerUndecoded() throws {
        let place = try Self.place()
        let garbage: [UInt8] = [0xFF, 0xFE, 0x00, 0x0A, 0x41] + Array("\nnot a request\n".utf8)
        try withLoop { loop in
            let server = try HostedServer(place, on: loop) { received in
                guard case .request(let bytes) = received else { return (Array("failed\ntoo long".utf8), false) }
                return (Array("done\n\(bytes.count) bytes".utf8), false)
            }
            #expect(ControlSocketClient.exchange(garbage, with: place, within: 5000) == Self.answered("done\n\(garbage.count) bytes"))
            #expect(ControlSocketClient.exchange([], with: place, within: 5000) == Self.answered("done\n0 bytes"))
            #expect(server.received == [.request(garbage), .request([])])
        }
    }

    @Test func aRequestOverTheLimitReachesTheHandlerAsTooLong() throws {
        let place = try Self.place()
        let limit = ControlWire.requestLimit
        try withLoop { loop in
            let server = try HostedServer(place, on: loop) { received in
                guard case .request(let bytes) = received else { return (Array("failed\ntoo long".utf8), false) }
                return (Array("done\n\(bytes.count) bytes".utf8), false)
            }
            let longest = [UInt8](repeating: UInt8(ascii: "a"), count: limit)
            #expect(ControlSocketClient.exchange(longest, with: place, within: 5000) == Self.answered("done\n\(limit) bytes"))
            for count in [limit + 1, 10_000] {
                let tooLong = [UInt8](repeating: UInt8(ascii: "b"), count: count)
                #expect(ControlSocketClient.exchange(tooLong, with: place, within: 5000) == Self.answered("failed\ntoo long"), "\(count) bytes")
            }
            #expect(server.received == [.request(longest), .tooLong, .tooLong])
        }
    }

    @Test func aRequestThatDoesNotArriveWholeIsToldSoAfterTheTimeGiven() throws {
        let place = try Self.place()
        try withLoop { loop in
            let server = try HostedServer(place, on: loop, requestNanoseconds: 200_000_000)
            let silent = try #require(RawClient.connect(to: place))
            defer { close(silent) }
            let partial = try #require(RawClient.connect(to: place))
            defer { close(partial) }
            #expect(send(partial, "sta", 3, Int32(MSG_NOSIGNAL)) == 3)
            let start = MonotonicInstant.now()
            let expected = Array("failed\npipcam: the request did not arrive whole within 200 ms".utf8)
            for fd in [silent, partial] {
                let (bytes, closed) = RawClient.read(fd, within: 5000)
                #expect(bytes == expected, "\(String(decoding: bytes, as: UTF8.self))")
                #expect(closed)
            }
            #expect(MonotonicInstant.now().seconds(since: start) >= 0.15)
            #expect(server.received == [])
            // The server goes on answering others.
            #expect(Self.ask("status", place) == Self.answered("done\nok"))
        }
    }

    @Test func untilExitKeepsTheConnectionOpenUntilTheServerGoes() throws {
        let place = try Self.place()
        try withLoop { loop in
            let server = try HostedServer(place, on: loop) { received in
                (Array("done\nbye".utf8), received == .request(Array("quit".utf8)))
            }
            #expect(Self.ask("quit", place, within: 500) == .timedOut)
            #expect(Self.ask("status", place) == Self.answered("done\nbye"))
            // The answer arrives at once; the end of the connection only when the server is gone.
            let fd = try #require(RawClient.connect(to: place))
            defer { close(fd) }
            #expect(send(fd, "quit", 4, Int32(MSG_NOSIGNAL)) == 4)
            shutdown(fd, Int32(SHUT_WR))
            let (bytes, closed) = RawClient.read(fd, within: 5000, upTo: 8)
            #expect(bytes == Array("done\nbye".utf8) && !closed)
            let (more, closedSoon) = RawClient.read(fd, within: 300)
            #expect(more == [] && !closedSoon)
            try server.close()
            let (after, closedAfter) = RawClient.read(fd, within: 5000)
            #expect(after == [] && closedAfter)
            #expect(server.received.count == 3)
        }
    }

    @Test func aSecondServerAtThePlaceIsRefusedWhileTheFirstLives() throws {
        let place = try Self.place()
        try withLoop { loop in
            let first = try HostedServer(place, on: loop) { _ in (Array("done\nfirst".utf8), false) }
            #expect(place.isRunning)
            #expect(throws: ControlSocketServer.OpenFailure.alreadyRunning) { _ = try HostedServer(place, on: loop) }
            // The refused one left the first's socket alone.
            #expect(Self.ask("status", place) == Self.answered("done\nfirst"))
            // Another name at the same display is another place.
            let named = try Self.place(name: "cam", runtime: URL(fileURLWithPath: place.directory).deletingLastPathComponent().path)
            let other = try HostedServer(named, on: loop) { _ in (Array("done\ncam".utf8), false) }
            #expect(Self.ask("status", named) == Self.answered("done\ncam"))
            try first.close()
            #expect(!place.isRunning && named.isRunning)
            let second = try HostedServer(place, on: loop) { _ in (Array("done\nsecond".utf8), false) }
            #expect(Self.ask("status", place) == Self.answered("done\nsecond"))
            #expect(first.received.count == 1 && second.received.count == 1 && other.received.count == 1)
        }
    }

    @Test func aStaleSocketFileIsReplaced() throws {
        let place = try Self.place()
        #expect(mkdir(place.directory, 0o700) == 0)
        Self.leaveStaleSocket(at: place.socketPath)
        #expect(FileManager.default.createFile(atPath: place.lockPath, contents: nil))
        #expect(Self.ask("status", place, within: 1000) == .notRunning)
        #expect(!place.isRunning)
        try withLoop { loop in
            let server = try HostedServer(place, on: loop)
            #expect(place.isRunning)
            #expect(Self.ask("status", place) == Self.answered("done\nok"))
            #expect(server.received == [.request(Array("status".utf8))])
        }
    }

    @Test func runningListsLiveServersAndNotStaleFiles() throws {
        let place = try Self.place()
        let runtime = URL(fileURLWithPath: place.directory).deletingLastPathComponent().path
        let named = try Self.place(name: "cam", runtime: runtime)
        let stale = try Self.place(":6", name: "old", runtime: runtime)
        #expect(mkdir(place.directory, 0o700) == 0)
        Self.leaveStaleSocket(at: stale.socketPath)
        #expect(FileManager.default.createFile(atPath: stale.lockPath, contents: nil))
        #expect(FileManager.default.createFile(atPath: place.directory + "/notes.txt", contents: nil))
        #expect(ControlSocketPlace.running(in: place.directory) == [])
        try withLoop { loop in
            let server = try HostedServer(place, on: loop)
            _ = try HostedServer(named, on: loop)
            #expect(ControlSocketPlace.running(in: place.directory) == [place, named])
            try server.close()
            #expect(ControlSocketPlace.running(in: place.directory) == [named])
        }
        // The loop stopped: the named one released with it.
        #expect(ControlSocketPlace.running(in: place.directory) == [])
    }

    @Test func aSocketFileRemovedOrReplacedIsMadeAgain() throws {
        let place = try Self.place()
        try withLoop { loop in
            let server = try HostedServer(place, on: loop, checkNanoseconds: 100_000_000)
            #expect(Self.ask("status", place) == Self.answered("done\nok"))
            // Removed, and asked on the loop's thread, before its next check can run: no one there.
            let whenRemoved = try loop.perform { () -> ControlWire.Exchange in
                unlink(place.socketPath)
                return Self.ask("status", place, within: 1000)
            }
            #expect(whenRemoved == .notRunning)
            #expect(eventually { Self.isSocket(place.socketPath) })
            #expect(Self.ask("status", place) == Self.answered("done\nok"))
            // Replaced by a plain file: the same.
            let whenReplaced = try loop.perform { () -> ControlWire.Exchange in
                unlink(place.socketPath)
                _ = FileManager.default.createFile(atPath: place.socketPath, contents: Data("x".utf8))
                return Self.ask("status", place, within: 1000)
            }
            #expect(whenReplaced == .notRunning)
            #expect(eventually { Self.isSocket(place.socketPath) })
            #expect(Self.ask("status", place) == Self.answered("done\nok"))
            #expect(server.received.count == 3)
        }
    }
}

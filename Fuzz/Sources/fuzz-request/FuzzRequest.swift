// The control socket's bytes (any local client of the same user can send them): a request as
// `PipRequest(_:)` and `PipRequest.decode` read it, a reply as a client reads it, and a file name
// in the socket directory as `ControlSocketPlace.parse` reads it. Whatever arrives, nothing traps;
// what decodes encodes back to bytes that decode the same, and what is refused is one line.
import FuzzSupport
import PipCore
@testable import PipControl

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    checkRequest(bytes)
    checkReply(bytes)
    checkPlace(bytes)
    return 0
}

private func checkRequest(_ bytes: [UInt8]) {
    let request = PipRequest(bytes)
    if let request {
        let encoded = request.encoded
        let again = PipRequest(encoded)
        precondition(again == request, "\(request) is sent as \(encoded), which reads back as \(String(describing: again))")
        precondition(again?.encoded == encoded, "\(request) is not sent the same way twice")
    }
    switch PipRequest.decode(.request(bytes)) {
    case .request(let decoded):
        precondition(decoded == request, "decode gave \(decoded) where init gave \(String(describing: request))")
    case .refused(let reply):
        precondition(request == nil, "decode refused \(String(describing: request))")
        expectRefusal(reply)
    }
    guard case .refused(let reply) = PipRequest.decode(.tooLong) else { preconditionFailure("a request too long was decoded") }
    expectRefusal(reply)
}

/// A refusal: `failed` with one line of pipcam's, which a client reads back as the same reply.
private func expectRefusal(_ reply: PipReply) {
    guard case .failed(let line) = reply else { preconditionFailure("a refusal is \(reply)") }
    precondition(line.hasPrefix("pipcam: ") && !line.contains("\n"), "a refusal is not one line of pipcam's: \(line)")
    precondition(PipReply(reply.encoded) == reply, "the refusal \(reply) does not read back")
}

private func checkReply(_ bytes: [UInt8]) {
    guard let reply = PipReply(bytes) else {
        precondition(!bytes.starts(with: Array("done\n".utf8)) && !bytes.starts(with: Array("failed\n".utf8)),
                     "a reply starting done or failed was not read")
        return
    }
    let encoded = reply.encoded
    precondition(PipReply(encoded) == reply, "\(reply) is sent as \(encoded), which does not read back")
    // Valid UTF-8 is sent back byte for byte (invalid bytes are repaired once, as any text reads).
    if String(validating: bytes, as: UTF8.self) != nil { precondition(encoded == bytes, "\(reply) is not the bytes it came from") }
}

private func checkPlace(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    // Escaping a display is undone exactly, whatever its text.
    precondition(ControlSocketPlace.unescaped(ControlSocketPlace.escaped(text)) == text, "'\(text)' does not unescape back")
    guard let place = ControlSocketPlace.parse(fileName: text, in: "/d") else { return }
    let name = place.fileName
    precondition(place.directory == "/d" && place.socketPath == "/d/" + name && place.lockPath == "/d/" + name.dropLast(5) + ".lock")
    precondition(!place.display.isEmpty && place.name?.isEmpty != true, "\(place) from '\(text)' names nothing")
    let escapedDisplay = ControlSocketPlace.escaped(place.display)
    precondition(escapedDisplay.utf8.allSatisfy { $0 < 0x80 && $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "@") },
                 "the display \(place.display) is written \(escapedDisplay)")
    let again = ControlSocketPlace.parse(fileName: name, in: "/d")
    precondition(again == place, "\(place) from '\(text)' is named \(name), which reads back as \(String(describing: again))")
    precondition(again?.fileName == name, "\(place) is not named the same twice")
}

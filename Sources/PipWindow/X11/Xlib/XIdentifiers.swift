/// What window ids, atoms and keysyms share: each is a `UInt` to Xlib, and a type of its own
/// everywhere else, so one cannot be passed for another. Only the files that call Xlib
/// (`XDisplay*.swift`) turn them into C values and back.
public protocol XIdentifier: RawRepresentable, Hashable, Sendable, ExpressibleByIntegerLiteral
where RawValue == UInt, IntegerLiteralType == UInt {
    init(rawValue: UInt)
}

extension XIdentifier {
    public init(_ raw: UInt) { self.init(rawValue: raw) }
    public init(integerLiteral value: UInt) { self.init(rawValue: value) }
    /// A value read from a format-32 property or a client message's data (Xlib's `long`s).
    public init(bitPattern value: Int) { self.init(rawValue: UInt(bitPattern: value)) }
}

/// An X window id.
public struct WindowID: XIdentifier, CustomStringConvertible {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// In hex, as `xwininfo` and `xprop` show window ids.
    public var description: String { "0x" + String(rawValue, radix: 16) }
}

/// An X atom (an interned name: a property, a type, a selection, a message type).
public struct Atom: XIdentifier, CustomStringConvertible {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// X's `None`: no atom (e.g. the property of a refused selection conversion).
    public static let none = Atom(0)
    public var description: String { String(rawValue) }
}

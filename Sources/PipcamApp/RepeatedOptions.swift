import PipWindow

/// Drops the occurrences of options that a later occurrence of the same option overrides, before
/// the command line goes to ArgumentParser, which takes time in proportion to all earlier
/// occurrences for each repeated one (docs/PERFORMANCE.md, "Repeated options"). The config
/// file's lines come before the command line's, so repeats are usual.
///
/// Only what certainly changes nothing is dropped: an occurrence whose value ArgumentParser would
/// refuse stays (its error is still reported), and nothing moves across an argument the table does
/// not know (a subcommand, an unknown option, a value that might be an option) or after `--`.
public enum RepeatedOptions {
    /// How ArgumentParser reads an option.
    public enum Kind: Sendable {
        /// A flag without a value; the flags of one `group` override each other (`--mirror`,
        /// `--no-mirror`).
        case flag(group: String)
        /// An option with a value, the last one winning: `--key VALUE` or `--key=VALUE`.
        /// `unconditional`: the next argument is its value whatever it looks like; else only one
        /// not starting with `-` is certainly its value. `accepts`: whether ArgumentParser takes the
        /// value without an error.
        case value(group: String, unconditional: Bool, accepts: @Sendable (String) -> Bool)
    }

    /// `arguments` without the occurrences a later one overrides, in their order.
    public static func lastOnly(_ arguments: [String], options: [String: Kind]) -> [String] {
        // Each argument or option with its value, as one item; nil group: a barrier, kept.
        var items: [(range: Range<Int>, group: String?, droppable: Bool)] = []
        var i = 0
        scan: while i < arguments.count {
            let argument = arguments[i]
            switch lookUp(argument, next: i + 1 < arguments.count ? arguments[i + 1] : nil, options: options) {
            case .endOfOptions:
                items.append((i..<arguments.count, nil, false))
                break scan
            case .item(let length, let group, let droppable):
                items.append((i..<i + length, group, droppable))
                i += length
            }
        }
        // From the end: an item is dropped when a later one of its group came before any barrier.
        var later = Set<String>()
        var kept = [Bool](repeating: true, count: items.count)
        for index in items.indices.reversed() {
            guard let group = items[index].group else {
                later.removeAll(keepingCapacity: true)
                continue
            }
            if !later.insert(group).inserted && items[index].droppable { kept[index] = false }
        }
        guard kept.contains(false) else { return arguments }
        var result: [String] = []
        result.reserveCapacity(arguments.count)
        for index in items.indices where kept[index] { result += arguments[items[index].range] }
        return result
    }

    private enum Found {
        case endOfOptions
        /// `length` arguments (1 or 2); a nil `group` is a barrier.
        case item(length: Int, group: String?, droppable: Bool)
    }

    private static func lookUp(_ argument: String, next: String?, options: [String: Kind]) -> Found {
        if argument == "--" { return .endOfOptions }
        switch options[argument] {
        case .flag(let group):
            return .item(length: 1, group: group, droppable: true)
        case .value(let group, let unconditional, let accepts):
            guard let next, unconditional || !next.hasPrefix("-") else { return .item(length: 1, group: nil, droppable: false) }
            return .item(length: 2, group: group, droppable: accepts(next))
        case nil:
            guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "="),
                case .value(let group, _, let accepts)? = options[String(argument[..<equals])]
            else { return .item(length: 1, group: nil, droppable: false) }
            return .item(length: 1, group: group, droppable: accepts(String(argument[argument.index(after: equals)...])))
        }
    }
}

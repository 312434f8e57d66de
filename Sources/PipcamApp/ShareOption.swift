/// How `--share [DEVICE]` is read (docs/BEHAVIOUR.md, "Sharing the camera"): with a device, alone
/// (the first free virtual camera), or `none`.
public enum ShareOption {
    /// `--share` alone, spelled for the parser: the first v4l2loopback device no other program writes.
    public static let anyDevice = "auto"

    /// The arguments with every `--share` given without a device (last, or followed by another
    /// option) written `--share=auto`: ArgumentParser has no options whose value may be left out.
    /// Arguments after `--` are left alone.
    public static func withValues(_ arguments: [String]) -> [String] {
        var result: [String] = []
        for (i, argument) in arguments.enumerated() {
            if argument == "--" { return result + arguments[i...] }
            let next = i + 1 < arguments.count ? arguments[i + 1] : nil
            let alone = argument == "--share" && (next.map { $0.hasPrefix("-") } ?? true)
            result.append(alone ? "--share=\(anyDevice)" : argument)
        }
        return result
    }

    /// What a `--share` value asks for: nil for no sharing (`none`, or a config file's `no`),
    /// `.some(nil)` for the first free device (`auto`, or a config file's `yes`), else the device.
    public static func device(_ value: String?) -> String?? {
        guard let value, !["none", "no", "off", "false"].contains(value.lowercased()) else { return nil }
        return ["auto", "yes", "on", "true"].contains(value.lowercased()) ? .some(nil) : .some(value)
    }
}

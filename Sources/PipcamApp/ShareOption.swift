import CameraSource

/// How `--share [DEVICE|pipewire[:NAME]]` is read (docs/BEHAVIOUR.md, "Sharing the camera"):
/// with a device, a PipeWire node, alone (the first free virtual camera), or `none`.
public enum ShareOption {
    /// `--share` alone, spelled for the parser: a free v4l2loopback device, else a PipeWire node.
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

    /// What a `--share` value asks for: nil for no sharing (`none`, or a config file's `no`); a
    /// free virtual camera of either kind (`auto`, or a config file's `yes`); a PipeWire node
    /// (`pipewire`, `pipewire:NAME`); else a v4l2loopback device.
    public static func request(_ value: String?) -> ShareRequest? {
        guard let value, !["none", "no", "off", "false"].contains(value.lowercased()) else { return nil }
        if ["auto", "yes", "on", "true"].contains(value.lowercased()) { return .any }
        if value == "pipewire" { return .pipeWire(name: ShareRequest.standardNodeName) }
        if value.hasPrefix("pipewire:") {
            let name = String(value.dropFirst("pipewire:".count))
            return .pipeWire(name: name.isEmpty ? ShareRequest.standardNodeName : name)
        }
        return .loopback(device: value)
    }
}

/// How instances are found on X: each owns the selection `_PIPCAM_S<screen>` (or
/// `_PIPCAM_S<screen>_<name>` with `--name`), like window managers own `WM_S<screen>`.
public enum InstanceName {
    /// The selection atom's name for `name` on `screen`.
    public static func selection(screen: Int32, name: String?) -> String {
        "_PIPCAM_S\(screen)" + (name.map { "_" + $0 } ?? "")
    }

    /// Checks a `--name`: 1 to 64 letters, digits, `-`, `_` or `.`; returns a one-line reason if not.
    public static func problem(with name: String) -> String? {
        guard !name.isEmpty, name.utf8.count <= 64 else { return "--name: '\(name)' must be 1 to 64 characters" }
        let allowed = name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0)
        }
        return allowed ? nil : "--name: '\(name)' may hold only letters, digits, '-', '_' and '.'"
    }

    /// The instance a `--name` means: nil (the unnamed one) for `none`, which undoes a config
    /// file's `name`.
    public static func given(_ text: String?) -> String? { text == "none" ? nil : text }

    /// How messages name an instance: ":3" or ":3 (name 'cam')".
    public static func describe(display: String, name: String?) -> String {
        display + (name.map { " (name '\($0)')" } ?? "")
    }
}

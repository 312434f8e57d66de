/// The corners a PiP window can be placed in.
public enum Corner: String, Sendable, CaseIterable {
    case topLeft = "top-left", topRight = "top-right", bottomLeft = "bottom-left", bottomRight = "bottom-right"
}

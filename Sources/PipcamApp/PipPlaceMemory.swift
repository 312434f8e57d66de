import PipCore
import PipWindow

/// PiP's place kept from one run to the next (`GeometryMemory`). A run given `--size` or
/// `--corner` sets the memory aside: it neither reads nor replaces it.
struct PipPlaceMemory {
    /// Where it is kept; nil when this run does not remember.
    let path: String?

    init(_ options: SessionOptions) { path = options.remembersGeometry ? options.geometryFile : nil }

    /// The frame remembered, fitted to a picture of `aspect`: on its monitor, else on `window`'s.
    func frame(aspect: Double, on screen: PipScreen, near window: WindowID) -> Rect? {
        guard let path, let memory = GeometryMemory.load(from: path) else { return nil }
        return memory.fitted(toAspect: aspect).rect(in: screen.layout, otherwise: screen.homeArea(near: window))
    }

    /// Keeps `rect`, where the user left PiP.
    func save(_ rect: Rect, on screen: PipScreen) {
        guard let path else { return }
        GeometryMemory(rect: rect, in: screen.layout).save(to: path)
    }
}

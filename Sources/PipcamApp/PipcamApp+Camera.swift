import CameraSource
import PipCore
import PipWindow

/// The camera's controls and framing, remembered per camera (`CameraDesk`), wired into the program.
extension PipcamApp {
    /// The source or its camera's state changed: another camera's remembered framing is shown
    /// (`--zoom` / `--pan` stand for the first one, and are remembered for it), and a PipeWire
    /// camera opened again gets its remembered controls back.
    func followCamera() {
        let name = frames.status.name ?? options.sourceName
        if let remembered = cameras.follow(source: name) {
            cameras.cameraReopened()
            if framingGiven {
                // The framing asked for is this camera's from now on.
                framingGiven = false
                rememberFraming()
            } else {
                picture.framing = remembered.map { Framing(zoom: $0.zoom, centreX: $0.centreX, centreY: $0.centreY) } ?? .full
                applyPicture()
                noteFramedDisplaySize()
            }
        }
        if cameras.noteState(frames.status.camera) { cameras.cameraReopened() }
    }

    /// Keeps the framing for the camera shown now.
    func rememberFraming() { cameras.remember(framing: picture.framing) }

    /// A digit key in a window: one step of a camera control, its new value shown on the picture.
    func stepControl(digit: Int) {
        guard let line = cameras.step(digit: digit), let mask = TextLine.mask(line, doubleSize: loop.display.prefersDoubleSize) else { return }
        let until = MonotonicInstant.now().advanced(byNanoseconds: 1_500_000_000)
        frames.readout = (mask, until)
        frames.redraw()
        // Drawn away once it is due.
        _ = loop.schedule(at: until) { [weak self] in self?.frames.redraw() }
    }
}

import CameraSource
import PipCore
import PipWindow

/// The camera's controls and framing, remembered per camera (`CameraDesk`), wired into the program.
extension PipcamApp {
    /// The source or its camera's state changed: the camera's controls and framing follow it.
    func followCamera() {
        guard let spec = frames.status.spec,
            let framing = cameras.show(
                source: spec, named: frames.status.name ?? options.sourceName, state: frames.status.camera, showing: picture.framing)
        else { return }
        picture.setFraming(framing)
    }

    /// A key either window leaves to the program: a digit steps a camera control, Space, Left and
    /// Right play, pause and skip a file.
    func press(_ keysym: Keysym) {
        if let digit = keysym.digit { return stepControl(digit: digit) }
        if let action = PlaybackDesk.command(forKey: keysym) { carryOut(.playback(action)) }
    }

    /// A digit key in a window: one step of a camera control, its new value shown on the picture.
    func stepControl(digit: Int) {
        guard let line = cameras.step(digit: digit), let mask = TextLine.mask(line, doubleSize: windowSystem.prefersDoubleSize) else { return }
        let until = MonotonicInstant.now().advanced(byNanoseconds: 1_500_000_000)
        frames.readout = (mask, until)
        frames.redraw()
        // Drawn away once it is due.
        _ = loop.schedule(at: until) { [weak self] in self?.frames.redraw() }
    }
}

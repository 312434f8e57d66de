/// What Picture in Picture shows and where it comes from — `AVPictureInPictureController.ContentSource`
/// for video calls.
public struct PipContentSource: Sendable, Equatable {
    /// The window PiP grows out of when it starts and is restored into when it stops (pipcam's main
    /// window, another application's window, or an embedder's top-level window).
    public var sourceWindow: WindowID
    /// The window whose on-screen frame PiP grows out of and shrinks into: the source window itself,
    /// or a view inside it (an embedded camera view in another application's window).
    public var animationWindow: WindowID
    /// The size of the content; sets the PiP window's aspect ratio and initial size.
    public var preferredContentWidth: Int
    public var preferredContentHeight: Int

    public init(sourceWindow: WindowID, preferredContentSize: (width: Int, height: Int), animationWindow: WindowID? = nil) {
        self.sourceWindow = sourceWindow
        self.animationWindow = animationWindow ?? sourceWindow
        preferredContentWidth = max(1, preferredContentSize.width)
        preferredContentHeight = max(1, preferredContentSize.height)
    }
}

/// Why PiP did not start.
public enum PipError: Error, Equatable, CustomStringConvertible {
    /// No content source, or its source window does not exist.
    case notPossible
    public var description: String { "Picture in Picture is not possible: no content source or no source window" }
}

/// The PiP life cycle, as `AVPictureInPictureControllerDelegate` reports it. All methods run on the
/// thread of the controller's window system (its loop) and have default implementations.
public protocol PipControllerDelegate: AnyObject {
    func pipControllerWillStart(_ controller: PipController)
    func pipControllerDidStart(_ controller: PipController)
    func pipController(_ controller: PipController, failedToStartWith error: PipError)
    func pipControllerWillStop(_ controller: PipController)
    /// Bring your user interface back (show the source window's content), then call `completion`;
    /// `didStop` follows only after that. A completion counts once, for this stop only: calling it
    /// again, or during a later stop, does nothing. Until it is called PiP stays stopping, and a
    /// `start()` waits.
    func pipController(_ controller: PipController, restoreUserInterfaceWithCompletion completion: @escaping () -> Void)
    func pipControllerDidStop(_ controller: PipController)
}

extension PipControllerDelegate {
    public func pipControllerWillStart(_ controller: PipController) {}
    public func pipControllerDidStart(_ controller: PipController) {}
    public func pipController(_ controller: PipController, failedToStartWith error: PipError) {}
    public func pipControllerWillStop(_ controller: PipController) {}
    public func pipController(_ controller: PipController, restoreUserInterfaceWithCompletion completion: @escaping () -> Void) {
        completion()
    }
    public func pipControllerDidStop(_ controller: PipController) {}
}

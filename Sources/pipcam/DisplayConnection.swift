import PipCore
import PipWindow
import PipcamApp
#if canImport(Glibc)
import Glibc
#endif

/// Opens the display `$DISPLAY` names, or says why not in one line (the caller exits 2).
enum DisplayConnection {
    static func open() -> (display: XDisplay, name: String)? {
        guard let name = getenv("DISPLAY").map({ String(cString: $0) }), !name.isEmpty else {
            writeErrorLine("pipcam: no X display: $DISPLAY is not set")
            return nil
        }
        do {
            return (try XDisplay(name: name), name)
        } catch {
            writeErrorLine("pipcam: \(error)")
            return nil
        }
    }
}

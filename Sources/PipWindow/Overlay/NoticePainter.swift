/// Draws a centred notice — an icon over one or two lines of text on dark grey — into a window
/// image: the main window's "Camera is in Picture in Picture" placeholder, and what a window shows
/// while the camera is interrupted instead of a frozen picture.
package struct NoticePainter {
    package let compositor: Compositor
    package static let backgroundGrey: UInt8 = 38

    package init(compositor: Compositor) { self.compositor = compositor }

    package func paint(
        icon: AlphaMask, lines: [AlphaMask], into pixels: UnsafeMutableRawPointer, stride: Int, width: Int, height: Int
    ) {
        compositor.fill(x: 0, y: 0, w: width, h: height, grey: Self.backgroundGrey, into: pixels, stride: stride, width: width, height: height)
        // Small windows (a PiP) get the icon and the first line only, and a line wider than the
        // window is left out (the icon alone says more than a cut sentence).
        let shown = (width < 360 ? Array(lines.prefix(1)) : lines).filter { $0.width + 16 <= width }
        let total = icon.height + shown.reduce(0) { $0 + 12 + $1.height }
        var y = (height - total) / 2
        compositor.draw(icon, at: (width - icon.width) / 2, y: y, into: pixels, stride: stride, width: width, height: height)
        y += icon.height
        for (i, line) in shown.enumerated() {
            y += 12
            compositor.draw(
                line, at: (width - line.width) / 2, y: y, opacity: i == 0 ? 1 : 0.7, into: pixels, stride: stride,
                width: width, height: height)
            y += line.height
        }
    }
}

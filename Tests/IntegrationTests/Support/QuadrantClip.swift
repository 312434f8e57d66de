import Foundation
import Synchronization
import TestSupport

/// A still picture in four coloured quarters — red top left, green top right, blue bottom left,
/// white bottom right — as a YUV4MPEG2 clip (4:2:0, BT.601 limited range): what a digital zoom
/// shows of it can be told from a screenshot by colour alone.
enum QuadrantClip {
    enum Quarter: CaseIterable { case red, green, blue, white }

    /// Y′, Cb, Cr of each quarter.
    static func yuv(_ q: Quarter) -> (UInt8, UInt8, UInt8) {
        switch q {
        case .red: (81, 90, 240)
        case .green: (145, 54, 34)
        case .blue: (41, 240, 110)
        case .white: (235, 128, 128)
        }
    }

    /// The quarter a screen colour is nearest to.
    static func quarter(of c: RGB) -> Quarter {
        let targets: [(Quarter, RGB)] = [
            (.red, RGB(255, 0, 0)), (.green, RGB(0, 255, 0)), (.blue, RGB(0, 0, 255)), (.white, RGB(255, 255, 255)),
        ]
        return targets.min { $0.1.distance(to: c) < $1.1.distance(to: c) }!.0
    }

    /// The clip's path (`frames` frames at `rate` per second), written once per test process.
    static func path(width: Int = 320, height: Int = 180, frames: Int = 300, rate: Int = 10) throws -> String {
        // Tests run in parallel: one writes the file, the others wait for it.
        try written.withLock { _ in try write(width: width, height: height, frames: frames, rate: rate) }
    }

    private static let written = Mutex(())

    private static func write(width: Int, height: Int, frames: Int, rate: Int) throws -> String {
        let path = Scratch.directory + "/quadrants-\(width)x\(height)-\(frames)@\(rate).y4m"
        if FileManager.default.fileExists(atPath: path) { return path }
        var frame = [UInt8]()
        let (cw, ch) = (width / 2, height / 2)
        func quarter(_ x: Int, _ y: Int, _ w: Int, _ h: Int) -> Quarter {
            [Quarter.red, .green, .blue, .white][(y >= h / 2 ? 2 : 0) + (x >= w / 2 ? 1 : 0)]
        }
        for y in 0..<height { for x in 0..<width { frame.append(yuv(quarter(x, y, width, height)).0) } }
        for y in 0..<ch { for x in 0..<cw { frame.append(yuv(quarter(x, y, cw, ch)).1) } }
        for y in 0..<ch { for x in 0..<cw { frame.append(yuv(quarter(x, y, cw, ch)).2) } }
        var data = Data("YUV4MPEG2 W\(width) H\(height) F\(rate):1 Ip A1:1 C420mpeg2\n".utf8)
        for _ in 0..<frames {
            data.append(contentsOf: Array("FRAME\n".utf8))
            data.append(contentsOf: frame)
        }
        try data.write(to: URL(fileURLWithPath: path + ".part"))
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.moveItem(atPath: path + ".part", toPath: path)
        return path
    }
}

extension Screenshot {
    /// The share of the picture (fraction 0…1) in each quarter's colour, away from its edges.
    func quarterShares(inset: Int = 4) -> [QuadrantClip.Quarter: Double] {
        var counts: [QuadrantClip.Quarter: Int] = [:]
        var total = 0
        for y in inset..<max(inset, height - inset) {
            for x in inset..<max(inset, width - inset) {
                counts[QuadrantClip.quarter(of: pixel(x, y)), default: 0] += 1
                total += 1
            }
        }
        return counts.mapValues { Double($0) / Double(max(1, total)) }
    }
}

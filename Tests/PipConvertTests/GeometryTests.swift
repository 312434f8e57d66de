import Testing
@testable import PipConvert
import PipCore

@Suite struct GeometryTests {
    func fit(_ sw: Int, _ sh: Int, _ r: Rotation, _ dw: Int, _ dh: Int) -> [Int] {
        let g = Rect(sourceWidth: sw, sourceHeight: sh, rotation: r, destinationWidth: dw, destinationHeight: dh)
        return [g.x, g.y, g.width, g.height]
    }

    @Test func letterbox() {
        #expect(fit(1280, 720, .deg0, 480, 300) == [0, 15, 480, 270])
        #expect(fit(1280, 720, .deg180, 400, 400) == [0, 87, 400, 225])  // odd leftover: extra row at the bottom
    }

    @Test func pillarbox() {
        #expect(fit(640, 480, .deg0, 400, 200) == [66, 0, 267, 200])  // 266.67 rounds to 267
        #expect(fit(1280, 720, .deg90, 480, 300) == [155, 0, 169, 300])  // 168.75 → 169
        #expect(fit(1280, 720, .deg270, 480, 300) == [155, 0, 169, 300])
    }

    @Test func exactFitHasNoBars() {
        #expect(fit(1280, 720, .deg0, 1280, 720) == [0, 0, 1280, 720])
        #expect(fit(640, 480, .deg90, 480, 640) == [0, 0, 480, 640])
    }

    @Test func halvesRoundUpAndSizeStaysPositive() {
        #expect(fit(4, 3, .deg0, 2, 2) == [0, 0, 2, 2])  // 1.5 → 2
        #expect(fit(1000, 1, .deg0, 10, 10) == [0, 4, 10, 1])  // 0.01 → at least 1
    }

    @Test func emptyInputsGiveEmptyRectangle() {
        #expect(fit(0, 720, .deg0, 480, 300) == [0, 0, 0, 0])
        #expect(fit(1280, 720, .deg0, 0, 300) == [0, 0, 0, 0])
        #expect(Rect(x: 0, y: 0, width: 0, height: 3).isEmpty)
    }

    /// The share's fit: place and size even (whole 4:2:0 chroma pairs), the side nearest the
    /// picture's shape, centred with the odd pair at the right or bottom, inside the destination.
    @Test func evenFitKeepsChromaPairsWhole() {
        let wide = Letterbox.fit(pictureWidth: 1920, pictureHeight: 800, destinationWidth: 640, destinationHeight: 480, alignment: 2)
        #expect(wide == Rect(x: 0, y: 106, width: 640, height: 266))  // 266.67 → 266, 107 → 106
        let narrow = Letterbox.fit(pictureWidth: 640, pictureHeight: 480, destinationWidth: 1280, destinationHeight: 720, alignment: 2)
        #expect(narrow == Rect(x: 160, y: 0, width: 960, height: 720))
        #expect(Letterbox.fit(pictureWidth: 1000, pictureHeight: 1, destinationWidth: 10, destinationHeight: 10, alignment: 2)
            == Rect(x: 0, y: 4, width: 10, height: 2))  // at least one pair
        for pw in stride(from: 1, through: 61, by: 4) {
            for ph in stride(from: 1, through: 61, by: 5) {
                for (dw, dh) in [(16, 8), (64, 48), (30, 62)] {
                    let r = Letterbox.fit(pictureWidth: pw, pictureHeight: ph, destinationWidth: dw, destinationHeight: dh, alignment: 2)
                    let exact = Letterbox.fit(pictureWidth: pw, pictureHeight: ph, destinationWidth: dw, destinationHeight: dh)
                    #expect([r.x, r.y, r.width, r.height].allSatisfy { $0 % 2 == 0 }, "\(pw)x\(ph) in \(dw)x\(dh): \(r)")
                    #expect(r.x >= 0 && r.y >= 0 && r.maxX <= dw && r.maxY <= dh && !r.isEmpty)
                    #expect(abs(r.width - exact.width) <= 1 && abs(r.height - exact.height) <= 1, "\(r) against \(exact)")
                }
            }
        }
    }

    @Test func rotationFromDegrees() {
        #expect(Rotation(degrees: -90) == .deg270)
        #expect(Rotation(degrees: 450) == .deg90)
        #expect(Rotation(degrees: 45) == nil)
        #expect(Rotation.deg90.swapsAxes && !Rotation.deg180.swapsAxes)
        #expect(Rotation.deg270.followed(by: .deg180) == .deg90)
    }

    @Test func boxWeightsAreExactCoverage() {
        let t = ScaleTable(sourceLength: 3, outputLength: 2)
        #expect(t.taps == 2)
        #expect(t.starts == [0, 1])
        #expect(t.weights == [10923, 5461, 5461, 10923])  // 2/3, 1/3 and 1/3, 2/3 of 2¹⁴
        let half = ScaleTable(sourceLength: 2, outputLength: 1)
        #expect(half.weights == [8192, 8192])
    }

    @Test func bilinearWeightsAndEdges() {
        let t = ScaleTable(sourceLength: 2, outputLength: 4)
        // Centres at −0.25 (clamped), 0.25, 0.75, 1.25 (clamped).
        #expect(t.starts == [0, 0, 0, 0])
        #expect(t.weights == [16384, 0, 12288, 4096, 4096, 12288, 0, 16384])
        let identity = ScaleTable(sourceLength: 5, outputLength: 5)
        #expect(identity.taps == 1 && identity.starts == [0, 1, 2, 3, 4])
    }

    @Test func reversedAndSubsampledTables() {
        let r = ScaleTable(sourceLength: 4, outputLength: 2, reversed: true)
        #expect(r.starts == [2, 0])
        // Chroma of 5 luma cells is 3 samples; luma cells 0-1, 2-3, 4 share one each.
        let c = ScaleTable(sourceLength: 5, outputLength: 5, subsampling: 1)
        #expect(c.starts == [0, 0, 1, 1, 2])
        #expect(c.weights.allSatisfy { $0 == 16384 })
    }

    @Test func weightsAlwaysSumToOne() {
        for l in 1...40 {
            for n in 1...40 {
                for s in 0...1 {
                    let t = ScaleTable(sourceLength: l, outputLength: n, subsampling: s)
                    let stored = (l + s) >> s
                    for i in 0..<n {
                        #expect(t.weights[(i * t.taps)..<((i + 1) * t.taps)].reduce(0) { $0 + Int($1) } == ScaleTable.one)
                        #expect(Int(t.starts[i]) >= 0 && Int(t.starts[i]) + t.taps <= stored)
                    }
                }
            }
        }
    }
}

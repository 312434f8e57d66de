import Glibc
import PipCore

/// Decodes baseline JPEGs at 1/2, 1/4 or 1/8 scale without an inverse DCT, and at full size with
/// one of its own (`FullBlock`).
///
/// At 1/4 scale each 8×8 block becomes 2×2 pixels, each the exact mean of the 4×4 quarter of the
/// block it covers; at 1/2, 4×4 pixels, means of 2×2 squares; at 1/8, one pixel, the block's mean
/// (its DC term). The means are linear in the block's coefficients (at 1/4 only coefficients with
/// an odd or zero frequency on both axes contribute), so each decoded coefficient adds one
/// precomputed weight vector to the block's sums.
/// Entropy decoding is the whole remaining cost; it uses look-up tables that decode most
/// coefficients — code and value — at once. A box filter at exactly the scale is what the window
/// shows anyway, so the picture matches a full decode followed by an area-average shrink.
///
/// At full size each block goes through a separable inverse DCT instead, with the DC part left out
/// of it and added as the block is written, so the two-thread split works alike at every scale.
///
/// `decode` returns nil for streams it does not handle (see `JPEGHeader`); the caller then uses
/// libjpeg-turbo. Owns its output: the frame is valid until the next call. Allocates only when the
/// picture grows.
final class ReducedJPEGDecoder {
    private let header = JPEGHeader()
    /// The second thread for large scans; nil decodes on the caller's thread only.
    let split: SplitScan?
    /// Whether large pictures may be split with the second thread (`DecodePath.ownSplit`).
    var splits = true
    /// Whether the last picture was split: pictures of one stream are alike, so the next one
    /// likely is too, and the second thread is woken before this one reads the headers.
    private var splitLast = false
    private let entropy = EntropyData()
    /// 4 quantization tables × 64 zig-zag positions: the contribution of a coefficient of 1 to each
    /// output pixel of its block, row by row (`SIMD4<Float>` for 1 or 2×2 pixels, `SIMD16<Float>`
    /// for 4×4). Zero past position 63: the decoding loop may add a value at up to 127. At full
    /// size each table's space holds a `FullBlock.Dequantisation` instead.
    static let weightsPerTable = 128
    private let weights = UnsafeMutableRawPointer.allocate(
        byteCount: 4 * weightsPerTable * MemoryLayout<SIMD16<Float>>.stride, alignment: 64)
    /// Position 0's weight of each table: the same for every pixel, added by the decoding loop.
    private let dcWeights = UnsafeMutablePointer<Float>.allocate(capacity: 4)
    private var weightsQuant = [UInt16](repeating: 0, count: 4 * 64)
    private var weightsDenominator = 0
    /// Blocks of one MCU, at most 4×4 luma + 2 × 2×2 chroma.
    private let slots = UnsafeMutablePointer<BlockSlot>.allocate(capacity: 24)
    private let predictors = UnsafeMutablePointer<Int32>.allocate(capacity: 4)
    private var output: UnsafeMutablePointer<UInt8>?
    private var outputSize = 0
    private var outputAllocations = 0
    /// How many buffers decoding has made so far (output, entropy data, split records); for tests.
    var allocations: Int { outputAllocations + entropy.allocations + (split?.recordAllocations ?? 0) }

    /// `threads: 2` decodes large scans on two threads (`SplitScan`) when the process may use two
    /// CPUs; 1 on the caller's only.
    init(threads: Int = JPEGDecoder.standardThreads) {
        split = threads > 1 && SplitScan.isUseful ? SplitScan() : nil
    }

    deinit {
        split?.settle()  // a stopped recording thread may still read the slots and weights
        weights.deallocate()
        dcWeights.deallocate()
        slots.deallocate()
        predictors.deallocate()
        output?.deallocate()
    }

    /// The picture's size, when it is a stream this decoder handles.
    func size(of data: UnsafeRawBufferPointer) -> (width: Int, height: Int)? {
        split?.settle()  // parsing rewrites the Huffman tables a stopped recording thread may still read
        return header.parse(data) ? (header.width, header.height) : nil
    }

    /// `source` (an `.mjpeg` frame) at the smallest of 1/8, 1/4, 1/2 or full scale that still covers
    /// `minWidth`×`minHeight`, planar; nil when the stream is not one this decoder handles. `rows` hears of the rows the first thread finishes as it goes.
    func decode(_ source: VideoFrame, minWidth: Int, minHeight: Int, rows: DecodedRows? = nil) -> VideoFrame? {
        let data = UnsafeRawBufferPointer(start: source.plane0.base, count: source.byteCount)
        split?.settle()  // before the headers, entropy data and slots it reads change
        if splitLast, splits, let split { split.prepare() }
        splitLast = false
        // A size past the limits (a damaged or hostile header) is refused by `JPEGDecoder` before
        // anything that large is made.
        guard header.parse(data), FrameLimits.problem(width: header.width, height: header.height) == nil else { return nil }
        let denominator = JPEGDecoder.scaleDenominator(
            width: header.width, height: header.height, minWidth: minWidth, minHeight: minHeight)
        let comps = header.components
        var maxH = 1, maxV = 1
        for c in comps {
            maxH = max(maxH, c.horizontal)
            maxV = max(maxV, c.vertical)
        }
        let format: PixelFormat
        if comps.count == 1 {
            format = .gray
        } else {
            // Chroma sampled alike, luma at the maximum; what matters is the ratio (a 4:2:2 picture
            // may say Y 2×2, Cb/Cr 1×2).
            let ch = comps[1].horizontal, cv = comps[1].vertical
            guard comps[2].horizontal == ch, comps[2].vertical == cv, comps[0].horizontal == maxH,
                comps[0].vertical == maxV, maxH % ch == 0, maxV % cv == 0
            else { return nil }
            switch (maxH / ch, maxV / cv) {
            case (1, 1): format = .i444
            case (2, 1): format = .i422
            case (2, 2): format = .i420
            default: return nil
            }
        }
        entropy.load(data, from: header.scanOffset)
        prepareWeights(denominator: denominator)

        // A single-component scan is not interleaved: its blocks cover just the picture.
        let interleaved = comps.count > 1
        let mcuWidth = interleaved ? 8 * maxH : 8, mcuHeight = interleaved ? 8 * maxV : 8
        let mcusX = (header.width + mcuWidth - 1) / mcuWidth
        let mcusY = (header.height + mcuHeight - 1) / mcuHeight
        let pixelsPerBlock = 8 / denominator
        // Each component's plane: offset in `output` and stride.
        var layout = ((0, 0), (0, 0), (0, 0)), slotCount = 0, size = 0
        for (i, c) in comps.enumerated() {
            let h = interleaved ? c.horizontal : 1, v = interleaved ? c.vertical : 1
            let plane = Self.plane(mcusX: mcusX, mcusY: mcusY, blocksAcross: h, blocksDown: v, pixelsPerBlock: pixelsPerBlock)
            let stride = plane.stride
            guard slotCount + h * v <= 24 else { return nil }
            for by in 0..<v {
                for bx in 0..<h {
                    slots[slotCount] = BlockSlot(
                        dc: header.dc[c.dcTable].tables, ac: header.ac[c.acTable].tables,
                        weights: weights + c.quantTable * Self.weightsPerTable * weightStride(pixelsPerBlock),
                        dcWeight: dcWeights[c.quantTable], component: i,
                        offset: size + by * pixelsPerBlock * stride + bx * pixelsPerBlock,
                        stepX: h * pixelsPerBlock, stepY: v * pixelsPerBlock * stride, stride: stride)
                    slotCount += 1
                }
            }
            switch i {
            case 0: layout.0 = (size, stride)
            case 1: layout.1 = (size, stride)
            default: layout.2 = (size, stride)
            }
            size += plane.bytes
        }
        let out = outputBuffer(bytes: size)
        func plane(_ l: (offset: Int, stride: Int)) -> FramePlane { FramePlane(base: UnsafeRawPointer(out + l.offset), stride: l.stride) }
        let color = comps.count > 1
        let width = (header.width + denominator - 1) / denominator
        let height = (header.height + denominator - 1) / denominator
        let picture = VideoFrame(
            format: format, width: width, height: height, plane0: plane(layout.0),
            plane1: color ? plane(layout.1) : nil, plane2: color ? plane(layout.2) : nil,
            byteCount: size, colorimetry: .jpeg, timestamp: source.timestamp, sequence: source.sequence,
            bufferIndex: source.bufferIndex)
        var scan = ScanDecoder(
            entropy: entropy, slots: slots, slotCount: slotCount, predictors: predictors,
            restartInterval: header.restartInterval, mcusX: mcusX, mcusY: mcusY, output: out)
        if let rows { scan.rowReport = RowReport(sink: rows, picture: picture, rowsPerMCURow: mcuHeight / denominator) }
        if let split, splits, header.restartInterval == 0, entropy.count >= SplitScan.minimumBytes {
            splitLast = true
            split.decode(scan, side: pixelsPerBlock, blocks: mcusX * mcusY * slotCount)
        } else if let split, splits, entropy.restartCount > 0, entropy.count >= SplitScan.minimumBytes {
            splitLast = true
            split.decodeIntervals(scan, side: pixelsPerBlock)
        } else {
            scan.run(side: pixelsPerBlock)
        }
        return picture
    }

    /// Gets ready for pictures of `width`×`height` to be shown at `minWidth`×`minHeight` or more,
    /// before the first one arrives: makes and writes (faults in) the output, room for the entropy
    /// data and the split decode's records, and starts its thread, as for 4:2:2 pictures (what
    /// cameras send; 4:2:0 needs less). The first picture otherwise pays for all that.
    func prepare(width: Int, height: Int, minWidth: Int, minHeight: Int) {
        guard width > 0, height > 0 else { return }
        let denominator = JPEGDecoder.scaleDenominator(width: width, height: height, minWidth: minWidth, minHeight: minHeight)
        split?.settle()  // a stopped recording thread may still read the entropy data replaced here
        let pixelsPerBlock = 8 / denominator
        // 4:2:2 comes as luma 2×1 with chroma 1×1 blocks per MCU (libjpeg) or as 2×2 with 1×2
        // (ffmpeg, many cameras); the second rounds the height up to 16 lines, so it needs more.
        let mcusX = (width + 15) / 16, mcusY = (height + 15) / 16
        func bytes(across: Int) -> Int {
            Self.plane(mcusX: mcusX, mcusY: mcusY, blocksAcross: across, blocksDown: 2, pixelsPerBlock: pixelsPerBlock).bytes
        }
        _ = outputBuffer(bytes: bytes(across: 2) + 2 * bytes(across: 1))
        // Camera JPEGs take 1–2 bits a pixel; this is room for 2 (a bigger one grows it).
        let entropyBytes = width * height / 4
        entropy.reserve(entropyBytes)
        if let split, entropyBytes >= SplitScan.minimumBytes {
            split.warmUp(blocks: mcusX * mcusY * 8, side: pixelsPerBlock)
            splitLast = true
        }
    }

    /// Stride and bytes of one component's plane with `blocksAcross`×`blocksDown` blocks per MCU.
    private static func plane(mcusX: Int, mcusY: Int, blocksAcross: Int, blocksDown: Int, pixelsPerBlock: Int) -> (stride: Int, bytes: Int) {
        let stride = (mcusX * blocksAcross * pixelsPerBlock + 15) & ~15
        return (stride, stride * mcusY * blocksDown * pixelsPerBlock)
    }

    /// The output, grown to `size` bytes if smaller.
    private func outputBuffer(bytes size: Int) -> UnsafeMutablePointer<UInt8> {
        if size > outputSize {
            output?.deallocate()
            output = .allocate(capacity: size)
            output!.initialize(repeating: 128, count: size)  // what a cut-off first picture shows: grey
            outputSize = size
            outputAllocations += 1
        }
        return output!
    }

    private func weightStride(_ side: Int) -> Int {
        side >= 4 ? MemoryLayout<SIMD16<Float>>.stride : MemoryLayout<SIMD4<Float>>.stride
    }

    private func prepareWeights(denominator: Int) {
        if denominator == weightsDenominator && header.quant == weightsQuant { return }
        for i in 0..<weightsQuant.count { weightsQuant[i] = header.quant[i] }  // own storage: no copy-on-write later
        weightsDenominator = denominator
        if denominator == 1 {
            weightsQuant.withUnsafeBufferPointer { quant in
                for table in 0..<4 {
                    FullBlock.Dequantisation.prepare(
                        weights + table * Self.weightsPerTable * weightStride(8), quant: quant.baseAddress! + table * 64)
                    dcWeights[table] = Float(quant[table * 64]) / 8
                }
            }
            return
        }
        // mean[i][u]: mean over output pixel i's run of `denominator` samples (x = i·d … i·d + d − 1)
        // of the DCT basis cos((2x+1)uπ/16). For 1/4 scale it is zero for even u > 0.
        let side = 8 / denominator
        var mean = [[Float]](repeating: [Float](repeating: 0, count: 8), count: side)
        for u in 0..<8 {
            for x in 0..<8 {
                mean[x / denominator][u] += Float(cos(Double(2 * x + 1) * Double(u) * Double.pi / 16)) / Float(denominator)
            }
        }
        let lanes = side == 4 ? 16 : 4
        weights.initializeMemory(as: UInt8.self, repeating: 0, count: 4 * Self.weightsPerTable * lanes * 4)
        for table in 0..<4 {
            for k in 0..<64 {
                let natural = ZigZag.natural[k]
                let u = natural % 8, v = natural / 8  // horizontal, vertical frequency
                let cu: Float = u == 0 ? Float(0.5).squareRoot() : 1, cv: Float = v == 0 ? Float(0.5).squareRoot() : 1
                let scale = Float(header.quant[table * 64 + k]) * 0.25 * cu * cv
                if k == 0 { dcWeights[table] = scale * mean[0][0] * mean[0][0] }
                let w = (table * Self.weightsPerTable + k) * lanes * 4
                for y in 0..<side {
                    for x in 0..<side {
                        weights.storeBytes(of: scale * mean[x][u] * mean[y][v], toByteOffset: w + (y * side + x) * 4, as: Float.self)
                    }
                }
            }
        }
    }
}

/// The zig-zag order of T.81 figure A.6, computed.
enum ZigZag {
    /// Natural (row-major) index of each zig-zag position.
    static let natural: [Int] = {
        var order: [Int] = []
        for diagonal in 0..<15 {
            let rows = max(0, diagonal - 7)...min(diagonal, 7)
            for row in diagonal % 2 == 0 ? Array(rows.reversed()) : Array(rows) {
                order.append(row * 8 + diagonal - row)
            }
        }
        return order
    }()
}

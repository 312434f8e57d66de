import Glibc

/// Cuts a sequential JPEG with restart intervals in two at a restart marker that starts an MCU
/// row: two JPEGs, each a whole picture of its own (the rows above the cut, and the rest), which
/// two decoders can decode at once. Both copy the original's headers with the frame height changed;
/// the lower one's restart markers are renumbered from RST0, as a decoder checks their order.
/// (T.81: a restart interval starts byte-aligned with its DC predictions reset, B.2.5 and F.2.1.3.)
///
/// Owns the two JPEGs it makes, valid until the next `cut`; allocates only when pictures grow.
final class RestartCut {
    /// Where a picture was cut: the upper part has `topRows` rows, the lower the rest.
    struct Cut {
        var topRows: Int
        var top: UnsafeRawBufferPointer, bottom: UnsafeRawBufferPointer
    }

    private var top = Bytes(), bottom = Bytes()
    /// Offsets (in the picture) of the restart markers of the last picture looked at.
    private var markers = UnsafeMutablePointer<Int>.allocate(capacity: 256)
    private var markerCapacity = 256
    /// How many buffers were made so far; for tests.
    var allocations: Int { top.allocations + bottom.allocations + markerAllocations }
    private var markerAllocations = 1

    deinit {
        markers.deallocate()
        top.pointer?.deallocate()
        bottom.pointer?.deallocate()
    }

    /// Cuts `data` at the row-starting restart marker nearest `permille` thousandths of its
    /// entropy-coded bytes; nil when it cannot be cut (no restart intervals, no marker at a row
    /// start, a progressive or several-scan picture, damaged headers).
    func cut(_ data: UnsafeRawBufferPointer, nearPermille permille: Int) -> Cut? {
        guard let frame = Self.frame(data), frame.restartInterval > 0 else { return nil }
        let count = markerOffsets(data, from: frame.entropyStart)
        guard count.markers > 0 else { return nil }
        let end = count.end, target = frame.entropyStart + (end - frame.entropyStart) * permille / 1000
        // Marker j (from 1) starts interval j, at MCU j·interval: a row start when mcusX divides it.
        var best: (marker: Int, distance: Int)?
        for j in 1...count.markers {
            let mcu = j * frame.restartInterval
            guard mcu % frame.mcusX == 0, mcu / frame.mcusX < frame.mcusY else { continue }
            let distance = abs(markers[j - 1] - target)
            if best == nil || distance < best!.distance { best = (j, distance) }
        }
        guard let marker = best?.marker else { return nil }
        let topRows = marker * frame.restartInterval / frame.mcusX * frame.mcuHeight
        let at = markers[marker - 1], header = frame.entropyStart
        let base = data.baseAddress!.assumingMemoryBound(to: UInt8.self)

        // Room for a whole picture in each: the cut moves from picture to picture.
        let upper = top.reserve(at + 2, room: data.count + 2)
        upper.update(from: base, count: at)
        Self.setHeight(topRows, at: frame.heightOffset, in: upper)
        Self.endOfImage(at: upper + at)

        let rest = end - (at + 2), lowerCount = header + rest + 2
        let lower = bottom.reserve(lowerCount, room: data.count + 2)
        lower.update(from: base, count: header)
        Self.setHeight(frame.height - topRows, at: frame.heightOffset, in: lower)
        (lower + header).update(from: base + at + 2, count: rest)
        for m in marker..<count.markers {
            // Marker m + 1 (from 1) is the lower part's marker m − marker + 1, RST((m − marker) mod 8).
            lower[markers[m] - (at + 2) + header + 1] = 0xD0 | UInt8((m - marker) & 7)
        }
        Self.endOfImage(at: lower + header + rest)
        return Cut(
            topRows: topRows, top: UnsafeRawBufferPointer(start: upper, count: at + 2),
            bottom: UnsafeRawBufferPointer(start: lower, count: lowerCount))
    }

    /// What the headers say, for a single-scan sequential picture whose scan has every component.
    private struct Frame {
        var height = 0, heightOffset = 0, restartInterval = 0, entropyStart = 0
        var mcusX = 0, mcusY = 0, mcuHeight = 0
    }

    private static func frame(_ data: UnsafeRawBufferPointer) -> Frame? {
        let n = data.count
        guard n >= 4, data[0] == 0xFF, data[1] == 0xD8 else { return nil }
        var frame = Frame(), width = 0, components = 0, maxH = 1, maxV = 1, pos = 2
        func word(_ at: Int) -> Int { Int(data[at]) << 8 | Int(data[at + 1]) }
        while pos + 4 <= n {
            guard data[pos] == 0xFF else { return nil }
            let marker = data[pos + 1]
            if marker == 0xFF { pos += 1; continue }  // fill byte
            if marker == 0x01 || (0xD0...0xD8).contains(marker) { pos += 2; continue }
            let length = word(pos + 2)
            guard length >= 2, pos + 2 + length <= n else { return nil }
            switch marker {
            case 0xC0, 0xC1:  // baseline, extended sequential
                guard length >= 8 else { return nil }
                frame.heightOffset = pos + 5
                frame.height = word(pos + 5)
                width = word(pos + 7)
                components = Int(data[pos + 9])
                guard components >= 1, length >= 8 + 3 * components else { return nil }
                for c in 0..<components {
                    let factors = data[pos + 11 + 3 * c]
                    maxH = max(maxH, Int(factors >> 4))
                    maxV = max(maxV, Int(factors & 15))
                }
            case 0xC2...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
                return nil  // progressive, lossless, arithmetic: several scans or no restart cut
            case 0xDD:
                guard length >= 4 else { return nil }
                frame.restartInterval = word(pos + 4)
            case 0xDA:
                // A scan without every component is one of several.
                guard length >= 6, components > 0, Int(data[pos + 4]) == components, frame.height > 0, width > 0 else { return nil }
                frame.entropyStart = pos + 2 + length
                let interleaved = components > 1
                let mcuWidth = interleaved ? 8 * maxH : 8
                frame.mcuHeight = interleaved ? 8 * maxV : 8
                frame.mcusX = (width + mcuWidth - 1) / mcuWidth
                frame.mcusY = (frame.height + frame.mcuHeight - 1) / frame.mcuHeight
                return frame
            case 0xD9: return nil
            default: break
            }
            pos += 2 + length
        }
        return nil
    }

    /// Records where each restart marker is; returns how many and where the entropy-coded data ends.
    private func markerOffsets(_ data: UnsafeRawBufferPointer, from start: Int) -> (markers: Int, end: Int) {
        let base = data.baseAddress!.assumingMemoryBound(to: UInt8.self), n = data.count
        var pos = start, count = 0
        while pos < n {
            guard let found = memchr(base + pos, 0xFF, n - pos) else { return (count, n) }
            let ff = UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - base
            guard ff + 1 < n else { return (count, ff) }
            let marker = base[ff + 1]
            if marker == 0 || marker == 0xFF {
                pos = ff + 1  // stuffing, or a fill byte before a marker
            } else if (0xD0...0xD7).contains(marker) {
                if count == markerCapacity { growMarkers() }
                markers[count] = ff
                count += 1
                pos = ff + 2
            } else {
                return (count, ff)
            }
        }
        return (count, n)
    }

    private func growMarkers() {
        let grown = UnsafeMutablePointer<Int>.allocate(capacity: markerCapacity * 2)
        grown.update(from: markers, count: markerCapacity)
        markers.deallocate()
        markers = grown
        markerCapacity *= 2
        markerAllocations += 1
    }

    private static func endOfImage(at bytes: UnsafeMutablePointer<UInt8>) {
        bytes[0] = 0xFF
        bytes[1] = 0xD9
    }

    private static func setHeight(_ height: Int, at offset: Int, in bytes: UnsafeMutablePointer<UInt8>) {
        bytes[offset] = UInt8(height >> 8)
        bytes[offset + 1] = UInt8(height & 0xFF)
    }

    /// A byte buffer that grows, when smaller than `count`, to a quarter more than `room`.
    private struct Bytes {
        var pointer: UnsafeMutablePointer<UInt8>?
        var capacity = 0, allocations = 0

        mutating func reserve(_ count: Int, room: Int) -> UnsafeMutablePointer<UInt8> {
            if count > capacity {
                pointer?.deallocate()
                capacity = max(count, room) * 5 / 4
                pointer = .allocate(capacity: capacity)
                allocations += 1
            }
            return pointer!
        }
    }
}

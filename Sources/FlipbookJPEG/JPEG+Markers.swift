import FlipbookPixels

/// The marker walk that runs before libjpeg sees the data (as the PNG decoder's chunk walk runs
/// before libpng): every segment from SOI up to the first scan must be whole, the frame header
/// must be one Flipbook decodes, and its size within the limits — so a file cut short in its
/// header is reported as truncated (libjpeg's memory source would pad it with a fake EOI and
/// report a side effect instead), and an oversized image is refused before any allocation.
extension JPEG {
    /// What the frame header (SOFn) says.
    struct _Frame {
        var marker: UInt8
        var precision: Int
        var width: Int
        var height: Int
        /// Each component's sampling factors, in SOF order.
        var sampling: [(h: Int, v: Int)]

        var isProgressive: Bool { marker == 0xC2 || marker == 0xCA }
        var isArithmeticCoded: Bool { marker == 0xC9 || marker == 0xCA }

        /// `4:2:0`-style text from the sampling factors (TurboJPEG's names), `gray` for one
        /// component, nil for anything else (including four components).
        var subsampling: String? {
            if sampling.count == 1 { return "gray" }
            guard sampling.count == 3, sampling[1] == sampling[2] else { return nil }
            let (y, c) = (sampling[0], sampling[1])
            guard c.h > 0, c.v > 0, y.h % c.h == 0, y.v % c.v == 0 else { return nil }
            switch (y.h / c.h, y.v / c.v) {
            case (1, 1): return "4:4:4"
            case (2, 1): return "4:2:2"
            case (2, 2): return "4:2:0"
            case (1, 2): return "4:4:0"
            case (4, 1): return "4:1:1"
            case (1, 4): return "4:4:1"
            default: return nil
            }
        }
    }

    /// The SOFn markers libjpeg-turbo decodes: baseline, extended sequential, progressive, each
    /// Huffman- or arithmetic-coded.
    static let _decodedFrameMarkers: Set<UInt8> = [0xC0, 0xC1, 0xC2, 0xC9, 0xCA]

    /// Walks the segments from SOI to the first SOS and returns the frame header.
    ///
    /// - Throws: ``JPEGError`` — `notJPEG` without `FF D8 FF`; `truncated` when the data ends
    ///   inside a segment or before the first scan; `corrupt` for a byte that is not a marker
    ///   where one must be, a length below 2, a scan before the frame header, an EOI before any
    ///   scan; `unsupported` for lossless or hierarchical coding, samples other than 8 bits, or
    ///   a component count other than 1, 3 or 4; `tooLarge` above `PixelBuffer.maximumDimension`.
    static func _walkHeader(_ d: UnsafeBufferPointer<UInt8>) throws(JPEGError) -> _Frame {
        guard hasSignature(d) else {
            throw JPEGError(kind: .notJPEG, message: "not a JPEG: the data does not start with the SOI marker (FF D8 FF)")
        }
        let n = d.count
        func truncated(_ at: Int) -> JPEGError {
            JPEGError(kind: .truncated, message: "truncated JPEG: the data ends at byte \(n), inside the header (the segment at byte \(at))")
        }
        var frame: _Frame?
        var i = 2
        while true {
            guard i < n else { throw truncated(i) }
            let start = i
            guard d[i] == 0xFF else {
                throw JPEGError(kind: .corrupt, message: "corrupt JPEG: byte \(i) is 0x\(_hex(d[i])), not the start of a marker")
            }
            while i < n && d[i] == 0xFF { i += 1 }  // fill bytes
            guard i < n else { throw truncated(start) }
            let marker = d[i]
            i += 1
            switch marker {
            case 0x01, 0xD0...0xD7:  // TEM, RSTn: no length
                continue
            case 0xD8:
                throw JPEGError(kind: .corrupt, message: "corrupt JPEG: a second SOI marker at byte \(start)")
            case 0xD9:
                throw JPEGError(kind: .corrupt, message: "corrupt JPEG: the EOI marker at byte \(start) comes before any scan (no image)")
            default:
                break
            }
            guard i + 2 <= n else { throw truncated(start) }
            let length = Int(d[i]) << 8 | Int(d[i + 1])
            guard length >= 2 else {
                throw JPEGError(kind: .corrupt, message: "corrupt JPEG: the segment at byte \(start) has length \(length)")
            }
            guard i + length <= n else { throw truncated(start) }
            let body = i + 2
            switch marker {
            case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
                guard frame == nil else {
                    throw JPEGError(kind: .corrupt, message: "corrupt JPEG: a second frame header (SOF) at byte \(start)")
                }
                frame = try _frame(marker, d, body: body, length: length - 2, at: start)
            case 0xDA:
                guard let frame else {
                    throw JPEGError(kind: .corrupt, message: "corrupt JPEG: a scan (SOS) at byte \(start) before any frame header (SOF)")
                }
                return frame
            default:
                break
            }
            i += length
        }
    }

    /// Reads and checks a SOFn body of `length` bytes at `body`.
    static func _frame(_ marker: UInt8, _ d: UnsafeBufferPointer<UInt8>, body: Int, length: Int, at start: Int) throws(JPEGError) -> _Frame {
        guard _decodedFrameMarkers.contains(marker) else {
            let kind = [0xC3, 0xCB].contains(marker) ? "lossless" : "hierarchical (differential)"
            throw JPEGError(kind: .unsupported, message: "unsupported JPEG: \(kind) coding (SOF\(marker - 0xC0)) is not decoded")
        }
        guard length >= 6 else {
            throw JPEGError(kind: .corrupt, message: "corrupt JPEG: the frame header at byte \(start) is \(length + 2) bytes long")
        }
        let precision = Int(d[body])
        let height = Int(d[body + 1]) << 8 | Int(d[body + 2])
        let width = Int(d[body + 3]) << 8 | Int(d[body + 4])
        let components = Int(d[body + 5])
        guard precision == 8 else {
            throw JPEGError(kind: .unsupported, message: "unsupported JPEG: \(precision)-bit samples (only 8-bit JPEGs are decoded)")
        }
        guard [1, 3, 4].contains(components) else {
            throw JPEGError(kind: .unsupported, message: "unsupported JPEG: \(components) colour components (1, 3 or 4 are decoded)")
        }
        guard length >= 6 + 3 * components else {
            throw JPEGError(kind: .corrupt, message: "corrupt JPEG: the frame header at byte \(start) is too short for \(components) components")
        }
        guard height > 0 else {
            throw JPEGError(kind: .unsupported, message: "unsupported JPEG: the height is 0 (given later by a DNL marker)")
        }
        guard width > 0 else {
            throw JPEGError(kind: .corrupt, message: "corrupt JPEG: the frame header gives a width of 0")
        }
        let limit = PixelBuffer.maximumDimension
        guard width <= limit, height <= limit else {
            throw JPEGError(kind: .tooLarge, message: "JPEG header claims \(width)x\(height) pixels, above the limit of \(limit) pixels per side")
        }
        var sampling: [(h: Int, v: Int)] = []
        for c in 0..<components {
            let f = d[body + 6 + 3 * c + 1]
            sampling.append((h: Int(f >> 4), v: Int(f & 15)))
        }
        return _Frame(marker: marker, precision: precision, width: width, height: height, sampling: sampling)
    }

    static func _hex(_ b: UInt8) -> String {
        let s = String(b, radix: 16, uppercase: true)
        return s.count == 1 ? "0" + s : s
    }
}

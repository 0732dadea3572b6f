import FlipbookPixels
/// The boundary between Flipbook's premultiplied pixels and PNG's straight alpha.
/// Rules and the round-trip argument: `docs/pixel-format.md`.
extension PNG {
    /// True when every pixel has alpha 255 (then premultiplied == straight).
    @usableFromInline
    static func _isOpaque(_ image: PixelBuffer) -> Bool {
        image.withUnsafeBytes { raw in
            let w = image.width
            for y in 0..<image.height {
                let row = raw.baseAddress! + y * image.bytesPerRow
                // AND of every pixel word: the alpha byte stays 0xFF only if every alpha is 255.
                var all: UInt32 = 0xFF00_0000
                var x = 0
                while x < w {
                    all &= row.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)
                    x += 1
                }
                if all & 0xFF00_0000 != 0xFF00_0000 { return false }
            }
            return true
        }
    }

    /// `unpremultiply(c, a)` for every (c, a), indexed `a << 8 | c` (64 KiB, built once).
    @usableFromInline
    static let _unpremultiplyTable: [UInt8] = {
        var t = [UInt8](repeating: 0, count: 65536)
        for a in 0..<256 {
            for c in 0..<256 { t[a << 8 | c] = PixelRounding.unpremultiply(UInt8(c), alpha: UInt8(a)) }
        }
        return t
    }()

    /// A packed (`width * 4` bytes per row) straight-alpha copy of `image`, each colour byte
    /// mapped with ``PixelRounding/unpremultiply(_:alpha:)``; opaque pixels are copied as is.
    static func _straightCopy(_ image: PixelBuffer) -> [UInt8] {
        var out: [UInt8] = []
        straightRGBA(image, into: &out)
        return out
    }

    /// Writes `image` into `out` as packed straight RGBA (`width * 4` bytes per row; `out` is
    /// resized when its count differs): each colour byte mapped with
    /// ``PixelRounding/unpremultiply(_:alpha:)``, opaque pixels copied as they are. The one
    /// premultiplied → straight conversion of every sink (PNG, ffmpeg's `rgba` input).
    package static func straightRGBA(_ image: PixelBuffer, into out: inout [UInt8]) {
        let w = image.width, h = image.height, stride = image.bytesPerRow
        if out.count != w * h * 4 { out = [UInt8](repeating: 0, count: w * h * 4) }
        _unpremultiplyTable.withUnsafeBufferPointer { table in
            image.withUnsafeBytes { src in
                out.withUnsafeMutableBytes { dst in
                    for y in 0..<h {
                        let s = src.baseAddress! + y * stride
                        let d = dst.baseAddress! + y * w * 4
                        for x in 0..<w {
                            let p = s.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)
                            let a = Int(p >> 24)
                            var q = p
                            if a != 255 {
                                let base = a << 8
                                let r = UInt32(table[base | Int(p & 0xFF)])
                                let g = UInt32(table[base | Int((p >> 8) & 0xFF)])
                                let b = UInt32(table[base | Int((p >> 16) & 0xFF)])
                                q = r | g << 8 | b << 16 | UInt32(a) << 24
                            }
                            d.storeBytes(of: q, toByteOffset: x * 4, as: UInt32.self)
                        }
                    }
                }
            }
        }
    }

    /// Premultiplies packed straight RGBA8 rows (from the shim) into a new buffer with
    /// ``PixelRounding/premultiply(_:alpha:)``: `c' = (c · a + 127) / 255`.
    static func _premultipliedBuffer(straight: UnsafePointer<UInt8>, width: Int, height: Int) -> PixelBuffer {
        let n = width * height * 4
        let bytes = [UInt8](unsafeUninitializedCapacity: n) { out, count in
            let src = UnsafeRawPointer(straight)
            let dst = UnsafeMutableRawPointer(out.baseAddress!)
            for i in 0..<(width * height) {
                let p = src.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self)
                let a = UInt8(truncatingIfNeeded: p >> 24)
                var q = p
                if a == 0 {
                    q = 0
                } else if a != 255 {
                    let r = PixelRounding.premultiply(UInt8(truncatingIfNeeded: p), alpha: a)
                    let g = PixelRounding.premultiply(UInt8(truncatingIfNeeded: p >> 8), alpha: a)
                    let b = PixelRounding.premultiply(UInt8(truncatingIfNeeded: p >> 16), alpha: a)
                    q = UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16 | UInt32(a) << 24
                }
                dst.storeBytes(of: q, toByteOffset: i * 4, as: UInt32.self)
            }
            count = n
        }
        // The size came from a header the shim checked against maximumDimension; cannot fail.
        return try! PixelBuffer(width: width, height: height, bytes: bytes)
    }
}

import FlipbookPixels
/// 2× box-filter minification levels for strongly shrunken images.
///
/// A level halves each side (rounding up); output pixel (x, y) averages source pixels
/// (2x, 2y), (2x+1, 2y), (2x, 2y+1), (2x+1, 2y+1), with coordinates past the last row/column
/// clamped to it (odd sizes repeat the edge). Per channel, on premultiplied values:
///
///     c = (c00 + c10 + c01 + c11 + 2) >> 2          // round(sum / 4), halves round up
///
/// Rounding is to nearest like ``PixelRounding/div255(_:)`` (there are ties here, broken
/// upwards). Averaging is monotone, so `c <= a` is preserved: levels stay valid premultiplied.
/// Choose the level with ``level(forScale:)`` and sample it with the scale multiplied by `2^level`.
public enum Mipmap {
    /// The next level of `source` (size `⌈w/2⌉ × ⌈h/2⌉`).
    public static func downsample2x(_ source: PixelBuffer) -> PixelBuffer {
        let w = source.width, h = source.height
        let ow = (w + 1) / 2, oh = (h + 1) / 2
        var out = PixelBuffer(width: ow, height: oh)
        let sStride = source.bytesPerRow, oStride = out.bytesPerRow
        source.withUnsafeBytes { s in
            out.withUnsafeMutableBytes { o in
                for y in 0..<oh {
                    let r0 = s.baseAddress! + (2 * y) * sStride, r1 = s.baseAddress! + min(2 * y + 1, h - 1) * sStride
                    let dst = o.baseAddress! + y * oStride
                    for x in 0..<ow {
                        let xa = 8 * x, xb = 4 * min(2 * x + 1, w - 1)
                        for c in 0..<4 {
                            let sum = UInt32(r0.load(fromByteOffset: xa + c, as: UInt8.self)) + UInt32(r0.load(fromByteOffset: xb + c, as: UInt8.self))
                                + UInt32(r1.load(fromByteOffset: xa + c, as: UInt8.self)) + UInt32(r1.load(fromByteOffset: xb + c, as: UInt8.self))
                            dst.storeBytes(of: UInt8((sum + 2) >> 2), toByteOffset: 4 * x + c, as: UInt8.self)
                        }
                    }
                }
            }
        }
        return out
    }

    /// The mip level to sample for a destination-per-source scale `scale` (e.g. 0.2 when a
    /// layer is drawn at 20% size): `⌊log2(1/scale)⌋`, 0 when `scale >= 0.5`... more exactly
    /// the largest `n` with `scale · 2ⁿ <= 1`, capped at 16.
    public static func level(forScale scale: Double) -> Int {
        guard scale > 0, scale.isFinite else { return 0 }
        var n = 0, s = scale
        while s * 2 <= 1, n < 16 { s *= 2; n += 1 }
        return n
    }

    /// Levels 1...`count` of `source` (level 0, the source itself, is not included).
    public static func chain(_ source: PixelBuffer, count: Int) -> [PixelBuffer] {
        var levels: [PixelBuffer] = []
        var current = source
        for _ in 0..<max(0, count) {
            if current.width == 1 && current.height == 1 { break }
            current = downsample2x(current)
            levels.append(current)
        }
        return levels
    }
}

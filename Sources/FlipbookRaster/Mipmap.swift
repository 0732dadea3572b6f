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
/// The compositor builds levels on demand with this function and caches them per image; which
/// level a layer samples is its decision (docs/compositor.md).
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
}

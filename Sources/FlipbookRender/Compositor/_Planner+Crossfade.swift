import Flipbook
import FlipbookPixels

/// Drawing a `contents` cross-fade (`RenderLayer.contentsCrossfade`).
///
/// With `f` = the clamped fraction, the layer should show `(1 − f)·from + f·to`, a dissolve of
/// the two renderings:
///
/// - **Same pixel size** (the common case, and the exact one): one image is blended texel by
///   texel in premultiplied RGBA, `(1 − f)·a + f·b` per byte with `f` quantised to 1/255:
///   `(a·(255 − q) + b·q + 127) / 255` (integer division), q = round(255·f), and drawn once with the layer's
///   gravity, contentsRect, contentsCenter and filters.
/// - **Different sizes** (each laid out by gravity on its own): `from` then `to` are drawn with
///   opacities `1 − f` and `f`. Exact where only one of them covers a pixel; where both do and
///   `to` is opaque the result is `f·to + (1 − f)²·from` — an approximation (documented).
/// - A nil side draws nothing; `f` = 0 or 1 draws a single image.
extension _Planner {
    static func crossfadeDraws(_ x: ContentsCrossfade) -> [(CGImage?, Double)] {
        let f = x.clampedFraction
        if f <= 0 { return [(x.from, 1)] }
        if f >= 1 { return [(x.to, 1)] }
        guard let a = x.from, let b = x.to else { return [(x.from, 1 - f), (x.to, f)] }
        if a.width == b.width, a.height == b.height { return [(blend(a, b, f), 1)] }
        return [(a, 1 - f), (b, f)]
    }

    /// `(1 − f)·a + f·b` for two images of the same size (premultiplied bytes, rounded).
    static func blend(_ a: CGImage, _ b: CGImage, _ f: Double) -> CGImage {
        let q = UInt32((f * 255).rounded()), p = 255 - q
        let w = a.width, h = a.height
        var out = PixelBuffer(width: w, height: h)
        let ra = a.pixelBuffer.bytesPerRow, rb = b.pixelBuffer.bytesPerRow, ro = out.bytesPerRow
        a.pixelBuffer.withUnsafeBytes { pa in
            b.pixelBuffer.withUnsafeBytes { pb in
                out.withUnsafeMutableBytes { po in
                    for y in 0..<h {
                        for i in 0..<(w * 4) {
                            let s = UInt32(pa[y * ra + i]) * p + UInt32(pb[y * rb + i]) * q + 127
                            po[y * ro + i] = UInt8(s / 255)
                        }
                    }
                }
            }
        }
        return CGImage(pixelBuffer: out)
    }
}

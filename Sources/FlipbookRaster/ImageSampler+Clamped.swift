/// Nine-part (`contentsCenter`) mapping: per axis a piecewise-linear map destination → texel
/// with breakpoints `d0 < d1 < d2 < d3` mapped to `s0 … s3` (the middle part stretches, the
/// caps keep their size).
package struct NinePartMap: Sendable {
    package var dx: (Double, Double, Double, Double), sx: (Double, Double, Double, Double)
    package var dy: (Double, Double, Double, Double), sy: (Double, Double, Double, Double)

    package init(dx: (Double, Double, Double, Double), sx: (Double, Double, Double, Double),
                 dy: (Double, Double, Double, Double), sy: (Double, Double, Double, Double)) {
        self.dx = dx; self.sx = sx; self.dy = dy; self.sy = sy
    }

    /// `v` (on the axis with breakpoints `d`) mapped to texels `s`.
    @inline(__always)
    package static func map(_ v: Double, _ d: (Double, Double, Double, Double),
                            _ s: (Double, Double, Double, Double)) -> Double {
        if v < d.1 { return d.1 > d.0 ? s.0 + (v - d.0) * (s.1 - s.0) / (d.1 - d.0) : s.1 }
        if v < d.2 { return d.2 > d.1 ? s.1 + (v - d.1) * (s.2 - s.1) / (d.2 - d.1) : s.1 }
        return d.3 > d.2 ? s.2 + (v - d.2) * (s.3 - s.2) / (d.3 - d.2) : s.2
    }
}

extension ImageSampler {
    /// A 3×3 row-major matrix `m0 … m8` (destination pixel centre → homogeneous source position).
    package typealias Matrix3 = (Double, Double, Double, Double, Double, Double, Double, Double, Double)

    /// The scalar sampler for what the fused samplers (`drawAffineSpan`, `drawProjectiveSpan`)
    /// do not cover: reading only a sub-rectangle of the image (`contentsRect`), nine-part
    /// stretching (`contentsCenter`), nearest sampling under perspective. Used by the
    /// compositor; no SIMD twin.
    ///
    /// Per pixel `x` of `[x0, x1)` of row `y` (Double, from the span start):
    ///
    ///     U = (m0·(x0 + ½) + m1·(y + ½) + m2) + i·m0,  i = x − x0     (V with m3 m4 m5, W with m6 m7 m8)
    ///     (u, v) = (U, V)                               when affine (m6 = m7 = 0, m8 = 1) and no nine-part
    ///            = (U / W', V / W'), W' = max(W, 1e-12), then `ninePart` per axis, otherwise
    ///
    /// Nearest: texel `(⌊u⌋, ⌊v⌋)`. Bilinear: `sx = u − ½`, `fx = min(255, ⌊(sx − ⌊sx⌋)·256⌋)`,
    /// the four texels around `(⌊sx⌋, ⌊sy⌋)` (``PixelMath/bilinear(_:_:_:_:fx:fy:)``).
    /// Texel coordinates are clamped to `texels` = `[x0, x1) × [y0, y1)` (clamp-to-edge inside
    /// it; coordinates are first clamped to ±10⁹). Then, as every kernel,
    /// `k = div255(opacity · coverage[i])` (or `opacity`), `Sca' = div255(S · k)`,
    /// `Dca' = min(255, Sca' + div255(Dca · (255 − Sa')))`.
    package static func drawClampedSpan(row: UnsafeMutablePointer<UInt32>, y: Int, x0: Int, x1: Int,
                                        image: RasterImage, inverse m: Matrix3,
                                        texels: (x0: Int, y0: Int, x1: Int, y1: Int), nearest: Bool,
                                        ninePart: NinePartMap?, opacity: UInt32, coverage: UnsafePointer<UInt8>?) {
        let stride = image.stridePixels, tex = image.pixels
        let cx0 = texels.x0, cy0 = texels.y0, cxm = texels.x1 - 1, cym = texels.y1 - 1
        let yc = Double(y) + 0.5
        let xc0 = Double(x0) + 0.5
        // Homogeneous texel (or destination-layer) coordinates at the span start and their x-steps.
        let U0 = m.0 * xc0 + m.1 * yc + m.2, dU = m.0
        let V0 = m.3 * xc0 + m.4 * yc + m.5, dV = m.3
        let W0 = m.6 * xc0 + m.7 * yc + m.8, dW = m.6
        let affine = m.6 == 0 && m.7 == 0 && m.8 == 1 && ninePart == nil
        for x in x0..<x1 {
            let i = x - x0
            var k = opacity
            if let coverage { k = PixelMath.mul8(opacity, UInt32(coverage[i])) }
            if k == 0 { continue }
            let fi = Double(i)
            var u: Double, v: Double
            if affine {
                u = U0 + fi * dU; v = V0 + fi * dV
            } else {
                var w = W0 + fi * dW
                if w < 1e-12 { w = 1e-12 }
                u = (U0 + fi * dU) / w; v = (V0 + fi * dV) / w
                if let n = ninePart {
                    u = NinePartMap.map(u, n.dx, n.sx); v = NinePartMap.map(v, n.dy, n.sy)
                }
            }
            var p: UInt32
            // A point that is not a number (a degenerate map) samples texel (0, 0) of the range.
            if u.isNaN { u = 0 }
            if v.isNaN { v = 0 }
            if nearest {
                let ui = Int(max(min(u, 1e9), -1e9).rounded(.down))
                let vi = Int(max(min(v, 1e9), -1e9).rounded(.down))
                let tx = min(max(ui, cx0), cxm), ty = min(max(vi, cy0), cym)
                p = tex[ty * stride + tx]
            } else {
                let sx = max(min(u - 0.5, 1e9), -1e9), sy = max(min(v - 0.5, 1e9), -1e9)
                let fxs = sx.rounded(.down), fys = sy.rounded(.down)
                let fx = min(UInt32((sx - fxs) * 256), 255), fy = min(UInt32((sy - fys) * 256), 255)
                let ix = Int(fxs), iy = Int(fys)
                let xa = min(max(ix, cx0), cxm), xb = min(max(ix + 1, cx0), cxm)
                let ya = min(max(iy, cy0), cym) * stride, yb = min(max(iy + 1, cy0), cym) * stride
                p = PixelMath.bilinear(tex[ya + xa], tex[ya + xb], tex[yb + xa], tex[yb + xb], fx: fx, fy: fy)
            }
            if k != 255 { p = PixelMath.scale(p, k) }
            row[x] = PixelMath.over(p, row[x])
        }
    }
}

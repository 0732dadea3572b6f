/// Span bounds for the samplers: which pixels of a row can receive anything from an image.
extension ImageSampler {
    /// The pixels of row `y` within `[x0, x1)` whose bilinear footprint can touch a
    /// `width × height` image under `inverse` (decal rule: `−1 < u − 0.5 < width`, same for v),
    /// grown by one pixel each side against floating-point error; `nil` when there are none.
    ///
    /// Drawing only this range gives the same row as drawing `[x0, x1)`: pixels outside it
    /// sample nothing and are left unchanged. For `.nearest` the footprint is smaller, so the
    /// range is still sufficient. The maths follows ref-c's per-row interval.
    public static func affineSpanBounds(y: Int, x0: Int, x1: Int, width: Int, height: Int,
                                        inverse t: AffineInverse) -> Range<Int>? {
        guard x1 > x0 else { return nil }
        let py = Double(y) + 0.5, px0 = Double(x0) + 0.5
        let u0 = t.a * px0 + t.b * py + t.c - 0.5, v0 = t.d * px0 + t.e * py + t.f - 0.5
        // k-interval (offset from x0) where lo < c0 + k·dc < hi
        func interval(_ c0: Double, _ dc: Double, _ hi: Double) -> (Double, Double) {
            if dc > 1e-12 { return ((-1 - c0) / dc, (hi - c0) / dc) }
            if dc < -1e-12 { return ((hi - c0) / dc, (-1 - c0) / dc) }
            return c0 > -1 && c0 < hi ? (-.infinity, .infinity) : (.infinity, -.infinity)
        }
        let (a, b) = interval(u0, t.a, Double(width)), (c, e) = interval(v0, t.d, Double(height))
        let n = Double(x1 - x0)
        let kl = max(max(a, c), 0), kh = min(min(b, e), n)
        guard kh >= kl, kl.isFinite || kl == 0, !kh.isNaN else { return nil }
        let lo = max(x0, x0 + Int(kl.rounded(.down)) - 1)
        let hi = min(x1, x0 + Int(min(kh, n).rounded(.up)) + 1)
        return lo < hi ? lo..<hi : nil
    }
}

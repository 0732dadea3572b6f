/// Paints one horizontal span `[x0, x1)` of row `y`: sample the paint at each pixel centre,
/// scale by `alpha · coverage / 255` (coverage nil = 255), source-over into `row`.
enum _SpanPainter {
    @inline(__always)
    static func factor(_ alpha: UInt32, _ coverage: UnsafeMutablePointer<UInt8>?, _ i: Int) -> UInt32 {
        guard let coverage else { return alpha }
        return _PixelMath.mul8(alpha, UInt32(coverage[i]))
    }

    static func span(_ paint: _Paint, alpha: UInt32, y: Int, x0: Int, x1: Int,
                     row: UnsafeMutablePointer<UInt32>, coverage: UnsafeMutablePointer<UInt8>?) {
        switch paint {
        case .solid(let c):
            for x in x0..<x1 {
                let k = factor(alpha, coverage, x - x0)
                if k == 0 { continue }
                row[x] = _PixelMath.over(k == 255 ? c : _PixelMath.scale(c, k), row[x])
            }
        case .alpha(let a):
            let r = a.rect
            guard y >= r.y0, y < r.y1 else { return }
            let w = r.x1 - r.x0
            a.alpha.withUnsafeBufferPointer { buf in
                for x in max(x0, r.x0)..<max(max(x0, r.x0), min(x1, r.x1)) {
                    let m = UInt32(buf[(y - r.y0) * w + (x - r.x0)])
                    let k = _PixelMath.mul8(factor(alpha, coverage, x - x0), m)
                    if k == 0 { continue }
                    row[x] = _PixelMath.over(_PixelMath.scale(a.color, k), row[x])
                }
            }
        case .image(let img):
            image(img, alpha: alpha, y: y, x0: x0, x1: x1, row: row, coverage: coverage)
        }
    }

    static func image(_ img: _ImagePaint, alpha: UInt32, y: Int, x0: Int, x1: Int,
                      row: UnsafeMutablePointer<UInt32>, coverage: UnsafeMutablePointer<UInt8>?) {
        let stride = img.texture.bytesPerRow / 4
        let cx0 = img.cx0, cy0 = img.cy0, cxm = img.cx1 - 1, cym = img.cy1 - 1
        let h = img.inverse
        let yc = Double(y) + 0.5
        let xc0 = Double(x0) + 0.5
        // Homogeneous texel (or layer) coordinates at the span start and their x-steps.
        let U0 = h.m.0 * xc0 + h.m.1 * yc + h.m.2, dU = h.m.0
        let V0 = h.m.3 * xc0 + h.m.4 * yc + h.m.5, dV = h.m.3
        let W0 = h.m.6 * xc0 + h.m.7 * yc + h.m.8, dW = h.m.6
        let affine = h.isAffine && img.ninePart == nil
        let nearest = img.nearest
        img.texture.withUnsafeBytes { raw in
            let tex = raw.baseAddress!.assumingMemoryBound(to: UInt32.self)
            for x in x0..<x1 {
                let i = x - x0
                let k = factor(alpha, coverage, i)
                if k == 0 { continue }
                let fi = Double(i)
                var u: Double, v: Double
                if affine {
                    u = U0 + fi * dU; v = V0 + fi * dV
                } else {
                    var w = W0 + fi * dW
                    if w < 1e-12 { w = 1e-12 }
                    u = (U0 + fi * dU) / w; v = (V0 + fi * dV) / w
                    if let n = img.ninePart {
                        u = _NinePart.map(u, n.dx, n.sx); v = _NinePart.map(v, n.dy, n.sy)
                    }
                }
                var p: UInt32
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
                    p = _PixelMath.bilinear(tex[ya + xa], tex[ya + xb], tex[yb + xa], tex[yb + xb], fx, fy)
                }
                if k != 255 { p = _PixelMath.scale(p, k) }
                row[x] = _PixelMath.over(p, row[x])
            }
        }
    }
}

import FlipbookRaster
import FlipbookPixels

/// Paints one horizontal span `[x0, x1)` of row `y`: sample the paint at each pixel centre,
/// scale by `alpha · coverage / 255` (coverage nil = 255), source-over into `row`.
enum _SpanPainter {
    @inline(__always)
    static func factor(_ alpha: UInt32, _ coverage: UnsafeMutablePointer<UInt8>?, _ i: Int) -> UInt32 {
        guard let coverage else { return alpha }
        return PixelMath.mul8(alpha, UInt32(coverage[i]))
    }

    static func span(_ paint: _Paint, alpha: UInt32, y: Int, x0: Int, x1: Int,
                     row: UnsafeMutablePointer<UInt32>, coverage: UnsafeMutablePointer<UInt8>?) {
        switch paint {
        case .solid(let c):
            if coverage == nil {
                SpanBlend.solidOver(row + x0, color: RGBA8(packed: alpha == 255 ? c : PixelMath.scale(c, alpha)), count: x1 - x0)
                return
            }
            for x in x0..<x1 {
                let k = factor(alpha, coverage, x - x0)
                if k == 0 { continue }
                row[x] = PixelMath.over(k == 255 ? c : PixelMath.scale(c, k), row[x])
            }
        case .alpha(let a):
            let r = a.rect
            guard y >= r.y0, y < r.y1 else { return }
            let w = r.x1 - r.x0
            a.alpha.withUnsafeBufferPointer { buf in
                for x in max(x0, r.x0)..<max(max(x0, r.x0), min(x1, r.x1)) {
                    let m = UInt32(buf[(y - r.y0) * w + (x - r.x0)])
                    let k = PixelMath.mul8(factor(alpha, coverage, x - x0), m)
                    if k == 0 { continue }
                    row[x] = PixelMath.over(PixelMath.scale(a.color, k), row[x])
                }
            }
        case .image(let box):
            image(box.paint, alpha: alpha, y: y, x0: x0, x1: x1, row: row, coverage: coverage)
        case .gradient(let g):
            gradient(g, alpha: alpha, y: y, x0: x0, x1: x1, row: row, coverage: coverage)
        case .particles:
            break       // painted by `_BandExecutor.particles`, never as spans
        }
    }

    /// A gradient span: `GradientPaint.shadeOver` (the colours, then source-over with the
    /// opacity and coverage; fused in one pass on the native backend).
    static func gradient(_ g: GradientPaint, alpha: UInt32, y: Int, x0: Int, x1: Int,
                         row: UnsafeMutablePointer<UInt32>, coverage: UnsafeMutablePointer<UInt8>?) {
        g.shadeOver(y: y, x0: x0, count: x1 - x0, onto: row + x0, opacity: UInt8(alpha), coverage: coverage.map { UnsafePointer($0) })
    }

    /// The images the fused samplers cannot draw (`_FastImage.kind` is nil: a `contentsRect`
    /// sub-rectangle, nine-part stretching, nearest under perspective): FlipbookRaster's
    /// clamped scalar sampler.
    static func image(_ img: _ImagePaint, alpha: UInt32, y: Int, x0: Int, x1: Int,
                      row: UnsafeMutablePointer<UInt32>, coverage: UnsafeMutablePointer<UInt8>?) {
        if let tint = img.tint {
            // Tinted: the texels sampled onto transparent (= the sampled colour itself), each
            // multiplied by the tint, then source-over with the alpha and coverage. (A group —
            // draw, tint, composite — gives the same values up to the order of the roundings.)
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: x1 - x0) { buf in
                let tmp = buf.baseAddress! - x0
                (tmp + x0).update(repeating: 0, count: x1 - x0)
                img.texture.withRasterImage { r in
                    if let kind = _FastImage.kind(img, x0: x0, x1: x1) {
                        // The fused sampler (the same texels as the clamped one, SIMD).
                        _FastImage(img, kind: kind, raster: r, alpha: 255).span(y: y, x0: x0, x1: x1, row: tmp, coverage: nil)
                    } else {
                        ImageSampler.drawClampedSpan(row: tmp, y: y, x0: x0, x1: x1, image: r, inverse: img.inverse.m,
                                                     texels: (img.cx0, img.cy0, img.cx1, img.cy1), nearest: img.nearest,
                                                     ninePart: img.ninePart, opacity: 255, coverage: nil)
                    }
                }
                SpanBlend.modulate(tmp + x0, count: x1 - x0, tint: tint)
                SpanBlend.sourceOver(row + x0, source: tmp + x0, count: x1 - x0, opacity: UInt8(alpha),
                                     coverage: coverage.map { UnsafePointer($0) })
            }
            return
        }
        img.texture.withRasterImage { r in
            ImageSampler.drawClampedSpan(row: row, y: y, x0: x0, x1: x1, image: r, inverse: img.inverse.m,
                                         texels: (img.cx0, img.cy0, img.cx1, img.cy1), nearest: img.nearest,
                                         ninePart: img.ninePart, opacity: alpha, coverage: coverage.map { UnsafePointer($0) })
        }
    }
}

/// An image paint resolved once per draw for FlipbookRaster's fused samplers: the texture
/// pinned as a `RasterImage`, the inverse converted to the sampler's type (no per-span array
/// or enum copies). Images these samplers cannot draw (`kind` nil) go to `_SpanPainter.image`.
struct _FastImage {
    enum Kind { case affine, projective }
    let kind: Kind
    let raster: RasterImage
    let affine: AffineInverse
    let projective: ProjectiveInverse?
    let filter: SampleFilter
    let opacity: UInt8
    /// Resolved once per draw (reading the global per span showed in profiles).
    let backend = RasterBackend.current
    /// Integer texel offset when the inverse is an identity-scale translation by whole pixels.
    let translate: (tx: Int, ty: Int)?

    /// The sampler this paint can use over columns `[x0, x1)`, or nil (the scalar path).
    /// (Inlined, as `init`: the executor passes the paint in its box, read in place.)
    @inline(__always)
    static func kind(_ img: _ImagePaint, x0: Int, x1: Int) -> Kind? {
        kind(plain: img.isPlain, affine: img.inverse.isAffine, nearest: img.nearest, x0: x0, x1: x1)
    }

    /// ``kind(_:x0:x1:)`` of the paint in `box`, its fields read in place: passing `box.paint`
    /// copied the whole paint (~170 bytes, a `memcpy`) per draw and band.
    @inline(__always)
    static func kind(_ box: _ImagePaintBox, x0: Int, x1: Int) -> Kind? {
        kind(plain: box.isPlain, affine: box.paint.inverse.isAffine, nearest: box.paint.nearest, x0: x0, x1: x1)
    }

    @inline(__always)
    static func kind(plain: Bool, affine: Bool, nearest: Bool, x0: Int, x1: Int) -> Kind? {
        guard plain, x0 >= 0, x1 <= 1 << 15 else { return nil }
        if affine { return .affine }
        return nearest ? nil : .projective
    }

    @inline(__always)
    init(_ img: _ImagePaint, kind: Kind, raster: RasterImage, alpha: UInt32) {
        self.init(inverse: img.inverse, nearest: img.nearest, kind: kind, raster: raster, alpha: alpha)
    }

    /// The paint in `box`, read in place (see ``kind(_:x0:x1:)-(_ImagePaintBox,_,_)``).
    @inline(__always)
    init(_ box: _ImagePaintBox, kind: Kind, raster: RasterImage, alpha: UInt32) {
        self.init(inverse: box.paint.inverse, nearest: box.paint.nearest, kind: kind, raster: raster, alpha: alpha)
    }

    @inline(__always)
    init(inverse h: _Homography, nearest: Bool, kind: Kind, raster: RasterImage, alpha: UInt32) {
        self.kind = kind
        self.raster = raster
        affine = AffineInverse(a: h.m.0, b: h.m.1, c: h.m.2, d: h.m.3, e: h.m.4, f: h.m.5)
        projective = kind == .projective ? ProjectiveInverse(h.m.0, h.m.1, h.m.2, h.m.3, h.m.4, h.m.5, h.m.6, h.m.7, h.m.8) : nil
        filter = nearest ? .nearest : .bilinear
        opacity = UInt8(alpha)
        if h.isAffine, h.m.0 == 1, h.m.1 == 0, h.m.3 == 0, h.m.4 == 1, h.m.2 == h.m.2.rounded(),
           h.m.5 == h.m.5.rounded(), abs(h.m.2) < 1e9, abs(h.m.5) < 1e9 {
            translate = (Int(h.m.2), Int(h.m.5))
        } else {
            translate = nil
        }
    }

    /// An affine span from a precomputed row start (`ImageSampler.affineRow`), same bytes as `span`.
    @inline(__always)
    func affineSpan(start: AffineRowStart, x0: Int, x1: Int, row: UnsafeMutablePointer<UInt32>,
                    coverage: UnsafeMutablePointer<UInt8>?) {
        ImageSampler.drawAffineSpan(row: row, start: start, x0: x0, x1: x1, image: raster, filter: filter, edge: .clamp,
                                    opacity: opacity, coverage: coverage.map { UnsafePointer($0) }, backend: backend)
    }

    @inline(__always)
    func span(y: Int, x0: Int, x1: Int, row: UnsafeMutablePointer<UInt32>, coverage: UnsafeMutablePointer<UInt8>?) {
        let cov = coverage.map { UnsafePointer($0) }
        if let (tx, ty0) = translate {
            // Identity scale at an integer offset: texel (x + tx, y + ty) exactly (bilinear
            // weights are 0), a plain span source-over.
            let ty = y + ty0
            if x0 + tx >= 0, x1 + tx <= raster.width, ty >= 0, ty < raster.height {
                SpanBlend.sourceOver(row + x0, source: raster.pixels + ty * raster.stridePixels + x0 + tx,
                                     count: x1 - x0, opacity: opacity, coverage: cov, backend: backend)
                return
            }
        }
        if kind == .affine {
            ImageSampler.drawAffineSpan(row: row, y: y, x0: x0, x1: x1, image: raster, inverse: affine,
                                        filter: filter, edge: .clamp, opacity: opacity, coverage: cov, backend: backend)
        } else if let projective {
            ImageSampler.drawProjectiveSpan(row: row, y: y, x0: x0, x1: x1, image: raster, inverse: projective,
                                            edge: .clamp, opacity: opacity, coverage: cov, backend: backend)
        }
    }
}

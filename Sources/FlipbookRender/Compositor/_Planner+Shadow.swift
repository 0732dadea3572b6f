import Flipbook
import FlipbookRaster
import Foundation

/// Shadows (issue 12): the shadow's alpha is either the fill of `shadowPath` or the layer's
/// composited alpha, moved by `shadowOffset`, blurred, tinted, drawn below the layer.
///
/// Rules (docs/compositor.md, "Border, shadow"):
/// - **Shape.** With `shadowPath`: the path (layer coordinates) filled non-zero, as Apple
///   documents; the content is not looked at (no offscreen pass). An empty path casts nothing.
///   Without it: the alpha of the layer's composited picture — background, contents, border
///   **and sublayers** with their opacities, transforms, masks, `masksToBounds` clips and their
///   own shadows (they are part of the composited picture; see ``maximumShadowNesting``) —
///   rendered offscreen at plan time, single-threaded, by the same planner and band executor. The layer's own opacity is not in
///   that alpha (it multiplies the shadow as it multiplies the layer), nor its own `mask`
///   (the mask applies to the layer's result, shadow included, as before).
/// - **Offset** `shadowOffset` is in layer space (before the layer's transform), y-down.
/// - **Blur** a Gaussian of σ = `shadowRadius` × device scale pixels (`GaussianBlur`,
///   half-width ⌈3σ⌉). The source is gathered over the drawn region grown by that half-width
///   (at most ``maximumShadowReach``), including content just outside the frame, so a shadow
///   near the frame edge is not cut.
/// - **Tint** `shadowColor` × `shadowOpacity` × the layer's opacity.
/// - **`masksToBounds`** clips the shadow with the content (the implicit bounds mask, rounded
///   corners included): nothing of it shows outside the bounds, as on Apple.
extension _Planner {
    /// Shadow offscreens nest at most this deep: a shadow's picture includes its sublayers'
    /// shadows (level 1), computed from pictures that include no offscreen-based shadows
    /// (level 2; `shadowPath` shadows, a plain fill, are always drawn). Without a limit a chain
    /// of n shadowed layers would cost 2ⁿ offscreens (each shadow is planned once in its
    /// ancestor's offscreen and once in the frame); with it, O(n³) small ones at worst, and only
    /// third-order shadows (a shadow of a shadow of a shadow) are left out.
    static let maximumShadowNesting = 2

    /// How far (pixels) the shadow's buffers reach beyond its source and beyond the drawn
    /// region: the blur's half-width ⌈3σ⌉ + 1, capped here so that a huge `shadowRadius` does not
    /// allocate a huge offscreen. Only σ above ≈ 170 px meets the cap: such a shadow is cut
    /// 512 px from its source and ignores content more than 512 px outside the frame.
    static let maximumShadowReach = 512

    mutating func shadow(_ l: RenderLayer, _ h: _Homography, _ m: CATransform3D, clips: [_Shape], opacity: Double) {
        guard l.shadowOpacity > 0, let color = Self.color(l.shadowColor),
              l.shadowPath != nil || shadowNesting < Self.maximumShadowNesting else { return }
        let ox = Double(l.shadowOffset.width), oy = Double(l.shadowOffset.height)
        // A blur wider than the frame is drawn as one the size of the frame: the work is bounded
        // by the output, not by the input (shadowRadius 1e5 or 1e19). The real frame's side,
        // also in an offscreen's planner (whose device is larger).
        let sigma = min(Double(l.shadowRadius) * scale, Double(outputSide))
        guard ox.isFinite, oy.isFinite, sigma.isFinite, sigma >= 0 else { return }
        let a = Self.alpha(opacity * Double(min(l.shadowOpacity, 1)))
        guard a > 0 else { return }
        var drawClips = clips
        if l.masksToBounds {
            guard let s = shape(l.bounds, h, radii: radii(l), continuous: Self.continuous(l)) else { return }
            drawClips.append(s)
        }
        // Where the shadow may be drawn, and where its source matters (grown by the blur). In
        // an offscreen, only the part the offscreen reads.
        var out = shadowRegion.map { frame.intersection($0) } ?? frame
        for c in drawClips { out = out.intersection(c.bounds) }
        guard !out.isEmpty else { return }
        // The blur's reach; source content beyond the drawn region counts up to it, but at most
        // `maximumShadowReach` pixels and at most the frame's longer side (a huge radius must
        // not make a huge offscreen buffer, nor a large one for a small frame).
        let pad = min(GaussianBlur.padding(sigma: sigma) + 1, Self.maximumShadowReach, outputSide)
        let need = out.outset(pad)
        // The layer moved by the offset in its own space: p ↦ p·T(offset)·m.
        let ms = CATransform3DMakeTranslation(CGFloat(ox), CGFloat(oy), 0) * m
        guard ms.isFinite else { return }
        let source: (alpha: [UInt8], rect: _IRect)?
        if let path = l.shadowPath {
            source = Self.shadowPathAlpha(path, _Homography(planeOf: ms), within: need, pad: pad)
        } else {
            source = compositedAlpha(l, ms, within: need, pad: pad)
        }
        guard var (alpha, rect) = source else { return }
        offscreenWork.add(pixels: alpha.count)
        GaussianBlur.blurAlpha(&alpha, width: rect.x1 - rect.x0, height: rect.y1 - rect.y0, sigma: sigma)
        let b = rect.intersection(out)
        guard !b.isEmpty else { return }
        if b != rect { alpha = Self.crop(alpha, from: rect, to: b); rect = b }
        ops.append(.draw(_Draw(shapes: drawClips, paint: .alpha(_AlphaPaint(alpha: alpha, rect: rect, color: color)),
                               alpha: a, bounds: b)))
    }

    static func crop(_ a: [UInt8], from r: _IRect, to b: _IRect) -> [UInt8] {
        let w = r.x1 - r.x0, bw = b.x1 - b.x0
        var o = [UInt8](repeating: 0, count: bw * (b.y1 - b.y0))
        a.withUnsafeBufferPointer { src in
            o.withUnsafeMutableBufferPointer { dst in
                for y in b.y0..<b.y1 {
                    let s = src.baseAddress! + (y - r.y0) * w + (b.x0 - r.x0)
                    (dst.baseAddress! + (y - b.y0) * bw).update(from: s, count: bw)
                }
            }
        }
        return o
    }

    // MARK: The composited alpha (no shadowPath)

    /// The alpha of the layer's composited picture under `ms` (layer → device, offset
    /// included), over `need` ∩ (the picture's bounds grown by `pad`); nil when nothing is drawn.
    ///
    /// The subtree is planned by a sub-planner whose device is shifted by `shift` pixels (a
    /// frame larger than the real one by `shift` on every side), so content up to `pad` pixels
    /// outside the frame still feeds the blur; its ops are run by the band executor on one
    /// buffer, here, single-threaded: the bytes depend on nothing but the tree.
    mutating func compositedAlpha(_ l: RenderLayer, _ ms: CATransform3D, within need: _IRect, pad: Int)
        -> (alpha: [UInt8], rect: _IRect)?
    {
        let shift = pad
        var sub = _Planner(width: width + 2 * shift, height: height + 2 * shift, scale: scale, mips: mips)
        sub.depth = depth
        sub.shadowNesting = shadowNesting + 1
        sub.outputSide = outputSide
        // Shadows nested in this offscreen matter only where it is read.
        sub.shadowRegion = _IRect(x0: need.x0 + shift, y0: need.y0 + shift, x1: need.x1 + shift, y1: need.y1 + shift)
        // The offscreens nested in this one were made, whatever becomes of it.
        defer { offscreenWork.add(sub.offscreenWork) }
        let mv = ms * CATransform3DMakeTranslation(CGFloat(shift), CGFloat(shift), 0)
        let hv = _Homography(planeOf: mv)
        sub.background(l, hv, clips: [], opacity: 1)
        sub.gradient(l, hv, clips: [], opacity: 1)   // CAGradientLayer
        sub.contents(l, hv, clips: [], opacity: 1)
        var childClips: [_Shape] = []
        var clipped = true
        if l.masksToBounds {
            if let s = sub.shape(l.bounds, hv, radii: radii(l), continuous: Self.continuous(l)) { childClips.append(s) } else { clipped = false }
        }
        if clipped { sub.shapeLayer(l, hv, clips: childClips, opacity: 1) }  // CAShapeLayer's shape
        if clipped {
            let space = Self.sublayerSpace(l, mv)
            for s in Self.drawOrder(l.sublayers) {
                sub.layer(s, parent: space, clips: childClips, opacity: 1, offset: (0, 0), ignoreTransition: false)
            }
        }
        sub.border(l, hv, clips: [], opacity: 1)
        var content = _IRect.empty
        for op in sub.ops { content = content.union(op.bounds) }
        guard !content.isEmpty else { return nil }
        // Back to device coordinates.
        content = _IRect(x0: content.x0 - shift, y0: content.y0 - shift, x1: content.x1 - shift, y1: content.y1 - shift)
        let rect = content.outset(pad).intersection(need)
        guard !rect.isEmpty else { return nil }
        let w = rect.x1 - rect.x0, hgt = rect.y1 - rect.y0
        var pixels = [UInt32](repeating: 0, count: w * hgt)
        let band = 32
        let scratch = _WorkerScratch()
        scratch.prepare(width: w, bandHeight: band)
        pixels.withUnsafeMutableBufferPointer { buf in
            var y0 = rect.y0
            while y0 < rect.y1 {
                let y1 = min(rect.y1, y0 + band)
                let t = _Target(base: buf.baseAddress! + (y0 - rect.y0) * w, stride: w,
                                rect: _IRect(x0: rect.x0 + shift, y0: y0 + shift, x1: rect.x1 + shift, y1: y1 + shift))
                _BandExecutor.run(sub.ops, frame: t, scratch: scratch)
                y0 = y1
            }
        }
        return (pixels.map { UInt8(truncatingIfNeeded: $0 >> 24) }, rect)
    }


    // MARK: shadowPath

    /// The coverage of `path` (layer coordinates) mapped by `h`, filled non-zero by the path
    /// rasterizer, over `need` ∩ (the path's device bounds grown by `pad`). Affine maps
    /// transform the curves (flattened in device pixels); projective ones flatten in layer space
    /// (tolerance divided by the largest local scale), clip each polygon in homogeneous space
    /// (`w ≥ ε` and a guard band around `need`), then divide.
    static func shadowPathAlpha(_ path: CGPath, _ h: _Homography, within need: _IRect, pad: Int)
        -> (alpha: [UInt8], rect: _IRect)?
    {
        let layerPath = RasterPath(path)
        guard !layerPath.isEmpty, h.isFinite else { return nil }
        let device: RasterPath
        if h.isAffine {
            let t = RasterTransform(a: h.m.0, b: h.m.3, c: h.m.1, d: h.m.4, tx: h.m.2, ty: h.m.5)
            device = layerPath.applying(t)
        } else {
            device = projected(layerPath, h, guardRect: need)
        }
        guard let cb = device.controlBounds, cb.minX.isFinite, cb.minY.isFinite, cb.maxX.isFinite, cb.maxY.isFinite
        else { return nil }
        let pb = _IRect(x0: pixelFloor(cb.minX), y0: pixelFloor(cb.minY),
                        x1: pixelCeil(cb.maxX) + 1, y1: pixelCeil(cb.maxY) + 1)
        let rect = pb.outset(pad).intersection(need)
        guard !rect.isEmpty else { return nil }
        var bitmap = CoverageBitmap(x: rect.x0, y: rect.y0, width: rect.x1 - rect.x0, height: rect.y1 - rect.y0)
        PathRasterizer().fill(device, rule: .nonZero, clip: RasterClip(x0: rect.x0, y0: rect.y0, x1: rect.x1, y1: rect.y1),
                              into: &bitmap)
        return (bitmap.bytes, rect)
    }

    /// Flattens `p` in layer space and projects it through `h`, clipping each closed polygon
    /// against `w ≥ ε` and `guardRect` grown by the guard band, before the divide.
    static func projected(_ p: RasterPath, _ h: _Homography, guardRect g: _IRect) -> RasterPath {
        // Largest local scale (device px per layer unit) at the control points in front.
        var s = 0.0
        for q in p.points {
            let (_, _, w) = h.apply(q.x, q.y)
            guard w > _HomogeneousClip.epsilon else { continue }
            // Jacobian of (X/W, Y/W): columns ∂/∂u, ∂/∂v.
            let (x, y, _) = h.apply(q.x, q.y)
            let ju = ((h.m.0 - x / w * h.m.6) / w, (h.m.3 - y / w * h.m.6) / w)
            let jv = ((h.m.1 - x / w * h.m.7) / w, (h.m.4 - y / w * h.m.7) / w)
            s = max(s, (ju.0 * ju.0 + ju.1 * ju.1).squareRoot(), (jv.0 * jv.0 + jv.1 * jv.1).squareRoot())
        }
        let tol = s > 0 && s.isFinite ? max(PathFlattening.defaultTolerance / s, 1e-6) : PathFlattening.defaultTolerance
        var sink = _PolygonCollector()
        p.flatten(tolerance: tol, into: &sink)
        let gb = _HomogeneousClip.guardBand
        let x0 = Double(g.x0) - gb, y0 = Double(g.y0) - gb, x1 = Double(g.x1) + gb, y1 = Double(g.y1) + gb
        let eps = _HomogeneousClip.epsilon
        var out = RasterPath()
        for poly in sink.polygons where poly.count >= 3 {
            var v: [SIMD3<Double>] = poly.map { q in let r = h.apply(q.x, q.y); return SIMD3(r.0, r.1, r.2) }
            let planes: [(SIMD3<Double>) -> Double] = [
                { $0.z - eps }, { $0.x - x0 * $0.z }, { x1 * $0.z - $0.x }, { $0.y - y0 * $0.z }, { y1 * $0.z - $0.y },
            ]
            for f in planes {
                if v.isEmpty { break }
                var o: [SIMD3<Double>] = []
                o.reserveCapacity(v.count + 4)
                for i in 0..<v.count {
                    let a = v[i], b = v[(i + 1) % v.count]
                    let fa = f(a), fb = f(b)
                    if fa >= 0 { o.append(a) }
                    if (fa >= 0) != (fb >= 0) { o.append(a + (b - a) * (fa / (fa - fb))) }
                }
                v = o
            }
            guard v.count >= 3 else { continue }
            out.move(to: RasterPoint(v[0].x / v[0].z, v[0].y / v[0].z))
            for q in v.dropFirst() { out.line(to: RasterPoint(q.x / q.z, q.y / q.z)) }
            out.close()
        }
        return out
    }
}

/// Collects a flattened path as closed polygons (filling closes every subpath).
struct _PolygonCollector: FlattenSink {
    var polygons: [[RasterPoint]] = []
    var current: [RasterPoint] = []
    mutating func moveTo(_ p: RasterPoint) { current = [p] }
    mutating func lineTo(_ p: RasterPoint, smooth: Bool) { current.append(p) }
    mutating func endSubpath(closed: Bool) { polygons.append(current); current = [] }
}

/// Shadow offscreens made while planning a frame: how many, and their pixels in all (a
/// composited-alpha shadow renders its picture into an RGBA buffer of that many pixels, a
/// `shadowPath` one fills an alpha plane; both are then blurred). Statistics for tests.
package struct _OffscreenWork: Sendable, Equatable {
    package var count = 0
    package var pixels = 0
    package init() {}
    mutating func add(pixels n: Int) { count += 1; pixels += n }
    mutating func add(_ w: _OffscreenWork) { count += w.count; pixels += w.pixels }
}

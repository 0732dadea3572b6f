import Flipbook
import FlipbookPixels
import FlipbookRaster
import Foundation

extension _Planner {
    /// What a sprite (a cell's image) needs per frame, resolved once per planner instead of once
    /// per particle: its texel region and layer → texel map (the same for all its particles,
    /// whose bounds are the sprite's size), and the mip levels fetched so far.
    struct _SpritePlan {
        let image: CGImage
        /// The particle's bounds `(0, 0, w, h)`.
        let bounds: CGRect
        /// Whether its contents draw at all (`contents(_:_:clips:opacity:image:)`'s checks that
        /// do not depend on the particle's matrix).
        let valid: Bool
        let iw: Double, ih: Double, sx0: Double, sy0: Double, sw: Double, sh: Double
        /// layer → texel (level 0).
        let toTexel: _Homography
        var levels: [_MipLevel] = []

        init(_ s: RenderParticles.Sprite) {
            image = s.image
            bounds = CGRect(origin: .zero, size: s.size)
            iw = Double(s.image.width); ih = Double(s.image.height)
            let cr = s.contentsRect, cs = Double(s.contentsScale)
            sx0 = Double(cr.minX) * iw; sy0 = Double(cr.minY) * ih
            sw = Double(cr.width) * iw; sh = Double(cr.height) * ih
            let dw = Double(bounds.width), dh = Double(bounds.height)
            let cw = sw / cs, ch = sh / cs
            valid = s.image.width > 0 && s.image.height > 0 && _Planner.isFinite(cr) && cr.width > 0 && cr.height > 0
                && [sx0, sy0, sx0 + sw, sy0 + sh].allSatisfy { abs($0) < 1e9 }
                && cw > 0 && ch > 0 && cw.isFinite && ch.isFinite    // gravityRect(.resize)'s guard
                && _Planner.isFinite(bounds) && bounds.width > 0 && bounds.height > 0
            toTexel = _Homography.scaleTranslate(sx: sw / dw, sy: sh / dh, tx: sx0 - 0 * sw / dw, ty: sy0 - 0 * sh / dh)
        }

        /// Makes `levels` `_MipCache.levels(for:upTo:)`'s answer for `level`, asking the cache
        /// only when the levels fetched so far do not reach it (and could). (Not returned: a
        /// copy of the array per particle retained and released it — shared by the planner
        /// threads.)
        mutating func fetchLevels(upTo level: Int, _ mips: _MipCache) {
            if levels.isEmpty || (levels.count <= level && (levels[levels.count - 1].texture.width > 1 || levels[levels.count - 1].texture.height > 1)) {
                levels = mips.levels(for: image, upTo: level)
            }
        }
    }

    /// Plans an emitter's particles (``RenderParticles``) as the sublayers they stand for, in
    /// one loop over flat records: the same ops, op for op, as `layer(…)` of each particle's
    /// node (`RenderParticles.node(_:)`), without building the nodes.
    ///
    /// A particle node is a plain layer — default anchor, opacity 1, double-sided, no
    /// background, border, shadow, mask or sublayers — with contents laid out `.resize` in
    /// bounds `(0, 0, w, h)` and a colour tint, so `layer(…)` reduces to (see there):
    ///
    ///     m = local(particle) · parent               (the same matrix products)
    ///     h = plane of m;  nothing when det h = 0
    ///     tint (if any) → premultiplied, applied by the contents draw (no group)
    ///     the contents draw (`particleContents`)
    ///
    /// Additive particles (a plus-lighter group each) go through `layer(…)` with their nodes.
    /// Many particles are planned in chunks on `parallelism` threads, like `planSublayers`.
    mutating func particles(_ p: RenderParticles, parent: CATransform3D, clips: [_Shape], opacity: Double) {
        guard !p.items.isEmpty, opacity > 0, depth < Self.maximumDepth else { return }
        let n = p.items.count
        guard parallelism > 1, n >= Self.parallelSublayers else {
            planParticles(p, 0..<n, parent: parent, clips: clips, opacity: opacity)
            return
        }
        planInChunks(n) { planner, range in
            planner.planParticles(p, range, parent: parent, clips: clips, opacity: opacity)
        }
    }

    /// Particles `range` of `p`, one after the other.
    mutating func planParticles(_ p: RenderParticles, _ range: Range<Int>, parent: CATransform3D, clips: [_Shape], opacity: Double) {
        if p.additive {
            for i in range { layer(p.node(p.items[i]), parent: parent, clips: clips, opacity: opacity, offset: (0, 0), ignoreTransition: false) }
            return
        }
        var sprites = p.sprites.map(_SpritePlan.init)
        depth += 1
        defer { depth -= 1 }
        // Unclipped particles go into batches (`_ParticleBatch`: one draw for a run of them).
        var batch: _ParticleBatch.Builder? = clips.isEmpty && Self.alpha(opacity) > 0 ? _ParticleBatch.Builder(capacity: range.count) : nil
        defer { endBatch(&batch, opacity: opacity) }
        p.items.withUnsafeBufferPointer { items in
            for i in range {
                let q = items[i]
                let m = Self.local(bounds: sprites[q.sprite].bounds, anchorPoint: CGPoint(x: 0.5, y: 0.5), anchorPointZ: 0,
                                   transform: q.transform, position: q.position, zPosition: 0, offset: (0, 0)) * parent
                guard m.isFinite, sprites[q.sprite].valid else { continue }
                let h = _Homography(planeOf: m)
                guard h.determinant != 0 else { continue }
                let tint = q.tint.map { t in
                    PixelMath.premultipliedColor(r: Double(t.red), g: Double(t.green), b: Double(t.blue), a: Double(t.alpha))
                }
                particleContents(&sprites[q.sprite], sprite: q.sprite, h, tint: tint, clips: clips, opacity: opacity, batch: &batch)
            }
        }
    }

    /// `contents(_:_:clips:opacity:image:)` for a particle node: gravity `.resize` (the draw
    /// fills the bounds), linear filters, no `contentsCenter`, not flipped, anti-aliased
    /// edges, no `masksToBounds` — the same values computed the same way, the sprite's part
    /// once per planner.
    ///
    /// With a `batch` (no clips), a draw the batch admits is appended to it instead of emitted;
    /// one it does not ends the batch (emitted first, keeping the order).
    mutating func particleContents(_ s: inout _SpritePlan, sprite: Int, _ h: _Homography, tint: UInt32?, clips: [_Shape], opacity: Double,
                                   batch: inout _ParticleBatch.Builder?) {
        guard let deviceToLayer = h.inverse else { return }
        // A batch takes the outline as `particleQuad` computes it (no arrays); otherwise, or
        // when that declines, the shape as `layer(…)` makes it.
        let quad = batch != nil ? particleQuad(s.bounds, h) : nil
        var own: _Shape? = nil
        if quad == nil {
            own = shape(s.bounds, h, aliased: false)
            if own == nil { return }
        }
        let dx0 = Double(s.bounds.minX), dy0 = Double(s.bounds.minY), dw = Double(s.bounds.width), dh = Double(s.bounds.height)
        let inv = deviceToLayer
        // Filter (linear either way) and mip level from the minification at the rectangle's centre.
        let centre = h.apply(dx0 + dw / 2, dy0 + dh / 2)
        let rho = centre.2 > 0 ? Self.minification(s.toTexel * inv, at: centre.0 / centre.2, centre.1 / centre.2) : 1
        var level = 0
        if rho >= 2 { level = Int(log2(rho).rounded(.down)) }
        s.fetchLevels(upTo: level, mips)
        level = min(level, s.levels.count - 1)
        let tw = s.levels[level].texture.width, th = s.levels[level].texture.height
        let lsx = Double(tw) / s.iw, lsy = Double(th) / s.ih
        let toLevel = _Homography.scaleTranslate(sx: lsx, sy: lsy, tx: 0, ty: 0)
        let cx0 = max(0, Int((s.sx0 * lsx).rounded(.down))), cy0 = max(0, Int((s.sy0 * lsy).rounded(.down)))
        let cx1 = min(tw, Int(((s.sx0 + s.sw) * lsx).rounded(.up))), cy1 = min(th, Int(((s.sy0 + s.sh) * lsy).rounded(.up)))
        guard cx1 > cx0, cy1 > cy0 else { return }
        let inverse = toLevel * s.toTexel * inv
        if batch != nil {
            // The paint's `isPlain` (no nine-part map) from its values, without making the paint
            // (which retains the texture).
            if let quad, let tint, cx0 == 0, cy0 == 0, cx1 == tw, cy1 == th, _ParticleBatch.Builder.admits(quad, inverse) {
                let t = batch!.texture(sprite: sprite, level: level) ?? batch!.addTexture(sprite: sprite, level: level, s.levels[level])
                batch!.append(quad, inverse: inverse, tint: tint, texture: t)
                return
            }
            endBatch(&batch, opacity: opacity)
        }
        let paint = _ImagePaint(texture: s.levels[level].texture, inverse: inverse, nearest: false,
                                cx0: cx0, cy0: cy0, cx1: cx1, cy1: cy1, ninePart: nil, tint: tint,
                                bordered: s.levels[level].bordered)
        guard let own = own ?? shape(s.bounds, h, aliased: false) else { return }
        emit(own, clips: clips, paint: .image(_ImagePaintBox(paint)), opacity: opacity)
    }

    /// `shape(rect, h, aliased: false)` for a particle's bounds `rect` under an affine `h` whose
    /// corners all fall inside the guard band and that is neither axis-aligned (no straight
    /// rows, no whole-pixel rectangle) — the same outline, bounds and fixed-point points,
    /// computed as `devicePolygon` and `shape` compute them, without their arrays. Nil when
    /// any of that does not hold (then `shape` decides, drawing nothing or a shape the batch
    /// does not take).
    func particleQuad(_ rect: CGRect, _ h: _Homography) -> _ParticleBatch.Quad? {
        guard h.isAffine, !(h.m.1 == 0 && h.m.3 == 0), Self.isFinite(rect), rect.width > 0, rect.height > 0, h.isFinite else { return nil }
        let x0 = Double(rect.minX), y0 = Double(rect.minY), x1 = Double(rect.maxX), y1 = Double(rect.maxY)
        // The corners TL TR BR BL (values in SIMD lanes only to keep them off the heap; the
        // arithmetic is per lane, as `devicePolygon` does it per point).
        let lx = SIMD4<Double>(x0, x1, x1, x0), ly = SIMD4<Double>(y0, y0, y1, y1)
        var px = SIMD4<Double>(), py = SIMD4<Double>()
        let g = _HomogeneousClip.guardBand, eps = _HomogeneousClip.epsilon
        let fw = Double(width), fh = Double(height)
        for i in 0..<4 {
            let p = h.apply(lx[i], ly[i])
            // `_HomogeneousClip.affineInside`'s planes.
            guard p.2 - eps >= 0, p.0 + g * p.2 >= 0, (fw + g) * p.2 - p.0 >= 0,
                  p.1 + g * p.2 >= 0, (fh + g) * p.2 - p.1 >= 0 else { return nil }
        }
        for i in 0..<4 {
            let p = h.apply(lx[i], ly[i])
            px[i] = p.0 / p.2; py[i] = p.1 / p.2
        }
        // `devicePolygon`: the area and bounds.
        var area = 0.0
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for i in 0..<4 {
            let j = i + 1 == 4 ? 0 : i + 1
            let ax = px[i], ay = py[i], bx = px[j], by = py[j]
            area += ax * by - bx * ay
            minX = min(minX, ax); maxX = max(maxX, ax); minY = min(minY, ay); maxY = max(maxY, ay)
        }
        guard area.isFinite, abs(area) > 1e-9 else { return nil }
        let bounds = _IRect(x0: pixelFloor(minX) - 1, y0: pixelFloor(minY) - 1,
                            x1: pixelCeil(maxX) + 1, y1: pixelCeil(maxY) + 1).intersection(frame)
        guard !bounds.isEmpty else { return nil }
        // `shape`: an axis-aligned rectangle (by its points) goes the general way.
        for i in 0..<4 where !(px[i].isFinite && py[i].isFinite) { return nil }
        if (px[0] == px[1] && py[1] == py[2] && px[2] == px[3] && py[3] == py[0])
            || (py[0] == py[1] && px[1] == px[2] && py[2] == py[3] && px[3] == px[0]) { return nil }
        // `FixedPolygon(polygon:)`.
        var b = SIMD4<Double>(.infinity, .infinity, -.infinity, -.infinity)
        var q = _ParticleBatch.Quad(bounds: bounds, outlineBounds: b, points: (0, 0, 0, 0, 0, 0, 0, 0))
        withUnsafeMutableBytes(of: &q.points) { raw in
            let f = raw.bindMemory(to: Int32.self)
            for i in 0..<4 {
                let x = px[i], y = py[i]
                b = SIMD4(Swift.min(b.x, x), Swift.min(b.y, y), Swift.max(b.z, x), Swift.max(b.w, y))
                f[2 * i] = Int32(truncatingIfNeeded: PathRasterizer._fixed(x))
                f[2 * i + 1] = Int32(truncatingIfNeeded: PathRasterizer._fixed(y))
            }
        }
        q.outlineBounds = b
        return q
    }

    /// Emits the particles collected in `batch` as one draw (over the union of their bounds; the
    /// opacity is theirs) and empties it.
    mutating func endBatch(_ batch: inout _ParticleBatch.Builder?, opacity: Double) {
        guard batch != nil else { return }
        let bounds = batch!.bounds
        guard let b = batch!.take() else { return }
        ops.append(.draw(_Draw(shapes: [], paint: .particles(b), alpha: Self.alpha(opacity), bounds: bounds)))
    }
}

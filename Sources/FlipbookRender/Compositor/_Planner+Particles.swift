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
                particleContents(&sprites[q.sprite], h, tint: tint, clips: clips, opacity: opacity)
            }
        }
    }

    /// `contents(_:_:clips:opacity:image:)` for a particle node: gravity `.resize` (the draw
    /// fills the bounds), linear filters, no `contentsCenter`, not flipped, anti-aliased
    /// edges, no `masksToBounds` — the same values computed the same way, the sprite's part
    /// once per planner.
    mutating func particleContents(_ s: inout _SpritePlan, _ h: _Homography, tint: UInt32?, clips: [_Shape], opacity: Double) {
        guard let deviceToLayer = h.inverse, let own = shape(s.bounds, h, aliased: false) else { return }
        let dx0 = Double(s.bounds.minX), dy0 = Double(s.bounds.minY), dw = Double(s.bounds.width), dh = Double(s.bounds.height)
        let inv = deviceToLayer
        // Filter (linear either way) and mip level from the minification at the rectangle's centre.
        let centre = h.apply(dx0 + dw / 2, dy0 + dh / 2)
        let rho = centre.2 > 0 ? Self.minification(s.toTexel * inv, at: centre.0 / centre.2, centre.1 / centre.2) : 1
        var level = 0
        if rho >= 2 { level = Int(log2(rho).rounded(.down)) }
        s.fetchLevels(upTo: level, mips)
        level = min(level, s.levels.count - 1)
        let tex = s.levels[level].texture
        let lsx = Double(tex.width) / s.iw, lsy = Double(tex.height) / s.ih
        let toLevel = _Homography.scaleTranslate(sx: lsx, sy: lsy, tx: 0, ty: 0)
        let cx0 = max(0, Int((s.sx0 * lsx).rounded(.down))), cy0 = max(0, Int((s.sy0 * lsy).rounded(.down)))
        let cx1 = min(tex.width, Int(((s.sx0 + s.sw) * lsx).rounded(.up))), cy1 = min(tex.height, Int(((s.sy0 + s.sh) * lsy).rounded(.up)))
        guard cx1 > cx0, cy1 > cy0 else { return }
        let paint = _ImagePaint(texture: tex, inverse: toLevel * s.toTexel * inv, nearest: false,
                                cx0: cx0, cy0: cy0, cx1: cx1, cy1: cy1, ninePart: nil, tint: tint,
                                bordered: s.levels[level].bordered)
        emit(own, clips: clips, paint: .image(_ImagePaintBox(paint)), opacity: opacity)
    }
}

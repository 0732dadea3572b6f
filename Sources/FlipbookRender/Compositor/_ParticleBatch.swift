import FlipbookPixels
import FlipbookRaster

/// A run of consecutive emitter particles planned as one draw (`_Paint.particles`): the draws
/// `_Planner.particleContents` would have emitted one by one, kept as flat records — no `_Draw`,
/// shapes array, image-paint box or outline array per particle, allocated by the planner and
/// freed after the frame.
///
/// Only the particles whose single draw the executor paints through the fused tinted sampler
/// are batched (``Builder/admits``): a tinted, rotated or scaled plain image (the
/// `_TintedPainter` affine path), its own outline a polygon (no clip, no straight rows, no
/// whole-pixel rectangle, anti-aliased). The executor paints the records in order, each
/// exactly as `_BandExecutor.draw` paints the draw it stands for (`_BandExecutor.particles`),
/// so the bytes are the same; a particle that does not qualify ends the batch and is emitted as
/// its own draw after it, keeping the order.
final class _ParticleBatch: Sendable {
    /// One particle's draw.
    struct Record: Sendable {
        /// Device pixel-centre coordinates → texel coordinates of its mip level
        /// (`_ImagePaint.inverse`).
        let inverse: _Homography
        /// The draw's bounds (its outline's, in the frame).
        let bounds: _IRect
        /// The outline's bounds in pixels (`FixedPolygon.bounds`).
        let outlineBounds: SIMD4<Double>
        /// Premultiplied tint (`_ImagePaint.tint`).
        let tint: UInt32
        /// Its texture in ``textures``.
        let texture: Int32
        /// Its outline: `points[start ..< start + count]` (x, y pairs in 24.8 fixed point).
        let start: Int32, count: Int32
    }

    let records: [Record]
    /// The outlines' fixed-point points, back to back.
    let points: [Int32]
    /// The mip levels drawn (the fused sampler reads `bordered` when there is one, as
    /// `_ImagePaintBox.withFastRaster`).
    let textures: [_MipLevel]

    init(records: [Record], points: [Int32], textures: [_MipLevel]) {
        self.records = records; self.points = points; self.textures = textures
    }

    /// A particle's outline as the batch takes it (`_Planner.particleQuad`): the draw's
    /// bounds, the four corners in 24.8 fixed point and their bounds in pixels — the
    /// `bounds`, `fixed.points` and `fixed.bounds` of the `_Shape` the planner would make.
    struct Quad {
        var bounds: _IRect
        var outlineBounds: SIMD4<Double>
        var points: (Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32)
    }

    /// Collects records while the planner walks the particles.
    struct Builder {
        var records: [Record] = []
        var points: [Int32] = []
        var textures: [_MipLevel] = []
        /// `(sprite, level)` of each texture.
        var keys: [(Int, Int)] = []
        var bounds = _IRect.empty

        init(capacity: Int = 0) {
            records.reserveCapacity(capacity)
            points.reserveCapacity(8 * capacity)
        }

        /// Whether the outline `quad` drawing a plain tinted image (whole texture, linear
        /// filter) through `inverse` is what a batch holds (see the type's note; the quad is a
        /// rotated or sheared one, anti-aliased, by construction): an affine inverse that is not
        /// a whole-pixel translation (`_FastImage.translate` nil), columns the fused samplers
        /// take (`_FastImage.kind`).
        static func admits(_ quad: Quad, _ h: _Homography) -> Bool {
            guard h.isAffine, quad.bounds.x0 >= 0, quad.bounds.x1 <= 1 << 15 else { return false }
            return !(h.m.0 == 1 && h.m.1 == 0 && h.m.3 == 0 && h.m.4 == 1 && h.m.2 == h.m.2.rounded()
                     && h.m.5 == h.m.5.rounded() && abs(h.m.2) < 1e9 && abs(h.m.5) < 1e9)
        }

        /// The index of the texture of `sprite` at mip `level`, or nil when not added yet.
        func texture(sprite: Int, level: Int) -> Int32? {
            for (i, k) in keys.enumerated() where k == (sprite, level) { return Int32(i) }
            return nil
        }

        mutating func addTexture(sprite: Int, level: Int, _ mip: _MipLevel) -> Int32 {
            keys.append((sprite, level)); textures.append(mip)
            return Int32(keys.count - 1)
        }

        mutating func append(_ quad: Quad, inverse: _Homography, tint: UInt32, texture: Int32) {
            let start = points.count
            let p = quad.points
            points.append(p.0); points.append(p.1); points.append(p.2); points.append(p.3)
            points.append(p.4); points.append(p.5); points.append(p.6); points.append(p.7)
            records.append(Record(inverse: inverse, bounds: quad.bounds, outlineBounds: quad.outlineBounds, tint: tint,
                                  texture: texture, start: Int32(start), count: 8))
            bounds = bounds.union(quad.bounds)
        }

        /// The batch, or nil when empty; the builder is emptied.
        mutating func take() -> _ParticleBatch? {
            defer { self = Builder() }
            return records.isEmpty ? nil : _ParticleBatch(records: records, points: points, textures: textures)
        }
    }
}

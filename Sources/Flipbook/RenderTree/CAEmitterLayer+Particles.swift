import Foundation
import FlipbookGraphics

/// The particles of an emitter layer at one local time, as render nodes (see `CAEmitterLayer`
/// for the model). A pure function of the emitter's values, its cells and the time.
extension CAEmitterLayer {
    /// At most this many particles per cell, and in all for one emitter.
    static let maximumParticlesPerCell = 100_000
    static let maximumParticles = 200_000

    /// Deterministic uniforms: SplitMix64's finaliser over (seed, cell path, birth index, quantity).
    struct _Random {
        let base: UInt64
        @inline(__always) static func mix(_ x: UInt64) -> UInt64 {
            var z = x &+ 0x9E37_79B9_7F4A_7C15
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        /// 0 ≤ u < 1 for particle `k`, quantity `q`.
        @inline(__always) func unit(_ k: Int, _ q: UInt64) -> Double {
            Double(Self.mix(Self.mix(base ^ UInt64(bitPattern: Int64(k))) ^ q) >> 11) * 0x1p-53
        }
        /// −1 ≤ s < 1.
        @inline(__always) func sym(_ k: Int, _ q: UInt64) -> Double { 2 * unit(k, q) - 1 }
    }

    struct _Particle {
        var position: CGPoint
        var scale: Double
        var rotation: Double
        var color: (Double, Double, Double, Double)
        var cell: CAEmitterCell
    }

    /// The particles for layer-local time `local` from the emitter values `s`, as flat records
    /// (``RenderParticles``: one sprite per cell with a drawable image, one record per particle).
    final func _particles(_ s: _EmitterState, local: CFTimeInterval) -> RenderParticles {
        var result = RenderParticles()
        guard let cells = s.cells, !cells.isEmpty, local.isFinite else { return result }
        var out: [_Particle] = []
        var budget = Self.maximumParticles
        for (i, c) in cells.enumerated() {
            let path = _Random.mix(UInt64(s.seed) &+ 0x5EED) ^ _Random.mix(UInt64(i) &+ 1)
            _emit(c, path: path, s: s, elapsed: local - c.beginTime, start: { k, r in self._shapePoint(s, k: k, random: r) },
                  into: &out, budget: &budget)
        }
        if s.renderMode == .oldestLast { out.reverse() }
        result.additive = s.renderMode == .additive
        // Each cell's sprite once (-1: the cell draws nothing), looked up by identity — a cell's
        // particles are consecutive (sub-cells' interleave), so the last cell is asked first.
        var spriteOf: [ObjectIdentifier: Int] = [:]
        var last: (id: ObjectIdentifier, index: Int)? = nil
        result.items.reserveCapacity(out.count)
        for p in out {
            let id = ObjectIdentifier(p.cell)
            var index = last?.id == id ? last!.index : spriteOf[id] ?? -2
            if index == -2 {
                index = -1
                if let image = p.cell.contents.flatMap({ $0 as? CGImage }), image.width > 0, image.height > 0 {
                    let cs = p.cell.contentsScale.isFinite && p.cell.contentsScale > 0 ? p.cell.contentsScale : 1
                    let cr = p.cell.contentsRect
                    let w = CGFloat(image.width) * cr.width / cs, h = CGFloat(image.height) * cr.height / cs
                    index = result.sprites.count
                    result.sprites.append(.init(image: image, contentsRect: cr, contentsScale: cs, size: CGSize(width: w, height: h)))
                }
                spriteOf[id] = index
            }
            last = (id, index)
            guard index >= 0 else { continue }
            let tint = RenderTint(red: Float(p.color.0), green: Float(p.color.1), blue: Float(p.color.2), alpha: Float(p.color.3))
            result.items.append(.init(position: p.position, rotation: p.rotation, scale: p.scale,
                                      tint: tint.isIdentity ? nil : tint, sprite: index))
        }
        return result
    }

    /// A starting point on the emitter shape for particle `k`.
    final func _shapePoint(_ s: _EmitterState, k: Int, random r: _Random) -> CGPoint {
        let c = s.position, w = Double(s.size.width), h = Double(s.size.height)
        let u = r.unit(k, 11), v = r.unit(k, 12)
        let outline = s.mode == .outline
        guard s.mode != .points else { return c }
        switch s.shape {
        case .line:
            return CGPoint(x: Double(c.x) + (u - 0.5) * w, y: Double(c.y))
        case .rectangle, .cuboid:
            if outline {
                // A point on the perimeter, uniform by length.
                let per = 2 * (w + h)
                guard per > 0 else { return c }
                var d = u * per
                let x0 = Double(c.x) - w / 2, y0 = Double(c.y) - h / 2
                if d < w { return CGPoint(x: x0 + d, y: y0) }
                d -= w
                if d < h { return CGPoint(x: x0 + w, y: y0 + d) }
                d -= h
                if d < w { return CGPoint(x: x0 + w - d, y: y0 + h) }
                return CGPoint(x: x0, y: y0 + h - (d - w))
            }
            return CGPoint(x: Double(c.x) + (u - 0.5) * w, y: Double(c.y) + (v - 0.5) * h)
        case .circle, .sphere:
            let a = 2 * Double.pi * u
            let rad = w / 2 * (outline ? 1 : v.squareRoot())
            return CGPoint(x: Double(c.x) + rad * cos(a), y: Double(c.y) + rad * sin(a))
        default:
            return c
        }
    }

    /// The live particles of `cell` (and, recursively, of its sub-cells) after `elapsed` seconds
    /// of emission; `start(k, random)` is where particle `k` starts (nil: no source then).
    final func _emit(_ cell: CAEmitterCell, path: UInt64, s: _EmitterState, elapsed: Double,
                     start: (Int, _Random) -> CGPoint?, into out: inout [_Particle], budget: inout Int) {
        guard cell.isEnabled, elapsed >= 0, budget > 0 else { return }
        let rate = Double(cell.birthRate) * Double(s.birthRate)
        let lifeScale = Double(s.lifetime)
        let maxLife = (Double(cell.lifetime) + abs(Double(cell.lifetimeRange))) * lifeScale
        guard rate > 0, rate.isFinite, maxLife > 0, maxLife.isFinite else { return }
        let emitting = cell.duration > 0 ? min(elapsed, cell.duration) : elapsed
        let lastD = (emitting * rate).rounded(.down)
        guard lastD.isFinite, lastD < 9e15 else { return }
        let last = Int(lastD)
        // Compared as a Double first: (elapsed − maxLife)·rate can be −1e20 for a long-lived
        // cell (found by the scene fuzz target: the conversion trapped).
        let firstD = ((elapsed - maxLife) * rate).rounded(.up)
        guard !firstD.isNaN, firstD <= lastD else { return }
        var first = firstD <= 0 ? 0 : Int(firstD)
        first = max(first, last - Self.maximumParticlesPerCell + 1)
        guard first <= last else { return }
        let r = _Random(base: path)
        // The cell's and the layer's values, read once (not per particle): the same numbers
        // in the same expressions below.
        let lifetime = Double(cell.lifetime), lifetimeRange = Double(cell.lifetimeRange)
        let longitude = Double(cell.emissionLongitude), emissionRange = Double(cell.emissionRange)
        let cosLat = cos(Double(cell.emissionLatitude))
        let velocity = Double(cell.velocity), velocityRange = Double(cell.velocityRange), layerVelocity = Double(s.velocity)
        let ax = Double(cell.xAcceleration), ay = Double(cell.yAcceleration)
        let scale0 = Double(cell.scale), scaleRange = Double(cell.scaleRange), scaleSpeed = Double(cell.scaleSpeed)
        let layerScale = Double(s.scale)
        let spin = Double(cell.spin), spinRange = Double(cell.spinRange), layerSpin = Double(s.spin)
        let base = cell.color ?? CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        // (value, range, speed) per channel, R G B A.
        let channels = [(Double(base.red), Double(cell.redRange), Double(cell.redSpeed)),
                        (Double(base.green), Double(cell.greenRange), Double(cell.greenSpeed)),
                        (Double(base.blue), Double(cell.blueRange), Double(cell.blueSpeed)),
                        (Double(base.alpha), Double(cell.alphaRange), Double(cell.alphaSpeed))]
        let subs = cell.emitterCells ?? []
        for k in first...last {
            guard budget > 0 else { return }
            let birth = Double(k) / rate, age = elapsed - birth
            let life = (lifetime + lifetimeRange * r.sym(k, 1)) * lifeScale
            guard age >= 0, age < life, let p0 = start(k, r) else { continue }
            let theta = longitude + emissionRange * r.sym(k, 2)
            let speed = (velocity + velocityRange * r.sym(k, 3)) * layerVelocity * cosLat
            let vx = speed * cos(theta), vy = speed * sin(theta)
            func position(at a: Double) -> CGPoint {
                CGPoint(x: Double(p0.x) + vx * a + 0.5 * ax * a * a, y: Double(p0.y) + vy * a + 0.5 * ay * a * a)
            }
            let scale = max(0, (scale0 + scaleRange * r.sym(k, 4) + scaleSpeed * age) * layerScale)
            let rotation = (spin + spinRange * r.sym(k, 5)) * age * layerSpin
            func channel(_ i: Int, _ q: UInt64) -> Double {
                let x = channels[i].0 + channels[i].1 * r.sym(k, q) + channels[i].2 * age
                return x.isFinite ? min(max(x, 0), 1) : 0
            }
            let color = (channel(0, 6), channel(1, 7), channel(2, 8), channel(3, 9))
            let here = position(at: age)
            guard here.x.isFinite, here.y.isFinite, scale.isFinite, rotation.isFinite else { continue }
            out.append(_Particle(position: here, scale: scale, rotation: rotation, color: color, cell: cell))
            budget -= 1
            // Sub-cells: this particle is their emitter while it lives, from where it is.
            if !subs.isEmpty {
                for (j, d) in subs.enumerated() {
                    let sub = _Random.mix(path ^ _Random.mix(UInt64(bitPattern: Int64(k)) &+ 0xC0FF_EE00)) ^ _Random.mix(UInt64(j) &+ 1)
                    let childRate = Double(d.birthRate) * Double(s.birthRate)
                    _emit(d, path: sub, s: s, elapsed: age - d.beginTime,
                          start: { j2, _ in
                              let b = childRate > 0 ? Double(j2) / childRate + d.beginTime : 0
                              return b <= life ? position(at: b) : nil
                          }, into: &out, budget: &budget)
                }
            }
        }
    }
}

import Foundation
import FlipbookGraphics

/// The particles of an emitter layer at one local time, as render nodes (see `CAEmitterLayer`
/// for the model). A pure function of the emitter's values, its history and the time.
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
        /// Index in the sprite table; -1 when the cell has no drawable image.
        var sprite: Int
    }

    /// Sprites by (image, contentsRect, contentsScale): one per distinct picture, made at the
    /// first particle that shows it.
    struct _Sprites {
        var list: [RenderParticles.Sprite] = []
        var index: [SpriteKey: Int] = [:]
        struct SpriteKey: Hashable {
            let image: ObjectIdentifier
            let rect: CGRect
            let scale: CGFloat
            func hash(into h: inout Hasher) { h.combine(image); h.combine(rect.origin.x); h.combine(rect.origin.y); h.combine(rect.width); h.combine(rect.height); h.combine(scale) }
        }
        mutating func index(of cell: _CellValues) -> Int {
            guard let image = cell.contents.flatMap({ $0 as? CGImage }), image.width > 0, image.height > 0 else { return -1 }
            let cs = cell.contentsScale.isFinite && cell.contentsScale > 0 ? cell.contentsScale : 1
            let cr = cell.contentsRect
            let key = SpriteKey(image: ObjectIdentifier(image), rect: cr, scale: cs)
            if let i = index[key] { return i }
            let w = CGFloat(image.width) * cr.width / cs, h = CGFloat(image.height) * cr.height / cs
            let i = list.count
            list.append(.init(image: image, contentsRect: cr, contentsScale: cs, size: CGSize(width: w, height: h)))
            index[key] = i
            return i
        }
    }

    /// The particles for layer-local time `local` from the model's custom-key storage `extras`
    /// (the emitter's values and history; the model's or, for a transition's "before"
    /// picture, the committed state's), as flat records (``RenderParticles``: one sprite per
    /// picture, one record per particle). With `animations`, recorded animations apply.
    final func _particles(extras: [String: Any], local: CFTimeInterval, animations: Bool) -> RenderParticles {
        var result = RenderParticles()
        let s = _emitterState(in: extras)     // stored values, or the class's defaults
        let history = extras[_EmitterHistory.storageKey] as? _EmitterHistory
        guard local.isFinite, history != nil || s.cells?.isEmpty == false else { return result }
        let live = _EmitterValues(s)
        let intervals = history?.intervals(live: live, now: local, animations: animations)
            ?? [_EmitterInterval(start: -.infinity, values: live)]
        let bases = history?.base ?? []
        // The interval in effect now: a cell disabled in it draws nothing.
        let current = intervals.lastIndex { $0.start <= local } ?? 0
        var out: [_Particle] = []
        var budget = Self.maximumParticles
        var sprites = _Sprites()
        let cellCount = intervals.map { $0.values.cells.count }.max() ?? 0
        for i in 0..<cellCount {
            let now = intervals[current].values.cells
            if i < now.count, !now[i].isEnabled { continue }
            var runs: [_Run]? = []
            _ = Self._walk(intervals, cell: { i < $0.cells.count ? $0.cells[i] : nil },
                           base: i < bases.count ? bases[i] : _Birth(), now: local, runs: &runs)
            _emitRuns(runs!, intervals: intervals, cellAt: { i < $0.cells.count ? $0.cells[i] : nil },
                      path: { _Random.mix(UInt64($0.seed) &+ 0x5EED) ^ _Random.mix(UInt64(i) &+ 1) },
                      now: local, start: { k, r, s in self._shapePoint(s, k: k, random: r) },
                      into: &out, budget: &budget, sprites: &sprites)
        }
        if s.renderMode == .oldestLast { out.reverse() }
        result.additive = s.renderMode == .additive
        result.sprites = sprites.list
        result.items.reserveCapacity(out.count)
        for p in out where p.sprite >= 0 {
            let tint = RenderTint(red: Float(p.color.0), green: Float(p.color.1), blue: Float(p.color.2), alpha: Float(p.color.3))
            result.items.append(.init(position: p.position, rotation: p.rotation, scale: p.scale,
                                      tint: tint.isIdentity ? nil : tint, sprite: p.sprite))
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

    /// The births of one cell in one interval: particles `first…last`, particle `k` born at
    /// `eA + (k − cA) / rate` seconds after the cell's `beginTime` (an anchor carried across
    /// intervals while the rate and the cell's timing do not change, so a change of anything
    /// else moves no birth).
    /// Births counted so far, and the anchor births go on from while the rate does not change:
    /// particle `k` at `eA + (k − cA) / rate` seconds after the cell's `beginTime` `b` (with
    /// its `duration` `d`).
    struct _Birth {
        struct Anchor: Equatable {
            var eA: Double, cA: Double, rate: Double, b: Double, d: Double
        }
        var count: Double = 0
        var anchor: Anchor? = nil
    }

    struct _Run {
        var interval: Int
        var eA: Double
        var cA: Double
        var rate: Double
        var first: Int
        var last: Int
    }

    /// Integrates a cell's piecewise-constant birth rate over `intervals` (the cell in each from
    /// `cell`; rate = cell `birthRate` × layer `birthRate`, inside the cell's
    /// `beginTime`…`+duration`, in the clock of `now`): the runs of births up to `now`
    /// (inclusive) when `runs` is given, and the count of births at the end (the last interval
    /// ending at `end`). Births are
    /// numbered on from `base` (its anchor carried into the first interval when the rate goes
    /// on unchanged); one falling on an interval's start belongs to that interval. Returns the
    /// count and the anchor at the end.
    static func _walk(_ intervals: [_EmitterInterval], cell: (_EmitterValues) -> _CellValues?, base: _Birth,
                      now: Double, end lastEnd: Double = .infinity, runs: inout [_Run]?) -> _Birth {
        var n = base.count
        var anchor = base.anchor
        for j in intervals.indices {
            let start = intervals[j].start
            guard start <= now else { break }
            let end = j + 1 < intervals.count ? intervals[j + 1].start : lastEnd
            guard let c = cell(intervals[j].values), c.isEnabled else { anchor = nil; continue }
            let rate = Double(c.birthRate) * Double(intervals[j].values.layer.birthRate)
            guard rate > 0, rate.isFinite else { anchor = nil; continue }
            let b = c.beginTime, d = c.duration
            let elapsed = now - b
            let lo = max(start - b, 0)
            let segmentEnd = end - b
            let cap = d > 0 ? min(d, elapsed) : elapsed
            let hi = min(segmentEnd, cap)
            guard lo.isFinite, hi >= lo else { anchor = nil; continue }
            // The interval's end binds: a birth falling on it belongs to the next interval.
            let exclusive = segmentEnd <= cap
            if let a = anchor, a.rate == rate, a.b == b, a.d == d {} else { anchor = _Birth.Anchor(eA: lo, cA: n, rate: rate, b: b, d: d) }
            let eA = anchor!.eA, cA = anchor!.cA
            let endD = cA + rate * (hi - eA)
            guard endD.isFinite, endD < 9e15 else { anchor = nil; break }
            let firstD = (cA + rate * (lo - eA)).rounded(.up)
            let lastD = exclusive ? endD.rounded(.up) - 1 : endD.rounded(.down)
            n = endD
            if firstD <= lastD, runs != nil {
                runs!.append(_Run(interval: j, eA: eA, cA: cA, rate: rate, first: max(0, Int(firstD)), last: Int(lastD)))
            }
            if !exclusive { anchor = nil }
        }
        return _Birth(count: n, anchor: anchor)
    }

    /// The live particles of `runs` (and, recursively, of their sub-cells) at `now` (in the
    /// clock the runs were walked in): each particle reads the values of its run's interval —
    /// the cell from `cellAt`, its random path from `path`, where it starts from `start(k,
    /// random, layer values)` (nil: no source then). At most `maximumParticlesPerCell` of the
    /// newest.
    final func _emitRuns(_ runs: [_Run], intervals: [_EmitterInterval], cellAt: (_EmitterValues) -> _CellValues?,
                         path: (_EmitterState) -> UInt64, now: Double,
                         start: (Int, _Random, _EmitterState) -> CGPoint?,
                         into out: inout [_Particle], budget: inout Int, sprites: inout _Sprites) {
        // The live range of each run (particles whose lifetime has not ended), newest kept.
        var live: [(run: _Run, first: Int)] = []
        var newest = Int.min
        for run in runs {
            let v = intervals[run.interval].values
            guard let cell = cellAt(v) else { continue }
            let maxLife = (Double(cell.lifetime) + abs(Double(cell.lifetimeRange))) * Double(v.layer.lifetime)
            guard maxLife > 0, maxLife.isFinite else { continue }
            // Compared as a Double first: (elapsed − maxLife)·rate can be −1e20 for a long-lived
            // cell (found by the scene fuzz target: the conversion trapped).
            let elapsed = now - cell.beginTime
            let firstD = (run.cA + run.rate * ((elapsed - maxLife) - run.eA)).rounded(.up)
            guard !firstD.isNaN, firstD <= Double(run.last) else { continue }
            live.append((run, firstD <= Double(run.first) ? run.first : Int(firstD)))
            newest = max(newest, run.last)
        }
        let oldest = newest == Int.min ? 0 : newest - Self.maximumParticlesPerCell + 1
        for (run, liveFirst) in live {
            let first = max(liveFirst, oldest)
            guard first <= run.last else { continue }
            let s = intervals[run.interval].values.layer
            let cell = cellAt(intervals[run.interval].values)!
            _emitParticles(cell, s: s, path: path(s), run: run, first: first, elapsed: now - cell.beginTime,
                           start: { k, r in start(k, r, s) }, into: &out, budget: &budget, sprites: &sprites)
        }
    }

    /// Particles `first…run.last` of `cell` (with the layer values `s`) after `elapsed` seconds of
    /// its emission, and their sub-cells' particles.
    final func _emitParticles(_ cell: _CellValues, s: _EmitterState, path: UInt64, run: _Run, first: Int, elapsed: Double,
                              start: (Int, _Random) -> CGPoint?, into out: inout [_Particle], budget: inout Int,
                              sprites: inout _Sprites) {
        guard budget > 0 else { return }
        let r = _Random(base: path)
        let rate = run.rate, eA = run.eA, cA = run.cA
        let lifeScale = Double(s.lifetime)
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
        let subs = cell.subcells ?? []
        var sprite: Int? = nil
        for k in first...run.last {
            guard budget > 0 else { return }
            let birth = eA + (Double(k) - cA) / rate, age = elapsed - birth
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
            if sprite == nil { sprite = sprites.index(of: cell) }
            out.append(_Particle(position: here, scale: scale, rotation: rotation, color: color, sprite: sprite!))
            budget -= 1
            // Sub-cells: this particle is their emitter while it lives, from where it is; they
            // read the values the particle was born with.
            if !subs.isEmpty {
                for (j, d) in subs.enumerated() {
                    let sub = _Random.mix(path ^ _Random.mix(UInt64(bitPattern: Int64(k)) &+ 0xC0FF_EE00)) ^ _Random.mix(UInt64(j) &+ 1)
                    let childRate = Double(d.birthRate) * Double(s.birthRate)
                    _emitSubcell(d, s: s, path: sub, elapsed: age - d.beginTime,
                                 start: { j2, _ in
                                     let b = childRate > 0 ? Double(j2) / childRate + d.beginTime : 0
                                     return b <= life ? position(at: b) : nil
                                 }, into: &out, budget: &budget, sprites: &sprites)
                }
            }
        }
    }

    /// A sub-cell's particles after `elapsed` seconds of emission by one particle: one run at
    /// the constant rate its parent was born with.
    final func _emitSubcell(_ cell: _CellValues, s: _EmitterState, path: UInt64, elapsed: Double,
                            start: (Int, _Random) -> CGPoint?, into out: inout [_Particle], budget: inout Int,
                            sprites: inout _Sprites) {
        guard cell.isEnabled, elapsed >= 0, budget > 0 else { return }
        let rate = Double(cell.birthRate) * Double(s.birthRate)
        let maxLife = (Double(cell.lifetime) + abs(Double(cell.lifetimeRange))) * Double(s.lifetime)
        guard rate > 0, rate.isFinite, maxLife > 0, maxLife.isFinite else { return }
        let emitting = cell.duration > 0 ? min(elapsed, cell.duration) : elapsed
        let lastD = (emitting * rate).rounded(.down)
        guard lastD.isFinite, lastD < 9e15 else { return }
        let last = Int(lastD)
        let firstD = ((elapsed - maxLife) * rate).rounded(.up)
        guard !firstD.isNaN, firstD <= lastD else { return }
        let first = max(firstD <= 0 ? 0 : Int(firstD), last - Self.maximumParticlesPerCell + 1)
        guard first <= last else { return }
        _emitParticles(cell, s: s, path: path, run: _Run(interval: 0, eA: 0, cA: 0, rate: rate, first: 0, last: last),
                       first: first, elapsed: elapsed, start: start, into: &out, budget: &budget, sprites: &sprites)
    }
}

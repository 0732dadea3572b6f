import Foundation
import FlipbookGraphics
/// Keyframe evaluation.
///
/// 1. `p = timingFunction(t / duration)` (the animation-wide curve, linear when nil).
/// 2. Key times: for `linear`/`cubic`, `keyTimes` must have one entry per keyframe, start at 0,
///    end at 1, be finite and non-decreasing; for `discrete`, `n` or `n + 1` entries starting at
///    0 (non-decreasing, finite, ≤ 1). **Anything else falls back to evenly spaced key times**
///    (`i/(n−1)`; discrete: `i/n`). `paced`/`cubicPaced` ignore `keyTimes` and `timingFunctions`
///    and space keyframes by the distance between values (all distances 0 → even spacing).
/// 3. Segment `i` holds `p ∈ [kᵢ, kᵢ₊₁]`; local `u = (p − kᵢ)/(kᵢ₊₁ − kᵢ)` (a zero-length
///    segment gives u = 1) eased by `timingFunctions[i]` (missing → linear). `p` outside [0, 1]
///    extrapolates the first / last segment.
/// 4. linear / paced: `interpolate(vᵢ, vᵢ₊₁, u)`; discrete: `vᵢ` for `p ∈ [kᵢ, kᵢ₊₁)` and the
///    last value at p ≥ 1; cubic / cubicPaced: a Kochanek–Bartels Hermite spline (below) for
///    vector values (scalars, points, sizes, rects, colours, number arrays), linear otherwise.
/// 5. Empty `values` (and no usable path) → nil (base unchanged); one value → that value.
///
/// Kochanek–Bartels with tension T, continuity C, bias B at keyframe i (endpoints duplicated:
/// P₋₁ = P₀, Pₙ = Pₙ₋₁):
///
///     outgoing  Dᵢ = (1−T)(1+B)(1+C)/2·(Pᵢ − Pᵢ₋₁) + (1−T)(1−B)(1−C)/2·(Pᵢ₊₁ − Pᵢ)
///     incoming  Sᵢ = (1−T)(1+B)(1−C)/2·(Pᵢ − Pᵢ₋₁) + (1−T)(1−B)(1+C)/2·(Pᵢ₊₁ − Pᵢ)
///     P(u) = h₀₀Pᵢ + h₁₀Dᵢ + h₀₁Pᵢ₊₁ + h₁₁Sᵢ₊₁   (cubic Hermite basis; T = C = B = 0: Catmull–Rom)
///
/// With a `path`, keyframes are the path's vertices: keyframe 0 is the start, keyframe i the end
/// of segment i (moves inside the path are jumps). linear/cubic place the point at Bézier
/// parameter u within the segment; discrete jumps vertex to vertex; paced/cubicPaced move at
/// constant speed by arc length over the whole path.
extension CAKeyframeAnimation {
    package func _evaluateKeyframes(at t: CFTimeInterval, iteration: Int, base: Any?) -> Any? {
        let p = _progress(at: t)
        if let path, !path._segments.isEmpty {
            guard let s = _pathSample(progress: p, path: path) else { return nil }
            let end = _pathSample(progress: 1, path: path).map { _AnimValue.point($0.point) }
            return _compose(.point(s.point), end: end, iteration: iteration, base: base)
        }
        let vals = _convertedValues()
        guard let first = vals.first else { return nil }
        if vals.count == 1 { return _compose(first, end: first, iteration: iteration, base: base) }
        let v = _value(progress: p, values: vals)
        return _compose(v, end: vals[vals.count - 1], iteration: iteration, base: base)
    }

    /// With `rotationMode` and a `path`: the rotation (radians) the layer should take at
    /// iteration-local time `t` — the path's tangent angle, + π for `rotateAutoReverse`. The
    /// integration sets it as `transform.rotation.z`. Nil without a path or a rotation mode.
    package func _rotationAngle(at t: CFTimeInterval) -> Double? {
        guard let mode = rotationMode, let path, !path._segments.isEmpty else { return nil }
        guard let s = _pathSample(progress: _progress(at: t), path: path) else { return nil }
        return mode == .rotateAutoReverse ? s.angle + .pi : s.angle
    }

    var _isPaced: Bool { calculationMode == .paced || calculationMode == .cubicPaced }
    var _isCubic: Bool { calculationMode == .cubic || calculationMode == .cubicPaced }

    /// The key times actually used for `n` keyframes (see the rules above).
    package func _effectiveKeyTimes(count n: Int, distances: [Double]? = nil) -> [Double] {
        if _isPaced, let d = distances {
            let clean = d.map { $0.isFinite && $0 > 0 ? $0 : 0 }
            let total = clean.reduce(0, +)
            if total > 0 {
                var acc = 0.0
                return [0] + clean.map { acc += $0; return acc / total }
            }
        }
        let discrete = calculationMode == .discrete
        let even = (0..<n).map { discrete ? Double($0) / Double(n) : (n > 1 ? Double($0) / Double(n - 1) : 0) }
        guard !_isPaced, let kt = keyTimes?.map(\.doubleValue) else { return even }
        let countOK = discrete ? (kt.count == n || kt.count == n + 1) : kt.count == n
        guard countOK, kt.first == 0, kt.allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= 1 }),
              zip(kt, kt.dropFirst()).allSatisfy({ $0 <= $1 }) else { return even }
        if !discrete && kt.last != 1 { return even }
        return Array(kt.prefix(n))
    }

    /// Segment index and eased local fraction for progress `p` over key times `k` (n ≥ 2).
    func _segment(_ p: Double, _ k: [Double], ease: Bool) -> (Int, Double) {
        let n = k.count
        var i = 0
        if p >= k[n - 1] { i = n - 2 } else { while i < n - 2 && p >= k[i + 1] { i += 1 } }
        let span = k[i + 1] - k[i]
        var u = span > 0 ? (p - k[i]) / span : 1
        if ease, !_isPaced, let fs = timingFunctions, i < fs.count { u = fs[i]._solve(u) }
        return (i, u)
    }

    func _value(progress p: Double, values v: [_AnimValue]) -> _AnimValue {
        let n = v.count
        let k: [Double]
        if _isPaced {
            k = _effectiveKeyTimes(count: n, distances: zip(v, v.dropFirst()).map { $0.distance(to: $1) })
        } else {
            k = _cachedKeyTimes(count: n)
        }
        if calculationMode == .discrete {
            var i = 0
            while i < n - 1 && p >= k[i + 1] { i += 1 }
            return v[p >= 1 ? n - 1 : i]
        }
        let (i, u) = _segment(p, k, ease: true)
        if _isCubic, let vecs = _vectors(v) {
            return v[i]._withVector(_kochanekBartels(vecs, i, u))
        }
        return _AnimValue.interpolate(v[i], v[i + 1], u)
    }

    /// Component vectors when every value is vector-like with the same dimension.
    func _vectors(_ v: [_AnimValue]) -> [[Double]]? {
        let vs = v.compactMap(\._vector)
        guard vs.count == v.count, let d = vs.first?.count, vs.allSatisfy({ $0.count == d }) else { return nil }
        return vs
    }

    func _tcb(_ a: [NSNumber]?, _ i: Int) -> Double {
        guard let a, i < a.count else { return 0 }
        let x = a[i].doubleValue
        return x.isFinite ? x : 0
    }

    /// The Kochanek–Bartels spline between keyframes i and i+1 at local u.
    package func _kochanekBartels(_ pts: [[Double]], _ i: Int, _ u: Double) -> [Double] {
        let n = pts.count
        func P(_ j: Int) -> [Double] { pts[min(max(j, 0), n - 1)] }
        func outgoing(_ j: Int) -> [Double] {
            let (t, c, b) = (_tcb(tensionValues, j), _tcb(continuityValues, j), _tcb(biasValues, j))
            let a1 = (1 - t) * (1 + b) * (1 + c) / 2, a2 = (1 - t) * (1 - b) * (1 - c) / 2
            return (0..<P(j).count).map { a1 * (P(j)[$0] - P(j - 1)[$0]) + a2 * (P(j + 1)[$0] - P(j)[$0]) }
        }
        func incoming(_ j: Int) -> [Double] {
            let (t, c, b) = (_tcb(tensionValues, j), _tcb(continuityValues, j), _tcb(biasValues, j))
            let a1 = (1 - t) * (1 + b) * (1 - c) / 2, a2 = (1 - t) * (1 - b) * (1 + c) / 2
            return (0..<P(j).count).map { a1 * (P(j)[$0] - P(j - 1)[$0]) + a2 * (P(j + 1)[$0] - P(j)[$0]) }
        }
        let d0 = outgoing(i), s1 = incoming(i + 1)
        let u2 = u * u, u3 = u2 * u
        let h00 = 2 * u3 - 3 * u2 + 1, h10 = u3 - 2 * u2 + u, h01 = -2 * u3 + 3 * u2, h11 = u3 - u2
        return (0..<P(i).count).map { h00 * P(i)[$0] + h10 * d0[$0] + h01 * P(i + 1)[$0] + h11 * s1[$0] }
    }

    /// Position and tangent angle along `path` at progress `p`.
    package func _pathSample(progress p: Double, path: CGPath) -> (point: CGPoint, angle: Double)? {
        let segs = path._segments
        guard !segs.isEmpty else { return nil }
        if _isPaced { return path._sample(atArcLength: min(max(p, 0), 1) * path._length) }
        let n = segs.count + 1
        let k = _cachedKeyTimes(count: n)
        if calculationMode == .discrete {
            var i = 0
            while i < n - 1 && p >= k[i + 1] { i += 1 }
            if p >= 1 { i = n - 1 }
            let pt = i == 0 ? segs[0].p0 : segs[i - 1].p3
            let tan = segs[max(i - 1, 0)].tangent(at: i == 0 ? 0 : 1)
            return (pt, atan2(Double(tan.y), Double(tan.x)))
        }
        let (i, u0) = _segment(p, k, ease: true)
        let u = min(max(u0, 0), 1)
        let tan = segs[i].tangent(at: u)
        return (segs[i].point(at: u), atan2(Double(tan.y), Double(tan.x)))
    }
}

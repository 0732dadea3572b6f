import Foundation
import Flipbook

/// Lottie's own interpolation: the value of an animated property at a frame, as After Effects
/// (and lottie-web, ThorVG) compute it. The mapper uses it where a Core Animation keyframe
/// animation cannot carry the file's curve (spatial paths, clipped segments, time remapping,
/// paths computed at presentation time) and to read a property's value at the timeline's ends.
///
/// Segment `k → k+1` (frames `t₀ < t₁`), frame `f ∈ [t₀, t₁)`:
///
///     u = (f − t₀) / (t₁ − t₀)
///     y = B(u)       B: the cubic timing curve with P1 = o (keyframe k's out handle),
///                    P2 = i (its in handle), per dimension when the file gives one per
///                    dimension; linear when absent. x handles are clamped to [0, 1], y free.
///     value = v₀ + (v₁ − v₀)·y
///
/// A hold keyframe (`h: 1`) keeps `v₀` until `t₁`. Before the first keyframe the first value
/// holds, after the last the last. A segment with spatial tangents (`to`, `ti`; positions)
/// moves along the cubic `v₀, v₀ + to, v₁ + ti, v₁` by **arc length**: `y` is the fraction of
/// the curve's length travelled (as After Effects does), not the Bézier parameter.
/// The timing curve is solved by ``CAMediaTimingFunction``'s solver, so a segment handed to Core
/// Animation as a timing function and one evaluated here give the same value.
extension LottieKeyframe {
    /// The eased progress of the segment starting at this keyframe, at linear fraction `u`, for
    /// dimension `d`.
    package func easedProgress(_ u: Double, dimension d: Int) -> Double {
        if hold { return 0 }
        guard let f = timingFunction(dimension: d) else { return u }
        return f._solve(u)
    }

    /// The segment's timing function for dimension `d` (nil: linear, no handles).
    package func timingFunction(dimension d: Int) -> CAMediaTimingFunction? {
        guard !outEase.isEmpty, !inEase.isEmpty else { return nil }
        let o = outEase[min(d, outEase.count - 1)], i = inEase[min(d, inEase.count - 1)]
        let ox = min(max(o.x, 0), 1), ix = min(max(i.x, 0), 1)
        if ox == o.y && ix == i.y { return nil }   // the linear curve
        return CAMediaTimingFunction(controlPoints: Float(ox), Float(o.y), Float(ix), Float(i.y))
    }

    /// True when the easing differs between dimensions (the file gave arrays that differ).
    package var hasPerDimensionEasing: Bool {
        guard outEase.count > 1 || inEase.count > 1 else { return false }
        let n = max(outEase.count, inEase.count)
        for d in 1..<n {
            if outEase[min(d, outEase.count - 1)] != outEase[0] || inEase[min(d, inEase.count - 1)] != inEase[0] { return true }
        }
        return false
    }

    /// True when this keyframe's segment has non-zero spatial tangents.
    package var hasSpatialTangents: Bool {
        let o = spatialOut ?? [], i = spatialIn ?? []
        return o.contains { $0 != 0 } || i.contains { $0 != 0 }
    }
}

extension LottieAnimated {
    /// The segment holding frame `f`: the index `k` of its first keyframe and the linear
    /// fraction `u`; nil before the first or from the last keyframe on (the value is then the
    /// first's or the last's).
    package func segment(atFrame f: Double) -> (k: Int, u: Double)? {
        let kf = keyframes
        guard kf.count > 1, f > kf[0].time, f < kf[kf.count - 1].time else { return nil }
        // Binary search: the last keyframe with time ≤ f.
        var lo = 0, hi = kf.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if kf[mid].time <= f { lo = mid } else { hi = mid }
        }
        let t0 = kf[lo].time, t1 = kf[lo + 1].time
        return (lo, t1 > t0 ? (f - t0) / (t1 - t0) : 1)
    }
}

extension LottieAnimated where Value == LottieVector {
    /// The value at frame `f` (local frames of the property's layer).
    package func value(atFrame f: Double) -> LottieVector {
        let kf = keyframes
        guard let (k, u) = segment(atFrame: f) else {
            return kf.count > 1 && f >= kf[kf.count - 1].time ? kf[kf.count - 1].value : kf[0].value
        }
        let a = kf[k], b = kf[k + 1]
        if a.hold { return a.value }
        if a.hasSpatialTangents, a.value.count >= 2, b.value.count >= 2 {
            return Self.spatialValue(from: a, to: b, progress: a.easedProgress(u, dimension: 0))
        }
        let n = min(a.value.count, b.value.count)
        var out = a.value
        for d in 0..<n {
            let y = a.easedProgress(u, dimension: d)
            out[d] = a.value[d] + (b.value[d] - a.value[d]) * y
        }
        return out
    }

    /// One dimension of the value at frame `f`.
    package func value(atFrame f: Double, dimension d: Int) -> Double {
        let v = value(atFrame: f)
        return d < v.count ? v[d] : 0
    }

    /// A point along the spatial segment `a → b` at arc-length fraction `p` (extrapolated
    /// linearly along the end tangents when `p` leaves [0, 1], as overshooting easing does).
    static func spatialValue(from a: LottieKeyframe<LottieVector>, to b: LottieKeyframe<LottieVector>, progress p: Double) -> LottieVector {
        let p0 = CGPoint(x: a.value[0], y: a.value[1]), p3 = CGPoint(x: b.value[0], y: b.value[1])
        let to = a.spatialOut ?? [0, 0], ti = a.spatialIn ?? [0, 0]
        let c1 = CGPoint(x: p0.x + (to.count > 0 ? to[0] : 0), y: p0.y + (to.count > 1 ? to[1] : 0))
        let c2 = CGPoint(x: p3.x + (ti.count > 0 ? ti[0] : 0), y: p3.y + (ti.count > 1 ? ti[1] : 0))
        let path = CGMutablePath()
        path.move(to: p0)
        path.addCurve(to: p3, control1: c1, control2: c2)
        let length = path._length
        var out = a.value
        let point: CGPoint
        if length <= 0 { point = p0 }
        else if p <= 0 { point = CGPoint(x: p0.x + (p3.x - p0.x) * p, y: p0.y + (p3.y - p0.y) * p) }
        else if p >= 1 { point = CGPoint(x: p0.x + (p3.x - p0.x) * p, y: p0.y + (p3.y - p0.y) * p) }
        else { point = path._sample(atArcLength: p * length)?.point ?? p0 }
        out[0] = point.x; out[1] = point.y
        // Other dimensions (z) interpolate linearly with the same progress.
        for d in 2..<min(a.value.count, b.value.count) { out[d] = a.value[d] + (b.value[d] - a.value[d]) * p }
        return out
    }
}

extension LottieAnimated where Value == LottieBezier {
    /// The shape at frame `f`: vertices and tangents interpolated with the segment's easing
    /// (dimension 0). Shapes with different vertex counts keep the first's extra vertices.
    package func value(atFrame f: Double) -> LottieBezier {
        let kf = keyframes
        guard let (k, u) = segment(atFrame: f) else {
            return kf.count > 1 && f >= kf[kf.count - 1].time ? kf[kf.count - 1].value : kf[0].value
        }
        let a = kf[k], b = kf[k + 1]
        if a.hold { return a.value }
        return a.value.interpolated(to: b.value, a.easedProgress(u, dimension: 0))
    }
}

extension LottieBezier {
    /// Linear interpolation of every vertex and tangent by `y`.
    package func interpolated(to other: LottieBezier, _ y: Double) -> LottieBezier {
        var out = self
        let n = min(vertices.count, other.vertices.count)
        func mix(_ p: CGPoint, _ q: CGPoint) -> CGPoint { CGPoint(x: p.x + (q.x - p.x) * y, y: p.y + (q.y - p.y) * y) }
        for j in 0..<n {
            out.vertices[j] = mix(vertices[j], other.vertices[j])
            if j < inTangents.count, j < other.inTangents.count { out.inTangents[j] = mix(inTangents[j], other.inTangents[j]) }
            if j < outTangents.count, j < other.outTangents.count { out.outTangents[j] = mix(outTangents[j], other.outTangents[j]) }
        }
        return out
    }

    /// The shape as a `CGPath` (tangents are relative to their vertex), optionally reversed.
    package func cgPath(transform: CGAffineTransform = .identity) -> CGMutablePath {
        let path = CGMutablePath()
        append(to: path, transform: transform)
        return path
    }

    /// Appends the shape as one subpath.
    package func append(to path: CGMutablePath, transform t: CGAffineTransform = .identity) {
        let n = vertices.count
        guard n > 0 else { return }
        func inT(_ j: Int) -> CGPoint { j < inTangents.count ? inTangents[j] : .zero }
        func outT(_ j: Int) -> CGPoint { j < outTangents.count ? outTangents[j] : .zero }
        func add(_ p: CGPoint, _ q: CGPoint) -> CGPoint { CGPoint(x: p.x + q.x, y: p.y + q.y) }
        path.move(to: vertices[0], transform: t)
        let last = closed ? n : n - 1
        for j in 0..<last {
            let k = (j + 1) % n
            let c1 = add(vertices[j], outT(j)), c2 = add(vertices[k], inT(k))
            if outT(j) == .zero && inT(k) == .zero {
                path.addLine(to: vertices[k], transform: t)
            } else {
                path.addCurve(to: vertices[k], control1: c1, control2: c2, transform: t)
            }
        }
        if closed { path.closeSubpath() }
    }
}

import Foundation
import Flipbook

/// Trim paths (`tm`), as lottie-web's `TrimModifier` computes them.
///
/// The trimmed span: `s` and `e` (percent) clamped to 0…100 and divided by 100, the offset
/// `o` (degrees, 360 = one whole length) taken modulo one turn into 0…1 and added to both;
/// then `s > e` swaps them, and both are rounded to 1e-4. `s = e` leaves nothing; the span
/// 0…1 leaves the paths untouched (closed ones stay closed); otherwise:
/// - **simultaneously** (`m: 1`): each shape (all its subpaths together, by arc length) keeps
///   the span; a span past 1 wraps: `[s, 1]` then `[0, e − 1]`, drawn as **one** open path
///   through the end of a closed outline;
/// - **individually** (`m: 2`): the shapes in file order are one sequence (their lengths
///   added) and each keeps its part of the span.
/// Lengths are measured in each shape's own coordinates (before its groups' transforms), as
/// lottie-web does. A cut subpath becomes open (caps, not joins, at the cuts).
enum LottieTrimModifier {
    /// The normalised span at a frame, or nil when the paths are left untouched; an empty
    /// span (`s = e`) is `(0, 0)`.
    static func span(start: Double, end: Double, offset: Double) -> (s: Double, e: Double)? {
        var o = offset.truncatingRemainder(dividingBy: 360) / 360
        if o < 0 { o += 1 }
        if !o.isFinite { o = 0 }
        func clamp(_ v: Double) -> Double { v.isNaN ? 0 : min(max(v / 100, 0), 1) }
        var s = clamp(start) + o, e = clamp(end) + o
        if s > e { swap(&s, &e) }
        s = (s * 10000).rounded() / 10000
        e = (e * 10000).rounded() / 10000
        if e == s { return (0, 0) }
        if (e == 1 && s == 0) || (e == 0 && s == 1) { return nil }
        return (s, e)
    }

    /// Trims `shapes` (each a list of subpaths) in place.
    static func apply(to shapes: inout [[LottieBezier]], start: Double, end: Double, offset: Double, individually: Bool) {
        guard let (s, e) = span(start: start, end: end, offset: offset) else { return }
        if s == e {
            for i in shapes.indices { shapes[i] = [] }
            return
        }
        let measured = shapes.map { $0.map(Measured.init) }
        let lengths = measured.map { $0.reduce(0) { $0 + $1.length } }
        let total = lengths.reduce(0, +)
        var added = 0.0
        for i in shapes.indices {
            let edges: [(Double, Double)]
            if individually && shapes.count > 1 {
                edges = shapeEdges(s, e, length: lengths[i], added: added, total: total)
                added += lengths[i]
            } else {
                edges = [(s, e)]
            }
            var out: [LottieBezier] = []
            for (a, b) in edges {
                out += trim(measured[i], length: lengths[i], from: a, to: b)
            }
            shapes[i] = out
        }
    }

    /// lottie-web's `calculateShapeEdges`: the part of the whole sequence's span `[s, e]`
    /// (fractions of `total`, possibly past 1) that falls on the shape at `added…added+length`,
    /// in fractions of the shape.
    static func shapeEdges(_ s: Double, _ e: Double, length: Double, added: Double, total: Double) -> [(Double, Double)] {
        var spans: [(Double, Double)] = []
        if e <= 1 { spans = [(s, e)] } else if s >= 1 { spans = [(s - 1, e - 1)] } else { spans = [(s, 1), (0, e - 1)] }
        var out: [(Double, Double)] = []
        for (a, b) in spans where !(b * total < added || a * total > added + length) {
            let ss = a * total <= added ? 0 : (a * total - added) / length
            let ee = b * total >= added + length ? 1 : (b * total - added) / length
            out.append((ss, ee))
        }
        return out.isEmpty ? [(0, 0)] : out
    }

    /// One subpath with its segments' length tables.
    struct Measured {
        var bezier: LottieBezier
        var cubics: [LottieCubic]
        var tables: [[Double]]
        var length: Double
        init(_ b: LottieBezier) {
            bezier = b
            cubics = b.cubics
            tables = cubics.map { $0.lengthTable() }
            length = tables.reduce(0) { $0 + ($1.last ?? 0) }
        }
    }

    /// One shape trimmed to `[a, b]` (fractions of its length; `b` may pass 1: wraps).
    static func trim(_ subpaths: [Measured], length: Double, from a: Double, to b: Double) -> [LottieBezier] {
        guard length > 0, b > a else { return [] }
        if b <= 1 { return pieces(subpaths, from: a * length, to: b * length).map(\.bezier) }
        if a >= 1 { return pieces(subpaths, from: (a - 1) * length, to: (b - 1) * length).map(\.bezier) }
        var first = pieces(subpaths, from: a * length, to: length)
        let second = pieces(subpaths, from: 0, to: (b - 1) * length)
        if let lastSub = subpaths.last, lastSub.bezier.closed, let tail = first.last, tail.reachesEnd,
           let head = second.first, head.startsAtStart, subpaths.count == 1 {
            // Through the end of the closed outline: one path.
            first[first.count - 1] = Piece(cubics: tail.cubics + head.cubics, closed: false, startsAtStart: false, reachesEnd: false)
            return first.map(\.bezier) + second.dropFirst().map(\.bezier)
        }
        return first.map(\.bezier) + second.map(\.bezier)
    }

    struct Piece {
        var cubics: [LottieCubic]
        var closed: Bool
        var startsAtStart: Bool
        var reachesEnd: Bool
        var bezier: LottieBezier {
            if closed, let b = original { return b }
            return LottieBezier(openCubics: cubics)
        }
        var original: LottieBezier?
        init(cubics: [LottieCubic], closed: Bool, startsAtStart: Bool, reachesEnd: Bool, original: LottieBezier? = nil) {
            self.cubics = cubics; self.closed = closed; self.startsAtStart = startsAtStart; self.reachesEnd = reachesEnd
            self.original = original
        }
    }

    /// The pieces of the subpaths between arc lengths `s0 ≤ s1` of the whole shape: one per
    /// subpath touched; a subpath wholly inside keeps its bezier (closed stays closed).
    static func pieces(_ subpaths: [Measured], from s0: Double, to s1: Double) -> [Piece] {
        var out: [Piece] = []
        var acc = 0.0
        let noise = 1e-9 * max(1, s1)
        for sub in subpaths {
            let a = acc, b = acc + sub.length
            acc = b
            guard b > s0 || (sub.length == 0 && a >= s0), a < s1 || (sub.length == 0 && a <= s1) else { continue }
            if a >= s0 && b <= s1 {
                out.append(Piece(cubics: sub.cubics, closed: sub.bezier.closed, startsAtStart: true, reachesEnd: true, original: sub.bezier))
                continue
            }
            var cubics: [LottieCubic] = []
            var pos = a
            for (c, table) in zip(sub.cubics, sub.tables) {
                let len = table.last ?? 0
                let x0 = pos, x1 = pos + len
                pos = x1
                let lo = max(s0, x0), hi = min(s1, x1)
                guard hi - lo > noise else { continue }
                let t0 = lo - x0 <= noise ? 0 : LottieCubic.parameter(atLength: lo - x0, table: table)
                let t1 = x1 - hi <= noise ? 1 : LottieCubic.parameter(atLength: hi - x0, table: table)
                cubics.append(c.split(t0, t1))
            }
            if !cubics.isEmpty {
                out.append(Piece(cubics: cubics, closed: false, startsAtStart: s0 <= a + noise, reachesEnd: s1 >= b - noise))
            }
        }
        return out
    }
}

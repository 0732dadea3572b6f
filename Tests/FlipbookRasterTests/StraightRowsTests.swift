import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import FlipbookRaster
import FlipbookTestSupport

/// `StraightRows`: the middle rows of axis-aligned (rounded) rectangles written without the cell
/// sweep must be the rasterizer's own bytes, for any clip and band.
@Suite struct StraightRowsTests {
    /// A rounded rectangle as the compositor builds it: quarter arcs of `n` chords, the straight
    /// sides between them.
    static func roundedRect(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, r: Double, n: Int = 8) -> [RasterPoint] {
        if r == 0 { return [RasterPoint(x0, y0), RasterPoint(x1, y0), RasterPoint(x1, y1), RasterPoint(x0, y1)] }
        var pts: [RasterPoint] = []
        for (cx, cy, a0) in [(x0 + r, y0 + r, Double.pi), (x1 - r, y0 + r, 1.5 * Double.pi),
                             (x1 - r, y1 - r, 0.0), (x0 + r, y1 - r, 0.5 * Double.pi)] {
            for i in 0...n {
                let a = a0 + 0.5 * Double.pi * Double(i) / Double(n)
                pts.append(RasterPoint(cx + r * cos(a), cy + r * sin(a)))
            }
        }
        return pts
    }

    /// With `dense`, into a sink that takes rows whole (the straight rows then come as one
    /// repeated row, the others from the native sweep's dense rows).
    func fill(_ pts: [RasterPoint], clip: RasterClip, straight: Bool, evenOdd: Bool = false, dense: Bool = false) -> CoverageBitmap {
        var p = RasterPath(); p.addPolygon(pts)
        let bm = CoverageBitmap(x: clip.x0, y: clip.y0, width: clip.x1 - clip.x0, height: clip.y1 - clip.y0)
        let r = PathRasterizer()
        let rule: FillRule = evenOdd ? .evenOdd : .nonZero
        let s = straight ? StraightRows(polygon: pts) : nil
        if dense {
            var d = PathRasterizerTests.DenseRows(bitmap: bm)
            r.fill(p, rule: rule, clip: clip, straight: s, into: &d)
            #expect(d.problems.isEmpty, "\(d.problems.prefix(3))")
            return d.bitmap
        }
        var b = bm
        r.fill(p, rule: rule, clip: clip, straight: s, into: &b)
        return b
    }

    @Test func handComputedRectangle() {
        // x from 2.25 to 7.5, y from 1 to 9: rows 1…8 are straight (whole rows inside both sides).
        // column 2: 0.75 → ⌊191.25 + ½⌋ = 191; columns 3…6: 255; column 7: 0.5 → 128 (half up).
        let pts = [RasterPoint(2.25, 1), RasterPoint(7.5, 1), RasterPoint(7.5, 9), RasterPoint(2.25, 9)]
        let s = StraightRows(polygon: pts)
        #expect(s == StraightRows(y0: 1, y1: 9, left: 576, right: 1920, bounds: SIMD4(2.25, 1, 7.5, 9)))
        let bm = fill(pts, clip: RasterClip(width: 12, height: 12), straight: true)
        for y in 1..<9 {
            #expect(bm[1, y] == 0 && bm[2, y] == 191 && bm[3, y] == 255 && bm[6, y] == 255 && bm[7, y] == 128 && bm[8, y] == 0)
        }
        #expect(bm[3, 0] == 0 && bm[3, 9] == 0)
        // both sides in one column: 2.25 … 2.75 → 0.5 → 128
        let thin = [RasterPoint(2.25, 1), RasterPoint(2.75, 1), RasterPoint(2.75, 9), RasterPoint(2.25, 9)]
        let t = fill(thin, clip: RasterClip(width: 12, height: 12), straight: true)
        #expect(t[2, 4] == 128 && t[1, 4] == 0 && t[3, 4] == 0)
    }

    @Test func noStraightRows() {
        // a rotated square, a triangle, a rectangle less than a row tall
        #expect(StraightRows(polygon: [RasterPoint(5, 0), RasterPoint(10, 5), RasterPoint(5, 10), RasterPoint(0, 5)]) == nil)
        #expect(StraightRows(polygon: [RasterPoint(0, 0), RasterPoint(4, 0), RasterPoint(0, 4)]) == nil)
        #expect(StraightRows(polygon: [RasterPoint(0, 0.2), RasterPoint(4, 0.2), RasterPoint(4, 1.1), RasterPoint(0, 1.1)]) == nil)
    }

    @Test func sameBytesAsTheSweepForRandomRoundedRectsBandsAndClips() {
        var rng = SplitMix64(seed: 12)
        for k in 0..<300 {
            let w = 2 + 50 * rng.unit(), h = 2 + 50 * rng.unit()
            let x0 = -8 + 70 * rng.unit(), y0 = -8 + 70 * rng.unit()
            let r = k % 5 == 0 ? 0 : min(min(w, h) / 2, 12 * rng.unit())
            let pts = Self.roundedRect(x0, y0, x0 + w, y0 + h, r: r, n: 1 + k % 9)
            let reversed = k % 3 == 0 ? Array(pts.reversed()) : pts
            let clips = [RasterClip(width: 80, height: 80), RasterClip(x0: 0, y0: 16, x1: 80, y1: 32),
                         RasterClip(x0: 5 + k % 7, y0: 3 + k % 11, x1: 40 + k % 13, y1: 20 + k % 17),
                         RasterClip(x0: 0, y0: 48, x1: 80, y1: 64)]
            for clip in clips {
                let a = fill(reversed, clip: clip, straight: false, evenOdd: k % 2 == 1)
                let b = fill(reversed, clip: clip, straight: true, evenOdd: k % 2 == 1)
                let c = fill(reversed, clip: clip, straight: true, evenOdd: k % 2 == 1, dense: true)
                #expect(a.bytes == b.bytes, "shape \(k) clip \(clip)")
                #expect(a.bytes == c.bytes, "shape \(k) clip \(clip), dense rows")
            }
        }
    }

    @Test func theBufferStaysClean() {
        // A wrong StraightRows (rows the corners cross) must not leave cells behind for the next
        // shape; the next fill is checked against a fresh rasterizer.
        let r = PathRasterizer()
        var p = RasterPath(); p.addPolygon(Self.roundedRect(3.3, 2.7, 40.2, 30.9, r: 6))
        var bm = CoverageBitmap(width: 64, height: 64)
        r.fill(p, clip: RasterClip(width: 64, height: 64), straight: StraightRows(y0: 0, y1: 40, left: 800, right: 10_000), into: &bm)
        var q = RasterPath(); q.addPolygon([RasterPoint(1.5, 1.5), RasterPoint(50.25, 3), RasterPoint(20, 60.5)])
        var a = CoverageBitmap(width: 64, height: 64), b = CoverageBitmap(width: 64, height: 64)
        r.fill(q, clip: RasterClip(width: 64, height: 64), into: &a)
        PathRasterizer().fill(q, clip: RasterClip(width: 64, height: 64), into: &b)
        #expect(a.bytes == b.bytes)
    }
}


/// `PathRasterizer.fill(_:rule:clip:bounds:into:)`: the caller's bounds (exact or larger) give
/// the plain fill's bytes.
@Suite struct KnownBoundsFillTests {
    @Test func sameBytesAsThePlainFill() {
        var rng = SplitMix64(seed: 7)
        for k in 0..<100 {
            var p = RasterPath()
            p.move(to: RasterPoint(70 * rng.unit(), 70 * rng.unit()))
            for _ in 0..<3 {
                p.cubic(to: RasterPoint(70 * rng.unit(), 70 * rng.unit()), control1: RasterPoint(70 * rng.unit(), 70 * rng.unit()),
                        control2: RasterPoint(70 * rng.unit(), 70 * rng.unit()))
            }
            p.close()
            var b = SIMD4<Double>(.infinity, .infinity, -.infinity, -.infinity)
            for q in p.points { b = SIMD4(min(b.x, q.x), min(b.y, q.y), max(b.z, q.x), max(b.w, q.y)) }
            let clip = k % 2 == 0 ? RasterClip(width: 64, height: 64) : RasterClip(x0: 3, y0: 10 + k % 20, x1: 50, y1: 40)
            let rule: FillRule = k % 3 == 0 ? .evenOdd : .nonZero
            let r = PathRasterizer()
            var a = CoverageBitmap(x: clip.x0, y: clip.y0, width: clip.x1 - clip.x0, height: clip.y1 - clip.y0)
            var c = a, d = a
            r.fill(p, rule: rule, clip: clip, into: &a)
            r.fill(p, rule: rule, clip: clip, bounds: b, into: &c)
            r.fill(p, rule: rule, clip: clip, bounds: b + SIMD4(-5.5, -3, 9, 2.25), into: &d)
            #expect(a.bytes == c.bytes && a.bytes == d.bytes, "path \(k)")
        }
    }
}

/// `PathRasterizer.fill` of a `FixedPolygon` (the compositor's layer outlines, converted once)
/// with and without its `StraightRows`: the bytes of the polygon's path fill, for any band and
/// clip, and `StraightRows(_:)` of the fixed points equals `StraightRows(polygon:)`.
@Suite struct FixedPolygonFillTests {
    @Test func sameBytesAsThePathFill() {
        var rng = SplitMix64(seed: 31)
        for k in 0..<300 {
            let pts: [RasterPoint]
            if k % 4 == 3 {                                   // a random star-ish polygon
                pts = (0..<(3 + k % 9)).map { _ in RasterPoint(-10 + 90 * rng.unit(), -10 + 90 * rng.unit()) }
            } else {
                let w = 2 + 50 * rng.unit(), h = 2 + 50 * rng.unit()
                let x0 = -8 + 70 * rng.unit(), y0 = -8 + 70 * rng.unit()
                let r = k % 5 == 0 ? 0 : min(min(w, h) / 2, 12 * rng.unit())
                let rr = StraightRowsTests.roundedRect(x0, y0, x0 + w, y0 + h, r: r, n: 1 + k % 9)
                pts = k % 3 == 0 ? Array(rr.reversed()) : rr
            }
            guard let poly = FixedPolygon(polygon: pts) else { Issue.record("shape \(k)"); continue }
            let straight = StraightRows(polygon: pts)
            #expect(StraightRows(poly) == straight, "shape \(k)")
            let rule: FillRule = k % 2 == 1 ? .evenOdd : .nonZero
            for clip in [RasterClip(width: 80, height: 80), RasterClip(x0: 0, y0: 16, x1: 80, y1: 32),
                         RasterClip(x0: 5 + k % 7, y0: 3 + k % 11, x1: 40 + k % 13, y1: 20 + k % 17),
                         RasterClip(x0: 0, y0: 48, x1: 80, y1: 64)] {
                let bm = CoverageBitmap(x: clip.x0, y: clip.y0, width: clip.x1 - clip.x0, height: clip.y1 - clip.y0)
                var a = bm, b = bm, c = bm
                PathRasterizer().fill(RasterPath(polygon: pts), rule: rule, clip: clip, into: &a)
                let r = PathRasterizer()
                r.fill(poly, rule: rule, clip: clip, straight: nil, into: &b)
                r.fill(poly, rule: rule, clip: clip, straight: straight, into: &c)
                #expect(a.bytes == b.bytes, "shape \(k) clip \(clip)")
                #expect(a.bytes == c.bytes, "shape \(k) clip \(clip) straight")
            }
        }
        #expect(FixedPolygon(polygon: [RasterPoint(0, 0), RasterPoint(1, .nan), RasterPoint(2, 0)]) == nil)
        #expect(FixedPolygon(polygon: [RasterPoint(0, 0), RasterPoint(1, 1)]) == nil)
    }
}

/// The sweep's spans: a `coverageSpan` never starts or ends with a 0 byte (the sink contract; the
/// sweep trims the zero ends of a run 8 bytes at a time), spans of a row are increasing and do not
/// overlap, and they paint the same bytes as a dense reference of the same fill — for shapes whose
/// runs end at every position inside a group of 8 and at the clip's right edge.
@Suite struct SweepSpanTrimTests {
    struct Checker: CoverageSink {
        var bitmap: CoverageBitmap
        var lastY = Int.min, lastEnd = Int.min, bad = 0
        mutating func coverageSpan(y: Int, x: Int, coverage: UnsafeBufferPointer<UInt8>) {
            if coverage.isEmpty || coverage.first == 0 || coverage.last == 0 { bad += 1 }
            order(y, x, x + coverage.count)
            bitmap.coverageSpan(y: y, x: x, coverage: coverage)
        }
        mutating func constantSpan(y: Int, x: Int, count: Int, coverage: UInt8) {
            if count <= 0 || coverage == 0 { bad += 1 }
            order(y, x, x + count)
            bitmap.constantSpan(y: y, x: x, count: count, coverage: coverage)
        }
        mutating func order(_ y: Int, _ x0: Int, _ x1: Int) {
            if y == lastY && x0 < lastEnd { bad += 1 }
            if y < lastY { bad += 1 }
            lastY = y; lastEnd = x1
        }
    }

    @Test func spansAreTrimmedAndExact() {
        var rng = SplitMix64(seed: 77)
        for k in 0..<400 {
            var p = RasterPath()
            let n = 3 + k % 6
            // thin slivers and small polygons: many runs whose zero ends vary
            let cx = 40 * rng.unit(), cy = 40 * rng.unit()
            p.move(to: cx, cy)
            for _ in 1..<n { p.line(to: cx + 30 * rng.unit() - 5, cy + 30 * rng.unit() - 5) }
            p.close()
            if k % 3 == 0 { p.addEllipse(cx: 20 + 10 * rng.unit(), cy: 20, rx: 0.3 + 3 * rng.unit(), ry: 8) }
            let clip = k % 2 == 0 ? RasterClip(width: 48, height: 48) : RasterClip(x0: 3 + k % 5, y0: 0, x1: 20 + k % 23, y1: 48)
            let rule: FillRule = k % 4 == 1 ? .evenOdd : .nonZero
            var c = Checker(bitmap: CoverageBitmap(x: clip.x0, y: clip.y0, width: clip.x1 - clip.x0, height: clip.y1 - clip.y0))
            PathRasterizer().fill(p, rule: rule, clip: clip, into: &c)
            #expect(c.bad == 0, "shape \(k)")
            // reference: the same fill through a dense mask sink
            var ref = [UInt8](repeating: 0, count: (clip.x1 - clip.x0) * (clip.y1 - clip.y0))
            ref.withUnsafeMutableBufferPointer { b in
                var ms = CoverageMaskSink(base: b.baseAddress!, x0: clip.x0, y0: clip.y0, width: clip.x1 - clip.x0)
                PathRasterizer().fill(p, rule: rule, clip: clip, into: &ms)
            }
            #expect(c.bitmap.bytes == ref, "shape \(k)")
        }
    }
}

/// `PathRasterizer.fill` of a `FixedPath` (a path flattened once into fixed point) gives the bytes
/// of the path fill, for any band and clip, both rules, curves and several subpaths, and through
/// a transform.
@Suite struct FixedPathFillTests {
    @Test func sameBytesAsThePathFill() {
        var rng = SplitMix64(seed: 99)
        var fixed = FixedPath()                                  // reused: capacity kept
        for k in 0..<200 {
            var p = RasterPath()
            for _ in 0..<(1 + k % 3) {                            // 1–3 subpaths, some left open
                p.move(to: 70 * rng.unit() - 5, 70 * rng.unit() - 5)
                for j in 0..<(1 + k % 4) {
                    let a = RasterPoint(70 * rng.unit() - 5, 70 * rng.unit() - 5)
                    switch (j + k) % 3 {
                    case 0: p.line(to: a)
                    case 1: p.quad(to: a, control: RasterPoint(70 * rng.unit(), 70 * rng.unit()))
                    default: p.cubic(to: a, control1: RasterPoint(70 * rng.unit(), 70 * rng.unit()),
                                     control2: RasterPoint(70 * rng.unit(), 70 * rng.unit()))
                    }
                }
                if k % 2 == 0 { p.close() }
            }
            if k % 5 == 0 { p.addEllipse(cx: 30, cy: 30, rx: 3 + 20 * rng.unit(), ry: 3 + 20 * rng.unit()) }
            let t: RasterTransform = k % 4 == 3 ? RasterTransform.rotation(0.3).concatenating(.translation(10, -4)) : .identity
            let ok = fixed.set(p, transform: t)
            #expect(ok)
            let rule: FillRule = k % 3 == 1 ? .evenOdd : .nonZero
            for clip in [RasterClip(width: 80, height: 80), RasterClip(x0: 0, y0: 16, x1: 80, y1: 32),
                         RasterClip(x0: 5 + k % 7, y0: 3 + k % 11, x1: 40 + k % 13, y1: 20 + k % 17)] {
                let empty = CoverageBitmap(x: clip.x0, y: clip.y0, width: clip.x1 - clip.x0, height: clip.y1 - clip.y0)
                var a = empty, b = empty
                PathRasterizer().fill(p, rule: rule, transform: t, clip: clip, into: &a)
                PathRasterizer().fill(fixed, rule: rule, clip: clip, into: &b)
                #expect(a.bytes == b.bytes, "path \(k) clip \(clip)")
            }
        }
        var bad = RasterPath(); bad.move(to: 0, 0); bad.line(to: .infinity, 3); bad.line(to: 2, 5)
        let ok = fixed.set(bad)
        #expect(!ok && fixed.isEmpty)
    }
}

import Testing
import FlipbookPixels
import FlipbookTestSupport
@testable import FlipbookRaster

/// `SolidColorSink`: what it paints on the native backend — swept and painted in one pass
/// (AVX-512), or as dense rows — is the bytes of the span-by-span painting, and all are
/// source-over of the colour scaled by the coverage.
@Suite struct SolidColorSinkTests {
    /// The same painting, spans only (`prefersDenseRows` false).
    struct SpansOnly: CoverageSink {
        var inner: SolidColorSink
        mutating func coverageSpan(y: Int, x: Int, coverage: UnsafeBufferPointer<UInt8>) { inner.coverageSpan(y: y, x: x, coverage: coverage) }
        mutating func constantSpan(y: Int, x: Int, count: Int, coverage: UInt8) { inner.constantSpan(y: y, x: x, count: count, coverage: coverage) }
    }

    /// The same painting as dense rows (no painting during the sweep).
    struct RowsOnly: CoverageSink {
        var inner: SolidColorSink
        mutating func coverageSpan(y: Int, x: Int, coverage: UnsafeBufferPointer<UInt8>) { inner.coverageSpan(y: y, x: x, coverage: coverage) }
        mutating func constantSpan(y: Int, x: Int, count: Int, coverage: UInt8) { inner.constantSpan(y: y, x: x, count: count, coverage: coverage) }
        static var prefersDenseRows: Bool { true }
        mutating func denseRows(y: Int, count: Int, x: Int, starts: UnsafePointer<Int>, counts: UnsafePointer<Int>,
                                coverage: UnsafePointer<UInt8>, stride: Int) {
            inner.denseRows(y: y, count: count, x: x, starts: starts, counts: counts, coverage: coverage, stride: stride)
        }
    }

    static func canvas(_ w: Int, _ h: Int, seed: UInt64) -> [UInt32] {
        var rng = SplitMix64(seed: seed)
        return (0..<(w * h)).map { _ in
            let a = UInt32(rng.next() % 256), c = { UInt32(rng.next() % UInt64(a + 1)) }
            return c() | c() << 8 | c() << 16 | a << 24            // premultiplied
        }
    }

    /// Random curved paths and grid polygons, wide and narrow, clipped, both fill rules, random
    /// colours (alpha 0–255) over a random premultiplied canvas: the sink as it is, dense rows,
    /// spans — the same bytes.
    @Test func denseRowsPaintTheSpansBytes() {
        var rng = SplitMix64(seed: 2026_1127)
        let r = PathRasterizer()
        r.backend = .native
        var failures: [String] = []
        for trial in 0..<80 {
            let p = trial % 2 == 0 ? PathRasterizerTests.randomPath(&rng) : PathRasterizerTests.randomGridPolygon(&rng, steps: 4)
            let sx = 1 + Double(rng.next() % 6)
            let t = RasterTransform(a: sx, b: 0, c: 0, d: 1, tx: 0, ty: 0)
            let W = Int(160 * sx) + 40, H = 140
            let clip = trial % 3 == 0 ? RasterClip(width: W, height: H)
                : RasterClip(x0: Int(rng.next() % UInt64(W / 2)), y0: Int(rng.next() % 60),
                             x1: W / 2 + Int(rng.next() % UInt64(W / 2)), y1: 70 + Int(rng.next() % 70))
            let a = UInt8(rng.next() % 256)
            let color = RGBA8(straightR: UInt8(rng.next() % 256), g: UInt8(rng.next() % 256), b: UInt8(rng.next() % 256), a: a)
            let rule: FillRule = trial % 4 < 2 ? .nonZero : .evenOdd
            var dense = Self.canvas(W, H, seed: UInt64(trial)), spans = dense, rows = dense
            dense.withUnsafeMutableBufferPointer { d in
                var sink = SolidColorSink(pixels: d.baseAddress!, rowStride: W, color: color)
                r.fill(p, rule: rule, transform: t, clip: clip, into: &sink)
            }
            spans.withUnsafeMutableBufferPointer { d in
                var sink = SpansOnly(inner: SolidColorSink(pixels: d.baseAddress!, rowStride: W, color: color))
                r.fill(p, rule: rule, transform: t, clip: clip, into: &sink)
            }
            rows.withUnsafeMutableBufferPointer { d in
                var sink = RowsOnly(inner: SolidColorSink(pixels: d.baseAddress!, rowStride: W, color: color))
                r.fill(p, rule: rule, transform: t, clip: clip, into: &sink)
            }
            if dense != spans || rows != spans { failures.append("trial \(trial) \(rule) alpha \(a): \(dense == spans) \(rows == spans)") }
        }
        #expect(failures.isEmpty, "\(failures.prefix(6))")
    }

    /// A pixel-aligned square: inside, the colour over the canvas (here opaque white under
    /// half-transparent red: 255 · (1 − 128/255) + 128 → 255, 127, 127); outside, untouched;
    /// on a half-covered edge column, the colour at coverage 128.
    @Test func paintsTheColourOverTheCanvas() {
        var path = RasterPath()
        path.move(to: RasterPoint(2, 2)); path.line(to: RasterPoint(6.5, 2)); path.line(to: RasterPoint(6.5, 6))
        path.line(to: RasterPoint(2, 6)); path.close()
        var px = [UInt32](repeating: 0xFFFF_FFFF, count: 10 * 8)
        px.withUnsafeMutableBufferPointer { d in
            var sink = SolidColorSink(pixels: d.baseAddress!, rowStride: 10, color: RGBA8(r: 128, g: 0, b: 0, a: 128))
            PathRasterizer().fill(path, rule: .nonZero, clip: RasterClip(width: 10, height: 8), into: &sink)
        }
        let inside = RGBA8(packed: px[3 * 10 + 3]), edge = RGBA8(packed: px[3 * 10 + 6]), outside = RGBA8(packed: px[3 * 10 + 8])
        #expect([inside.r, inside.g, inside.b, inside.a] == [255, 127, 127, 255])
        #expect(outside.packed == 0xFFFF_FFFF && RGBA8(packed: px[1 * 10 + 3]).packed == 0xFFFF_FFFF)
        // coverage 128: s' = (64, 0, 0, 64), d' = s' + div255(255 · 191) = 64 + 191
        #expect([edge.r, edge.g, edge.b, edge.a] == [255, 191, 191, 255])
    }
}

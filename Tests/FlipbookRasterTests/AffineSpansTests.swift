import CFlipbookKernels
import Foundation
import Testing
@testable import FlipbookRaster
import FlipbookTestSupport

/// `ImageSampler.drawAffineSpans` (`fbk_affine_spans_avx512` / `_avx2`, or the portable loop):
/// several spans of one image in one call must give the bytes of one `drawAffineSpan` per span —
/// random textures (1×1 to 41×29, padded strides), both filters and edges, opacities, random
/// coverage, spans of 0...49 pixels at random starts and sampling points, the destination bytes
/// around each span untouched.
@Suite struct AffineSpansTests {
    /// With `avx2`, the batch side calls `fbk_affine_spans_avx2` itself (the library picks the
    /// AVX-512 build where the CPU has it; the AVX2 build must give the same bytes).
    static func check(_ backend: RasterBackend, seed: UInt64, avx2: Bool = false) -> [String] {
        var rng = SplitMix64(seed: seed)
        var failures: [String] = []
        let rows = 9, width = 90
        for (ti, t) in AffineAVX512TwinTests.textures(&rng).enumerated() {
            t.texels.withUnsafeBufferPointer { tp in
                let image = RasterImage(pixels: tp.baseAddress!, width: t.w, height: t.h, bytesPerRow: t.stride * 4)
                for trial in 0..<8 {
                    let filter: SampleFilter = trial % 2 == 0 ? .bilinear : .nearest
                    let edge: EdgeMode = trial % 4 < 2 ? .decal : .clamp
                    let opacity: UInt8 = [255, 204, 77, 1][trial % 4]
                    let map = AffineAVX512TwinTests.randomMap(&rng, t, kind: trial + ti)
                    let spans: [(x0: Int, n: Int, u: Int64, v: Int64)] = (0..<rows).map { _ in
                        let m = AffineAVX512TwinTests.randomMap(&rng, t, kind: trial + ti)
                        return (Int(rng.next() % 30), Int(rng.next() % 50), m.u, m.v)
                    }
                    let before = (0..<(rows * width)).map { _ in rng.premultiplied() }
                    let cov = (0..<(rows * width)).map { _ in rng.coverage() }
                    var one = before, all = before
                    cov.withUnsafeBufferPointer { cp in
                        one.withUnsafeMutableBufferPointer { dp in
                            for (r, s) in spans.enumerated() {
                                let start = AffineRowStart(u: s.u &- Int64(s.x0) &* map.du, v: s.v &- Int64(s.x0) &* map.dv,
                                                           du: map.du, dv: map.dv)
                                ImageSampler.drawAffineSpan(row: dp.baseAddress! + r * width, start: start, x0: s.x0, x1: s.x0 + s.n,
                                                            image: image, filter: filter, edge: edge, opacity: opacity,
                                                            coverage: cp.baseAddress! + r * width + s.x0, backend: backend)
                            }
                        }
                        all.withUnsafeMutableBufferPointer { dp in
                            let list = spans.enumerated().map { r, s in
                                fbk_affine_span(dst: dp.baseAddress! + r * width + s.x0, n: s.n, u: s.u, v: s.v,
                                                mask: cp.baseAddress! + r * width + s.x0)
                            }
                            if avx2 {
                                var img = image._c
                                fbk_affine_spans_avx2(list, list.count, &img, map.du, map.dv, filter == .bilinear ? 1 : 0,
                                                      edge == .clamp ? 1 : 0, UInt32(opacity))
                            } else {
                                ImageSampler.drawAffineSpans(list, count: list.count, du: map.du, dv: map.dv, image: image,
                                                             filter: filter, edge: edge, opacity: opacity, backend: backend)
                            }
                        }
                    }
                    if one != all { failures.append("texture \(t.w)×\(t.h) trial \(trial) \(filter) \(edge) opacity \(opacity)") }
                }
            }
        }
        return failures
    }

    @Test(.enabled(if: RasterBackend.nativeAvailable))
    func nativeSpansInOneCallEqualOneCallEach() {
        let f = Self.check(.native, seed: 41)
        #expect(f.isEmpty, "\(f.prefix(4))")
    }

    @Test(.enabled(if: RasterBackend.nativeAvailable))
    func avx2SpansInOneCallEqualOneCallEach() {
        let f = Self.check(.native, seed: 43, avx2: true)
        #expect(f.isEmpty, "\(f.prefix(4))")
    }

    @Test func portableSpansInOneCallEqualOneCallEach() {
        let f = Self.check(.portable, seed: 42)
        #expect(f.isEmpty, "\(f.prefix(4))")
    }

    /// `ImageSampler.drawAffineRowsAVX512` (`fbk_affine_rows_avx512`: each row's start computed
    /// in the kernel) against the Swift rows it replaces: `affineRows`, then `drawAffineSpan` of
    /// each row's span with its coverage (clamped edges). Random inverses — rotations with scale
    /// about a point near the image, translations whose rows cross the 2^28-texel limit, a NaN —
    /// chunks of more than 64 rows, rows left of column 0 and empty rows.
    @Test(.enabled(if: RasterBackend.avx512Available, "needs AVX-512BW"))
    func rowKernelEqualsTheSwiftRows() {
        var rng = SplitMix64(seed: 2026_11_27_3)
        var failures: [String] = []
        var compared = 0, drawn = 0
        let width = 120
        for (ti, t) in AffineAVX512TwinTests.textures(&rng).enumerated() {
            t.texels.withUnsafeBufferPointer { tp in
                let image = RasterImage(pixels: tp.baseAddress!, width: t.w, height: t.h, bytesPerRow: t.stride * 4)
                for trial in 0..<12 {
                    let filter: SampleFilter = trial % 3 == 2 ? .nearest : .bilinear
                    let opacity: UInt8 = [255, 204, 77, 1][trial % 4]
                    let n = 1 + Int(rng.next() % 90), y = Int(rng.next() % 2_000) - 40, x = Int(rng.next() % 40) - 10
                    let angle = rng.unit() * 6.3, k = 0.3 + rng.unit() * 2
                    let (ca, sa) = (cos(angle) / k, sin(angle) / k)
                    var inv = AffineInverse(a: ca, b: -sa, c: rng.unit() * 60 - 30 + Double(y) * sa,
                                            d: sa, e: ca, f: rng.unit() * 60 - 30 - Double(y) * ca)
                    if trial % 6 == 4 { inv.c = Double(1 << 28) - Double(y) * inv.b - Double(n / 2) }    // rows cross the limit
                    if trial % 12 == 11 { inv.f = .nan }
                    guard let setup = ImageSampler._rowSetup(inv, filter: filter) else { continue }
                    let starts = (0..<n).map { _ in Int(rng.next() % 50) }
                    let counts = (0..<n).map { i in i % 7 == 3 ? 0 : Int(rng.next() % 60) }
                    let cov = (0..<(n * width)).map { _ in rng.coverage() }
                    let before = (0..<(n * width)).map { _ in rng.premultiplied() }
                    var swift = before, kernel = before
                    cov.withUnsafeBufferPointer { cp in
                        var rowStarts = [AffineRowStart?](repeating: nil, count: n)
                        rowStarts.withUnsafeMutableBufferPointer {
                            ImageSampler.affineRows(y0: y, y1: y + n, inverse: inv, filter: filter, into: $0.baseAddress!)
                        }
                        swift.withUnsafeMutableBufferPointer { dp in
                            for i in 0..<n where counts[i] > 0 {
                                guard let start = rowStarts[i] else { continue }
                                let x0 = x + starts[i]
                                ImageSampler.drawAffineSpan(row: dp.baseAddress! + i * width, start: start, x0: x0,
                                                            x1: x0 + counts[i], image: image, filter: filter, edge: .clamp,
                                                            opacity: opacity, coverage: cp.baseAddress! + i * width + starts[i],
                                                            backend: .native)
                            }
                        }
                        kernel.withUnsafeMutableBufferPointer { dp in
                            starts.withUnsafeBufferPointer { sp in
                                counts.withUnsafeBufferPointer { np in
                                    var args = fbk_affine_rows(dst: dp.baseAddress!, dst_stride: width, y: y, n: n, x: x,
                                                               starts: sp.baseAddress!, counts: np.baseAddress!,
                                                               coverage: cp.baseAddress!, cov_stride: width,
                                                               a: inv.a, b: inv.b, c: inv.c, d: inv.d, e: inv.e, f: inv.f,
                                                               shift: setup.shift, du: setup.du, dv: setup.dv)
                                    ImageSampler.drawAffineRowsAVX512(&args, image: image, filter: filter, opacity: opacity)
                                }
                            }
                        }
                    }
                    if swift != kernel { failures.append("texture \(ti) trial \(trial) \(filter) opacity \(opacity) rows \(n)") }
                    compared += 1
                    if swift != before { drawn += 1 }
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(4))")
        #expect(drawn * 3 > compared * 2, "most trials draw something (\(drawn) of \(compared)): else the comparison tests little")
    }

    /// The row kernel's start of a row (`fbk_affine_row_start`) is `ImageSampler._rowStart`'s,
    /// integer for integer: random maps, the 2^28 limit on either side, NaN and infinities, and
    /// starts exactly half a unit of 2^-32 from two integers (the rounding's ties, either sign).
    @Test(.enabled(if: RasterBackend.avx512Available, "needs AVX-512BW"))
    func rowKernelStartsAreTheSwiftStarts() {
        var rng = SplitMix64(seed: 2026_11_27_4)
        var failures: [String] = []
        let specials: [Double] = [.nan, .infinity, -.infinity, Double(1 << 28), -Double(1 << 28), Double(1 << 28).nextDown]
        for trial in 0..<20_000 {
            let y = Int(rng.next() % 4_000) - 1_000
            var t = AffineInverse(a: rng.unit() * 4 - 2, b: rng.unit() * 4 - 2, c: rng.unit() * 4_000 - 2_000,
                                  d: rng.unit() * 4 - 2, e: rng.unit() * 4 - 2, f: rng.unit() * 4_000 - 2_000)
            switch trial % 5 {
            case 1:   // ties: u0 = ±(m + 2^-33), v0 = ±(m' + 2^-33) exactly
                let su: Double = rng.next() % 2 == 0 ? 1 : -1, sv: Double = rng.next() % 2 == 0 ? 1 : -1
                t = AffineInverse(a: 1, b: 0, c: su * (Double(rng.next() % 500) + 0x1p-33),
                                  d: 0, e: 0, f: 0.5 + sv * (Double(rng.next() % 500) + 0x1p-33))
            case 2:   // near and past the limit, or not finite
                t.c = specials[Int(rng.next() % UInt64(specials.count))] - t.b * (Double(y) + 0.5)
            default: break
            }
            let filter: SampleFilter = trial % 2 == 0 ? .bilinear : .nearest
            guard let setup = ImageSampler._rowSetup(t, filter: filter) else { continue }
            var args = fbk_affine_rows(dst: nil, dst_stride: 0, y: 0, n: 0, x: 0, starts: nil, counts: nil, coverage: nil,
                                       cov_stride: 0, a: t.a, b: t.b, c: t.c, d: t.d, e: t.e, f: t.f, shift: setup.shift,
                                       du: setup.du, dv: setup.dv)
            var u: Int64 = 0, v: Int64 = 0
            let ok = fbk_affine_row_start(&args, y, &u, &v) != 0
            let s = ImageSampler._rowStart(y: y, t, shift: setup.shift, du: setup.du, dv: setup.dv)
            if ok != (s != nil) || (s.map { $0.u != u || $0.v != v } ?? false) {
                failures.append("trial \(trial) y \(y) \(t): kernel \(ok ? "(\(u), \(v))" : "skip"), Swift \(s.map { "(\($0.u), \($0.v))" } ?? "skip")")
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(3))")
    }
}

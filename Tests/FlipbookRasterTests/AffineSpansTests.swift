import CFlipbookKernels
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
}

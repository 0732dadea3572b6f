import CFlipbookKernels
import Testing
@testable import FlipbookRaster
import FlipbookPixels
import FlipbookTestSupport

/// `SpanBlend.solidOverSpans` (`fbk_solid_spans_avx512` / `_avx2`, or the portable loop): one
/// colour over several spans in one call must give the bytes of one `solidOver` per span — spans
/// of 0...67 pixels (every tail length, single pixels included), random coverage with zeros or no
/// coverage, random colours including transparent ones, the bytes around each span untouched.
@Suite struct SolidSpansTests {
    static func check(_ backend: RasterBackend, seed: UInt64, avx2: Bool = false) -> [String] {
        var rng = SplitMix64(seed: seed)
        var failures: [String] = []
        let rows = 12, width = 100
        for trial in 0..<40 {
            let color = trial % 10 == 9 ? RGBA8(packed: 0) : RGBA8(packed: rng.premultiplied())
            let spans: [(x0: Int, n: Int, masked: Bool)] = (0..<rows).map { r in
                (Int(rng.next() % 30), (trial * rows + r) % 68, rng.next() % 4 != 0)
            }
            let before = (0..<(rows * width)).map { _ in rng.premultiplied() }
            let cov = (0..<(rows * width)).map { _ in rng.next() % 5 == 0 ? 0 : rng.coverage() }
            var one = before, all = before
            cov.withUnsafeBufferPointer { cp in
                one.withUnsafeMutableBufferPointer { dp in
                    for (r, s) in spans.enumerated() {
                        SpanBlend.solidOver(dp.baseAddress! + r * width + s.x0, color: color, count: s.n,
                                            coverage: s.masked ? cp.baseAddress! + r * width + s.x0 : nil, backend: backend)
                    }
                }
                all.withUnsafeMutableBufferPointer { dp in
                    let list = spans.enumerated().map { r, s in
                        fbk_span(dst: dp.baseAddress! + r * width + s.x0, n: s.n,
                                 mask: s.masked ? cp.baseAddress! + r * width + s.x0 : nil)
                    }
                    if avx2 { fbk_solid_spans_avx2(list, list.count, color.packed) }
                    else { SpanBlend.solidOverSpans(list, count: list.count, color: color, backend: backend) }
                }
            }
            if one != all { failures.append("trial \(trial)") }
        }
        return failures
    }

    @Test(.enabled(if: RasterBackend.nativeAvailable))
    func nativeSpansInOneCallEqualOneCallEach() {
        let f = Self.check(.native, seed: 51)
        #expect(f.isEmpty, "\(f.prefix(4))")
    }

    @Test(.enabled(if: RasterBackend.nativeAvailable))
    func avx2SpansInOneCallEqualOneCallEach() {
        let f = Self.check(.native, seed: 52, avx2: true)
        #expect(f.isEmpty, "\(f.prefix(4))")
    }

    @Test func portableSpansInOneCallEqualOneCallEach() {
        let f = Self.check(.portable, seed: 53)
        #expect(f.isEmpty, "\(f.prefix(4))")
    }
}

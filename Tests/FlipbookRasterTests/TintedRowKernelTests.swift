import CFlipbookKernels
import Foundation
import Testing
@testable import FlipbookRaster
import FlipbookTestSupport

/// `ImageSampler.drawTintedAffineRowsAVX512` (`fbk_affine_tint_rows_avx512`: an emitter
/// particle's rows in one call, each row's start computed in the kernel) against its scalar
/// twin, the portable `drawTintedAffineSpan` of each row (sample onto transparent, modulate by
/// the tint, source-over with opacity and coverage) from `affineRow`'s start — and against the
/// native one-span-per-call kernel (`fbk_affine_tint_avx512`) the compositor used before.
/// Random textures and tints (opaque, translucent, transparent), rotations with scale about a
/// point near the image, rows crossing the 2^28-texel limit, a NaN, chunks of more than 64
/// rows, rows left of column 0, empty rows, both filters, four opacities.
@Suite struct TintedRowKernelTests {
    @Test(.enabled(if: RasterBackend.avx512Available, "needs AVX-512BW"))
    func tintedRowKernelEqualsTheScalarRows() {
        var rng = SplitMix64(seed: 2026_12_07_41)
        var failures: [String] = []
        var compared = 0, drawn = 0
        let width = 120
        let scratch = UnsafeMutablePointer<UInt32>.allocate(capacity: width)
        defer { scratch.deallocate() }
        for (ti, t) in AffineAVX512TwinTests.textures(&rng).enumerated() {
            t.texels.withUnsafeBufferPointer { tp in
                let image = RasterImage(pixels: tp.baseAddress!, width: t.w, height: t.h, bytesPerRow: t.stride * 4)
                for trial in 0..<12 {
                    let filter: SampleFilter = trial % 3 == 2 ? .nearest : .bilinear
                    let opacity: UInt8 = [255, 204, 77, 1][trial % 4]
                    let tint: UInt32 = [0xFFFF_FFFF, rng.premultiplied(), 0, rng.premultiplied() | 0xFF00_0000][trial % 4]
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
                    var scalar = before, spans = before, kernel = before
                    cov.withUnsafeBufferPointer { cp in
                        for (backend, out) in [(RasterBackend.portable, 0), (.native, 1)] {
                            var rows = out == 0 ? scalar : spans
                            rows.withUnsafeMutableBufferPointer { dp in
                                for i in 0..<n where counts[i] > 0 {
                                    guard let start = ImageSampler.affineRow(y: y + i, inverse: inv, filter: filter) else { continue }
                                    let x0 = x + starts[i]
                                    ImageSampler.drawTintedAffineSpan(row: dp.baseAddress! + i * width, start: start, x0: x0,
                                                                      x1: x0 + counts[i], image: image, filter: filter, edge: .clamp,
                                                                      opacity: opacity, coverage: cp.baseAddress! + i * width + starts[i],
                                                                      tint: tint, scratch: scratch, backend: backend)
                                }
                            }
                            if out == 0 { scalar = rows } else { spans = rows }
                        }
                        kernel.withUnsafeMutableBufferPointer { dp in
                            starts.withUnsafeBufferPointer { sp in
                                counts.withUnsafeBufferPointer { np in
                                    var args = fbk_affine_rows(dst: dp.baseAddress!, dst_stride: width, y: y, n: n, x: x,
                                                               starts: sp.baseAddress!, counts: np.baseAddress!,
                                                               coverage: cp.baseAddress!, cov_stride: width,
                                                               a: inv.a, b: inv.b, c: inv.c, d: inv.d, e: inv.e, f: inv.f,
                                                               shift: setup.shift, du: setup.du, dv: setup.dv)
                                    ImageSampler.drawTintedAffineRowsAVX512(&args, image: image, filter: filter, opacity: opacity, tint: tint)
                                }
                            }
                        }
                    }
                    if scalar != kernel { failures.append("scalar: texture \(ti) trial \(trial) \(filter) opacity \(opacity) tint \(tint) rows \(n)") }
                    if spans != kernel { failures.append("spans: texture \(ti) trial \(trial) \(filter) opacity \(opacity) tint \(tint) rows \(n)") }
                    if tint != 0 {           // (a transparent tint draws nothing, by definition)
                        compared += 1
                        if scalar != before { drawn += 1 }
                    }
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(4))")
        #expect(drawn * 3 > compared * 2, "most trials draw something (\(drawn) of \(compared)): else the comparison tests little")
    }
}

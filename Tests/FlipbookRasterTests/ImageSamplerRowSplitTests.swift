import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import FlipbookRaster
import Foundation
import FlipbookTestSupport

/// `ImageSampler.affineRow` + `drawAffineSpan(row:start:…)` (the compositor sets a row up once
/// and draws it as several spans, in column tiles) must give the bytes of the one-call form,
/// on both backends (the portable one alone where the CPU lacks AVX2), however the row is split.
@Suite struct ImageSamplerRowSplitTests {
    @Test(arguments: [EdgeMode.decal, .clamp])
    func rowStartPlusSpansEqualsOneCall(edge: EdgeMode) {
        var rng = SplitMix64(seed: 23)
        let w = 64, h = 48, width = 200
        let texels = (0..<(w * h)).map { _ in rng.premultiplied() }
        let background = (0..<width).map { _ in rng.premultiplied() }
        var failures: [String] = []
        texels.withUnsafeBufferPointer { tp in
            let image = RasterImage(pixels: tp.baseAddress!, width: w, height: h, bytesPerRow: w * 4)
            for k in 0..<6 {
                let angle = 0.3 + Double(k) * 0.9, scale = 0.4 + Double(k) * 0.25
                let t = AffineInverse(a: cos(angle) * scale, b: -sin(angle) * scale, c: 20 + Double(k),
                                      d: sin(angle) * scale, e: cos(angle) * scale, f: -10 + 3 * Double(k))
                for backend in RasterBackend.testedHere {
                    for y in stride(from: 0, to: 60, by: 7) {
                        var one = background, split = background
                        one.withUnsafeMutableBufferPointer { d in
                            ImageSampler.drawAffineSpan(row: d.baseAddress!, y: y, x0: 0, x1: width, image: image, inverse: t,
                                                        edge: edge, opacity: 204, backend: backend)
                        }
                        if let start = ImageSampler.affineRow(y: y, inverse: t) {
                            split.withUnsafeMutableBufferPointer { d in
                                for (a, b) in [(0, 7), (70, 134), (7, 70), (134, 200)] {
                                    ImageSampler.drawAffineSpan(row: d.baseAddress!, start: start, x0: a, x1: b, image: image,
                                                                edge: edge, opacity: 204, backend: backend)
                                }
                            }
                        }
                        if one != split { failures.append("k=\(k) y=\(y) \(backend)") }
                    }
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }

    @Test func rowStartIsNilWhereTheOneCallDrawsNothing() {
        // Beyond the ±2²⁸-texel limit nothing is drawn in either form.
        let far = AffineInverse(a: 1, b: 0, c: 1e9, d: 0, e: 1, f: 0)
        #expect(ImageSampler.affineRow(y: 0, inverse: far) == nil)
        let near = AffineInverse(a: 1, b: 0, c: 0.25, d: 0, e: 1, f: 0)
        // u(0) = 0.5 + 0.25 − 0.5 = 0.25 texel → 2³²·0.25; v(0) = 0.5 − 0.5 = 0.
        #expect(ImageSampler.affineRow(y: 0, inverse: near) == AffineRowStart(u: 1 << 30, v: 0, du: 1 << 32, dv: 0))
    }

    /// `affineRows` (the step converted once per draw) gives each row what `affineRow` gives it,
    /// nil where that is nil (positions beyond 2^28 texels, steps beyond 2^14).
    @Test func affineRowsEqualsAffineRowPerRow() {
        var rng = SplitMix64(seed: 0xA4)
        for k in 0..<400 {
            let scale = k % 10 == 0 ? 3e4 : (k % 10 == 1 ? 1e9 : 4 * rng.unit())
            let t = AffineInverse(a: scale * (rng.unit() - 0.5), b: scale * (rng.unit() - 0.5), c: 1e3 * (rng.unit() - 0.5),
                                  d: scale * (rng.unit() - 0.5), e: scale * (rng.unit() - 0.5), f: 1e3 * (rng.unit() - 0.5))
            let filter: SampleFilter = k % 2 == 0 ? .bilinear : .nearest
            let y0 = Int(rng.unit() * 2000) - 1000, n = 1 + Int(rng.unit() * 70)
            let rows = UnsafeMutablePointer<AffineRowStart?>.allocate(capacity: n)
            defer { rows.deallocate() }
            ImageSampler.affineRows(y0: y0, y1: y0 + n, inverse: t, filter: filter, into: rows)
            for i in 0..<n {
                #expect(rows[i] == ImageSampler.affineRow(y: y0 + i, inverse: t, filter: filter), "case \(k) row \(i)")
            }
        }
    }
}

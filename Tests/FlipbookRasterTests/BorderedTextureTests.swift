import CFlipbookKernels
import FlipbookPixels
import Foundation
import Testing
@testable import FlipbookRaster
import FlipbookTestSupport

/// `BorderedTexture` (a copy with a one-texel border repeating the edge texels) and the
/// samplers' bordered path (`fbk_image.border`: clamp-to-edge bilinear footprints read as pairs,
/// no gathers at the edges): the border holds exactly the clamped texels, and sampling the
/// bordered view gives the bytes of sampling the plain image — AVX2 and AVX-512, tinted or not,
/// over every case of `AffineAVX512TwinTests` (span lengths 0…67, footprints inside, across and
/// far outside, degenerate 1-texel sizes, row strides wider than the image).
@Suite struct BorderedTextureTests {
    /// The texture of `AffineAVX512TwinTests` as a `PixelBuffer` (its stride, its bytes).
    static func buffer(_ t: AffineAVX512TwinTests.Texture) -> PixelBuffer {
        var bytes = [UInt8](repeating: 0, count: t.stride * 4 * t.h)
        bytes.withUnsafeMutableBytes { raw in
            let p = raw.baseAddress!.assumingMemoryBound(to: UInt32.self)
            for i in 0..<(t.stride * t.h) { p[i] = t.texels[i] }
        }
        return try! PixelBuffer(width: t.w, height: t.h, bytesPerRow: t.stride * 4, bytes: bytes)
    }

    @Test func theBorderRepeatsTheEdgeTexels() {
        var rng = SplitMix64(seed: 0xB0_4DE5)
        for t in AffineAVX512TwinTests.textures(&rng) {
            let b = BorderedTexture(Self.buffer(t))
            #expect(b.width == t.w && b.height == t.h)
            #expect(b.padded.width == t.w + 2 && b.padded.height == t.h + 2)
            b.withRasterImage { r in
                #expect(r.hasRepeatedBorder && r.width == t.w && r.height == t.h)
                for y in -1...t.h {
                    for x in -1...t.w {
                        let cx = min(max(x, 0), t.w - 1), cy = min(max(y, 0), t.h - 1)
                        let got = r.pixels[y * r.stridePixels + x]
                        if got != t.texels[cy * t.stride + cx] {
                            Issue.record("\(t.w)x\(t.h): texel (\(x), \(y)) is \(got), not the clamped (\(cx), \(cy))")
                            return
                        }
                    }
                }
            }
        }
    }

    /// Every clamp case of the twin tests, drawn from the plain image and from the bordered
    /// view: `kernel` receives the plain and the bordered `fbk_image` and returns both results.
    static func compare(seed: UInt64, _ kernel: (_ plain: inout fbk_image, _ bordered: inout fbk_image, _ n: Int, _ start: Int,
                                                 _ m: (u: Int64, v: Int64, du: Int64, dv: Int64), _ bil: Int32,
                                                 _ op: UInt32, _ cov: UnsafePointer<UInt8>?, _ dst: [UInt32],
                                                 _ rng: inout SplitMix64) -> ([UInt32], [UInt32])) -> (cases: Int, failures: [String]) {
        var cases = 0
        var bordered: [String: BorderedTexture] = [:]
        let failures = AffineAVX512TwinTests.forEachCase(seed: seed) { t, img, n, start, m, bil, clamp, op, cov, dst, rng in
            guard clamp == 1 else { return nil }
            cases += 1
            let key = "\(t.w)x\(t.h)x\(t.stride)"
            let b = bordered[key] ?? BorderedTexture(Self.buffer(t))
            bordered[key] = b
            return b.withRasterImage { r in
                var bi = fbk_image(pixels: r.pixels, width: Int32(r.width), height: Int32(r.height),
                                   stride: Int32(r.stridePixels), border: 1)
                let (p, q) = kernel(&img, &bi, n, start, m, bil, op, cov, dst, &rng)
                if p == q { return nil }
                return "bordered differs at \(zip(p, q).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset).prefix(4))"
            }
        }
        return (cases, failures)
    }

    @Test(.enabled(if: CPU.hasAVX2, "the CPU has no AVX2"))
    func borderedAVX2SamplingEqualsPlain() {
        let r = Self.compare(seed: 0xB0_A2) { plain, bordered, n, start, m, bil, op, cov, dst, _ in
            var a = dst, b = dst
            a.withUnsafeMutableBufferPointer { fbk_affine_avx2($0.baseAddress! + start, n, &plain, m.u, m.v, m.du, m.dv, bil, 1, op, cov) }
            b.withUnsafeMutableBufferPointer { fbk_affine_avx2($0.baseAddress! + start, n, &bordered, m.u, m.v, m.du, m.dv, bil, 1, op, cov) }
            return (a, b)
        }
        #expect(r.cases > 500)
        #expect(r.failures.isEmpty, "\(r.failures)")
    }

    @Test(.enabled(if: CPU.hasAVX512BW, "the CPU has no AVX-512BW (or no AVX2)"))
    func borderedAVX512SamplingEqualsPlain() {
        let r = Self.compare(seed: 0xB0_512) { plain, bordered, n, start, m, bil, op, cov, dst, rng in
            let tint: UInt32? = rng.next() % 2 == 0 ? nil : rng.premultiplied()
            var a = dst, b = dst
            a.withUnsafeMutableBufferPointer {
                if let tint { fbk_affine_tint_avx512($0.baseAddress! + start, n, &plain, m.u, m.v, m.du, m.dv, bil, 1, op, cov, tint) }
                else { fbk_affine_avx512($0.baseAddress! + start, n, &plain, m.u, m.v, m.du, m.dv, bil, 1, op, cov) }
            }
            b.withUnsafeMutableBufferPointer {
                if let tint { fbk_affine_tint_avx512($0.baseAddress! + start, n, &bordered, m.u, m.v, m.du, m.dv, bil, 1, op, cov, tint) }
                else { fbk_affine_avx512($0.baseAddress! + start, n, &bordered, m.u, m.v, m.du, m.dv, bil, 1, op, cov) }
            }
            return (a, b)
        }
        #expect(r.cases > 500)
        #expect(r.failures.isEmpty, "\(r.failures)")
    }
}

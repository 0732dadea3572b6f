import CFlipbookKernels
import Foundation
import Testing
@testable import FlipbookRaster
import FlipbookTestSupport

/// The AVX-512BW affine samplers (`fbk_affine_avx512`, `fbk_affine_tint_avx512`: 16 pixels per
/// block, k-masked last block) must equal the AVX2 ones bit for bit, and the plain one also the
/// portable Swift twin (`ImageSampler._affineScalar`): span lengths 0...67 (blocks of 16 plus
/// every tail), random affine steps (rotations, magnification and minification, translations
/// whose footprints lie inside, across and outside the image), bilinear and nearest, decal and
/// clamp, coverage nil or random bytes with zeros (whole 16-byte blocks of 0 too), opacity 255
/// and others, random destination bytes around the span (which must stay untouched). Skipped
/// (not failed) where the CPU lacks AVX-512BW.
@Suite struct AffineAVX512TwinTests {
    /// One test image: random premultiplied texels, a row stride of at least `w`.
    struct Texture {
        let w: Int, h: Int, stride: Int
        let texels: [UInt32]
    }

    static func textures(_ rng: inout SplitMix64) -> [Texture] {
        // 41×29 with padding (most of the cases), and degenerate sizes: 1×1, 1×7, 7×1, 2×2, 32×32.
        [(41, 29, 44), (1, 1, 1), (1, 7, 1), (7, 1, 7), (2, 2, 3), (32, 32, 32)].map { w, h, s in
            Texture(w: w, h: h, stride: s, texels: (0..<(s * h)).map { _ in rng.premultiplied() })
        }
    }

    /// A 32.32 start and step: a rotation by a random angle with scale 0.1...3 (minifying and
    /// magnifying), starting at a random point in, across or far outside the image; or an axis
    /// step (0 or tiny in one direction), so whole spans stay inside the image.
    static func randomMap(_ rng: inout SplitMix64, _ t: Texture, kind: Int) -> (u: Int64, v: Int64, du: Int64, dv: Int64) {
        func fx(_ x: Double) -> Int64 { Int64((x * 4_294_967_296).rounded()) }
        let w = Double(t.w), h = Double(t.h)
        switch kind % 4 {
        case 0:   // rotation + scale from a point near the image
            let angle = rng.unit() * 6.3, k = 0.1 + rng.unit() * 2.9
            return (fx(rng.unit() * (w + 16) - 8), fx(rng.unit() * (h + 16) - 8), fx(cos(angle) * k), fx(sin(angle) * k))
        case 1:   // slow walk that stays inside (interior fast path) for most lengths
            return (fx(rng.unit() * max(w - 2, 0)), fx(rng.unit() * max(h - 2, 0)),
                    fx(rng.unit() * 0.4 / 67 * w), fx((rng.unit() - 0.5) * 0.2 / 67 * h))
        case 2:   // walks across the image from outside (left/top) into it and out
            let angle = rng.unit() * 1.5, k = 0.2 + rng.unit() * 1.5
            return (fx(-3 - rng.unit() * 10), fx(-3 - rng.unit() * 5), fx(cos(angle) * k), fx(sin(angle) * k))
        default:  // far outside, or a negative step from inside
            if rng.next() % 2 == 0 { return (fx(-1000 - rng.unit() * 50), fx(rng.unit() * h), fx(1.0), fx(0.25)) }
            return (fx(w - 0.5), fx(h - 0.5), fx(-0.7 - rng.unit()), fx(-0.3 * rng.unit()))
        }
    }

    /// Runs `body` over every case and collects failures (at most `limit` described).
    static func forEachCase(seed: UInt64, _ body: (_ t: Texture, _ img: inout fbk_image, _ n: Int, _ start: Int,
                                                 _ map: (u: Int64, v: Int64, du: Int64, dv: Int64),
                                                 _ bilinear: Int32, _ clamp: Int32, _ opacity: UInt32,
                                                 _ coverage: UnsafePointer<UInt8>?, _ dst: [UInt32],
                                                 _ rng: inout SplitMix64) -> String?) -> [String] {
        var rng = SplitMix64(seed: seed)
        let textures = textures(&rng)
        var failures: [String] = []
        for (ti, t) in textures.enumerated() {
            t.texels.withUnsafeBufferPointer { tp in
                var img = fbk_image(pixels: tp.baseAddress!, width: Int32(t.w), height: Int32(t.h), stride: Int32(t.stride), border: 0)
                let reps = ti == 0 ? 3 : 1
                for n in 0...67 {
                    for rep in 0..<reps {
                        for bilinear: Int32 in [1, 0] {
                            for clamp: Int32 in [0, 1] {
                                let kind = n + rep + Int(bilinear) * 2 + Int(clamp)
                                let map = randomMap(&rng, t, kind: kind)
                                let start = (n + rep) % 3
                                let opacity: UInt32 = [255, 204, 77, 1][(n + rep) % 4]
                                let coverageMode = (n + rep + Int(clamp)) % 3   // 0: nil, 1: random, 2: random with zero blocks
                                var cov: [UInt8] = (0..<(n + start + 20)).map { _ in rng.coverage() }
                                if coverageMode == 2 {
                                    for i in stride(from: start, to: min(start + 16, cov.count), by: 1) { cov[i] = 0 }
                                    if n > 40 { for i in (start + 32)..<min(start + 48, cov.count) { cov[i] = 0 } }
                                }
                                let dst = (0..<(n + start + 20)).map { _ in rng.premultiplied() }
                                let failure = cov.withUnsafeBufferPointer { c in
                                    body(t, &img, n, start, map, bilinear, clamp, opacity,
                                         coverageMode == 0 ? nil : c.baseAddress! + start, dst, &rng)
                                }
                                if let failure, failures.count < 8 {
                                    failures.append("\(t.w)x\(t.h) n=\(n) bil=\(bilinear) clamp=\(clamp) op=\(opacity) cov=\(coverageMode) map=\(map): \(failure)")
                                }
                            }
                        }
                    }
                }
            }
        }
        return failures
    }

    @Test(.enabled(if: CPU.hasAVX512BW, "the CPU has no AVX-512BW (or no AVX2)"))
    func avx512AffineEqualsAVX2AndPortable() {
        var cases = 0
        let failures = Self.forEachCase(seed: 0x5A_512) { t, img, n, start, m, bil, clamp, op, cov, dst, _ in
            cases += 1
            var a = dst, b = dst, s = dst
            a.withUnsafeMutableBufferPointer { fbk_affine_avx2($0.baseAddress! + start, n, &img, m.u, m.v, m.du, m.dv, bil, clamp, op, cov) }
            b.withUnsafeMutableBufferPointer { fbk_affine_avx512($0.baseAddress! + start, n, &img, m.u, m.v, m.du, m.dv, bil, clamp, op, cov) }
            t.texels.withUnsafeBufferPointer { tp in
                let image = RasterImage(pixels: tp.baseAddress!, width: t.w, height: t.h, bytesPerRow: t.stride * 4)
                s.withUnsafeMutableBufferPointer {
                    ImageSampler._affineScalar($0.baseAddress! + start, n: n, image: image, u: m.u, v: m.v, du: m.du, dv: m.dv,
                                               bilinear: bil == 1, clamp: clamp == 1, opacity: op, coverage: cov)
                }
            }
            if b != a { return "AVX-512 != AVX2 at \(zip(a, b).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset).prefix(4))" }
            if b != s { return "AVX-512 != portable" }
            return nil
        }
        #expect(cases > 1000)
        #expect(failures.isEmpty, "\(failures)")
    }

    @Test(.enabled(if: CPU.hasAVX512BW, "the CPU has no AVX-512BW (or no AVX2)"))
    func avx512TintedAffineEqualsAVX2() {
        let failures = Self.forEachCase(seed: 0x5A_513) { _, img, n, start, m, bil, clamp, op, cov, dst, rng in
            let tint: UInt32 = rng.next() % 4 == 0 ? 0xFFFF_FFFF : rng.premultiplied()
            var a = dst, b = dst
            a.withUnsafeMutableBufferPointer { fbk_affine_tint_avx2($0.baseAddress! + start, n, &img, m.u, m.v, m.du, m.dv, bil, clamp, op, cov, tint) }
            b.withUnsafeMutableBufferPointer { fbk_affine_tint_avx512($0.baseAddress! + start, n, &img, m.u, m.v, m.du, m.dv, bil, clamp, op, cov, tint) }
            return a == b ? nil : "tint \(tint)"
        }
        #expect(failures.isEmpty, "\(failures)")
    }

    /// Through the public API: with ``RasterBackend/avx512Available`` the native backend takes
    /// the AVX-512 sampler; it equals the portable one on rotated 32×32 layers' rows (W6a's shape).
    @Test(.enabled(if: RasterBackend.avx512Available, "AVX-512BW absent, or FLIPBOOK_AVX512=off"))
    func drawAffineSpanUsesTheSameBytesWithAVX512() {
        var rng = SplitMix64(seed: 0x5A_514)
        let texels = (0..<(32 * 32)).map { _ in rng.premultiplied() }
        var mismatches = 0, drawn = 0
        texels.withUnsafeBufferPointer { tp in
            let image = RasterImage(pixels: tp.baseAddress!, width: 32, height: 32, bytesPerRow: 128)
            for _ in 0..<20 {
                let angle = rng.unit() * 6.3
                let t = AffineInverse(a: cos(angle), b: sin(angle), c: 16 - 24 * cos(angle) - 24 * sin(angle),
                                      d: -sin(angle), e: cos(angle), f: 16 + 24 * sin(angle) - 24 * cos(angle))
                for y in 0..<48 {
                    let base = (0..<48).map { _ in rng.premultiplied() }
                    var native = base, portable = base
                    native.withUnsafeMutableBufferPointer {
                        ImageSampler.drawAffineSpan(row: $0.baseAddress!, y: y, x0: 0, x1: 48, image: image, inverse: t,
                                                    opacity: 204, backend: .native)
                    }
                    portable.withUnsafeMutableBufferPointer {
                        ImageSampler.drawAffineSpan(row: $0.baseAddress!, y: y, x0: 0, x1: 48, image: image, inverse: t,
                                                    opacity: 204, backend: .portable)
                    }
                    if native != portable { mismatches += 1 }
                    if native != base { drawn += 1 }
                }
            }
        }
        #expect(mismatches == 0)
        #expect(drawn > 100)
    }
}

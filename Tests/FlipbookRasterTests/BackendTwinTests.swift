import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import FlipbookRaster
import FlipbookPixels
import Foundation
import FlipbookTestSupport

/// Every native kernel must equal its portable twin bit for bit: span lengths 0...67, four
/// unaligned starts, seeded random premultiplied data, with guard pixels checked untouched.
/// The native-vs-portable tests are skipped where the CPU lacks AVX2 (there `.native` falls
/// back to `.portable`, and the comparison would be the portable kernel against itself).
@Suite struct BackendTwinTests {
    /// Runs `body` on two copies of the same destination (portable, native) and compares them.
    func compareBackends(seed: UInt64, count: Int, start: Int,
                         _ body: (UnsafeMutablePointer<UInt32>, RasterBackend) -> Void) -> Bool {
        var rng = SplitMix64(seed: seed)
        let base = (0..<(count + start + 8)).map { _ in rng.premultiplied() }
        var a = base, b = base
        a.withUnsafeMutableBufferPointer { body($0.baseAddress! + start, .portable) }
        b.withUnsafeMutableBufferPointer { body($0.baseAddress! + start, .native) }
        return a == b
    }

    @Test(.enabled(if: CPU.hasAVX2, "no AVX2: the native kernels do not run on this CPU"))
    func nativeBlendKernelsMatchPortable() {
        var rng = SplitMix64(seed: 1)
        let src = (0..<80).map { _ in rng.premultiplied() }
        let cov = (0..<80).map { _ in rng.coverage() }
        var failures: [String] = []
        for count in 0...67 {
            for start in 0..<4 {
                for opacity: UInt8 in [255, 204, 1, 128] {
                    src.withUnsafeBufferPointer { s in
                        cov.withUnsafeBufferPointer { c in
                            let seed = UInt64(count * 16 + start)
                            if !compareBackends(seed: seed, count: count, start: start, { d, be in
                                SpanBlend.sourceOver(d, source: s.baseAddress! + start, count: count, opacity: opacity, backend: be)
                            }) { failures.append("over n=\(count) start=\(start) op=\(opacity)") }
                            if !compareBackends(seed: seed, count: count, start: start, { d, be in
                                SpanBlend.sourceOver(d, source: s.baseAddress! + start, count: count, opacity: opacity,
                                                     coverage: c.baseAddress! + start, backend: be)
                            }) { failures.append("over+coverage n=\(count) start=\(start) op=\(opacity)") }
                            let color = RGBA8(packed: src[count % 80])
                            if !compareBackends(seed: seed, count: count, start: start, { d, be in
                                SpanBlend.solidOver(d, color: color, count: count, coverage: opacity == 255 ? nil : c.baseAddress! + start, backend: be)
                            }) { failures.append("solid n=\(count) start=\(start)") }
                            if !compareBackends(seed: seed, count: count, start: start, { d, be in
                                SpanBlend.fill(d, count: count, color: color, backend: be)
                            }) { failures.append("fill n=\(count)") }
                        }
                    }
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }

    /// `SpanBlend.modulate` (the tint kernel) equals its scalar twin, `PixelMath.modulate` per
    /// pixel: lengths 0...67, four starts, opaque, translucent, white, black and random tints
    /// (any bytes: the kernel does not assume premultiplied input), guard pixels untouched.
    @Test(.enabled(if: CPU.hasAVX2, "no AVX2: the native kernels do not run on this CPU"))
    func nativeModulateMatchesPortable() {
        var rng = SplitMix64(seed: 15)
        let tints: [UInt32] = [0xFFFF_FFFF, 0, 0xFF66_66FF, 0x8040_2010, UInt32(truncatingIfNeeded: rng.next()), rng.premultiplied()]
        var failures: [String] = []
        for count in 0...67 {
            for start in 0..<4 {
                for tint in tints {
                    let ok = compareBackends(seed: UInt64(count * 4 + start), count: count, start: start) { d, be in
                        if count % 5 == 0 { for i in 0..<count where i % 3 == 0 { d[i] = UInt32(truncatingIfNeeded: i &* 0x9E37_79B9) } }
                        SpanBlend.modulate(d, count: count, tint: tint, backend: be)
                    }
                    if !ok { failures.append("n=\(count) start=\(start) tint=\(tint)") }
                }
            }
        }
        // The scalar twin is PixelMath.modulate, pixel by pixel.
        var p = (0..<67).map { _ in UInt32(truncatingIfNeeded: rng.next()) }
        let before = p
        p.withUnsafeMutableBufferPointer { SpanBlend._modulateScalar($0.baseAddress!, count: 67, tint: 0xC0A0_8060) }
        #expect(p == before.map { PixelMath.modulate($0, 0xC0A0_8060) })
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }

    /// The portable SIMD (Swift SIMD8) source-over equals the scalar twin, including invalid
    /// (non-premultiplied) input, which both saturate.
    @Test func portableSIMDMatchesScalar() {
        var rng = SplitMix64(seed: 5)
        let src = (0..<80).map { i in i % 7 == 0 ? UInt32(truncatingIfNeeded: rng.next()) : rng.premultiplied() }
        var failures: [Int] = []
        for count in 0...67 {
            for opacity: UInt8 in [255, 204, 3] {
                let ok = src.withUnsafeBufferPointer { s in
                    compareBackends(seed: UInt64(count), count: count, start: count % 4) { d, be in
                        if be == .portable {
                            SpanBlend._sourceOverScalar(d, source: s.baseAddress! + 1, count: count, opacity: UInt32(opacity), coverage: nil)
                        } else {
                            let done = SpanBlend._sourceOverSIMD(d, source: s.baseAddress! + 1, count: count, opacity: UInt32(opacity))
                            SpanBlend._sourceOverScalar(d + done, source: s.baseAddress! + 1 + done, count: count - done,
                                                        opacity: UInt32(opacity), coverage: nil)
                        }
                    }
                }
                if !ok { failures.append(count) }
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }

    /// A random rotation by 0…6.3 rad with scale `scale.0 + unit·scale.1` and translation
    /// `c.0 + unit·c.1`, `f.0 + unit·f.1` (drawn in this order: angle, scale, c, f).
    static func randomRotation(_ rng: inout SplitMix64, scale: (Double, Double), c: (Double, Double),
                               f: (Double, Double)) -> AffineInverse {
        let angle = rng.unit() * 6.3, k = scale.0 + rng.unit() * scale.1
        let tc = rng.unit() * c.1 + c.0, tf = rng.unit() * f.1 + f.0
        return AffineInverse(a: cos(angle) * k, b: -sin(angle) * k, c: tc, d: sin(angle) * k, e: cos(angle) * k, f: tf)
    }

    /// A 41×29 random image under random rotations/scales (magnifying and minifying) whose spans
    /// cross its edges: exercises the interior fast path, the masked-gather edge path and decal.
    @Test(.enabled(if: CPU.hasAVX2, "no AVX2: the native kernels do not run on this CPU"),
          arguments: [SampleFilter.bilinear, .nearest], [EdgeMode.decal, .clamp])
    func nativeAffineSamplerMatchesPortable(filter: SampleFilter, edge: EdgeMode) {
        var rng = SplitMix64(seed: 7)
        let w = 41, h = 29
        let texels = (0..<(w * h)).map { _ in rng.premultiplied() }
        let cov = (0..<80).map { _ in rng.coverage() }
        var failures: [String] = []
        texels.withUnsafeBufferPointer { tp in
            cov.withUnsafeBufferPointer { c in
                let image = RasterImage(pixels: tp.baseAddress!, width: w, height: h, bytesPerRow: w * 4)
                for count in 0...67 {
                    let t = Self.randomRotation(&rng, scale: (0.15, 1.5), c: (-8, 40), f: (-6, 30))
                    let start = count % 4, y = Int(rng.next() % 30)
                    let opacity: UInt8 = [255, 204, 77][count % 3]
                    let useCoverage = count % 2 == 1
                    let ok = compareBackends(seed: UInt64(count), count: count, start: start) { d, be in
                        // `row` is pixel 0: the span is [start, start + count)
                        ImageSampler.drawAffineSpan(row: d - start, y: y, x0: start, x1: start + count, image: image,
                                                    inverse: t, filter: filter, edge: edge, opacity: opacity,
                                                    coverage: useCoverage ? c.baseAddress! : nil, backend: be)
                    }
                    if !ok { failures.append("n=\(count) y=\(y)") }
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }

    /// The fused tinted affine sampler (`fbk_affine_tint_avx2`) equals its definition, the
    /// portable three passes (sample onto transparent, modulate, source-over): lengths 0...67,
    /// random rotations and scales over a 9×7 image (most footprints cross its edges, as a
    /// particle's do), random tints, opacities, with and without coverage.
    @Test(.enabled(if: CPU.hasAVX2, "no AVX2: the native kernels do not run on this CPU"),
          arguments: [SampleFilter.bilinear, .nearest], [EdgeMode.decal, .clamp])
    func nativeTintedAffineSamplerMatchesPortable(filter: SampleFilter, edge: EdgeMode) {
        var rng = SplitMix64(seed: 21)
        let w = 9, h = 7
        let texels = (0..<(w * h)).map { _ in rng.premultiplied() }
        let cov = (0..<80).map { _ in rng.coverage() }
        var scratch = [UInt32](repeating: 0, count: 80)
        var failures: [String] = []
        texels.withUnsafeBufferPointer { tp in
            cov.withUnsafeBufferPointer { c in
                scratch.withUnsafeMutableBufferPointer { sp in
                    let image = RasterImage(pixels: tp.baseAddress!, width: w, height: h, bytesPerRow: w * 4)
                    for count in 0...67 {
                        let t = Self.randomRotation(&rng, scale: (0.1, 1.2), c: (-6, 12), f: (-5, 10))
                        let start = count % 4, y = Int(rng.next() % 12)
                        let opacity: UInt8 = [255, 204, 77][count % 3]
                        let tint = count % 5 == 0 ? 0xFFFF_FFFF : rng.premultiplied()
                        let useCoverage = count % 2 == 1
                        guard let row = ImageSampler.affineRow(y: y, inverse: t, filter: filter) else { continue }
                        let ok = compareBackends(seed: UInt64(count), count: count, start: start) { d, be in
                            ImageSampler.drawTintedAffineSpan(row: d - start, start: row, x0: start, x1: start + count, image: image,
                                                              filter: filter, edge: edge, opacity: opacity,
                                                              coverage: useCoverage ? c.baseAddress! : nil, tint: tint,
                                                              scratch: sp.baseAddress!, backend: be)
                        }
                        if !ok { failures.append("n=\(count) y=\(y) tint=\(tint)") }
                    }
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }

    @Test(.enabled(if: CPU.hasAVX2, "no AVX2: the native kernels do not run on this CPU"),
          arguments: [EdgeMode.decal, .clamp])
    func nativeProjectiveSamplerMatchesPortable(edge: EdgeMode) {
        var rng = SplitMix64(seed: 11)
        let w = 17, h = 11
        let texels = (0..<(w * h)).map { _ in rng.premultiplied() }
        let cov = (0..<80).map { _ in rng.coverage() }
        var failures: [String] = []
        texels.withUnsafeBufferPointer { tp in
            cov.withUnsafeBufferPointer { c in
                let image = RasterImage(pixels: tp.baseAddress!, width: w, height: h, bytesPerRow: w * 4)
                for count in 0...67 {
                    // A perspective tilt whose horizon (Q = 0) crosses some spans.
                    let inv = ProjectiveInverse([0.4 + rng.unit() * 0.2, 0.05, -3 + rng.unit() * 4,
                                                 0.02, 0.5, -2 + rng.unit() * 3,
                                                 0.02 - rng.unit() * 0.04, 0.01, 0.8])
                    let start = count % 4, y = Int(rng.next() % 20)
                    let ok = compareBackends(seed: UInt64(count), count: count, start: start) { d, be in
                        ImageSampler.drawProjectiveSpan(row: d - start, y: y, x0: start, x1: start + count, image: image,
                                                        inverse: inv, edge: edge, opacity: count % 3 == 0 ? 255 : 204,
                                                        coverage: count % 2 == 1 ? c.baseAddress! : nil, backend: be)
                    }
                    if !ok { failures.append("n=\(count) y=\(y)") }
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }
}

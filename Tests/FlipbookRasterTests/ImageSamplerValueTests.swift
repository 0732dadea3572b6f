import Testing
@testable import FlipbookRaster
import FlipbookPixels
import FlipbookTestSupport

/// Sampling rules on small images with hand-computed results.
@Suite struct ImageSamplerValueTests {
    /// `.portable`, and `.native` where the CPU has AVX2 (never the portable kernel twice).
    static let backends = RasterBackend.testedHere

    func randomImage(_ w: Int, _ h: Int, seed: UInt64) -> [UInt32] {
        var rng = SplitMix64(seed: seed)
        return (0..<(w * h)).map { _ in rng.premultiplied() }
    }

    /// Identity transform: every pixel centre lands on a texel centre (fx = fy = 0), so bilinear,
    /// nearest and projective all copy the source exactly onto a transparent destination.
    /// `affineRow`'s rounding without libm is `Int64(x.rounded())`: ties both ways, the
    /// doubles next to them, negative values, integers, 2⁵² and above (already integers),
    /// and random fixed-point starts and steps.
    @Test func roundingWithoutLibmIsRounded() {
        var xs: [Double] = [0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999999999994, -0.49999999999999994,
                            4_503_599_627_370_495.5, -4_503_599_627_370_495.5, 0x1p52, 0x1p60, -0x1p60, 0x1p62 + 2048]
        for k in 0..<64 {
            let h = Double(k) + 0.5
            xs += [h, -h, h.nextUp, h.nextDown, -h.nextUp, -h.nextDown, Double(k), -Double(k)]
        }
        var rng = SplitMix64(seed: 3)
        for _ in 0..<4000 {
            let u = (Double(rng.next() % 1_000_000) / 1000 - 500) * ImageSampler._one   // |u| < 2^28 texels, 32.32
            xs += [u, u / 4096, u * 8]
        }
        let bad = xs.filter { ImageSampler._roundedInt64($0) != Int64($0.rounded()) }
        #expect(bad.isEmpty, "\(bad.prefix(5))")
    }

    @Test(arguments: backends) func identityCopiesTheSource(backend: RasterBackend) {
        let w = 37, h = 5
        let texels = randomImage(w, h, seed: 3)
        texels.withUnsafeBufferPointer { tp in
            let image = RasterImage(pixels: tp.baseAddress!, width: w, height: h, bytesPerRow: w * 4)
            for filter in [SampleFilter.bilinear, .nearest] {
                var out = [UInt32](repeating: 0, count: w * h)
                out.withUnsafeMutableBufferPointer { o in
                    for y in 0..<h {
                        ImageSampler.drawAffineSpan(row: o.baseAddress! + y * w, y: y, x0: 0, x1: w, image: image,
                                                    inverse: AffineInverse(a: 1, b: 0, c: 0, d: 0, e: 1, f: 0),
                                                    filter: filter, backend: backend)
                    }
                }
                #expect(out == texels, "\(filter)")
            }
            var out = [UInt32](repeating: 0, count: w * h)
            out.withUnsafeMutableBufferPointer { o in
                for y in 0..<h {
                    ImageSampler.drawProjectiveSpan(row: o.baseAddress! + y * w, y: y, x0: 0, x1: w, image: image,
                                                    inverse: ProjectiveInverse([1, 0, 0, 0, 1, 0, 0, 0, 1]), backend: backend)
                }
            }
            #expect(out == texels)
        }
    }

    /// Half-pixel shift: fx = 128, so each channel is (c0·128·256 + c1·128·256 + 32768) >> 16.
    /// Left of the image the decal rule fades the first texel to half; clamp keeps it whole.
    @Test(arguments: backends) func halfPixelShiftAndEdges(backend: RasterBackend) {
        let texels: [UInt32] = [RGBA8(r: 100, g: 0, b: 0, a: 200).packed, RGBA8(r: 51, g: 10, b: 0, a: 255).packed]
        texels.withUnsafeBufferPointer { tp in
            let image = RasterImage(pixels: tp.baseAddress!, width: 2, height: 1, bytesPerRow: 8)
            let shift = AffineInverse(a: 1, b: 0, c: -0.5, d: 0, e: 1, f: 0)   // u = x − 0.5
            func run(_ edge: EdgeMode) -> [RGBA8] {
                var out = [UInt32](repeating: 0, count: 4)
                out.withUnsafeMutableBufferPointer { o in
                    ImageSampler.drawAffineSpan(row: o.baseAddress!, y: 0, x0: 0, x1: 4, image: image, inverse: shift,
                                                edge: edge, backend: backend)
                }
                return out.map { RGBA8(packed: $0) }
            }
            func mix(_ a: UInt32, _ b: UInt32) -> UInt8 { UInt8((a * 32768 + b * 32768 + 32768) >> 16) }
            let decal = run(.decal)
            // v − 0.5 = y exactly (fy = 0); sx = x − 0.5: texel −1 (transparent) mixes into pixel 0.
            #expect(decal[0] == RGBA8(r: mix(0, 100), g: 0, b: 0, a: mix(0, 200)))
            #expect(decal[1] == RGBA8(r: mix(100, 51), g: mix(0, 10), b: 0, a: mix(200, 255)))
            #expect(decal[2] == RGBA8(r: mix(51, 0), g: mix(10, 0), b: 0, a: mix(255, 0)))
            #expect(decal[3] == .transparent)
            let clamp = run(.clamp)
            #expect(clamp[0] == RGBA8(r: 100, g: 0, b: 0, a: 200))
            #expect(clamp[1] == RGBA8(r: mix(100, 51), g: mix(0, 10), b: 0, a: mix(200, 255)))
            #expect(clamp[3] == RGBA8(r: 51, g: 10, b: 0, a: 255))
        }
    }

    /// Points behind the viewer (Q <= 0) are never drawn, even in clamp mode.
    @Test(arguments: backends) func projectiveSkipsNegativeW(backend: RasterBackend) {
        let texels = [UInt32](repeating: RGBA8.white.packed, count: 4)
        texels.withUnsafeBufferPointer { tp in
            let image = RasterImage(pixels: tp.baseAddress!, width: 2, height: 2, bytesPerRow: 8)
            // Q = 1 − 0.1·x: positive for x < 10 only.
            let inv = ProjectiveInverse([0, 0, 0.5, 0, 0, 0.5, -0.1, 0, 1])
            var out = [UInt32](repeating: 0, count: 20)
            out.withUnsafeMutableBufferPointer { o in
                ImageSampler.drawProjectiveSpan(row: o.baseAddress!, y: 0, x0: 0, x1: 20, image: image, inverse: inv,
                                                edge: .clamp, backend: backend)
            }
            #expect(out[0..<10].allSatisfy { $0 == RGBA8.white.packed })
            #expect(out[10...].allSatisfy { $0 == 0 })
        }
    }
}

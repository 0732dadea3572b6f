import Testing
@testable import FlipbookRaster
import FlipbookPixels

/// Known values of the blend formulas, worked by hand, on both backends (on the portable one
/// alone where the CPU lacks AVX2).
@Suite struct SpanBlendValueTests {
    /// `.portable`, and `.native` where the CPU has AVX2 (never the portable kernel twice).
    static let backends = RasterBackend.testedHere

    @Test(arguments: backends) func opacityThenSourceOver(backend: RasterBackend) {
        // s = opaque red at opacity 204: s' = (204, 0, 0, 204); over opaque blue:
        // d' = (204 + 0, 0, 0 + round(255·51/255) = 51, 204 + 51 = 255)
        var dst: [UInt32] = [RGBA8(r: 0, g: 0, b: 255, a: 255).packed]
        let src: [UInt32] = [RGBA8(r: 255, g: 0, b: 0, a: 255).packed]
        SpanBlend.sourceOver(&dst, source: src, count: 1, opacity: 204, backend: backend)
        #expect(RGBA8(packed: dst[0]) == RGBA8(r: 204, g: 0, b: 51, a: 255))
    }

    @Test(arguments: backends) func halfTransparentOverGray(backend: RasterBackend) {
        // s = (100, 50, 0, 128), d = (200, 200, 200, 255): 255 − 128 = 127,
        // div255(200·127) = round(99.607) = 100  →  (200, 150, 100, 255)
        var dst = [UInt32](repeating: RGBA8(r: 200, g: 200, b: 200, a: 255).packed, count: 11)
        let src = [UInt32](repeating: RGBA8(r: 100, g: 50, b: 0, a: 128).packed, count: 11)
        SpanBlend.sourceOver(&dst, source: src, count: 11, backend: backend)
        #expect(dst.allSatisfy { RGBA8(packed: $0) == RGBA8(r: 200, g: 150, b: 100, a: 255) })
    }

    @Test(arguments: backends) func coverageScalesOpacity(backend: RasterBackend) {
        // k = div255(204 · 128) = round(102.4) = 102; s' = div255(255·102) = 102 (all channels)
        var dst: [UInt32] = [0, 0]
        let src = [UInt32](repeating: RGBA8.white.packed, count: 2)
        let coverage: [UInt8] = [128, 0]
        SpanBlend.sourceOver(&dst, source: src, count: 2, opacity: 204, coverage: coverage, backend: backend)
        #expect(RGBA8(packed: dst[0]) == RGBA8(r: 102, g: 102, b: 102, a: 102))
        #expect(dst[1] == 0)
    }

    @Test(arguments: backends) func solidOverWithCoverage(backend: RasterBackend) {
        // colour (0, 128, 0, 128) × coverage 255 / 0 / 51 over black:
        // 51: s' = (0, div255(128·51) = 26, 0, 26); d' = (0, 26, 0, 26 + div255(255·229) = 255)
        var dst = [UInt32](repeating: RGBA8.black.packed, count: 3)
        let coverage: [UInt8] = [255, 0, 51]
        SpanBlend.solidOver(&dst, color: RGBA8(r: 0, g: 128, b: 0, a: 128), count: 3, coverage: coverage, backend: backend)
        #expect(RGBA8(packed: dst[0]) == RGBA8(r: 0, g: 128, b: 0, a: 255))
        #expect(RGBA8(packed: dst[1]) == .black)
        #expect(RGBA8(packed: dst[2]) == RGBA8(r: 0, g: 26, b: 0, a: 255))
    }

    @Test func simdSwitchSelectsTheBackend() {
        // Only reads: other suites run in parallel, so the global mode is not changed here.
        let expected: RasterBackend = RasterConfiguration.simd == .portable || !RasterBackend.nativeAvailable ? .portable : .native
        #expect(RasterBackend.current == expected)
        #expect(RasterBackend.native.effective == (RasterBackend.nativeAvailable ? .native : .portable))
    }
}

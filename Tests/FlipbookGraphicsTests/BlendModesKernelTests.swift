import Testing
import Foundation
import FlipbookPixels
import FlipbookRaster

/// The normal mode of `BlendModes` (the generic per-pixel path of CGContext) and the span kernels
/// the context uses for normal-mode fills, images and layers give the same bytes.
@Suite struct BlendModesKernelTests {
    @Test func normalModeMatchesTheSpanKernels() {
        var g = SystemRandomNumberGenerator()
        func premultiplied() -> UInt32 {
            let a = UInt32.random(in: 0...255, using: &g)
            var p = a << 24
            for shift in [0, 8, 16] as [UInt32] { p |= UInt32.random(in: 0...a, using: &g) << shift }
            return p
        }
        let n = 4096
        let src = (0..<n).map { _ in premultiplied() }
        let dst = (0..<n).map { _ in premultiplied() }
        let cov = (0..<n).map { i in i % 7 == 0 ? 255 : UInt8.random(in: 0...255, using: &g) }
        let want = (0..<n).map { BlendModes.blend(src[$0], dst[$0], mode: .normal, coverage: cov[$0]) }
        for backend in [RasterBackend.portable, .current] {
            var over = dst
            over.withUnsafeMutableBufferPointer { d in
                src.withUnsafeBufferPointer { s in cov.withUnsafeBufferPointer { c in
                    SpanBlend.sourceOver(d.baseAddress!, source: s.baseAddress!, count: n, opacity: 255, coverage: c.baseAddress, backend: backend)
                } }
            }
            #expect(over == want)
            var solid = dst
            let color = src[1]
            solid.withUnsafeMutableBufferPointer { d in
                cov.withUnsafeBufferPointer { c in
                    SpanBlend.solidOver(d.baseAddress!, color: RGBA8(packed: color), count: n, coverage: c.baseAddress, backend: backend)
                }
            }
            #expect(solid == (0..<n).map { BlendModes.blend(color, dst[$0], mode: .normal, coverage: cov[$0]) })
        }
    }

    @Test func coverageZeroAndFullAreExact() {
        for mode in RasterBlendMode.allCases {
            let s: UInt32 = 0x80_40_20_10, d: UInt32 = 0xFF_30_60_90
            #expect(BlendModes.blend(s, d, mode: mode, coverage: 0) == d)
            #expect(BlendModes.blend(s, d, mode: mode, coverage: 255) == BlendModes.blend(s, d, mode: mode))
        }
        #expect(BlendModes.blend(0x80_40_20_10, 0xFF_30_60_90, mode: .clear) == 0)
        #expect(BlendModes.blend(0x80_40_20_10, 0xFF_30_60_90, mode: .copy) == 0x80_40_20_10)
    }
}

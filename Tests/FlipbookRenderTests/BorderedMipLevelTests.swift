import Testing
@testable import FlipbookRender
import Flipbook
import FlipbookPixels
import FlipbookRaster
import Foundation

/// The compositor's mip levels keep a bordered copy (`BorderedTexture`) for small textures only,
/// and contents drawn from it are the bytes drawn without it (the kernels' equality is
/// `BorderedTextureTests`; here the whole compositor path, rotated layers at their edges).
@Suite struct BorderedMipLevelTests {
    @Test func smallLevelsGetABorderedCopyLargeOnesDoNot() {
        let small = _MipLevel(PixelBuffer.testPattern(width: 32, height: 32, index: 1))
        #expect(small.bordered?.width == 32 && small.bordered?.height == 32)
        #expect(small.bordered?.padded.width == 34 && small.bordered?.padded.height == 34)
        let limit = _MipLevel(PixelBuffer.testPattern(width: 254, height: 254, index: 2))
        #expect(limit.bordered != nil)                       // 256 × 256 = 65,536 with the border
        let large = _MipLevel(PixelBuffer.testPattern(width: 255, height: 254, index: 3))
        #expect(large.bordered == nil)
    }

    /// Rotated 32×32 image layers (W6a's shape, partly off the canvas, at fractional positions)
    /// through the compositor, whose native samplers read the bordered copy, against the
    /// portable backend's render, which never reads the border (the Swift twins). Skipped where
    /// the CPU lacks AVX2 (both would be the portable path).
    @Test(.enabled(if: RasterBackend.nativeAvailable, "no AVX2: the native kernels do not run on this CPU"))
    func borderedRenderEqualsThePortableOne() throws {
        let tree = VirtualRunLoop().run { () -> RenderLayer in
            let image = CGImage(pixelBuffer: PixelBuffer.testPattern(width: 32, height: 32, index: 7))
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 160, height: 120)
            for i in 0..<12 {
                let l = CALayer()
                l.bounds = CGRect(x: 0, y: 0, width: 32, height: 32)
                l.position = CGPoint(x: -6 + Double(i) * 14.37, y: 10 + Double(i % 4) * 29.3)
                l.transform = CATransform3DMakeRotation(Double(i) * 0.61 + 0.2, 0, 0, 1)
                l.opacity = 0.8
                l.contents = image
                root.addSublayer(l)
            }
            return root.makeRenderTree()
        }
        let grey = RGBA8(r: 32, g: 32, b: 32, a: 255)
        let saved = RasterConfiguration.simd
        defer { RasterConfiguration.simd = saved }
        RasterConfiguration.simd = .auto
        let native = try TestScene.render(tree, 160, 120, background: grey)
        RasterConfiguration.simd = .portable
        let portable = try TestScene.render(tree, 160, 120, background: grey)
        var differing = 0
        for y in 0..<120 { for x in 0..<160 where native[x, y] != portable[x, y] { differing += 1 } }
        #expect(differing == 0, "\(differing) pixels differ from the portable render")
        var drawn = 0                                      // the layers are there
        for y in 0..<120 { for x in 0..<160 where native[x, y] != grey { drawn += 1 } }
        #expect(drawn > 8_000)
    }
}

import Testing
@testable import FlipbookRender
import Flipbook
import FlipbookPixels
import Foundation

/// `contentsCrossfade`: a same-size dissolve is exact per byte; sizes that differ draw both.
@Suite struct CrossfadeTests {
    func layer(_ x: ContentsCrossfade?, contents: CGImage? = nil) -> RenderLayer {
        let box = RenderLayer(bounds: CGRect(x: 0, y: 0, width: 4, height: 4), position: CGPoint(x: 2, y: 2),
                                contents: contents, contentsCrossfade: x)
        return TestScene.root(4, 4, [box])
    }

    @Test func sameSizeBlendIsExact() throws {
        let red = TestScene.image(4, 4, .red), blue = TestScene.image(4, 4, .blue)
        // q = round(0.25 · 255) = 64: red (255·191 + 127) / 255 = 191, blue (255·64 + 127) / 255 = 64.
        let img = try TestScene.render(layer(ContentsCrossfade(from: red, to: blue, fraction: 0.25), contents: blue), 4, 4)
        #expect(img[2, 2] == RGBA8(r: 191, g: 0, b: 64, a: 255))
        // Out of range fractions clamp; the crossfade wins over `contents`.
        let end = try TestScene.render(layer(ContentsCrossfade(from: red, to: blue, fraction: 1.3), contents: red), 4, 4)
        #expect(end[1, 1] == .blue)
        let start = try TestScene.render(layer(ContentsCrossfade(from: red, to: nil, fraction: -0.2)), 4, 4)
        #expect(start[1, 1] == .red)
    }

    @Test func nilSideFadesTheOther() throws {
        let red = TestScene.image(4, 4, .red)
        // `to` nil at 0.5: red at opacity ½ over the black background → 128 (source-over rounding).
        let img = try TestScene.render(layer(ContentsCrossfade(from: red, to: nil, fraction: 0.5)), 4, 4)
        #expect(abs(Int(img[2, 2].r) - 128) <= 1 && img[2, 2].g == 0 && img[2, 2].a == 255)
    }
}

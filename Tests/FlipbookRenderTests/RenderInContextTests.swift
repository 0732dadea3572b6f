import Testing
@testable import FlipbookRender
@testable import Flipbook
@testable import FlipbookGraphics
import FlipbookPixels
import Foundation

/// `CALayer.render(in:)`: the layer's own coordinate space through the CTM (its position and
/// transform ignored), model values (animations ignored), the same pixels as the compositor,
/// composited with the context's state.
@Suite struct RenderInContextTests {
    static let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    static let blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)

    /// A bitmap context flipped to UIKit's orientation (origin top-left, y down), as iOS code
    /// renders a layer into an image: what `UIGraphicsImageRenderer` sets up.
    static func context(_ w: Int, _ h: Int) -> CGContext {
        let c = bitmap(w, h)
        c.translateBy(x: 0, y: CGFloat(h))
        c.scaleBy(x: 1, y: -1)
        return c
    }

    /// A plain bitmap context (Apple's orientation: origin bottom-left, y up).
    static func bitmap(_ w: Int, _ h: Int) -> CGContext {
        CGContext(data: nil, width: w, height: h, bitsPerComponent: 8, bytesPerRow: 0,
                  space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
    }

    /// Into a plain bitmap context (y up) the layer's y-down space comes out upside down, as on
    /// iOS ("renderInContext: upside down in a CGBitmapContext" — the reason iOS code flips the
    /// CTM first): the blue sublayer at the layer's top-left lands at the bitmap's bottom-left.
    @Test func aPlainBitmapContextGetsTheLayerUpsideDown() {
        VirtualRunLoop().run {
            let l = CALayer()
            l.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
            l.backgroundColor = Self.red
            let s = CALayer()
            s.frame = CGRect(x: 0, y: 0, width: 3, height: 3)
            s.backgroundColor = Self.blue
            l.addSublayer(s)
            let up = Self.bitmap(10, 10)
            l.render(in: up)
            #expect(up._pixels[1, 8] == RGBA8(r: 0, g: 0, b: 255, a: 255))
            #expect(up._pixels[1, 1] == RGBA8(r: 255, g: 0, b: 0, a: 255))
            let flipped = Self.context(10, 10)
            l.render(in: flipped)
            #expect(flipped._pixels[1, 1] == RGBA8(r: 0, g: 0, b: 255, a: 255))
        }
    }

    /// A red 20×10 layer placed far away and rotated, with a blue 4×4 sublayer at (12, 2):
    /// rendered at the context's origin, unrotated, pixel for pixel.
    @Test func layerSpaceIgnoresOwnPlacement() {
        VirtualRunLoop().run {
            let l = CALayer()
            l.bounds = CGRect(x: 0, y: 0, width: 20, height: 10)
            l.position = CGPoint(x: 500, y: 300)
            l.transform = CATransform3DMakeRotation(0.7, 0, 0, 1)
            l.backgroundColor = Self.red
            let s = CALayer()
            s.frame = CGRect(x: 12, y: 2, width: 4, height: 4)
            s.backgroundColor = Self.blue
            l.addSublayer(s)
            let ctx = Self.context(24, 12)
            l.render(in: ctx)
            let px = ctx._pixels
            #expect(px[0, 0] == RGBA8(r: 255, g: 0, b: 0, a: 255))
            #expect(px[19, 9] == RGBA8(r: 255, g: 0, b: 0, a: 255))
            #expect(px[20, 5] == .transparent)
            #expect(px[5, 10] == .transparent)
            #expect(px[13, 3] == RGBA8(r: 0, g: 0, b: 255, a: 255))
            #expect(px[11, 3] == RGBA8(r: 255, g: 0, b: 0, a: 255))
        }
    }

    /// The CTM applies: translated by (4, 2) and scaled by 2, the 20×10 layer covers
    /// x 4…43, y 2…21 of the bitmap. Bounds with a non-zero origin: the bounds origin is at the
    /// user-space origin of the layer's coordinates (a point (x, y) of the layer lands at (x, y)).
    @Test func ctmScalesAndTranslates() {
        VirtualRunLoop().run {
            let l = CALayer()
            l.bounds = CGRect(x: 0, y: 0, width: 20, height: 10)
            l.backgroundColor = Self.red
            let ctx = Self.context(50, 30)
            ctx.translateBy(x: 4, y: 2)
            ctx.scaleBy(x: 2, y: 2)
            l.render(in: ctx)
            let px = ctx._pixels
            #expect(px[4, 2].a == 255 && px[43, 21].a == 255)
            #expect(px[3, 2].a == 0 && px[44, 21].a == 0 && px[4, 1].a == 0 && px[4, 22].a == 0)

            let o = CALayer()
            o.bounds = CGRect(x: 10, y: 10, width: 5, height: 5)
            o.backgroundColor = Self.blue
            let c2 = Self.context(20, 20)
            o.render(in: c2)
            #expect(c2._pixels[12, 12] == RGBA8(r: 0, g: 0, b: 255, a: 255))
            #expect(c2._pixels[9, 12].a == 0 && c2._pixels[15, 12].a == 0)
        }
    }

    /// Animations are ignored: a layer whose colour animates from blue renders its model red,
    /// while the compositor (presentation values) shows blue at the same time.
    @Test func drawsModelValues() {
        let loop = VirtualRunLoop()
        loop.run {
            let l = CALayer()
            l.bounds = CGRect(x: 0, y: 0, width: 8, height: 8)
            l.backgroundColor = Self.red
            let a = CABasicAnimation(keyPath: "backgroundColor")
            a.fromValue = Self.blue
            a.toValue = Self.blue
            a.duration = 10
            l.add(a, forKey: "c")
            loop.advance(by: 1)
            let ctx = Self.context(8, 8)
            l.render(in: ctx)
            #expect(ctx._pixels[4, 4] == RGBA8(r: 255, g: 0, b: 0, a: 255))
            #expect(l.presentation()?.backgroundColor == Self.blue)
        }
    }

    /// The context's state applies to the picture as a whole: with alpha 0.5, the red layer
    /// lands at half alpha; with a clip to the left half, the right half stays untouched.
    @Test func contextStateApplies() {
        VirtualRunLoop().run {
            let l = CALayer()
            l.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
            l.backgroundColor = Self.red
            let ctx = Self.context(10, 10)
            ctx.setAlpha(0.5)
            ctx.clip(to: CGRect(x: 0, y: 0, width: 5, height: 10))
            l.render(in: ctx)
            let px = ctx._pixels
            #expect(px[2, 5] == RGBA8(r: 128, g: 0, b: 0, a: 128))
            #expect(px[7, 5] == .transparent)
        }
    }

    /// A layer marked for display draws itself first: its `draw(in:)` shows in the picture.
    @Test func displaysMarkedLayersFirst() {
        final class Dot: CALayer {
            override func draw(in ctx: CGContext) {
                ctx.setFillColor(CGColor(red: 0, green: 0, blue: 1, alpha: 1))
                ctx.fill(CGRect(x: 2, y: 2, width: 2, height: 2))
            }
        }
        VirtualRunLoop().run {
            let l = Dot()
            l.bounds = CGRect(x: 0, y: 0, width: 8, height: 8)
            l.setNeedsDisplay()
            let ctx = Self.context(8, 8)
            l.render(in: ctx)
            #expect(ctx._pixels[3, 3] == RGBA8(r: 0, g: 0, b: 255, a: 255))
            #expect(ctx._pixels[5, 5] == .transparent)
        }
    }
}

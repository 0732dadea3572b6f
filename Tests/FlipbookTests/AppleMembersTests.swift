import Testing
@testable import Flipbook
import FlipbookPixels
import Foundation

/// Members found missing or different in the walk of Apple's headers (issue 37, item 6), and
/// what they do: `CAEmitterCell.style`, the cell's archive initializer and KVC through its
/// properties, `CAEmitterLayer`'s mode keys through KVC, and
/// `CATextLayer.allowsFontSubpixelQuantization` (default NO, per CATextLayer.h) selecting the
/// quarter-pixel glyph grid instead of the rasterizer's 1/256 px.
@Suite struct AppleMembersTests {
    /// CAEmitterCell.h: `@property(nullable, copy) NSDictionary *style;` — `[AnyHashable: Any]?`
    /// in Swift, nil by default; stored and read back, by property and by KVC.
    @Test func emitterCellStyle() {
        let c = CAEmitterCell()
        #expect(c.style == nil)
        c.style = ["birthRate": 4, "nested": ["a": 1]]
        #expect(c.style?["birthRate"] as? Int == 4)
        #expect((c.value(forKey: "style") as? [AnyHashable: Any])?["nested"] != nil)
        c.setValue(nil, forKey: "style")
        #expect(c.style == nil)
        // Stored only: property values are not read from it (as for layers, docs/model.md).
        c.style = ["birthRate": Float(9)]
        #expect(c.birthRate == 0)
    }

    /// `CAEmitterCell` is `NSSecureCoding` on Apple: `init?(coder:)` exists and is required, and
    /// `init()` is not — so an iOS subclass with its own initializer compiles unchanged.
    /// Flipbook does not archive: the initializer returns nil.
    @Test func emitterCellInitializers() {
        final class Confetti: CAEmitterCell {
            let hue: CGFloat
            init(hue: CGFloat) { self.hue = hue; super.init() }
            required init?(coder: NSCoder) { hue = 0; super.init(coder: coder) }
        }
        #expect(Confetti(hue: 0.3).hue == 0.3 && Confetti(hue: 0.3).birthRate == 0)
        #expect(Confetti(coder: NSCoder()) == nil && CAEmitterCell(coder: NSCoder()) == nil)
    }

    /// KVC on a cell reaches its declared properties (Apple's keys; numbers of any type
    /// coerced; `isEnabled` also under its Swift name); other keys are stored; a wrong type is
    /// ignored (reported on standard error), leaving the property unchanged.
    @Test func emitterCellKVC() {
        let c = CAEmitterCell()
        c.setValue(5, forKey: "birthRate")
        #expect(c.birthRate == 5 && c.value(forKey: "birthRate") as? Float == 5)
        c.velocity = 40
        #expect(c.value(forKey: "velocity") as? CGFloat == 40)
        c.setValue(NSNumber(value: 0.25), forKey: "alphaSpeed")
        #expect(c.alphaSpeed == 0.25)
        c.setValue(false, forKey: "enabled")
        #expect(!c.isEnabled && c.value(forKey: "isEnabled") as? Bool == false)
        c.setValue(NSValue(cgRect: CGRect(x: 0, y: 0, width: 0.5, height: 0.5)), forKey: "contentsRect")
        #expect(c.contentsRect == CGRect(x: 0, y: 0, width: 0.5, height: 0.5))
        c.setValue("nearest", forKey: "magnificationFilter")
        #expect(c.magnificationFilter == "nearest")
        c.setValue("fast", forKey: "scale")                 // wrong type: ignored
        #expect(c.scale == 1)
        c.setValue("spark", forKey: "kind")                 // a custom key: stored
        #expect(c.value(forKey: "kind") as? String == "spark")
        let child = CAEmitterCell()
        c.setValue([child], forKey: "emitterCells")
        #expect(c.emitterCells?.first === child)
    }

    /// CAEmitterLayer's `emitterShape`, `emitterMode`, `renderMode` and `preservesDepth` are
    /// reachable by KVC (the constant or its `String`, as Apple's `NSString` constants), through
    /// the properties — so a scene file or `setValue(_:forKey:)` changes what is drawn.
    @Test func emitterLayerModeKeys() {
        withRunLoop { _ in
            let e = CAEmitterLayer()
            e.setValue("line", forKey: "emitterShape")
            e.setValue(CAEmitterLayerEmitterMode.outline, forKey: "emitterMode")
            e.setValue("additive", forKey: "renderMode")
            e.setValue(true, forKey: "preservesDepth")
            #expect(e.emitterShape == .line && e.emitterMode == .outline && e.renderMode == .additive && e.preservesDepth)
            #expect(e.value(forKey: "emitterShape") as? CAEmitterLayerEmitterShape == .line)
            #expect(e._extras["emitterShape"] == nil)     // not a stray custom key
            e.setValue(3.0, forKey: "seed")
            #expect(e.seed == 3)
        }
    }

    /// Whether `layer.draw(in:)` (the text layer's own drawing, as `display()` calls it, into a
    /// context set up as a backing store's: y down, scale 2) moved right by `dx` device pixels
    /// gives the same pixels as unmoved. (Compared here, not in `#expect`, so that a failure does
    /// not print two bitmaps.)
    static func same(_ layer: CATextLayer, _ dx: CGFloat, _ dx2: CGFloat = 0) -> Bool {
        pixels(layer, dx: dx) == pixels(layer, dx: dx2)
    }

    static func pixels(_ layer: CATextLayer, dx: CGFloat) -> [UInt8] {
        let ctx = CGContext(data: nil, width: 60, height: 40, bitsPerComponent: 8, bytesPerRow: 0,
                            space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
        ctx._orientTopDown()
        ctx.translateBy(x: dx, y: 0)
        ctx.scaleBy(x: 2, y: 2)
        layer.draw(in: ctx)
        return ctx._pixels.bytes
    }

    /// `allowsFontSubpixelQuantization`: false (the default) places glyph origins on the
    /// rasterizer's 1/256 px grid, so moving the text by 1/32 px changes its pixels; true rounds them to the **nearest** quarter pixel, so 0.1 px
    /// draws as 0 and 0.2 px as 0.25 (not floored to 0). Changing it redisplays the layer.
    @Test func subpixelQuantizationSelectsTheQuarterPixelGrid() {
        withRunLoop { _ in
            let t = CATextLayer()
            t.bounds = CGRect(x: 0, y: 0, width: 30, height: 20)
            t.string = "I"                        // one glyph, its origin at x = 0
            t.fontSize = 14
            t.foregroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)

            #expect(!Self.same(t, 1.0 / 32))                               // the fine grid sees 1/32 px
            #expect(Self.pixels(t, dx: 0).contains { $0 != 0 })           // something is drawn

            t.displayIfNeeded()
            #expect(!t.needsDisplay())
            t.allowsFontSubpixelQuantization = true
            #expect(t.needsDisplay())                                     // it changes the pixels: redisplay
            #expect(Self.same(t, 1.0 / 32))                               // 1/32 px rounds to 0
            #expect(Self.same(t, 0.1))                                    // the nearest quarter of 0.1 is 0
            #expect(!Self.same(t, 0.25))
            #expect(Self.same(t, 0.2, 0.25))                              // nearest, not floored
            #expect(Self.same(t, 0.3, 0.25))
            #expect(Self.same(t, 1.1, 1))                                 // whole pixels keep their phase

            // Large text: quantized, 0.1 px rounds to 0 as small text does; not quantized, the
            // origin is on the rasterizer's 1/256 px grid, so 0.1 px moves it.
            t.fontSize = 72
            let big = Self.pixels(t, dx: 0.1)
            #expect(big.contains { $0 != 0 })
            #expect(Self.same(t, 0.1))
            t.allowsFontSubpixelQuantization = false
            #expect(Self.pixels(t, dx: 0.1) != big)
        }
    }
}

import Testing
@testable import FlipbookRender
@testable import Flipbook
@testable import FlipbookGraphics
import FlipbookPixels
import Foundation

/// `isGeometryFlipped`: the sublayer space is reflected (positions measured from the bottom
/// edge), images stay upright (`contentsAreFlipped()`), `draw(in:)` follows the geometry, and
/// the model's conversions agree with the pixels.
@Suite struct GeometryFlippedTests {
    static let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    static let blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
    static let redPx = RGBA8(r: 255, g: 0, b: 0, a: 255)
    static let bluePx = RGBA8(r: 0, g: 0, b: 255, a: 255)

    static func render(_ root: CALayer, _ w: Int, _ h: Int) -> PixelBuffer {
        try! Compositor(threadCount: 1).render(root.makeRenderTree(), width: w, height: h)
    }

    /// A 2×2 image: top row red, bottom row blue.
    static let twoRows: CGImage = {
        var pb = PixelBuffer(width: 2, height: 2)
        pb[0, 0] = redPx; pb[1, 0] = redPx; pb[0, 1] = bluePx; pb[1, 1] = bluePx
        return CGImage(pixelBuffer: pb)
    }()

    @Test func defaultsAndKVC() {
        VirtualRunLoop().run {
            let l = CALayer()
            #expect(l.isGeometryFlipped == false)
            #expect(CALayer.defaultValue(forKey: "geometryFlipped") as? Bool == false)
            l.setValue(true, forKey: "geometryFlipped")
            #expect(l.isGeometryFlipped)
            #expect(l.value(forKey: "geometryFlipped") as? Bool == true)
        }
    }

    /// A 10×10 sublayer at frame origin (0, 0) of a flipped 100×100 layer sits at the bottom:
    /// the conversions say so, and so do the pixels.
    @Test func sublayerPositionsAreMeasuredFromTheBottom() {
        VirtualRunLoop().run {
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
            root.isGeometryFlipped = true
            let s = CALayer()
            s.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
            s.backgroundColor = Self.red
            root.addSublayer(s)
            #expect(root.convert(CGPoint(x: 0, y: 0), from: s) == CGPoint(x: 0, y: 100))
            #expect(root.convert(CGPoint(x: 0, y: 10), from: s) == CGPoint(x: 0, y: 90))
            #expect(root.hitTest(CGPoint(x: 5, y: 95)) === s)
            #expect(root.hitTest(CGPoint(x: 5, y: 5)) === root)
            let px = Self.render(root, 100, 100)
            #expect(px[5, 95] == Self.redPx)
            #expect(px[5, 5] == .transparent)
        }
    }

    /// Images stay upright: in a flipped superlayer the red top row of the image is still on
    /// top; the sublayer reports `contentsAreFlipped()`, the flipped layer itself does not, and
    /// a second flip below cancels the first.
    @Test func contentsStayUpright() {
        VirtualRunLoop().run {
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 40, height: 40)
            root.isGeometryFlipped = true
            let s = CALayer()
            s.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
            s.contents = Self.twoRows
            s.magnificationFilter = .nearest
            root.addSublayer(s)
            let deeper = CALayer()
            s.addSublayer(deeper)
            let back = CALayer()
            s.isGeometryFlipped = false
            deeper.isGeometryFlipped = true
            deeper.addSublayer(back)
            #expect(!root.contentsAreFlipped())
            #expect(s.contentsAreFlipped())
            #expect(deeper.contentsAreFlipped())
            #expect(!back.contentsAreFlipped())
            let px = Self.render(root, 40, 40)
            // s occupies rows 20…39; its top half red, bottom half blue.
            #expect(px[10, 22] == Self.redPx)
            #expect(px[10, 37] == Self.bluePx)
            #expect(px[10, 10] == .transparent)
        }
    }

    /// `draw(in:)` follows the geometry: filling y 0…5 of a 20×10 layer (its top half in
    /// unflipped geometry) lands on its bottom half on screen when the superlayer is flipped.
    @Test func drawingFollowsTheGeometry() {
        final class Half: CALayer {
            override func draw(in ctx: CGContext) {
                ctx.setFillColor(CGColor(red: 0, green: 0, blue: 1, alpha: 1))
                ctx.fill(CGRect(x: 0, y: 0, width: 20, height: 5))
            }
        }
        let loop = VirtualRunLoop()
        loop.run {
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 20, height: 30)
            root.isGeometryFlipped = true
            let h = Half()
            h.frame = CGRect(x: 0, y: 0, width: 20, height: 10)
            root.addSublayer(h)
            h.setNeedsDisplay()
            loop.attach(root)
            loop.endTurn()
            #expect(h.contents != nil)
            let px = Self.render(root, 20, 30)
            // h occupies rows 20…29; geometry y 0…5 is rows 25…29.
            #expect(px[10, 27] == Self.bluePx)
            #expect(px[10, 22] == .transparent)
        }
    }

    /// The mask is in its owner's own space: the owner's flag does not reflect it.
    @Test func maskIsNotReflected() {
        VirtualRunLoop().run {
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
            root.backgroundColor = Self.red
            root.isGeometryFlipped = true
            let m = CALayer()
            m.frame = CGRect(x: 0, y: 0, width: 20, height: 5)
            m.backgroundColor = Self.blue
            root.mask = m
            let px = Self.render(root, 20, 20)
            #expect(px[10, 2] == Self.redPx)
            #expect(px[10, 17] == .transparent)
        }
    }
}

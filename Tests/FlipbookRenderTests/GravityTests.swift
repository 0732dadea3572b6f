import Testing
@testable import FlipbookRender
import Flipbook
import FlipbookPixels
import Foundation

/// Every `contentsGravity`: a 4×4 blue image in a 12×12 layer (12×6 for the aspect modes).
/// Vertical names follow iOS Core Animation (flipped contents): `top` is at the bottom edge.
@Suite struct GravityTests {
    /// Bounding box `(x0, y0, x1, y1)` of blue pixels, and their count.
    static func blueBox(_ img: PixelBuffer) -> (Int, Int, Int, Int, Int) {
        var b = (Int.max, Int.max, Int.min, Int.min, 0)
        for y in 0..<img.height { for x in 0..<img.width where img[x, y] == .blue {
            b = (min(b.0, x), min(b.1, y), max(b.2, x + 1), max(b.3, y + 1), b.4 + 1)
        } }
        return b
    }

    static func render(_ g: CALayerContentsGravity, w: Double = 12, h: Double = 12) throws -> PixelBuffer {
        let layer = TestScene.box(CGRect(x: 0, y: 0, width: w, height: h), nil, contents: TestScene.image(4, 4, .blue)) {
            $0.gravity = g; $0.filter = .nearest
        }
        return try TestScene.render(TestScene.root(w, h, [layer]), Int(w), Int(h))
    }

    @Test(arguments: [
        (CALayerContentsGravity.center, 4, 4), (.left, 0, 4), (.right, 8, 4),
        (.top, 4, 8), (.bottom, 4, 0),
        (.topLeft, 0, 8), (.topRight, 8, 8), (.bottomLeft, 0, 0), (.bottomRight, 8, 0),
    ])
    func fixedSizeGravities(_ g: CALayerContentsGravity, _ x: Int, _ y: Int) throws {
        let b = Self.blueBox(try Self.render(g))
        #expect(b.0 == x && b.1 == y && b.2 == x + 4 && b.3 == y + 4 && b.4 == 16, "\(g.rawValue): \(b)")
    }

    @Test func scalingGravities() throws {
        let resize = Self.blueBox(try Self.render(.resize, w: 12, h: 6))
        #expect(resize.0 == 0 && resize.1 == 0 && resize.2 == 12 && resize.3 == 6 && resize.4 == 72)
        let aspect = Self.blueBox(try Self.render(.resizeAspect, w: 12, h: 6))
        #expect(aspect.0 == 3 && aspect.1 == 0 && aspect.2 == 9 && aspect.3 == 6 && aspect.4 == 36)
        let fill = Self.blueBox(try Self.render(.resizeAspectFill, w: 12, h: 6))
        #expect(fill.0 == 0 && fill.1 == 0 && fill.2 == 12 && fill.3 == 6 && fill.4 == 72)
    }

    @Test func contentsRectSelectsASubImage() throws {
        var b = PixelBuffer(width: 4, height: 4)
        for y in 0..<4 { for x in 0..<4 { b[x, y] = x < 2 ? .red : .blue } }
        let layer = TestScene.box(CGRect(x: 0, y: 0, width: 8, height: 8), nil, contents: CGImage(pixelBuffer: b)) {
            $0.contentsRect = CGRect(x: 0.5, y: 0, width: 0.5, height: 1)
        }
        let img = try TestScene.render(TestScene.root(8, 8, [layer]), 8, 8)
        // Only the blue half, stretched; clamping keeps red from bleeding in at the left edge.
        for y in 0..<8 { for x in 0..<8 { #expect(img[x, y] == .blue) } }
    }

    @Test func contentsCenterKeepsCapsAndStretchesTheMiddle() throws {
        // 3×3 image: red frame, green centre texel; nine-part with the centre texel stretching.
        var b = PixelBuffer(width: 3, height: 3)
        for y in 0..<3 { for x in 0..<3 { b[x, y] = (x == 1 && y == 1) ? .green : .red } }
        let layer = TestScene.box(CGRect(x: 0, y: 0, width: 12, height: 12), nil, contents: CGImage(pixelBuffer: b)) {
            $0.contentsCenter = CGRect(x: 1.0 / 3, y: 1.0 / 3, width: 1.0 / 3, height: 1.0 / 3); $0.filter = .nearest
        }
        let img = try TestScene.render(TestScene.root(12, 12, [layer]), 12, 12)
        #expect(img[0, 0] == .red && img[0, 6] == .red && img[11, 11] == .red)
        #expect(img[1, 6] == .green && img[6, 6] == .green && img[10, 1] == .green)
    }
}

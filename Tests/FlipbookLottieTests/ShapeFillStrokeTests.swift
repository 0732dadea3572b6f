import Testing
import Foundation
import FlipbookPixels
@testable import FlipbookLottie

/// Fills (rule, opacity, stacking) and strokes (width, caps, joins, miter limit), in pixels.
@Suite struct ShapeFillStrokeTests {
    /// Two clockwise squares, one inside the other: non-zero fills the middle, even-odd
    /// leaves it empty.
    @Test(arguments: [false, true]) func fillRule(_ evenOdd: Bool) throws {
        let img = try ShapeTest.render([ShapeTest.rect(50, 50, 60, 60), ShapeTest.rect(50, 50, 20, 20),
                                        ShapeTest.fill(1, 0, 0, evenOdd: evenOdd)])
        #expect(img.rgba(30, 50) == [255, 0, 0, 255])
        #expect(img.rgba(50, 50) == (evenOdd ? [0, 0, 0, 0] : [255, 0, 0, 255]))
        #expect(img.rgba(5, 5) == [0, 0, 0, 0])
    }

    /// The fill's opacity (0–100) is the layer's opacity: 50 % red over nothing.
    @Test func fillOpacity() throws {
        let img = try ShapeTest.render([ShapeTest.rect(50, 50, 60, 60), ShapeTest.fill(1, 0, 0, opacity: 50)])
        #expect(near(img.rgba(50, 50), [128, 0, 0, 128], 1))
    }

    /// Items are top-most first: the stroke listed before the fill is drawn over it; a style
    /// draws only the shapes listed before it.
    @Test func stackingAndScope() throws {
        let items = [ShapeTest.rect(50, 50, 60, 60), ShapeTest.stroke(0, 0, 1, width: 10), ShapeTest.fill(1, 0, 0),
                     ShapeTest.rect(90, 90, 10, 10)]
        let img = try ShapeTest.render(items)
        #expect(img.rgba(22, 50) == [0, 0, 255, 255])   // on the stroke (x = 20 ± 5), over the fill
        #expect(img.rgba(50, 50) == [255, 0, 0, 255])
        #expect(img.rgba(90, 90) == [0, 0, 0, 0])       // the last rectangle has no style after it
        let layers = ShapeTest.shapeLayers(ShapeTest.layers(items))
        #expect(layers.count == 2)
        #expect(layers[0].fillColor != nil && layers[1].strokeColor != nil)   // bottom-most first
    }

    /// Caps: an open horizontal line from x = 30 to 70, width 10. Butt stops at the ends,
    /// square reaches 5 past them, round reaches 5 past them on the axis only.
    @Test(arguments: [1, 2, 3]) func lineCaps(_ cap: Int) throws {
        let line = ShapeTest.path(ShapeTest.polyline([CGPoint(x: 30, y: 50), CGPoint(x: 70, y: 50)], closed: false))
        let img = try ShapeTest.render([line, ShapeTest.stroke(0, 0, 0, width: 10, cap: cap)])
        #expect(img.rgba(50, 50)[3] == 255)
        #expect(img.rgba(27, 50)[3] == (cap == 1 ? 0 : 255))
        #expect(img.rgba(74, 54)[3] == (cap == 3 ? 255 : 0))   // the square cap's corner, outside the round one
        let shape = try #require(ShapeTest.shapeLayers(ShapeTest.layers([line, ShapeTest.stroke(0, 0, 0, width: 10, cap: cap)])).first)
        #expect(shape.lineCap == [CAShapeLayerLineCap.butt, .round, .square][cap - 1])
        #expect(shape.fillColor == nil && shape.lineWidth == 10)
    }

    /// Joins and the miter limit at a right-angle corner (30,70) → (30,30) → (70,30), width 10:
    /// a miter fills the outer corner square up to (25,25); round and bevel do not reach its
    /// corner pixel; with a miter limit
    /// of 1 the miter falls back to a bevel.
    @Test(arguments: [(1, 4.0), (3, 4.0), (1, 1.0), (2, 4.0)]) func joins(_ join: Int, _ miter: Double) throws {
        let corner = ShapeTest.path(ShapeTest.polyline([CGPoint(x: 30, y: 70), CGPoint(x: 30, y: 30), CGPoint(x: 70, y: 30)], closed: false))
        let img = try ShapeTest.render([corner, ShapeTest.stroke(0, 0, 0, width: 10, join: join, miter: miter)])
        let mitered = join == 1 && miter > 1.5
        #expect(img.rgba(25, 25)[3] == (mitered ? 255 : 0))
        #expect(img.rgba(30, 30)[3] == 255)
    }
}

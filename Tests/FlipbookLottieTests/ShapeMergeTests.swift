import Testing
import Foundation
import FlipbookPixels
@testable import FlipbookLottie

/// Merge paths: add, subtract, intersect, exclude — the styles after the merge fill and stroke
/// the combined outline; styles before it still draw the separate shapes.
@Suite struct ShapeMergeTests {
    static func merge(_ mode: Int) -> LottieShapeItem { LottieShapeItem(kind: .merge(mode: mode)) }
    /// A: x 20…60, B: x 40…80 (both y 30…70).
    static let a = ShapeTest.rect(40, 50, 40, 40), b = ShapeTest.rect(60, 50, 40, 40)

    /// (only A, both, only B) filled for each mode.
    @Test(arguments: [(2, [true, true, true]), (3, [true, false, false]), (4, [false, true, false]), (5, [true, false, true])])
    func fills(_ mode: Int, _ expected: [Bool]) throws {
        let img = try ShapeTest.render([Self.a, Self.b, Self.merge(mode), ShapeTest.fill(1, 0, 0)])
        for (x, filled) in zip([30, 50, 70], expected) {
            #expect(img.rgba(x, 50) == (filled ? [255, 0, 0, 255] : [0, 0, 0, 0]), "mode \(mode) at x = \(x)")
        }
        #expect(img.rgba(50, 20)[3] == 0)
    }

    /// A stroke after an add strokes the union's outline only: not B's left side inside A.
    @Test func strokeOfTheUnion() throws {
        let merged = try ShapeTest.render([Self.a, Self.b, Self.merge(2), ShapeTest.stroke(0, 0, 0, width: 4)])
        #expect(merged.rgba(40, 50)[3] == 0)
        #expect(merged.rgba(20, 50)[3] == 255 && merged.rgba(80, 50)[3] == 255 && merged.rgba(50, 30)[3] == 255)
        let plain = try ShapeTest.render([Self.a, Self.b, ShapeTest.stroke(0, 0, 0, width: 4)])
        #expect(plain.rgba(40, 50)[3] == 255)
    }

    /// Curves: a disc minus a rectangle covering its right half leaves the left half-disc.
    @Test func curvedSubtract() throws {
        let img = try ShapeTest.render([ShapeTest.ellipse(50, 50, 60, 60), ShapeTest.rect(80, 50, 60, 100), Self.merge(3),
                                        ShapeTest.fill(0, 0, 1)])
        #expect(img.rgba(35, 50) == [0, 0, 255, 255])
        #expect(img.rgba(65, 50)[3] == 0)
        #expect(img.rgba(50, 22)[3] == 0 && img.rgba(45, 25) == [0, 0, 255, 255])
    }

    /// A style listed before the merge draws the shapes as they were.
    @Test func stylesBeforeTheMergeDrawTheShapes() throws {
        let img = try ShapeTest.render([Self.a, Self.b, ShapeTest.stroke(0, 1, 0, width: 2), Self.merge(3), ShapeTest.fill(1, 0, 0)])
        #expect(img.rgba(80, 50) == [0, 255, 0, 255])   // B's right side, stroked
        #expect(img.rgba(70, 50)[3] == 0)               // B itself is not filled
        #expect(img.rgba(30, 50) == [255, 0, 0, 255])
    }

    /// Shapes from nested groups merge through their transforms; the merge is computed per
    /// frame when they animate.
    @Test func animatedOperands() throws {
        try ShapeTest.run {
            let context = ShapeTest.context()
            let moving = LottieShapeItem(kind: .rectangle(LottieRectangle(position: ShapeTest.kf((0, [60, 50]), (100, [100, 50])),
                                                                          size: ShapeTest.v(40, 40), roundness: ShapeTest.v(0), reversed: false)))
            let layers = ShapeTest.layers([ShapeTest.group([Self.a]), moving, Self.merge(3), ShapeTest.fill(1, 0, 0)], context: context)
            #expect(ShapeTest.shapeLayers(layers).first is LottieComputedShapeLayer)
            let imgs = try ShapeTest.render(at: [0, 100], context: context) { layers }
            #expect(imgs[0].rgba(50, 50)[3] == 0 && imgs[0].rgba(30, 50)[3] == 255)
            #expect(imgs[1].rgba(50, 50)[3] == 255)
        }
    }

    /// rlottie's sample cooking (the pot's lid): a mode-1 merge makes a stray one-vertex loop and
    /// the lid outline one operand, then an intersect with a group of two copies of a large
    /// square drawn in opposite directions keeps the lid — each square is an operand of its own,
    /// so the two do not cancel, and the stray loop does not empty the intersection.
    @Test func mergeThenIntersectKeepsTheCompound() throws {
        let dot = LottieShapeItem(kind: .path(LottieAnimated(LottieBezier(closed: true, vertices: [CGPoint(x: 50, y: 50)],
                                                                           inTangents: [CGPoint(x: -1, y: 0)], outTangents: [CGPoint(x: 1, y: 0)])),
                                              reversed: false))
        let square: (Bool) -> LottieShapeItem = { reversed in
            let pts = [CGPoint(x: 0, y: 0), CGPoint(x: 100, y: 0), CGPoint(x: 100, y: 100), CGPoint(x: 0, y: 100)]
            return ShapeTest.path(ShapeTest.polyline(reversed ? pts.reversed() : pts, closed: true))
        }
        let items = [dot, Self.a, Self.merge(1), ShapeTest.group([square(false), square(true)]), Self.merge(4), ShapeTest.fill(1, 0, 0)]
        let img = try ShapeTest.render(items)
        #expect(img.rgba(30, 50) == [255, 0, 0, 255])   // inside A
        #expect(img.rgba(70, 50)[3] == 0)                // outside A
    }
}

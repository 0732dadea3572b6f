import Testing
import Foundation
@testable import FlipbookLottie

/// The outlines of rectangles, ellipses, stars, polygons and free paths: vertex order, start
/// point, direction and handles, as After Effects (lottie-web, lottie-ios, ThorVG) build them.
@Suite struct ShapeGeometryTests {
    typealias E = ShapeTest.CGPathElementValue
    let k = LottieShapeGeometry.kappa

    func pathOf(_ items: [LottieShapeItem]) -> CGPath? {
        ShapeTest.shapeLayers(ShapeTest.layers(items)).first?.path
    }

    @Test func squareRectangleStartsAtTheTopRightCornerGoingClockwise() {
        let p = pathOf([ShapeTest.rect(50, 50, 40, 20), ShapeTest.fill(1, 0, 0)])
        #expect(ShapeTest.elements(p) == [.move(CGPoint(x: 70, y: 40)), .line(CGPoint(x: 70, y: 60)), .line(CGPoint(x: 30, y: 60)),
                                          .line(CGPoint(x: 30, y: 40)), .line(CGPoint(x: 70, y: 40)), .close])
    }

    @Test func reversedRectangleGoesAlongTheTopFirst() {
        let b = LottieShapeGeometry.rectangle(center: CGPoint(x: 50, y: 50), size: CGSize(width: 40, height: 20), roundness: 0, reversed: true)
        #expect(b.vertices == [CGPoint(x: 70, y: 40), CGPoint(x: 30, y: 40), CGPoint(x: 30, y: 60), CGPoint(x: 70, y: 60)])
    }

    @Test func roundedRectangleHasEightVerticesAndQuarterArcs() {
        let b = LottieShapeGeometry.rectangle(center: CGPoint(x: 50, y: 50), size: CGSize(width: 40, height: 20), roundness: 5, reversed: false)
        #expect(b.vertices.count == 8)
        #expect(b.vertices[0] == CGPoint(x: 70, y: 45))
        #expect(b.vertices[1] == CGPoint(x: 70, y: 55))
        #expect(b.vertices[2] == CGPoint(x: 65, y: 60))
        // The corner from (70, 55) to (65, 60): handles 5·κ long, along the edges.
        let c = b.cubics[1]
        #expect(abs(c.c1.y - (55 + 5 * k)) < 1e-12 && c.c1.x == 70)
        #expect(abs(c.c2.x - (65 + 5 * k)) < 1e-12 && c.c2.y == 60)
        // Roundness larger than half the short side is clamped to it.
        let clamped = LottieShapeGeometry.rectangle(center: .zero, size: CGSize(width: 40, height: 20), roundness: 50, reversed: false)
        #expect(clamped.vertices[0] == CGPoint(x: 20, y: 0) && clamped.vertices[1] == CGPoint(x: 20, y: 0))
    }

    @Test func ellipseIsFourArcsFromTheTopClockwise() {
        let p = pathOf([ShapeTest.ellipse(50, 50, 40, 20), ShapeTest.fill(1, 0, 0)])
        let e = ShapeTest.elements(p)
        #expect(e.first == .move(CGPoint(x: 50, y: 40)))
        #expect(e[1] == .curve(CGPoint(x: 50 + 20 * k, y: 40), CGPoint(x: 70, y: 50 - 10 * k), CGPoint(x: 70, y: 50)))
        #expect(e[2] == .curve(CGPoint(x: 70, y: 50 + 10 * k), CGPoint(x: 50 + 20 * k, y: 60), CGPoint(x: 50, y: 60)))
        #expect(e.count == 6 && e.last == .close)
    }

    @Test func polygonVerticesAndRoundness() {
        let sharp = LottieShapeGeometry.polygon(center: CGPoint(x: 50, y: 50), points: 4, radius: 10, roundness: 0, rotation: 0, reversed: false)
        let expected = [CGPoint(x: 50, y: 40), CGPoint(x: 60, y: 50), CGPoint(x: 50, y: 60), CGPoint(x: 40, y: 50)]
        #expect(zip(sharp.vertices, expected).allSatisfy { hypot($0.x - $1.x, $0.y - $1.y) < 1e-9 })
        #expect(sharp.outTangents.allSatisfy { $0 == .zero })
        // Roundness 100 %: tangents (2π / n) · r / 4 long, perpendicular to the radius.
        let round = LottieShapeGeometry.polygon(center: .zero, points: 4, radius: 10, roundness: 1, rotation: 0, reversed: false)
        let h = 2 * Double.pi / 4 * 10 / 4
        #expect(abs(round.outTangents[0].x - h) < 1e-9 && abs(round.outTangents[0].y) < 1e-9)
        #expect(abs(round.inTangents[0].x + h) < 1e-9)
        // Rotation turns the start point clockwise.
        let turned = LottieShapeGeometry.polygon(center: .zero, points: 4, radius: 10, roundness: 0, rotation: 90, reversed: false)
        #expect(abs(turned.vertices[0].x - 10) < 1e-9 && abs(turned.vertices[0].y) < 1e-9)
    }

    @Test func starAlternatesOuterAndInnerRadiiWithRoundness() {
        let s = LottieShapeGeometry.star(center: .zero, points: 5, outerRadius: 20, innerRadius: 10, outerRoundness: 0.5,
                                         innerRoundness: 0, rotation: 0, reversed: false)
        #expect(s.vertices.count == 10)
        #expect(abs(s.vertices[0].x) < 1e-9 && abs(s.vertices[0].y + 20) < 1e-9)
        let a = -54 * Double.pi / 180
        #expect(abs(s.vertices[1].x - 10 * cos(a)) < 1e-9 && abs(s.vertices[1].y - 10 * sin(a)) < 1e-9)
        // Outer roundness: handles radius · roundness · (0.47829 / 0.28) / points, clockwise.
        let h = 20 * 0.5 * (0.47829 / 0.28) / 5
        #expect(abs(s.outTangents[0].x - h) < 1e-9 && abs(s.outTangents[0].y) < 1e-9)
        #expect(abs(s.inTangents[0].x + h) < 1e-9)
        // Inner vertices have no roundness here.
        #expect(hypot(s.inTangents[1].x, s.inTangents[1].y) < 1e-9)
    }

    @Test func fractionalStarDrawsAPartialPoint() {
        let s = LottieShapeGeometry.star(center: .zero, points: 2.5, outerRadius: 20, innerRadius: 10, outerRoundness: 0,
                                         innerRoundness: 0, rotation: 0, reversed: false)
        #expect(s.vertices.count == 6)
        // The partial point's radius lies between the inner and outer radii.
        #expect(abs(hypot(s.vertices[0].x, s.vertices[0].y) - 15) < 1e-9)
        #expect(abs(hypot(s.vertices[1].x, s.vertices[1].y) - 10) < 1e-9)
        #expect(abs(hypot(s.vertices[2].x, s.vertices[2].y) - 20) < 1e-9)
    }

    @Test func freePathIsDrawnAsGiven() {
        let b = LottieBezier(closed: false, vertices: [CGPoint(x: 10, y: 10), CGPoint(x: 90, y: 10)],
                             inTangents: [.zero, CGPoint(x: 0, y: 30)], outTangents: [CGPoint(x: 0, y: 30), .zero])
        let p = pathOf([ShapeTest.path(b), ShapeTest.stroke(0, 0, 1, width: 2)])
        #expect(ShapeTest.elements(p) == [.move(CGPoint(x: 10, y: 10)), .curve(CGPoint(x: 10, y: 40), CGPoint(x: 90, y: 40), CGPoint(x: 90, y: 10))])
    }

    @Test func roundedCornersModifierRoundsSharpVertices() {
        let r = LottieShapeItem(kind: .roundedCorners(radius: ShapeTest.v(5)))
        let p = pathOf([ShapeTest.rect(50, 50, 40, 20), r, ShapeTest.fill(1, 0, 0)])
        let e = ShapeTest.elements(p)
        // Each of the 4 corners became two vertices: 8 segments (4 lines, 4 corner curves).
        // The first corner (70, 40) now starts 5 before it, on the top edge.
        #expect(e.first == .move(CGPoint(x: 65, y: 40)))
        #expect(e[1] == .curve(CGPoint(x: 65 + 5 * k, y: 40), CGPoint(x: 70, y: 45 - 5 * k), CGPoint(x: 70, y: 45)))
        #expect(e[2] == .line(CGPoint(x: 70, y: 55)))
        #expect(e[3] == .curve(CGPoint(x: 70, y: 55 + 5 * k), CGPoint(x: 65 + 5 * k, y: 60), CGPoint(x: 65, y: 60)))
        #expect(e.filter { if case .curve = $0 { return true }; return false }.count == 4)
    }
}

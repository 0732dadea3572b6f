import Testing
import Foundation
@testable import FlipbookLottie

/// Offset paths (`op`): outlines grown and shrunk, each line join, direction-independent,
/// open paths outlined, and the item through the mapping in pixels.
@Suite struct ShapeOffsetPathTests {
    static let square = LottieShapeGeometry.rectangle(center: CGPoint(x: 50, y: 50), size: CGSize(width: 20, height: 20),
                                                      roundness: 0, reversed: false)

    /// The area of a closed bezier (shoelace over a fine flattening), positive either way round.
    static func area(_ b: LottieBezier) -> Double {
        var pts: [CGPoint] = []
        for c in b.cubics { for i in 0..<64 { pts.append(c.point(Double(i) / 64)) } }
        var a = 0.0
        for i in pts.indices { let p = pts[i], q = pts[(i + 1) % pts.count]; a += p.x * q.y - p.y * q.x }
        return abs(a) / 2
    }

    static func bounds(_ b: LottieBezier) -> CGRect { b.cgPath().boundingBoxOfPath }

    @Test func miterGrowsASquareByTheAmountOnEverySide() {
        let grown = LottieOffsetPath.offset(Self.square, amount: 3, lineJoin: 1, miterLimit: 4)
        #expect(grown.closed)
        let r = Self.bounds(grown)
        #expect(abs(r.minX - 37) < 1e-9 && abs(r.maxX - 63) < 1e-9 && abs(r.minY - 37) < 1e-9 && abs(r.maxY - 63) < 1e-9)
        #expect(abs(Self.area(grown) - 26 * 26) < 1e-6)
    }

    @Test func negativeAmountsShrinkWithCleanCorners() {
        let shrunk = LottieOffsetPath.offset(Self.square, amount: -3, lineJoin: 1, miterLimit: 4)
        let r = Self.bounds(shrunk)
        #expect(abs(r.minX - 43) < 1e-9 && abs(r.maxX - 57) < 1e-9 && abs(r.minY - 43) < 1e-9 && abs(r.maxY - 57) < 1e-9)
        #expect(abs(Self.area(shrunk) - 14 * 14) < 1e-6)
        // Every vertex is one of the four corners (the inner corners are cut, no spikes).
        let corners: Set<String> = ["43.0,43.0", "57.0,43.0", "57.0,57.0", "43.0,57.0"]
        #expect(shrunk.vertices.allSatisfy { corners.contains("\($0.x),\($0.y)") }, "\(shrunk.vertices)")
    }

    @Test func bevelAndRoundJoinsCutAndRoundTheCorners() {
        let bevel = LottieOffsetPath.offset(Self.square, amount: 3, lineJoin: 3, miterLimit: 4)
        // 20² + four 20 × 3 sides + four right triangles with legs 3.
        #expect(abs(Self.area(bevel) - (400 + 240 + 4 * 4.5)) < 1e-6)
        let round = LottieOffsetPath.offset(Self.square, amount: 3, lineJoin: 2, miterLimit: 4)
        #expect(abs(Self.area(round) - (400 + 240 + .pi * 9)) < 0.05)
        #expect(abs(Self.bounds(round).minX - 37) < 1e-6)
    }

    /// A miter longer than the limit (as for strokes: the miter over the offset) is bevelled.
    @Test func miterLimitBevelsSharpCorners() {
        // A right angle's miter is √2 ≈ 1.41 times the offset.
        let limited = LottieOffsetPath.offset(Self.square, amount: 3, lineJoin: 1, miterLimit: 1.3)
        let bevel = LottieOffsetPath.offset(Self.square, amount: 3, lineJoin: 3, miterLimit: 4)
        #expect(abs(Self.area(limited) - Self.area(bevel)) < 1e-9)
        let allowed = LottieOffsetPath.offset(Self.square, amount: 3, lineJoin: 1, miterLimit: 1.5)
        #expect(abs(Self.area(allowed) - 26 * 26) < 1e-6)
    }

    /// Positive grows whichever way the shape is drawn (ThorVG's rule; lottie-web would shrink
    /// a reversed shape).
    @Test func reversedShapesGrowToo() {
        let reversed = LottieShapeGeometry.rectangle(center: CGPoint(x: 50, y: 50), size: CGSize(width: 20, height: 20),
                                                     roundness: 0, reversed: true)
        #expect(abs(Self.area(LottieOffsetPath.offset(reversed, amount: 3, lineJoin: 1, miterLimit: 4)) - 26 * 26) < 1e-6)
    }

    /// A circle's offset is (very nearly) the circle of radius r + a.
    @Test func curvesStayWithinAFractionOfAPointOfTheTrueOffset() {
        let circle = LottieShapeGeometry.ellipse(center: CGPoint(x: 50, y: 50), size: CGSize(width: 40, height: 40), reversed: false)
        let grown = LottieOffsetPath.offset(circle, amount: 6, lineJoin: 1, miterLimit: 4)
        var worst = 0.0
        for c in grown.cubics {
            for i in 0...16 {
                let p = c.point(Double(i) / 16)
                worst = max(worst, abs(hypot(p.x - 50, p.y - 50) - 26))
            }
        }
        #expect(worst < 0.05, "\(worst)")
    }

    /// An open path becomes the closed outline around it; round joins cap its ends.
    @Test func openPathsAreOutlined() {
        let line = LottieBezier(closed: false, vertices: [CGPoint(x: 10, y: 50), CGPoint(x: 90, y: 50)],
                                inTangents: [.zero, .zero], outTangents: [.zero, .zero])
        let butt = LottieOffsetPath.offset(line, amount: 4, lineJoin: 1, miterLimit: 4)
        #expect(butt.closed && abs(Self.area(butt) - 80 * 8) < 1e-6)
        let round = LottieOffsetPath.offset(line, amount: 4, lineJoin: 2, miterLimit: 4)
        #expect(abs(Self.area(round) - (80 * 8 + .pi * 16)) < 0.05)
    }

    @Test func zeroAndNonFiniteAmountsLeaveThePath() {
        #expect(LottieOffsetPath.offset(Self.square, amount: 0, lineJoin: 1, miterLimit: 4) == Self.square)
        #expect(LottieOffsetPath.offset(Self.square, amount: .nan, lineJoin: 1, miterLimit: 4) == Self.square)
        #expect(LottieOffsetPath.offset(Self.square, amount: .infinity, lineJoin: 2, miterLimit: 4) == Self.square)
    }

    /// The `op` item in a shape list: a 20 × 20 square grown by 5 fills 30 × 30 pixels.
    @Test func offsetItemGrowsTheFilledShape() throws {
        let op = LottieShapeItem(kind: .offsetPath(amount: ShapeTest.v(5), lineJoin: 1, miterLimit: ShapeTest.v(4)))
        let px = try ShapeTest.render([ShapeTest.rect(50, 50, 20, 20), op, ShapeTest.fill(1, 0, 0)])
        #expect(px.opaqueCount(x: 0..<100, y: 0..<100) == 900)
        #expect(px.rgba(36, 50)[3] == 255 && px.rgba(34, 50)[3] == 0)
    }
}

import Testing
import Foundation
@testable import FlipbookLottie

/// Zig-zag (`zz`), as lottie-web's `ZigZagModifier` builds it.
@Suite struct ShapeZigZagTests {
    static let square = ShapeTest.polyline([CGPoint(x: 40, y: 0), CGPoint(x: 40, y: 40), CGPoint(x: 0, y: 40), CGPoint(x: 0, y: 0)],
                                           closed: true)

    static func near(_ a: CGPoint, _ x: Double, _ y: Double) -> Bool { abs(a.x - x) < 1e-9 && abs(a.y - y) < 1e-9 }

    /// One ridge per side: the corners move in (across the line from their neighbours), the
    /// ridges out, alternately; the first corner's point closes the path again.
    @Test func cornersGoInAndRidgesOutOnAClockwiseSquare() {
        let z = LottieVertexModifiers.zigZag(Self.square, amplitude: 5, ridges: 1, smooth: false)
        let d = 5 / 2.0.squareRoot()
        #expect(z.closed && z.vertices.count == 9)
        #expect(Self.near(z.vertices[0], 40 - d, d))
        #expect(Self.near(z.vertices[1], 45, 20))
        #expect(Self.near(z.vertices[2], 40 - d, 40 - d))
        #expect(Self.near(z.vertices[3], 20, 45))
        #expect(Self.near(z.vertices[8], 40 - d, d))
        #expect(z.inTangents.allSatisfy { $0 == .zero } && z.outTangents.allSatisfy { $0 == .zero })
    }

    /// Smooth points: handles along the path, chord / (2·(ridges + 1)) long.
    @Test func smoothPointsHaveHandlesAlongThePath() {
        let z = LottieVertexModifiers.zigZag(Self.square, amplitude: 5, ridges: 1, smooth: true)
        // The ridge on the right side (going down): handles 40 / 4 = 10 down and up.
        #expect(Self.near(z.outTangents[1], 0, 10) && Self.near(z.inTangents[1], 0, -10))
    }

    /// A long path gets fewer ridges per segment: at most 100 000 points per subpath.
    @Test func pointsPerSubpathAreBounded() {
        let many = ShapeTest.polyline((0..<2000).map { CGPoint(x: Double($0), y: Double($0 % 2)) }, closed: false)
        let z = LottieVertexModifiers.zigZag(many, amplitude: 1, ridges: 1000, smooth: false)
        #expect(z.vertices.count <= LottieVertexModifiers.maximumZigZagPoints + 1 && z.vertices.count > 90_000)
    }

    /// No ridges: only the corners move; zero amplitude: the path as it was.
    @Test func ridgesZeroAndAmplitudeZero() {
        let corners = LottieVertexModifiers.zigZag(Self.square, amplitude: 5, ridges: 0, smooth: false)
        #expect(corners.vertices.count == 5)
        #expect(LottieVertexModifiers.zigZag(Self.square, amplitude: 0, ridges: 3, smooth: false) == Self.square)
    }

    /// The `zz` item in a shape list is drawn (no warning), its ridge count clamped.
    @Test func zigZagItemIsAppliedAndClamped() throws {
        let zz = LottieShapeItem(kind: .zigZag(amplitude: ShapeTest.v(5), ridges: ShapeTest.v(1), pointType: ShapeTest.v(1)))
        let context = ShapeTest.context()
        let p = ShapeTest.run { ShapeTest.shapeLayers(ShapeTest.layers([ShapeTest.rect(50, 50, 40, 40), zz, ShapeTest.fill(1, 0, 0)],
                                                                       context: context)).first?.path }
        #expect(p?.boundingBoxOfPath.maxX == 75)   // the right side's ridge, 5 out
        #expect(!context.warnings.contains { $0.feature.contains("zig") })
        let huge = LottieShapeItem(kind: .zigZag(amplitude: ShapeTest.v(1), ridges: ShapeTest.v(1e9), pointType: ShapeTest.v(1)))
        let q = ShapeTest.run { ShapeTest.shapeLayers(ShapeTest.layers([ShapeTest.rect(50, 50, 40, 40), huge, ShapeTest.fill(1, 0, 0)])).first?.path }
        var points = 0
        q?.applyWithBlock { _ in points += 1 }
        #expect(points > 4000 && points < 4100)
    }
}

import Testing
import Foundation
import FlipbookPixels
@testable import FlipbookLottie

/// Layer effects drawn with Core Animation's properties: drop shadow (25) and fill (21), in
/// pixels.
@Suite struct LayerEffectTests {
    /// A drop shadow: opaque black unless told, no blur.
    static func dropShadow(direction: Double, distance: Double, softness: Double = 0, opacity: Double = 255,
                           color: LottieVector = [0, 0, 0, 1]) -> LottieEffect {
        LottieEffect(type: 25, name: "Drop Shadow", enabled: true,
                     values: [LottieAnimated(color), LottieAnimated([opacity]), LottieAnimated([direction]),
                              LottieAnimated([distance]), LottieAnimated([softness]), LottieAnimated([0])])
    }

    static func fill(_ color: LottieVector, opacity: Double = 1) -> LottieEffect {
        LottieEffect(type: 21, name: "Fill", enabled: true,
                     values: [LottieAnimated([0]), LottieAnimated([0]), LottieAnimated(color), LottieAnimated([0]),
                              LottieAnimated([0]), LottieAnimated([0]), LottieAnimated([opacity])])
    }

    /// A white 20 × 20 square shape layer centred at (30, 30), rotated by `rotation`.
    static func square(rotation: Double = 0) -> LottieLayer {
        let items = [ShapeTest.rect(0, 0, 20, 20), ShapeTest.fill(1, 1, 1)]
        return LottieLayer(kind: .shape(items), inPoint: 0, outPoint: 100,
                           transform: LT.transform(position: [30, 30], rotation: rotation))
    }

    /// Direction 90° (right), distance 15: the shadow covers x 35…55; the square itself stays
    /// white; nothing beyond the shadow.
    @Test func dropShadowFallsInTheDirectionAtTheDistance() throws {
        var l = Self.square()
        l.effects = [Self.dropShadow(direction: 90, distance: 15)]
        let px = try MappedScene(LT.composition([l])).render(atFrame: 0)
        #expect(px.rgba(30, 30) == [255, 255, 255, 255])
        #expect(px.rgba(45, 30) == [0, 0, 0, 255], "\(px.rgba(45, 30))")
        #expect(px.rgba(57, 30)[3] == 0 && px.rgba(30, 45)[3] == 0)
        // Direction 180°: down.
        l.effects = [Self.dropShadow(direction: 180, distance: 15, opacity: 127.5, color: [1, 0, 0, 1])]
        let down = try MappedScene(LT.composition([l])).render(atFrame: 0)
        #expect(near(down.rgba(30, 45), [128, 0, 0, 128]), "\(down.rgba(30, 45))")
        #expect(down.rgba(45, 30)[3] == 0)
    }

    /// A shape layer's effects come after its transform: turned 90°, its shadow still falls
    /// down when the direction says down. A solid's come before: its shadow turns with it.
    @Test func shapeLayerShadowKeepsTheCompositionsDirection() throws {
        var l = Self.square(rotation: 90)
        l.effects = [Self.dropShadow(direction: 180, distance: 15)]
        let px = try MappedScene(LT.composition([l])).render(atFrame: 0)
        #expect(px.rgba(30, 45)[3] == 255 && px.rgba(15, 30)[3] == 0, "\(px.rgba(30, 45)) \(px.rgba(15, 30))")
        var solid = LT.solid("#ffffff", w: 20, h: 20, transform: LT.transform(anchor: [10, 10], position: [30, 30], rotation: 90))
        solid.effects = [Self.dropShadow(direction: 180, distance: 15)]
        let turned = try MappedScene(LT.composition([solid])).render(atFrame: 0)
        #expect(turned.rgba(15, 30)[3] == 255 && turned.rgba(30, 45)[3] == 0, "\(turned.rgba(15, 30)) \(turned.rgba(30, 45))")
    }

    /// Masks cut the content before the shadow is cast: the shadow of the masked left half only.
    @Test func masksCutTheContentNotItsShadow() throws {
        var l = Self.square()
        var m = LottieMask(mode: "a", path: LayerMaskTests.rect(-10, 0))
        m.path = LottieAnimated(LottieBezier(closed: true, vertices: [CGPoint(x: -10, y: -10), CGPoint(x: 0, y: -10),
                                                                       CGPoint(x: 0, y: 10), CGPoint(x: -10, y: 10)],
                                             inTangents: Array(repeating: .zero, count: 4), outTangents: Array(repeating: .zero, count: 4)))
        l.masks = [m]
        l.effects = [Self.dropShadow(direction: 90, distance: 15)]
        let px = try MappedScene(LT.composition([l])).render(atFrame: 0)
        #expect(px.rgba(25, 30) == [255, 255, 255, 255])
        // Masked content: x 20…30; its shadow x 35…45, nothing of the unmasked half's (45…55).
        #expect(px.rgba(40, 30) == [0, 0, 0, 255], "\(px.rgba(40, 30))")
        #expect(px.rgba(50, 30)[3] == 0, "\(px.rgba(50, 30))")
    }

    /// Softness blurs the shadow (σ = 0.3 × softness): its edge is no longer sharp.
    @Test func softnessBlursTheShadow() throws {
        var l = Self.square()
        l.effects = [Self.dropShadow(direction: 90, distance: 15, softness: 10)]
        let px = try MappedScene(LT.composition([l])).render(atFrame: 0)
        let edge = px.rgba(55, 30)[3]
        #expect(edge > 20 && edge < 235, "\(edge)")
        #expect(px.rgba(45, 30)[3] > 200)
    }

    /// Fill: the colour over the content, its coverage kept (semi-transparent stays so);
    /// nothing outside it, nothing of the layers below recoloured.
    @Test func fillRecoloursTheContent() throws {
        var below = LT.solid("#0000ff", w: 100, h: 100)
        below.name = "below"
        var l = LottieLayer(kind: .shape([ShapeTest.rect(0, 0, 20, 20), ShapeTest.fill(1, 1, 1, opacity: 50)]),
                            inPoint: 0, outPoint: 100, transform: LT.transform(position: [30, 30]))
        l.effects = [Self.fill([0, 1, 0, 1])]
        let px = try MappedScene(LT.composition([l, below])).render(atFrame: 0)
        #expect(near(px.rgba(30, 30), [0, 128, 127, 255]), "\(px.rgba(30, 30))")
        #expect(px.rgba(60, 60) == [0, 0, 255, 255])
    }
}

import Testing
import Foundation
import FlipbookPixels
@testable import FlipbookLottie

/// Repeaters: copies, offset, transform, start/end opacity, stacking; a replicator where Core
/// Animation's replication is the repeater's, explicit copies otherwise.
@Suite struct ShapeRepeaterTests {
    static func repeater(copies: LottieAnimated<LottieVector>, offset: Double = 0, position: CGPoint = .zero,
                         anchor: CGPoint = .zero, rotation: Double = 0, scale: Double = 100,
                         startOpacity: Double = 100, endOpacity: Double = 100, above: Bool = true) -> LottieShapeItem {
        var t = ShapeTest.transform(position: position, anchor: anchor, scale: scale, rotation: rotation)
        t.startOpacity = ShapeTest.v(startOpacity)
        t.endOpacity = ShapeTest.v(endOpacity)
        return LottieShapeItem(kind: .repeater(LottieRepeater(copies: copies, offset: ShapeTest.v(offset), stacksAbove: above, transform: t)))
    }

    static func containsReplicator(_ layers: [CALayer]) -> Bool {
        func visit(_ l: CALayer) -> Bool { l is CAReplicatorLayer || (l.sublayers ?? []).contains(where: visit) }
        return layers.contains(where: visit)
    }

    /// Three copies 30 apart, opacity 100 % → 50 %: the first copy has the start opacity, the
    /// last the end one, the middle one half way.
    @Test func copiesTransformAndOpacity() throws {
        let items = [ShapeTest.rect(10, 50, 10, 10), ShapeTest.fill(1, 0, 0),
                     Self.repeater(copies: ShapeTest.v(3), position: CGPoint(x: 30, y: 0), startOpacity: 100, endOpacity: 50)]
        #expect(Self.containsReplicator(ShapeTest.layers(items)))
        let img = try ShapeTest.render(items)
        #expect(img.rgba(10, 50) == [255, 0, 0, 255])
        #expect(near(img.rgba(40, 50), [191, 0, 0, 191], 1))
        #expect(near(img.rgba(70, 50), [128, 0, 0, 128], 1))
        #expect(img.rgba(95, 50)[3] == 0)
    }

    /// An offset of 1 starts one step further along.
    @Test func offset() throws {
        let img = try ShapeTest.render([ShapeTest.rect(10, 50, 10, 10), ShapeTest.fill(1, 0, 0),
                                        Self.repeater(copies: ShapeTest.v(3), offset: 1, position: CGPoint(x: 30, y: 0))])
        #expect(img.rgba(10, 50)[3] == 0)
        #expect(img.rgba(40, 50)[3] == 255 && img.rgba(70, 50)[3] == 255)
    }

    /// Four copies rotated 90° about the anchor (50, 50): top, right, bottom, left.
    @Test func rotationAboutTheAnchor() throws {
        let items = [ShapeTest.rect(50, 15, 10, 10), ShapeTest.fill(0, 0, 1),
                     Self.repeater(copies: ShapeTest.v(4), anchor: CGPoint(x: 50, y: 50), rotation: 90)]
        #expect(Self.containsReplicator(ShapeTest.layers(items)))
        let img = try ShapeTest.render(items)
        for (x, y) in [(50, 15), (85, 50), (50, 85), (15, 50)] { #expect(img.rgba(x, y) == [0, 0, 255, 255], "\(x), \(y)") }
        #expect(img.rgba(50, 50)[3] == 0)
    }

    /// Position and rotation together are not a power of one matrix (the position steps along
    /// a straight line): explicit copies, each rotated about its anchor.
    @Test func positionWithRotationStepsInALine() throws {
        let items = [ShapeTest.rect(10, 50, 10, 4), ShapeTest.fill(0, 0, 1),
                     Self.repeater(copies: ShapeTest.v(3), position: CGPoint(x: 30, y: 0), anchor: CGPoint(x: 10, y: 50), rotation: 90)]
        #expect(!Self.containsReplicator(ShapeTest.layers(items)))
        let img = try ShapeTest.render(items)
        // Copy 1 centred at (40, 50), turned upright (4 wide, 10 tall); copy 2 at (70, 50) flat again.
        #expect(img.rgba(40, 46)[3] == 255 && img.rgba(44, 50)[3] == 0)
        #expect(img.rgba(74, 50)[3] == 255 && img.rgba(70, 46)[3] == 0)
    }

    /// Composite above (`m: 1`) puts copy 0 on top, below (`m: 2`) at the bottom: copy 1's black
    /// outline crosses copy 0's red inside at (25, 50).
    @Test(arguments: [true, false]) func stacking(_ above: Bool) throws {
        let items = [ShapeTest.rect(30, 50, 20, 20), ShapeTest.stroke(0, 0, 0, width: 2), ShapeTest.fill(1, 0, 0),
                     Self.repeater(copies: ShapeTest.v(2), position: CGPoint(x: 5, y: 0), above: above)]
        let img = try ShapeTest.render(items)
        #expect(img.rgba(25, 50) == (above ? [255, 0, 0, 255] : [0, 0, 0, 255]))
    }

    /// Animated copies: explicit copies, hidden past ⌊c⌋ at each frame.
    @Test func animatedCopies() throws {
        try ShapeTest.run {
            let context = ShapeTest.context()
            let items = [ShapeTest.rect(10, 50, 10, 10), ShapeTest.fill(1, 0, 0),
                         Self.repeater(copies: ShapeTest.kf((0, [1]), (100, [3])), position: CGPoint(x: 30, y: 0))]
            let layers = ShapeTest.layers(items, context: context)
            #expect(!Self.containsReplicator(layers))
            let imgs = try ShapeTest.render(at: [0, 50, 100], context: context) { layers }
            #expect(imgs[0].rgba(10, 50)[3] == 255 && imgs[0].rgba(40, 50)[3] == 0)
            #expect(imgs[1].rgba(40, 50)[3] == 255 && imgs[1].rgba(70, 50)[3] == 0)
            #expect(imgs[2].rgba(70, 50)[3] == 255)
        }
    }

    /// A style after the repeater draws all the copies as one outline.
    @Test func styleAfterTheRepeaterDrawsEveryCopy() throws {
        let img = try ShapeTest.render([ShapeTest.rect(10, 50, 10, 10),
                                        Self.repeater(copies: ShapeTest.v(3), position: CGPoint(x: 30, y: 0), startOpacity: 100, endOpacity: 0),
                                        ShapeTest.fill(0, 1, 0)])
        for x in [10, 40, 70] { #expect(img.rgba(x, 50) == [0, 255, 0, 255]) }
    }

    /// 10⁹ copies are clamped, with a warning.
    @Test func hostileCopyCountIsClamped() {
        ShapeTest.run {
            let context = ShapeTest.context()
            let layers = ShapeTest.layers([ShapeTest.rect(10, 50, 1, 1), ShapeTest.fill(1, 0, 0),
                                           Self.repeater(copies: ShapeTest.v(1e9), position: CGPoint(x: 0.01, y: 0))], context: context)
            #expect(context.warnings.contains { $0.feature == "repeater copies" })
            #expect((layers.first as? CAReplicatorLayer)?.instanceCount == LottieShapeProgram.maximumCopies)
        }
    }

    /// A repeater around a group whose copy count animates up from 0 (rlottie's sample
    /// abstract_circle): each copy's layers hold that copy's outline alone — built at the first
    /// frame, where no copy is shown, it must not be empty — and show once the count reaches it.
    @Test func animatedCountFromZeroAroundAGroup() throws {
        try ShapeTest.run {
            let context = ShapeTest.context()
            let group = ShapeTest.group([ShapeTest.rect(50, 15, 10, 10), ShapeTest.fill(0, 0, 1)])
            let items = [group, Self.repeater(copies: ShapeTest.kf((0, [0]), (40, [4])), anchor: CGPoint(x: 50, y: 50), rotation: 90)]
            let layers = ShapeTest.layers(items, context: context)
            // Every copy's shape layer draws one square (6 elements: move, 4 lines, close).
            let shapes = ShapeTest.shapeLayers(layers)
            #expect(!shapes.isEmpty)
            for shape in shapes { #expect(ShapeTest.elements(shape.path).count == 6) }
            let imgs = try ShapeTest.render(at: [0, 25, 40], context: context) { layers }
            #expect(imgs[0].rgba(50, 15)[3] == 0)                                          // no copy yet
            #expect(imgs[1].rgba(50, 15)[3] == 255 && imgs[1].rgba(85, 50)[3] == 255)        // ⌊2.5⌋ = 2 copies
            #expect(imgs[1].rgba(50, 85)[3] == 0)
            for (x, y) in [(50, 15), (85, 50), (50, 85), (15, 50)] { #expect(imgs[2].rgba(x, y)[3] == 255, "\(x), \(y)") }
        }
    }
}

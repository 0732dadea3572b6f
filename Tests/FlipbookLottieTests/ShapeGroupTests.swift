import Testing
import Foundation
import FlipbookPixels
@testable import FlipbookLottie

/// Groups with transforms (static and animated), group opacity, hidden items, and path
/// keyframe animations.
@Suite struct ShapeGroupTests {
    /// A 20-point square rotated 45° about its centre, moved to (50, 50): a diamond.
    @Test func staticGroupTransform() throws {
        let t = ShapeTest.transform(position: CGPoint(x: 50, y: 50), anchor: .zero, rotation: 45)
        let img = try ShapeTest.render([ShapeTest.group([ShapeTest.rect(0, 0, 20, 20), ShapeTest.fill(1, 0, 0)], t)])
        #expect(img.rgba(50, 50) == [255, 0, 0, 255])
        #expect(img.rgba(62, 50) == [255, 0, 0, 255])   // along the diagonal, 14.1 reach
        #expect(img.rgba(58, 58)[3] == 0)               // the unrotated corner is cut off
    }

    /// The anchor is the point of the group placed at the position; scale is about it.
    @Test func anchorAndScale() throws {
        let t = ShapeTest.transform(position: CGPoint(x: 50, y: 50), anchor: CGPoint(x: 10, y: 10), scale: 200)
        let img = try ShapeTest.render([ShapeTest.group([ShapeTest.rect(10, 10, 10, 10), ShapeTest.fill(1, 0, 0)], t)])
        #expect(img.rgba(41, 41)[3] == 255 && img.rgba(58, 58)[3] == 255)
        #expect(img.rgba(38, 50)[3] == 0 && img.rgba(61, 50)[3] == 0)
    }

    /// Animated position, rotation and scale are Core Animation keyframes on the container
    /// (`position`, `transform.rotation.z`, `transform.scale.x/y`), drawing the right thing
    /// at each frame.
    @Test func animatedGroupTransform() throws {
        try ShapeTest.run {
            let context = ShapeTest.context()
            var t = ShapeTest.transform()
            t.position = .combined(ShapeTest.kf((0, [20, 50]), (100, [80, 50])))
            t.rotation = ShapeTest.kf((0, [0]), (100, [90]))
            t.scale = ShapeTest.kf((0, [100, 100]), (100, [100, 300]))
            let layers = ShapeTest.layers([ShapeTest.group([ShapeTest.rect(0, 0, 20, 4), ShapeTest.fill(1, 0, 0)], t)], context: context)
            let container = try #require(layers.first)
            let keys = Set(context.animatedLayers.first { $0.layer === container }?.animations.compactMap { ($0 as? CAPropertyAnimation)?.keyPath } ?? [])
            #expect(keys == ["position", "transform.rotation.z", "transform.scale.x", "transform.scale.y"])
            let imgs = try ShapeTest.render(at: [0, 100], context: context) { layers }
            // Frame 0: a flat bar at (20, 50). Frame 100: at (80, 50), turned upright, 20 × 12.
            #expect(imgs[0].rgba(28, 50)[3] == 255 && imgs[0].rgba(20, 54)[3] == 0)
            #expect(imgs[1].rgba(80, 58)[3] == 255 && imgs[1].rgba(84, 50)[3] == 255 && imgs[1].rgba(88, 50)[3] == 0)
        }
    }

    /// Group opacity multiplies each style inside (ThorVG's and After Effects' way): a 50 %
    /// group with a blue stroke over a red fill shows the fill through the stroke.
    @Test func groupOpacityMultipliesEachStyle() throws {
        let t = ShapeTest.transform(opacity: 50)
        let img = try ShapeTest.render([ShapeTest.group([ShapeTest.rect(50, 50, 60, 60), ShapeTest.stroke(0, 0, 1, width: 10),
                                                         ShapeTest.fill(1, 0, 0)], t)])
        #expect(near(img.rgba(50, 50), [128, 0, 0, 128], 1))
        #expect(near(img.rgba(22, 50), [64, 0, 128, 191], 2))
    }

    /// A style draws the shapes of the groups before it, through their transforms.
    @Test func outerStyleDrawsNestedShapesThroughTheirTransforms() throws {
        let inner = ShapeTest.group([ShapeTest.rect(0, 0, 10, 10)], ShapeTest.transform(position: CGPoint(x: 70, y: 30)))
        let img = try ShapeTest.render([inner, ShapeTest.rect(30, 70, 10, 10), ShapeTest.fill(0, 1, 0)])
        #expect(img.rgba(70, 30) == [0, 255, 0, 255])
        #expect(img.rgba(30, 70) == [0, 255, 0, 255])
        #expect(img.rgba(5, 5)[3] == 0)
    }

    /// Hidden items (`hd`) are not drawn: a hidden fill, a hidden shape, a hidden group.
    @Test func hiddenItems() throws {
        var hiddenFill = ShapeTest.fill(0, 0, 1); hiddenFill.hidden = true
        var hiddenRect = ShapeTest.rect(20, 20, 10, 10); hiddenRect.hidden = true
        var hiddenGroup = ShapeTest.group([ShapeTest.rect(80, 80, 10, 10), ShapeTest.fill(1, 1, 0)]); hiddenGroup.hidden = true
        let items = [hiddenGroup, hiddenRect, ShapeTest.rect(50, 50, 10, 10), hiddenFill, ShapeTest.fill(1, 0, 0)]
        let img = try ShapeTest.render(items)
        #expect(img.rgba(50, 50) == [255, 0, 0, 255])
        #expect(img.rgba(20, 20)[3] == 0 && img.rgba(80, 80)[3] == 0)
        #expect(ShapeTest.shapeLayers(ShapeTest.layers(items)).count == 1)
    }

    /// One animated free path with eased keyframes → a `path` CAKeyframeAnimation with the
    /// file's timing functions, on a plain shape layer.
    @Test func animatedPathIsAPathKeyframeAnimation() throws {
        try ShapeTest.run {
            let context = ShapeTest.context()
            let a = ShapeTest.polyline([CGPoint(x: 10, y: 10), CGPoint(x: 90, y: 10), CGPoint(x: 50, y: 40)], closed: true)
            let b = ShapeTest.polyline([CGPoint(x: 10, y: 60), CGPoint(x: 90, y: 60), CGPoint(x: 50, y: 90)], closed: true)
            let eased = LottieAnimated(keyframes: [
                LottieKeyframe(time: 0, value: a, outEase: [CGPoint(x: 0.4, y: 0)], inEase: [CGPoint(x: 0.6, y: 1)]),
                LottieKeyframe(time: 100, value: b)])
            let items = [LottieShapeItem(kind: .path(eased, reversed: false)), ShapeTest.fill(1, 0, 0)]
            let layers = ShapeTest.layers(items, context: context)
            let shape = try #require(ShapeTest.shapeLayers(layers).first)
            #expect(!(shape is LottieComputedShapeLayer))
            let anim = try #require(context.animatedLayers.first { $0.layer === shape }?.animations.first as? CAKeyframeAnimation)
            #expect(anim.keyPath == "path")
            #expect(anim.values?.count == 2 && anim.keyTimes?.map(\.doubleValue) == [0, 1])
            let f = try #require(anim.timingFunctions?.first)
            var c = [Float](repeating: 0, count: 2)
            f.getControlPoint(at: 1, values: &c)
            #expect(c == [0.4, 0])
            // Eased: at frame 50 the triangle is half way exactly where the curve says.
            let imgs = try ShapeTest.render(at: [0, 50, 100], context: context) { layers }
            #expect(imgs[0].rgba(50, 15)[3] == 255 && imgs[2].rgba(50, 70)[3] == 255)
            #expect(imgs[1].rgba(50, 45)[3] == 255 && imgs[1].rgba(50, 15)[3] == 0)
        }
    }

    /// An animated rectangle is computed per frame.
    @Test func animatedRectangleIsComputed() throws {
        try ShapeTest.run {
            let context = ShapeTest.context()
            let rect = LottieShapeItem(kind: .rectangle(LottieRectangle(position: ShapeTest.v(50, 50), size: ShapeTest.kf((0, [10, 10]), (100, [90, 90])),
                                                                        roundness: ShapeTest.v(0), reversed: false)))
            let layers = ShapeTest.layers([rect, ShapeTest.fill(1, 0, 0)], context: context)
            #expect(ShapeTest.shapeLayers(layers).first is LottieComputedShapeLayer)
            let imgs = try ShapeTest.render(at: [0, 50], context: context) { layers }
            #expect(imgs[0].rgba(30, 50)[3] == 0)
            #expect(imgs[1].rgba(30, 50)[3] == 255 && imgs[1].rgba(20, 50)[3] == 0)
        }
    }
}

import Testing
import Foundation
import FlipbookPixels
@testable import FlipbookLottie

/// Dashed strokes: static patterns, an animated offset (a `lineDashPhase` animation) and
/// animated lengths (computed per frame).
@Suite struct ShapeDashTests {
    static let line = ShapeTest.path(ShapeTest.polyline([CGPoint(x: 0, y: 50), CGPoint(x: 100, y: 50)], closed: false))

    static func dash(_ kind: String, _ v: LottieAnimated<LottieVector>) -> LottieStrokeStyle.Dash {
        LottieStrokeStyle.Dash(kind: kind, value: v)
    }

    @Test func staticPattern() throws {
        let items = [Self.line, ShapeTest.stroke(0, 0, 0, width: 6, dashes: [Self.dash("d", ShapeTest.v(10)), Self.dash("g", ShapeTest.v(10))])]
        let layer = try #require(ShapeTest.shapeLayers(ShapeTest.layers(items)).first)
        #expect(layer.lineDashPattern?.map(\.doubleValue) == [10, 10])
        let img = try ShapeTest.render(items)
        #expect(img.rgba(5, 50)[3] == 255)
        #expect(img.rgba(15, 50)[3] == 0)
        #expect(img.rgba(25, 50)[3] == 255)
    }

    /// The offset animates 0 → 20 over frames 0…100: at frame 50 the phase is 10, so the line
    /// starts with a gap.
    @Test func animatedOffsetIsTheDashPhase() throws {
        try ShapeTest.run {
            let context = ShapeTest.context()
            let items = [Self.line, ShapeTest.stroke(0, 0, 0, width: 6, dashes: [
                Self.dash("d", ShapeTest.v(10)), Self.dash("g", ShapeTest.v(10)), Self.dash("o", ShapeTest.kf((0, [0]), (100, [20])))])]
            let layers = ShapeTest.layers(items, context: context)
            let layer = try #require(ShapeTest.shapeLayers(layers).first)
            #expect(!(layer is LottieComputedShapeLayer))
            let animation = try #require(context.animatedLayers.first { $0.layer === layer }?.animations.first as? CAKeyframeAnimation)
            #expect(animation.keyPath == "lineDashPhase")
            let imgs = try ShapeTest.render(at: [0, 50], context: context) { layers }
            #expect(imgs[0].rgba(5, 50)[3] == 255 && imgs[0].rgba(15, 50)[3] == 0)
            #expect(imgs[1].rgba(5, 50)[3] == 0 && imgs[1].rgba(15, 50)[3] == 255)
        }
    }

    /// The dash length animates 10 → 30: at frame 50 the pattern is 20 on, 10 off.
    @Test func animatedLengthsAreComputed() throws {
        try ShapeTest.run {
            let context = ShapeTest.context()
            let items = [Self.line, ShapeTest.stroke(0, 0, 0, width: 6, dashes: [
                Self.dash("d", ShapeTest.kf((0, [10]), (100, [30]))), Self.dash("g", ShapeTest.v(10))])]
            let layers = ShapeTest.layers(items, context: context)
            #expect(ShapeTest.shapeLayers(layers).first is LottieComputedShapeLayer)
            let imgs = try ShapeTest.render(at: [0, 50], context: context) { layers }
            #expect(imgs[0].rgba(15, 50)[3] == 0)
            #expect(imgs[1].rgba(15, 50)[3] == 255 && imgs[1].rgba(25, 50)[3] == 0 && imgs[1].rgba(35, 50)[3] == 255)
        }
    }
}

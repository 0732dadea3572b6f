import Testing
import Foundation
import FlipbookPixels
@testable import FlipbookLottie

/// Gradient fills and strokes: linear and radial, highlight, colour and opacity stops.
@Suite struct ShapeGradientTests {
    static func gradient(radial: Bool = false, start: CGPoint, end: CGPoint, stops: [Double], colorCount: Int,
                         highlight: Double? = nil, angle: Double? = nil) -> LottieGradient {
        LottieGradient(isRadial: radial, start: ShapeTest.v(start.x, start.y), end: ShapeTest.v(end.x, end.y),
                       highlightLength: highlight.map { ShapeTest.v($0) }, highlightAngle: angle.map { ShapeTest.v($0) },
                       colorStopCount: colorCount, stops: LottieAnimated(stops))
    }

    static func gfill(_ g: LottieGradient, opacity: Double = 100) -> LottieShapeItem {
        LottieShapeItem(kind: .gradientFill(LottieGradientFill(gradient: g, opacity: ShapeTest.v(opacity), evenOdd: false)))
    }

    static let square = ShapeTest.rect(50, 50, 100, 100)

    @Test func mergedStopsInterpolateBothLists() {
        // Colours red@0, blue@1; opacity 1@0, 0@0.5.
        let s = LottieGradientGeometry.stops([0, 1, 0, 0, 1, 0, 0, 1, 0, 1, 0.5, 0], colorCount: 2)
        #expect(s.map(\.location) == [0, 0.5, 1])
        #expect(s[1].r == 0.5 && s[1].b == 0.5 && s[1].a == 0)
        #expect(s[2].a == 0)
        #expect(s[0] == LottieGradientGeometry.Stop(location: 0, r: 1, g: 0, b: 0, a: 1))
    }

    /// Red at x = 0 to blue at x = 100, across a 100-point square.
    @Test func linearFill() throws {
        let g = Self.gradient(start: CGPoint(x: 0, y: 50), end: CGPoint(x: 100, y: 50), stops: [0, 1, 0, 0, 1, 0, 0, 1], colorCount: 2)
        let items = [Self.square, Self.gfill(g)]
        let layers = ShapeTest.layers(items)
        let layer = try #require(layers.first as? CAGradientLayer)
        #expect(layer.type == .axial && layer.mask is CAShapeLayer)
        let img = try ShapeTest.render(items)
        // Pixel centres: x + 0.5.
        #expect(near(img.rgba(50, 50), [126, 0, 129, 255], 2))
        #expect(near(img.rgba(10, 20), [228, 0, 27, 255], 2))
        #expect(near(img.rgba(90, 80), [24, 0, 231, 255], 2))
    }

    /// Opacity stops: red fading from opaque at 0 to clear at 1; the fill's own opacity
    /// multiplies.
    @Test func opacityStopsAndFillOpacity() throws {
        let g = Self.gradient(start: CGPoint(x: 0, y: 50), end: CGPoint(x: 100, y: 50),
                              stops: [0, 1, 0, 0, 1, 1, 0, 0, 0, 1, 1, 0], colorCount: 2)
        let img = try ShapeTest.render([Self.square, Self.gfill(g)])
        #expect(near(img.rgba(50, 50), [126, 0, 0, 126], 2))
        let half = try ShapeTest.render([Self.square, Self.gfill(g, opacity: 50)])
        #expect(near(half.rgba(50, 50), [63, 0, 0, 63], 2))
    }

    /// Radial: white at the centre (50, 50) to black at radius 40, black beyond.
    @Test func radialFill() throws {
        let g = Self.gradient(radial: true, start: CGPoint(x: 50, y: 50), end: CGPoint(x: 90, y: 50),
                              stops: [0, 1, 1, 1, 1, 0, 0, 0], colorCount: 2)
        let items = [Self.square, Self.gfill(g)]
        #expect((ShapeTest.layers(items).first as? CAGradientLayer)?.type == .radial)
        let img = try ShapeTest.render(items)
        #expect(near(img.rgba(50, 50), [250, 250, 250, 255], 3))
        #expect(near(img.rgba(50, 70), [124, 124, 124, 255], 3))
        #expect(near(img.rgba(70, 50), [124, 124, 124, 255], 3))
        #expect(img.rgba(5, 5) == [0, 0, 0, 255])
    }

    /// A highlight of 50 % at angle 0 moves the focal point (where the first colour is) half
    /// way to the edge, towards the end point: white at (70, 50), no longer at the centre.
    @Test func radialHighlightMovesTheFocalPoint() throws {
        let g = Self.gradient(radial: true, start: CGPoint(x: 50, y: 50), end: CGPoint(x: 90, y: 50),
                              stops: [0, 1, 1, 1, 1, 0, 0, 0], colorCount: 2, highlight: 50, angle: 0)
        let items = [Self.square, Self.gfill(g)]
        #expect(ShapeTest.layers(items).first is LottieRadialGradientLayer)
        let img = try ShapeTest.render(items)
        #expect(near(img.rgba(70, 50), [255, 255, 255, 255], 12))
        #expect(img.rgba(50, 50)[0] < 200)
        // Angle 90°: the focal point is below the centre.
        let down = try ShapeTest.render([Self.square, Self.gfill(Self.gradient(
            radial: true, start: CGPoint(x: 50, y: 50), end: CGPoint(x: 90, y: 50), stops: [0, 1, 1, 1, 1, 0, 0, 0],
            colorCount: 2, highlight: 50, angle: 90))])
        #expect(near(down.rgba(50, 70), [255, 255, 255, 255], 12))
    }

    /// A gradient stroke: the gradient masked by the stroked outline.
    @Test func gradientStroke() throws {
        let g = Self.gradient(start: CGPoint(x: 0, y: 50), end: CGPoint(x: 100, y: 50), stops: [0, 1, 0, 0, 1, 0, 0, 1], colorCount: 2)
        let line = ShapeTest.path(ShapeTest.polyline([CGPoint(x: 10, y: 50), CGPoint(x: 90, y: 50)], closed: false))
        let item = LottieShapeItem(kind: .gradientStroke(LottieGradientStroke(gradient: g, opacity: ShapeTest.v(100),
                                                                              style: ShapeTest.strokeStyle(width: 10))))
        let layers = ShapeTest.layers([line, item])
        let mask = try #require((layers.first as? CAGradientLayer)?.mask as? CAShapeLayer)
        #expect(mask.fillColor == nil && mask.lineWidth == 10)
        let img = try ShapeTest.render([line, item])
        #expect(near(img.rgba(50, 50), [126, 0, 129, 255], 2))
        #expect(near(img.rgba(20, 53), [203, 0, 52, 255], 2))
        #expect(img.rgba(50, 60)[3] == 0)
    }

    /// Animated stops: the gradient layer computes its colours per frame.
    @Test func animatedStops() throws {
        try ShapeTest.run {
            let context = ShapeTest.context()
            var g = Self.gradient(start: CGPoint(x: 0, y: 50), end: CGPoint(x: 100, y: 50), stops: [], colorCount: 2)
            g.stops = ShapeTest.kf((0, [0, 1, 0, 0, 1, 1, 0, 0]), (100, [0, 0, 0, 1, 1, 0, 0, 1]))
            let layers = ShapeTest.layers([Self.square, Self.gfill(g)], context: context)
            #expect(layers.first is LottieComputedGradientLayer)
            let imgs = try ShapeTest.render(at: [0, 50, 100], context: context) { layers }
            #expect(near(imgs[0].rgba(50, 50), [255, 0, 0, 255], 1))
            #expect(near(imgs[1].rgba(50, 50), [128, 0, 127, 255], 2))
            #expect(near(imgs[2].rgba(50, 50), [0, 0, 255, 255], 1))
        }
    }
}

import Testing
import Foundation
import FlipbookPixels
@testable import FlipbookLottie

/// Trim paths: simultaneous and individual, offset, wrapping, on strokes and fills.
@Suite struct ShapeTrimTests {
    static func hline(_ y: Double) -> LottieShapeItem {
        ShapeTest.path(ShapeTest.polyline([CGPoint(x: 0, y: y), CGPoint(x: 100, y: y)], closed: false))
    }

    /// Two lines trimmed 0–50 %: simultaneously each keeps its first half; individually the
    /// two are one sequence, so the first line stays whole and the second disappears.
    @Test(arguments: [false, true]) func simultaneousAndIndividually(_ individually: Bool) throws {
        let img = try ShapeTest.render([Self.hline(20), Self.hline(60), ShapeTest.trim(0, 50, individually: individually),
                                        ShapeTest.stroke(0, 0, 0, width: 6)])
        #expect(img.rgba(25, 20)[3] == 255)
        #expect(img.rgba(75, 20)[3] == (individually ? 255 : 0))
        #expect(img.rgba(25, 60)[3] == (individually ? 0 : 255))
        #expect(img.rgba(75, 60)[3] == 0)
    }

    /// An offset of 90° moves the span a quarter of the length: 0–25 % becomes 25–50 %.
    @Test func offset() throws {
        let img = try ShapeTest.render([Self.hline(50), ShapeTest.trim(0, 25, offset: 90), ShapeTest.stroke(0, 0, 0, width: 6)])
        #expect(img.rgba(10, 50)[3] == 0)
        #expect(img.rgba(37, 50)[3] == 255)
        #expect(img.rgba(60, 50)[3] == 0)
    }

    /// A span past the end of a closed outline wraps round as one open path: 0–50 % offset by
    /// 270° on a square (starting at its top-right corner, clockwise) keeps the top edge and the
    /// right edge, joined (mitred) at the corner they share.
    @Test func wrappingThroughTheEndIsOnePath() throws {
        let img = try ShapeTest.render([ShapeTest.rect(50, 50, 40, 40), ShapeTest.trim(0, 50, offset: 270),
                                        ShapeTest.stroke(0, 0, 0, width: 10, cap: 1, join: 1)])
        #expect(img.rgba(50, 30)[3] == 255)   // top edge
        #expect(img.rgba(70, 50)[3] == 255)   // right edge
        #expect(img.rgba(50, 70)[3] == 0)     // bottom edge
        #expect(img.rgba(30, 50)[3] == 0)     // left edge
        #expect(img.rgba(73, 27)[3] == 255)   // the mitre at the shared corner: one path, not two
    }

    /// A trimmed fill fills the open trimmed outline: half a square is a triangle.
    @Test func trimOnAFill() throws {
        let img = try ShapeTest.render([ShapeTest.rect(50, 50, 40, 40), ShapeTest.trim(0, 50), ShapeTest.fill(1, 0, 0)])
        #expect(img.rgba(62, 62) == [255, 0, 0, 255])
        #expect(img.rgba(38, 38) == [0, 0, 0, 0])
    }

    /// Start after end swaps them; start = end draws nothing.
    @Test func swappedAndEmptySpans() throws {
        let swapped = try ShapeTest.render([Self.hline(50), ShapeTest.trim(75, 25), ShapeTest.stroke(0, 0, 0, width: 6)])
        #expect(swapped.rgba(50, 50)[3] == 255 && swapped.rgba(10, 50)[3] == 0 && swapped.rgba(90, 50)[3] == 0)
        let empty = try ShapeTest.render([Self.hline(50), ShapeTest.trim(40, 40), ShapeTest.stroke(0, 0, 0, width: 6)])
        #expect(empty.opaqueCount(x: 0..<100, y: 0..<100) == 0)
    }

    /// A stroke with one animated trim on one shape, offset 0, maps to strokeStart/strokeEnd
    /// animations on a plain shape layer, whose path is the untrimmed outline.
    @Test func animatedTrimOnOneStrokeIsStrokeEnd() throws {
        try ShapeTest.run {
            let context = ShapeTest.context()
            let trim = LottieShapeItem(kind: .trim(LottieTrim(start: ShapeTest.v(0), end: ShapeTest.kf((0, [0]), (100, [100])),
                                                               offset: ShapeTest.v(0), individually: false)))
            let items = [ShapeTest.ellipse(50, 50, 60, 60), trim, ShapeTest.stroke(0, 0, 0, width: 4)]
            let layers = ShapeTest.layers(items, context: context)
            let shape = try #require(ShapeTest.shapeLayers(layers).first)
            #expect(!(shape is LottieComputedShapeLayer))
            #expect(ShapeTest.elements(shape.path).count == 6)   // the whole ellipse
            let keys = context.animatedLayers.first { $0.layer === shape }?.animations.compactMap { ($0 as? CAPropertyAnimation)?.keyPath }
            #expect(keys == ["strokeEnd"])
            // Half way: the right half of the circle (from the top, clockwise) is drawn.
            let imgs = try ShapeTest.render(at: [50], context: context) { layers }
            #expect(imgs[0].rgba(80, 50)[3] > 200)
            #expect(imgs[0].rgba(20, 50)[3] == 0)
        }
    }
    /// The same trim on a free path that animates too (lottie-ios sample issue_2030): the path
    /// keyframes are the untrimmed outline — the trim at the first frame (end 0, nothing) must
    /// not be baked into them.
    @Test func animatedTrimOnAnAnimatedPath() throws {
        try ShapeTest.run {
            let context = ShapeTest.context()
            let trim = LottieShapeItem(kind: .trim(LottieTrim(start: ShapeTest.v(0), end: ShapeTest.kf((0, [0]), (100, [100])),
                                                               offset: ShapeTest.v(0), individually: false)))
            let a = ShapeTest.polyline([CGPoint(x: 0, y: 50), CGPoint(x: 100, y: 50)], closed: false)
            let b = ShapeTest.polyline([CGPoint(x: 0, y: 40), CGPoint(x: 100, y: 40)], closed: false)
            let line = LottieShapeItem(kind: .path(LottieAnimated(keyframes: [LottieKeyframe(time: 0, value: a), LottieKeyframe(time: 100, value: b)]),
                                                   reversed: false))
            let items = [line, trim, ShapeTest.stroke(0, 0, 0, width: 6)]
            let layers = ShapeTest.layers(items, context: context)
            let imgs = try ShapeTest.render(at: [50, 100], context: context) { layers }
            #expect(imgs[0].rgba(25, 45)[3] == 255)   // half way: the first half, at y 45
            #expect(imgs[0].rgba(75, 45)[3] == 0)
            #expect(imgs[1].rgba(75, 40)[3] == 255)   // at the end: the whole line, at y 40
        }
    }
}

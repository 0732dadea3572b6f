import Testing
import Foundation
import FlipbookPixels
@testable import FlipbookLottie

/// Layer transforms (`ks`): where the mapped tree puts a Lottie layer's points, against the
/// matrix computed by hand.
@Suite struct LayerTransformTests {
    static func named(_ l: LottieLayer, _ name: String) -> LottieLayer { var l = l; l.name = name; return l }

    /// Anchor, position, scale and rotation composed: every point lands where Lottie's matrix
    /// (−anchor, scale, rotate, +position) puts it, with static values and animated ones
    /// (linear keyframes: the midpoint at the middle frame).
    @Test func anchorPositionScaleRotationCompose() {
        var t = LT.transform(anchor: [10, 5], position: [100, 80], scale: [150, -50], rotation: 30)
        let scene = MappedScene(LT.composition(w: 200, h: 200, [Self.named(LT.solid(transform: t), "a")]))
        for p in [CGPoint(x: 20, y: 15), CGPoint(x: 0, y: 0), CGPoint(x: 7, y: -3)] {
            let want = LT.lottie(p, anchor: CGPoint(x: 10, y: 5), position: CGPoint(x: 100, y: 80), scale: CGPoint(x: 150, y: -50), degrees: 30)
            #expect(close(scene.point(p, inLayer: "a", atFrame: 0), want, 1e-9))
        }
        #expect(close(LT.lottie(CGPoint(x: 20, y: 15), anchor: CGPoint(x: 10, y: 5), position: CGPoint(x: 100, y: 80),
                                scale: CGPoint(x: 150, y: -50), degrees: 30), CGPoint(x: 115.490381, y: 83.169873), 1e-6))

        t.anchor = LT.animated(LT.kf(0, [0, 0]), LT.kf(10, [20, 10]))
        t.position = .combined(LT.animated(LT.kf(0, [50, 50]), LT.kf(10, [150, 70])))
        t.scale = LT.animated(LT.kf(0, [100, 100]), LT.kf(10, [-100, 300]))
        t.rotation = LT.animated(LT.kf(0, [0]), LT.kf(10, [90]))
        let moving = MappedScene(LT.composition(w: 200, h: 200, [Self.named(LT.solid(transform: t), "a")]))
        let p = CGPoint(x: 4, y: 9)
        let want5 = LT.lottie(p, anchor: CGPoint(x: 10, y: 5), position: CGPoint(x: 100, y: 60), scale: CGPoint(x: 0, y: 200), degrees: 45)
        #expect(close(moving.point(p, inLayer: "a", atFrame: 5), want5, 1e-6))
        let want10 = LT.lottie(p, anchor: CGPoint(x: 20, y: 10), position: CGPoint(x: 150, y: 70), scale: CGPoint(x: -100, y: 300), degrees: 90)
        #expect(close(moving.point(p, inLayer: "a", atFrame: 10), want10, 1e-6))
        #expect(close(moving.point(p, inLayer: "a", atFrame: 50), want10, 1e-6))
        // The rendered solid: at frame 0 the 10×10 square sits at 50…60 × 50…60.
        let px = try! moving.render(atFrame: 0)
        #expect(px.rgba(55, 55) == [255, 0, 0, 255])
        #expect(px.rgba(61, 55) == [0, 0, 0, 0])
    }

    /// Negative scales on both axes with a rotation survive (no matrix decomposition): a
    /// flip of both axes is not a 180° turn that the rotation could overwrite.
    @Test func negativeScalesAndRotationAreExact() {
        var t = LT.transform(position: [50, 50], scale: [-100, -200])
        t.rotation = LT.animated(LT.kf(0, [0]), LT.kf(10, [60]))
        let scene = MappedScene(LT.composition([Self.named(LT.solid(transform: t), "a")]))
        let p = CGPoint(x: 3, y: 2)
        for f in [0.0, 2.5, 7, 10] {
            let want = LT.lottie(p, anchor: .zero, position: CGPoint(x: 50, y: 50), scale: CGPoint(x: -100, y: -200), degrees: 6 * f)
            #expect(close(scene.point(p, inLayer: "a", atFrame: f), want, 1e-9))
        }
    }

    /// Split position (`px`, `py`) with different easing: each dimension follows its own curve.
    @Test func splitPositionEasesEachDimension() {
        var t = LT.transform()
        let easeIn = (out: [CGPoint(x: 0.42, y: 0)], in: [CGPoint(x: 1, y: 1)])
        t.position = .split(x: LT.animated(LT.kf(0, [0], out: easeIn.out, in: easeIn.in), LT.kf(10, [100])),
                            y: LT.animated(LT.kf(0, [0]), LT.kf(10, [100])))
        let scene = MappedScene(LT.composition([Self.named(LT.solid(transform: t), "a")]))
        let at5 = scene.point(.zero, inLayer: "a", atFrame: 5)
        let eased = CAMediaTimingFunction(controlPoints: 0.42, 0, 1, 1)._solve(0.5) * 100
        #expect(close(at5, CGPoint(x: eased, y: 50), 1e-6))
        #expect(eased < 40)   // visibly eased: not the linear 50
    }

    /// One position property whose x and y handles differ: split into position.x / .y.
    @Test func perDimensionEasingSplitsTheAnimation() {
        var t = LT.transform()
        t.position = .combined(LT.animated(
            LT.kf(0, [0, 0], out: [CGPoint(x: 0.42, y: 0), CGPoint(x: 0, y: 0)], in: [CGPoint(x: 1, y: 1), CGPoint(x: 0.58, y: 1)]),
            LT.kf(10, [100, 100])))
        let scene = MappedScene(LT.composition([Self.named(LT.solid(transform: t), "a")]))
        let x = CAMediaTimingFunction(controlPoints: 0.42, 0, 1, 1)._solve(0.3) * 100
        let y = CAMediaTimingFunction(controlPoints: 0, 0, 0.58, 1)._solve(0.3) * 100
        #expect(close(scene.point(.zero, inLayer: "a", atFrame: 3), CGPoint(x: x, y: y), 1e-6))
        let keyPaths = scene.context.animatedLayers.flatMap { $0.animations.compactMap { ($0 as? CAPropertyAnimation)?.keyPath } }
        #expect(keyPaths.contains("position.x") && keyPaths.contains("position.y"))
    }

    /// A hold keyframe keeps its value up to the next keyframe's frame and jumps exactly there.
    @Test func holdKeyframesJumpAtTheNextKeyframe() {
        var t = LT.transform()
        t.position = .combined(LT.animated(LT.kf(0, [10, 10], hold: true), LT.kf(7, [60, 10], hold: true), LT.kf(20, [80, 10])))
        let scene = MappedScene(LT.composition([Self.named(LT.solid(transform: t), "a")]))
        #expect(close(scene.point(.zero, inLayer: "a", atFrame: 6), CGPoint(x: 10, y: 10)))
        #expect(close(scene.point(.zero, inLayer: "a", atFrame: 6.999), CGPoint(x: 10, y: 10)))
        #expect(close(scene.point(.zero, inLayer: "a", atFrame: 7), CGPoint(x: 60, y: 10), 1e-4))
        #expect(close(scene.point(.zero, inLayer: "a", atFrame: 19), CGPoint(x: 60, y: 10)))
        #expect(close(scene.point(.zero, inLayer: "a", atFrame: 20), CGPoint(x: 80, y: 10), 1e-4))
    }

    /// A spatial bezier position (motion path) moves along the arc by arc length: at the middle
    /// frame of a linear segment the layer is at half the curve's length.
    @Test func spatialBezierPositionFollowsTheArc() {
        var t = LT.transform()
        // A quarter-circle-like arc from (0, 50) to (50, 0).
        t.position = .combined(LT.animated(LT.kf(0, [0, 50], to: [0, -27.6], ti: [-27.6, 0]), LT.kf(10, [50, 0])))
        let scene = MappedScene(LT.composition([Self.named(LT.solid(transform: t), "a")]))
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 0, y: 50))
        path.addCurve(to: CGPoint(x: 50, y: 0), control1: CGPoint(x: 0, y: 22.4), control2: CGPoint(x: 22.4, y: 0))
        let mid = path._sample(atArcLength: path._length / 2)!.point
        #expect(close(scene.point(.zero, inLayer: "a", atFrame: 5), mid, 1e-6))
        // Not the straight line's midpoint.
        #expect(hypot(mid.x - 25, mid.y - 25) > 5)
    }

    /// Auto-orient turns the layer along its motion: moving right then down, the layer's x axis
    /// points right, then down.
    @Test func autoOrientFollowsTheDirectionOfMotion() {
        var t = LT.transform()
        t.position = .combined(LT.animated(LT.kf(0, [10, 10]), LT.kf(10, [60, 10]), LT.kf(20, [60, 60])))
        var l = Self.named(LT.solid(transform: t), "a")
        l.autoOrient = true
        let scene = MappedScene(LT.composition([l]))
        func direction(atFrame f: Double) -> CGPoint {
            let o = scene.point(.zero, inLayer: "a", atFrame: f)!, x = scene.point(CGPoint(x: 1, y: 0), inLayer: "a", atFrame: f)!
            return CGPoint(x: x.x - o.x, y: x.y - o.y)
        }
        #expect(close(direction(atFrame: 5), CGPoint(x: 1, y: 0), 1e-9))
        #expect(close(direction(atFrame: 15), CGPoint(x: 0, y: 1), 1e-9))
        // Without auto-orient the axis stays put.
        let plain = MappedScene(LT.composition([Self.named(LT.solid(transform: t), "a")]))
        let o = plain.point(.zero, inLayer: "a", atFrame: 15)!, x = plain.point(CGPoint(x: 1, y: 0), inLayer: "a", atFrame: 15)!
        #expect(close(CGPoint(x: x.x - o.x, y: x.y - o.y), CGPoint(x: 1, y: 0), 1e-9))
    }

    /// Skew (After Effects' shear along the skew axis), static and animated: the matrix of
    /// lottie-web's skewFromAxis(−sk, sa).
    @Test func skewMatchesAfterEffects() {
        // lottie-web: Rz(sa) · shear(tan(−sk)) · Rz(−sa), with its own rotate(−θ) = Core Animation's rotation(θ).
        func reference(_ p: CGPoint, sk: Double, sa: Double) -> CGPoint {
            let a = sa * .pi / 180, k = tan(-sk * .pi / 180)
            let r1 = CGPoint(x: p.x * cos(a) - p.y * sin(a), y: p.x * sin(a) + p.y * cos(a))
            let sh = CGPoint(x: r1.x + r1.y * k, y: r1.y)
            return CGPoint(x: sh.x * cos(-a) - sh.y * sin(-a), y: sh.x * sin(-a) + sh.y * cos(-a))
        }
        var t = LT.transform(position: [50, 50])
        t.skew = LT.animated(LT.kf(0, [0]), LT.kf(10, [30]))
        t.skewAxis = LottieAnimated([20])
        let scene = MappedScene(LT.composition([Self.named(LT.solid(transform: t), "a")]))
        let p = CGPoint(x: 5, y: 8)
        for f in [0.0, 4, 10] {
            let r = reference(p, sk: 3 * f, sa: 20)
            #expect(close(scene.point(p, inLayer: "a", atFrame: f), CGPoint(x: r.x + 50, y: r.y + 50), 1e-9))
        }
    }

    /// Opacity 0–100 → 0–1, animated.
    @Test func opacityIsAFraction() {
        var t = LT.transform()
        t.opacity = LT.animated(LT.kf(0, [0]), LT.kf(10, [100]))
        let scene = MappedScene(LT.composition([Self.named(LT.solid(transform: t), "a")]))
        #expect(abs(Double(scene.path(to: "a", atFrame: 4)!.last!.opacity) - 0.4) < 1e-6)
    }

    /// Parenting: a child under a rotated, scaled parent is drawn through the parent's matrix,
    /// and the parent's opacity does not reach it.
    @Test func childIsPlacedThroughItsParentsTransforms() {
        var parent = LT.transform(anchor: [5, 5], position: [50, 40], scale: [200, 100], rotation: 90, opacity: 10)
        parent.rotation = LT.animated(LT.kf(0, [0]), LT.kf(10, [90]))
        let grand = LT.transform(position: [10, 0], rotation: 45)
        var child = Self.named(LT.solid(transform: LT.transform(position: [3, 4])), "c")
        child.parent = 2
        let scene = MappedScene(LT.composition([child, LT.null(ind: 2, transform: parent, parent: 3), LT.null(ind: 3, transform: grand)]))
        for f in [0.0, 5, 10] {
            let p = CGPoint(x: 1, y: 2)
            let inChild = CGPoint(x: p.x + 3, y: p.y + 4)
            let inGrand = LT.lottie(inChild, anchor: CGPoint(x: 5, y: 5), position: CGPoint(x: 50, y: 40), scale: CGPoint(x: 200, y: 100), degrees: 9 * f)
            let want = LT.lottie(inGrand, anchor: .zero, position: CGPoint(x: 10, y: 0), scale: CGPoint(x: 100, y: 100), degrees: 45)
            #expect(close(scene.point(p, inLayer: "c", atFrame: f), want, 1e-9))
        }
        let chain = scene.path(to: "c", atFrame: 0)!
        #expect(chain.allSatisfy { $0.opacity == 1 })
    }

    /// 3D rotations (`rx`, `ry`, with `rz`) drawn without perspective, as ThorVG: the 2-D part
    /// of Rx · Ry · Rz (column vectors), here with rx animated.
    @Test func threeDRotationsMatchThorVG() {
        var t = LT.transform(position: [50, 50], rotation: 50)
        t.rotationX = LT.animated(LT.kf(0, [0]), LT.kf(10, [60]))
        t.rotationY = LottieAnimated([40])
        let scene = MappedScene(LT.composition([Self.named(LT.solid(transform: t), "a")]))
        for f in [0.0, 5, 10] {
            let x: Double = 6 * f * Double.pi / 180, y: Double = 40 * Double.pi / 180, z: Double = 50 * Double.pi / 180
            let e11 = cos(y) * cos(z), e12 = -cos(y) * sin(z)
            let e21 = sin(x) * sin(y) * cos(z) + cos(x) * sin(z), e22 = -sin(x) * sin(y) * sin(z) + cos(x) * cos(z)
            let p = CGPoint(x: 7, y: -4)
            let want = CGPoint(x: e11 * p.x + e12 * p.y + 50, y: e21 * p.x + e22 * p.y + 50)
            #expect(close(scene.point(p, inLayer: "a", atFrame: f), want, 1e-9))
        }
    }
}

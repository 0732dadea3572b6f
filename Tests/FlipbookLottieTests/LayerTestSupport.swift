import Foundation
import FlipbookPixels
import FlipbookRender
@testable import FlipbookLottie

/// Building Lottie model values by hand and looking at the mapped tree (layer tests).
enum LT {
    /// A keyframe (linear unless eased / held).
    static func kf(_ t: Double, _ v: LottieVector, hold: Bool = false, out: [CGPoint] = [], in i: [CGPoint] = [],
                   to: [Double]? = nil, ti: [Double]? = nil) -> LottieKeyframe<LottieVector> {
        LottieKeyframe(time: t, value: v, hold: hold, outEase: out, inEase: i, spatialOut: to, spatialIn: ti)
    }

    static func animated(_ k: LottieKeyframe<LottieVector>...) -> LottieAnimated<LottieVector> { LottieAnimated(keyframes: k) }

    /// A transform from static values (anchor, position, scale %, rotation °, opacity 0–100).
    static func transform(anchor: [Double] = [0, 0], position: [Double] = [0, 0], scale: [Double] = [100, 100],
                          rotation: Double = 0, opacity: Double = 100) -> LottieTransform {
        var t = LottieTransform()
        t.anchor = LottieAnimated(anchor)
        t.position = .combined(LottieAnimated(position))
        t.scale = LottieAnimated(scale)
        t.rotation = LottieAnimated([rotation])
        t.opacity = LottieAnimated([opacity])
        return t
    }

    /// A solid layer `w × h` of `color`.
    static func solid(_ color: String = "#ff0000", w: Double = 10, h: Double = 10, ind: Int? = nil, ip: Double = 0,
                      op: Double = 100, transform: LottieTransform = LT.transform()) -> LottieLayer {
        var l = LottieLayer(kind: .solid(color: color, width: w, height: h), inPoint: ip, outPoint: op, transform: transform)
        l.index = ind
        return l
    }

    static func null(ind: Int, transform: LottieTransform, parent: Int? = nil) -> LottieLayer {
        var l = LottieLayer(kind: .null, inPoint: 0, outPoint: 100, transform: transform)
        l.index = ind
        l.parent = parent
        return l
    }

    static func composition(w: Double = 100, h: Double = 100, fps: Double = 10, ip: Double = 0, op: Double = 100,
                            _ layers: [LottieLayer], assets: [LottieAsset] = []) -> LottieComposition {
        var c = LottieComposition(width: w, height: h, frameRate: fps, inPoint: ip, outPoint: op, layers: layers)
        c.assets = assets
        return c
    }

    /// Lottie's layer matrix, computed by hand (lottie-web's order: −anchor, scale, rotate
    /// clockwise, +position), applied to `p`.
    static func lottie(_ p: CGPoint, anchor a: CGPoint, position: CGPoint, scale s: CGPoint, degrees r: Double) -> CGPoint {
        let x = (p.x - a.x) * s.x / 100, y = (p.y - a.y) * s.y / 100
        let c = cos(r * .pi / 180), sn = sin(r * .pi / 180)
        return CGPoint(x: x * c - y * sn + position.x, y: x * sn + y * c + position.y)
    }

    /// The matrix taking a node's layer coordinates to its superlayer's:
    /// `T(−anchor in layer) · transform · T(position)`.
    static func localToParent(_ n: RenderLayer) -> CATransform3D {
        let ax = n.bounds.origin.x + n.anchorPoint.x * n.bounds.width
        let ay = n.bounds.origin.y + n.anchorPoint.y * n.bounds.height
        return CATransform3DMakeTranslation(-ax, -ay, 0) * n.transform * CATransform3DMakeTranslation(n.position.x, n.position.y, 0)
    }

    static func apply(_ m: CATransform3D, _ p: CGPoint) -> CGPoint {
        CGPoint(x: p.x * m.m11 + p.y * m.m21 + m.m41, y: p.x * m.m12 + p.y * m.m22 + m.m42)
    }
}

/// A mapped composition playing once from its first frame at run-loop time 0, as the
/// animation layer plays it.
final class MappedScene {
    let loop = VirtualRunLoop()
    let composition: LottieComposition
    let context: LottieMappingContext
    let root: CALayer

    init(_ composition: LottieComposition) {
        self.composition = composition
        let context = LottieMappingContext(composition: composition)
        self.context = context
        let loop = self.loop
        root = loop.run { () -> CALayer in
            let root = LottieLayerMapper(context: context).makeRootLayer()
            loop.attach(root)
            loop.endTurn()
            let timing = LottiePlayTiming(fps: composition.frameRate, start: composition.inPoint, end: composition.outPoint,
                                          mode: .playing(from: composition.inPoint, to: composition.outPoint, speed: 1,
                                                         repeatCount: 1, autoreverses: false, timeOffset: 0, beginTime: loop.currentTime))
            for (layer, animations) in context.animatedLayers { layer.add(timing.group(of: animations), forKey: "lottie") }
            loop.endTurn()
            return root
        }
    }

    /// Run-loop time of root frame `f`.
    func time(ofFrame f: Double) -> Double { (f - composition.inPoint) / composition.frameRate }

    /// The snapshot of the whole tree at root frame `f`.
    func tree(atFrame f: Double) -> RenderLayer { loop.run { root.makeRenderTree(at: time(ofFrame: f)) } }

    /// The pixels at root frame `f`, the composition's size (or `width × height`).
    func render(atFrame f: Double, width: Int? = nil, height: Int? = nil) throws -> PixelBuffer {
        try Compositor(threadCount: 1).render(tree(atFrame: f), width: width ?? Int(composition.width),
                                              height: height ?? Int(composition.height))
    }

    /// The chain of nodes from the root's first sublayer down to the first node named `name`
    /// (depth first), root excluded.
    func path(to name: String, atFrame f: Double) -> [RenderLayer]? {
        func find(_ n: RenderLayer, _ trail: [RenderLayer]) -> [RenderLayer]? {
            if n.name == name { return trail + [n] }
            for s in n.sublayers { if let r = find(s, trail + [n]) { return r } }
            return nil
        }
        return find(tree(atFrame: f), []).map { Array($0.dropFirst()) }
    }

    /// Where point `p` of the Lottie layer named `name` is drawn in the composition at `f`.
    func point(_ p: CGPoint, inLayer name: String, atFrame f: Double) -> CGPoint? {
        guard let chain = path(to: name, atFrame: f) else { return nil }
        let m = chain.reversed().reduce(CATransform3DIdentity) { $0 * LT.localToParent($1) }
        return LT.apply(m, p)
    }
}

// PixelBuffer.rgba(_:_:) is in ShapeTestSupport.swift.

func close(_ a: CGPoint?, _ b: CGPoint, _ tol: Double = 1e-6) -> Bool {
    guard let a else { return false }
    return abs(a.x - b.x) <= tol && abs(a.y - b.y) <= tol
}

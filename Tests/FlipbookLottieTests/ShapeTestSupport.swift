import Foundation
import FlipbookPixels
import FlipbookRender
@testable import FlipbookLottie

/// Builds shape items by hand and renders what ``LottieShapeMapper`` makes of them.
enum ShapeTest {
    // MARK: Model values

    static func v(_ x: Double...) -> LottieAnimated<LottieVector> { LottieAnimated(x) }

    /// Linear keyframes `(frame, value)`.
    static func kf(_ frames: (Double, LottieVector)...) -> LottieAnimated<LottieVector> {
        LottieAnimated(keyframes: frames.map { LottieKeyframe(time: $0.0, value: $0.1) })
    }

    static func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double, r: Double = 0, reversed: Bool = false) -> LottieShapeItem {
        LottieShapeItem(kind: .rectangle(LottieRectangle(position: v(x, y), size: v(w, h), roundness: v(r), reversed: reversed)))
    }

    static func ellipse(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> LottieShapeItem {
        LottieShapeItem(kind: .ellipse(LottieEllipse(position: v(x, y), size: v(w, h), reversed: false)))
    }

    static func polyline(_ points: [CGPoint], closed: Bool) -> LottieBezier {
        LottieBezier(closed: closed, vertices: points, inTangents: points.map { _ in .zero }, outTangents: points.map { _ in .zero })
    }

    static func path(_ b: LottieBezier) -> LottieShapeItem {
        LottieShapeItem(kind: .path(LottieAnimated(b), reversed: false))
    }

    static func fill(_ r: Double, _ g: Double, _ b: Double, opacity: Double = 100, evenOdd: Bool = false) -> LottieShapeItem {
        LottieShapeItem(kind: .fill(LottieFill(color: v(r, g, b), opacity: v(opacity), evenOdd: evenOdd)))
    }

    static func strokeStyle(width: Double, cap: Int = 1, join: Int = 1, miter: Double = 4,
                            dashes: [LottieStrokeStyle.Dash] = []) -> LottieStrokeStyle {
        LottieStrokeStyle(width: v(width), lineCap: cap, lineJoin: join, miterLimit: miter, dashes: dashes)
    }

    static func stroke(_ r: Double, _ g: Double, _ b: Double, width: Double, cap: Int = 1, join: Int = 1, miter: Double = 4,
                       opacity: Double = 100, dashes: [LottieStrokeStyle.Dash] = []) -> LottieShapeItem {
        LottieShapeItem(kind: .stroke(LottieStroke(color: v(r, g, b), opacity: v(opacity),
                                                   style: strokeStyle(width: width, cap: cap, join: join, miter: miter, dashes: dashes))))
    }

    static func group(_ items: [LottieShapeItem], _ t: LottieTransform? = nil) -> LottieShapeItem {
        LottieShapeItem(kind: .group(items: items, transform: t))
    }

    static func trim(_ s: Double, _ e: Double, offset: Double = 0, individually: Bool = false) -> LottieShapeItem {
        LottieShapeItem(kind: .trim(LottieTrim(start: v(s), end: v(e), offset: v(offset), individually: individually)))
    }

    static func transform(position: CGPoint = .zero, anchor: CGPoint = .zero, scale: Double = 100, rotation: Double = 0,
                          opacity: Double = 100) -> LottieTransform {
        var t = LottieTransform()
        t.position = .combined(v(position.x, position.y))
        t.anchor = v(anchor.x, anchor.y)
        t.scale = v(scale, scale)
        t.rotation = v(rotation)
        t.opacity = v(opacity)
        return t
    }

    // MARK: Mapping and rendering

    /// The composition's timeline: frames 0…100 at 10 fps unless told.
    static func context(fps: Double = 10, frames: Double = 100, size: Double = 100) -> LottieMappingContext {
        LottieMappingContext(composition: LottieComposition(width: size, height: size, frameRate: fps, inPoint: 0,
                                                            outPoint: frames, layers: []))
    }

    /// The mapped layers of `items` (and the context holding their animations and warnings).
    static func layers(_ items: [LottieShapeItem], context: LottieMappingContext = context()) -> [CALayer] {
        LottieShapeMapper.makeLayers(for: items, path: "shapes", clock: context.rootClock, context: context)
    }

    /// Runs `body` on a fresh virtual run loop: layers made inside belong to it (their
    /// animations commit there), so a test that inspects its layers before rendering them
    /// makes them inside.
    static func run<R>(_ body: () throws -> R) rethrows -> R { try VirtualRunLoop().run(body) }

    /// Renders `items` at root frame `frame` into a transparent `size × size` frame.
    static func render(_ items: [LottieShapeItem], frame: Double = 0, size: Int = 100, scale: CGFloat = 1,
                       context: LottieMappingContext = context()) throws -> PixelBuffer {
        try run { try render(at: [frame], size: size, scale: scale, context: context) { layers(items, context: context) }[0] }
    }

    /// Renders the layers `make` builds at each root frame, on the current run loop (call it
    /// inside ``run(_:)``, where the layers were made).
    static func render(at frames: [Double], size: Int = 100, scale: CGFloat = 1, context: LottieMappingContext,
                       _ make: () -> [CALayer]) throws -> [PixelBuffer] {
        let loop = VirtualRunLoop.current
        let clock = context.rootClock
        return try {
            let root = CALayer()
            root.anchorPoint = .zero
            root.bounds = CGRect(x: 0, y: 0, width: size, height: size)
            for l in make() { root.addSublayer(l) }
            loop.attach(root)
            loop.endTurn()
            let t0 = loop.currentTime
            for (layer, animations) in context.animatedLayers {
                let g = CAAnimationGroup()
                for a in animations { a.fillMode = .both }
                g.animations = animations
                g.duration = clock.duration
                g.fillMode = .both
                g.isRemovedOnCompletion = false
                layer.add(g, forKey: "lottie")
            }
            loop.endTurn()
            return try frames.map { f in
                try Compositor(threadCount: 1).render(root.makeRenderTree(at: t0 + (f - clock.start) / clock.fps),
                                                      width: Int(CGFloat(size) * scale), height: Int(CGFloat(size) * scale),
                                                      scale: scale, background: .transparent)
            }
        }()
    }

    /// Every path element of a path, for exact comparisons.
    static func elements(_ p: CGPath?) -> [CGPathElementValue] {
        var out: [CGPathElementValue] = []
        p?.applyWithBlock { e in
            let el = e.pointee
            switch el.type {
            case .moveToPoint: out.append(.move(el.points[0]))
            case .addLineToPoint: out.append(.line(el.points[0]))
            case .addQuadCurveToPoint: out.append(.quad(el.points[0], el.points[1]))
            case .addCurveToPoint: out.append(.curve(el.points[0], el.points[1], el.points[2]))
            case .closeSubpath: out.append(.close)
            @unknown default: break
            }
        }
        return out
    }

    enum CGPathElementValue: Equatable {
        case move(CGPoint), line(CGPoint), quad(CGPoint, CGPoint), curve(CGPoint, CGPoint, CGPoint), close
    }

    /// All shape layers under `layers` (depth first, the masks included).
    static func shapeLayers(_ layers: [CALayer]) -> [CAShapeLayer] {
        var out: [CAShapeLayer] = []
        func visit(_ l: CALayer) {
            if let s = l as? CAShapeLayer { out.append(s) }
            if let m = l.mask { visit(m) }
            for s in l.sublayers ?? [] { visit(s) }
        }
        layers.forEach(visit)
        return out
    }
}

extension PixelBuffer {
    /// The pixel as `(r, g, b, a)` integers (premultiplied).
    func rgba(_ x: Int, _ y: Int) -> [Int] {
        let p = self[x, y]
        return [Int(p.r), Int(p.g), Int(p.b), Int(p.a)]
    }

    /// Number of pixels with alpha above 127 in a rectangle.
    func opaqueCount(x: Range<Int>, y: Range<Int>) -> Int {
        var n = 0
        for j in y { for i in x where self[i, j].a > 127 { n += 1 } }
        return n
    }
}

/// Within `tolerance` component by component.
func near(_ a: [Int], _ b: [Int], _ tolerance: Int = 2) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) <= tolerance }
}

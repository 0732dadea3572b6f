import Foundation
import Flipbook

/// A Lottie gradient (`gf`, `gs`) at a frame: its stops and geometry in the style's group
/// coordinates, and how a `CAGradientLayer` (or, with a highlight, a drawn layer) lays it out.
///
/// **Stops.** `g.k` holds `p` colour stops `[offset, r, g, b]` (0–1), then optionally opacity
/// stops `[offset, alpha]`. The drawn stops sit at the union of both lists' offsets, each
/// colour interpolated in the colour stops and each alpha in the opacity stops (piecewise
/// linear, the end values extended), as lottie-web merges them; colours interpolate
/// unpremultiplied between stops, as in SVG.
///
/// **Geometry.** Linear (`t: 1`): from `s` to `e`, the end colours extended. Radial (`t: 2`):
/// centred at `s`, radius `|e − s|`, the last colour extended; the **highlight** moves the
/// focal point (where the first colour is) to `s + (h / 100) · radius` in the direction
/// `atan2(e − s) + a` (`h` clamped to ±99 %, as lottie-web does).
struct LottieGradientGeometry {
    struct Stop: Equatable { var location: Double; var r: Double; var g: Double; var b: Double; var a: Double }

    var isRadial: Bool
    var start: CGPoint
    var end: CGPoint
    var stops: [Stop]
    /// The focal point of a radial gradient with a highlight; nil without one.
    var focal: CGPoint?

    var radius: Double { hypot(end.x - start.x, end.y - start.y) }

    init(_ g: LottieGradient, atFrame f: Double) {
        isRadial = g.isRadial
        start = LottieShapeGeometry.point(g.start.value(atFrame: f))
        end = LottieShapeGeometry.point(g.end.value(atFrame: f))
        stops = Self.stops(g.stops.value(atFrame: f), colorCount: g.colorStopCount)
        focal = nil
        if g.isRadial, let h = g.highlightLength {
            let length = min(max(LottieGroupTransform.at(h.value(atFrame: f), 0) / 100, -0.99), 0.99)
            if length != 0 {
                let angle = atan2(end.y - start.y, end.x - start.x)
                    + (g.highlightAngle.map { LottieGroupTransform.at($0.value(atFrame: f), 0) } ?? 0) * .pi / 180
                let d = length * hypot(end.x - start.x, end.y - start.y)
                focal = CGPoint(x: start.x + cos(angle) * d, y: start.y + sin(angle) * d)
            }
        }
    }

    /// True when some keyframe of the gradient has a non-zero highlight (a drawn layer).
    static func hasHighlight(_ g: LottieGradient) -> Bool {
        g.isRadial && (g.highlightLength?.keyframes.contains { LottieGroupTransform.at($0.value, 0) != 0 } ?? false)
    }

    static func isAnimated(_ g: LottieGradient) -> Bool {
        g.start.isAnimated || g.end.isAnimated || g.stops.isAnimated || (g.highlightLength?.isAnimated ?? false)
            || (g.highlightAngle?.isAnimated ?? false)
    }

    /// The merged stops of a `g.k` value (see the type's notes).
    static func stops(_ v: LottieVector, colorCount p: Int) -> [Stop] {
        let n = max(0, min(p, v.count / 4))
        func num(_ i: Int) -> Double { i < v.count && v[i].isFinite ? v[i] : 0 }
        var colors: [(o: Double, r: Double, g: Double, b: Double)] = (0..<n).map {
            (num(4 * $0), num(4 * $0 + 1), num(4 * $0 + 2), num(4 * $0 + 3))
        }
        var alphas: [(o: Double, a: Double)] = []
        var i = 4 * n
        while i + 1 < v.count { alphas.append((num(i), num(i + 1))); i += 2 }
        guard !colors.isEmpty else { return [] }
        colors = stableSorted(colors) { $0.o }
        alphas = stableSorted(alphas) { $0.o }
        // Between the first and last stop, x lies in the segment k … k + 1 where k + 1 is the
        // first stop at or after x (binary search: files may hold thousands of stops).
        func segment(_ count: Int, _ offset: (Int) -> Double, _ x: Double) -> Int {
            var lo = 0, hi = count - 1
            while lo < hi { let m = (lo + hi) / 2; if offset(m) < x { lo = m + 1 } else { hi = m } }
            return lo - 1
        }
        func alpha(at x: Double) -> Double {
            guard let first = alphas.first, let last = alphas.last else { return 1 }
            if x <= first.o { return first.a }
            if x >= last.o { return last.a }
            let k = segment(alphas.count, { alphas[$0].o }, x)
            let span = alphas[k + 1].o - alphas[k].o
            return span > 0 ? alphas[k].a + (alphas[k + 1].a - alphas[k].a) * (x - alphas[k].o) / span : alphas[k].a
        }
        func color(at x: Double) -> (Double, Double, Double) {
            let first = colors[0], last = colors[colors.count - 1]
            if x <= first.o { return (first.r, first.g, first.b) }
            if x >= last.o { return (last.r, last.g, last.b) }
            let k = segment(colors.count, { colors[$0].o }, x)
            let a = colors[k], b = colors[k + 1], span = b.o - a.o
            let t = span > 0 ? (x - a.o) / span : 0
            return (a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t)
        }
        var out: [Stop] = colors.map { Stop(location: $0.o, r: $0.r, g: $0.g, b: $0.b, a: alpha(at: $0.o)) }
        let colorOffsets = Set(colors.map(\.o))
        for a in alphas where !colorOffsets.contains(a.o) {
            let (r, g, b) = color(at: a.o)
            out.append(Stop(location: a.o, r: r, g: g, b: b, a: a.a))
        }
        return stableSorted(out) { $0.location }.map {
            Stop(location: min(max($0.location, 0), 1), r: clamp($0.r), g: clamp($0.g), b: clamp($0.b), a: clamp($0.a))
        }
    }

    private static func clamp(_ v: Double) -> Double { min(max(v, 0), 1) }

    private static func stableSorted<T>(_ a: [T], by key: (T) -> Double) -> [T] {
        a.enumerated().sorted { key($0.element) != key($1.element) ? key($0.element) < key($1.element) : $0.offset < $1.offset }
            .map(\.element)
    }

    var cgColors: [CGColor] { stops.map { CGColor(red: $0.r, green: $0.g, blue: $0.b, alpha: $0.a) } }
    var locations: [NSNumber] { stops.map { NSNumber(value: $0.location) } }

    /// Lays the gradient out on a `CAGradientLayer` whose bounds are `rect` (in the group's
    /// coordinates): unit start and end points, type, colours and locations.
    func apply(to layer: CAGradientLayer, rect: CGRect) {
        func unit(_ p: CGPoint) -> CGPoint {
            CGPoint(x: rect.width > 0 ? (p.x - rect.minX) / rect.width : 0, y: rect.height > 0 ? (p.y - rect.minY) / rect.height : 0)
        }
        layer.colors = cgColors
        layer.locations = locations
        layer.startPoint = unit(start)
        if isRadial {
            layer.type = .radial
            let r = radius
            layer.endPoint = unit(CGPoint(x: start.x + r, y: start.y + r))
        } else {
            layer.type = .axial
            layer.endPoint = unit(end)
        }
    }

    /// Draws the radial gradient with its focal point in `ctx` (user space = the group's
    /// coordinates): Core Graphics' two-circle gradient from the focal point (radius 0) to the
    /// circle `(start, radius)`, both ends extended — canvas' `createRadialGradient`, which
    /// lottie-web uses.
    func drawRadial(in ctx: CGContext) {
        guard let g = CGGradient(colorsSpace: CGColorSpaceCreateDeviceRGB(), colors: cgColors,
                                 locations: stops.map { CGFloat($0.location) }) else { return }
        ctx.drawRadialGradient(g, startCenter: focal ?? start, startRadius: 0, endCenter: start, endRadius: CGFloat(radius),
                               options: [.drawsBeforeStartLocation, .drawsAfterEndLocation])
    }
}

/// A `CAGradientLayer` laid out from its local Lottie frame at presentation time (an animated
/// gradient, or a gradient whose outline — hence its bounds — animates). Same mechanism as
/// ``LottieComputedShapeLayer``.
final class LottieComputedGradientLayer: CAGradientLayer, FlipbookPresentationCopying {
    var update: (@Sendable (CALayer, Double) -> Void)?
    override init() { super.init() }
    override init(layer: Any) {
        super.init(layer: layer)
        if let other = layer as? LottieComputedGradientLayer { update = other.update }
    }
    required init?(coder: NSCoder) { nil }
    override class func needsDisplay(forKey key: String) -> Bool {
        key == LottieComputedShapeLayer.frameKey || super.needsDisplay(forKey: key)
    }
    var lottieFrame: Double { (value(forKey: LottieComputedShapeLayer.frameKey) as? NSNumber)?.doubleValue ?? 0 }
    override func display() { update?(self, lottieFrame) }
}

/// A radial gradient with a highlight (a focal point off the centre), which `CAGradientLayer`
/// cannot express: drawn in `draw(in:)` with Core Graphics' two-circle radial gradient into
/// the layer's backing store (2 pixels per point when static), masked by the style's outline.
/// When the gradient or its outline animates, the frame key makes each presentation copy lay
/// itself out (`update`) and redraw.
final class LottieRadialGradientLayer: CALayer, FlipbookPresentationCopying {
    /// Lays the layer out (bounds, position, ``gradient``) for a frame.
    var update: (@Sendable (CALayer, Double) -> Void)?
    var gradient: LottieGradientGeometry?
    override init() { super.init() }
    override init(layer: Any) {
        super.init(layer: layer)
        if let other = layer as? LottieRadialGradientLayer { update = other.update; gradient = other.gradient }
    }
    required init?(coder: NSCoder) { nil }
    override class func needsDisplay(forKey key: String) -> Bool {
        key == LottieComputedShapeLayer.frameKey || super.needsDisplay(forKey: key)
    }
    var lottieFrame: Double { (value(forKey: LottieComputedShapeLayer.frameKey) as? NSNumber)?.doubleValue ?? 0 }
    override func display() {
        update?(self, lottieFrame)
        super.display()
    }
    override func draw(in ctx: CGContext) { gradient?.drawRadial(in: ctx) }
}

import Testing
@testable import Flipbook
import Foundation

/// `CAGradientLayer`'s model: Apple's defaults, KVC, implicit and explicit animations of
/// `colors`, `locations`, `startPoint`, `endPoint` (arrays element-wise; other counts switch at
/// ½), the snapshot, and a subclass overriding its members (as ported iOS code does).
@Suite struct GradientLayerModelTests {
    static let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    static let blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
    static let green = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
    static let white = CGColor(red: 1, green: 1, blue: 1, alpha: 1)

    func live(_ loop: VirtualRunLoop) -> CAGradientLayer {
        let root = liveRoot(loop)
        let g = CAGradientLayer()
        root.addSublayer(g)
        loop.endTurn()
        return g
    }

    @Test func defaultsAreApples() {
        withRunLoop { _ in
            let g = CAGradientLayer()
            #expect(g.colors == nil && g.locations == nil)
            #expect(g.startPoint == CGPoint(x: 0.5, y: 0) && g.endPoint == CGPoint(x: 0.5, y: 1))
            #expect(g.type == .axial)
            #expect(CAGradientLayer.defaultValue(forKey: "startPoint") as? CGPoint == CGPoint(x: 0.5, y: 0))
            #expect(CAGradientLayer.defaultValue(forKey: "type") as? CAGradientLayerType == .axial)
            #expect(CAGradientLayerType.conic.rawValue == "conic")
        }
    }

    @Test func kvcReachesTheProperties() throws {
        try withRunLoop { _ in
            let g = CAGradientLayer()
            g.setValue([Self.red, Self.blue], forKey: "colors")
            #expect((g.colors as? [CGColor]) == [Self.red, Self.blue])
            g.setValue([0, 0.25], forKey: "locations")
            #expect(g.locations == [0, 0.25])
            g.setValue(CGPoint(x: 0, y: 0.5), forKey: "startPoint")
            #expect(g.startPoint == CGPoint(x: 0, y: 0.5))
            g.setValue("radial", forKey: "type")
            #expect(g.type == .radial)
            #expect((g.value(forKey: "colors") as? [CGColor]) == [Self.red, Self.blue])
            #expect(throws: LayerKVCError.self) { try g._trySetValue(3, forKey: "startPoint") }
            // Presentation copies carry the values.
            #expect(CAGradientLayer(layer: g).type == .radial)
        }
    }

    @Test func animatableKeysAnimateImplicitlyButTypeDoesNot() {
        withRunLoop { loop in
            let g = live(loop)
            g.colors = [Self.red, Self.blue]
            g.locations = [0, 1]
            g.startPoint = CGPoint(x: 0, y: 0)
            g.endPoint = CGPoint(x: 1, y: 1)
            g.type = .conic
            #expect(Set(g.animationKeys() ?? []) == ["colors", "locations", "startPoint", "endPoint"])
        }
    }

    /// Colours interpolate element by element: halfway from [red, blue] to [blue, red] both are
    /// the average; at the snapshot too.
    @Test func colorsInterpolateElementWise() {
        withRunLoop { loop in
            let g = live(loop)
            CATransaction.setDisableActions(true)
            g.colors = [Self.blue, Self.red]
            let a = CABasicAnimation(keyPath: "colors")
            a.fromValue = [Self.red, Self.blue]
            a.toValue = [Self.blue, Self.red]
            a.duration = 1
            a.timingFunction = CAMediaTimingFunction(name: .linear)
            g.add(a, forKey: "swap")
            loop.endTurn()
            loop.advance(to: loop.currentTime + 0.5)
            let p = g.presentation()!.colors as? [CGColor]
            #expect(p?.count == 2)
            #expect(p?[0] == CGColor(red: 0.5, green: 0, blue: 0.5, alpha: 1))
            #expect(g.makeRenderTree().gradient?.colors.first == CGColor(red: 0.5, green: 0, blue: 0.5, alpha: 1))
            // startPoint interpolates as a point.
            let b = CABasicAnimation(keyPath: "startPoint")
            b.fromValue = CGPoint(x: 0, y: 0)
            b.toValue = CGPoint(x: 1, y: 0)
            b.duration = 1
            b.timingFunction = CAMediaTimingFunction(name: .linear)
            g.add(b, forKey: "move")
            loop.endTurn()
            loop.advance(to: loop.currentTime + 0.25)
            #expect(abs(g.presentation()!.startPoint.x - 0.25) < 1e-9)
        }
    }

    /// Arrays of different counts switch from the old to the new at ½ (implicit animation from
    /// the on-screen value).
    @Test func differentCountsSwitchAtTheMidpoint() {
        withRunLoop { loop in
            let g = live(loop)
            CATransaction.setDisableActions(true)
            g.colors = [Self.red, Self.blue]
            loop.endTurn()
            CATransaction.setDisableActions(false)
            g.colors = [Self.red, Self.green, Self.blue]     // implicit, 0.25 s
            loop.endTurn()
            loop.advance(to: loop.currentTime + 0.1)
            #expect((g.presentation()!.colors as? [CGColor])?.count == 2)
            loop.advance(to: loop.currentTime + 0.1)
            #expect((g.presentation()!.colors as? [CGColor])?.count == 3)
        }
    }

    /// The snapshot: non-colour elements dropped, locations ignored when their count differs.
    @Test func snapshotResolvesStops() {
        withRunLoop { _ in
            let g = CAGradientLayer()
            g.colors = [Self.red, "not a colour", Self.blue]
            g.locations = [0, 0.5, 1]
            let r = g.makeRenderTree().gradient!
            #expect(r.colors == [Self.red, Self.blue])
            #expect(r.locations == nil)
            #expect(r.stops.map(\.location) == [0, 1])
            g.colors = [Self.red, Self.green, Self.blue]
            #expect(g.makeRenderTree().gradient!.stops.map(\.location) == [0, 0.5, 1])
            #expect(CALayer().makeRenderTree().gradient == nil)
        }
    }
}

/// A `CAGradientLayer` subclass as iOS code writes one (issue 14's subclass test): its own
/// initializer, `init(layer:)`, `init?(coder:)`, observers on overridden gradient properties,
/// a class default, and an action for a custom key.
@Suite struct GradientLayerOverrideTests {
    final class Shimmer: CAGradientLayer, FlipbookPresentationCopying {   // typed copies (init(layer:) copies `band`)
        var log: [String] = []
        var band: CGFloat = 0.2

        init(band: CGFloat) {
            self.band = band
            super.init()
            colors = [CGColor(gray: 0.8, alpha: 1), CGColor(gray: 1, alpha: 1), CGColor(gray: 0.8, alpha: 1)]
            startPoint = CGPoint(x: 0, y: 0.5)
            endPoint = CGPoint(x: 1, y: 0.5)
        }
        override init() { super.init() }
        override init(layer: Any) {
            super.init(layer: layer)
            band = (layer as? Shimmer)?.band ?? band
        }
        required init?(coder: NSCoder) { super.init(coder: coder) }

        override var colors: [Any]? { didSet { log.append("colors \(colors?.count ?? 0)") } }
        override var locations: [NSNumber]? {
            get { super.locations }
            set { super.locations = newValue?.map { NSNumber(value: min(max($0.doubleValue, 0), 1)) } }  // clamped
        }
        override var startPoint: CGPoint { didSet { log.append("start") } }
        override var type: CAGradientLayerType { didSet { log.append("type \(type.rawValue)") } }
        override class func defaultValue(forKey key: String) -> Any? {
            key == "endPoint" ? CGPoint(x: 1, y: 0.5) : super.defaultValue(forKey: key)
        }
    }

    @Test func subclassOverridesEveryKind() {
        withRunLoop { loop in
            let s = Shimmer(band: 0.3)
            #expect(s.log == ["colors 3", "start"])
            #expect(Shimmer().endPoint == CGPoint(x: 1, y: 0.5))       // class default
            s.locations = [-1, 0.5, 2]
            #expect(s.locations == [0, 0.5, 1])
            s.setValue([0.2, 3], forKey: "locations")                  // KVC through the override
            #expect(s.locations == [0.2, 1])
            s.type = .radial
            #expect(s.log.last == "type radial")
            let root = liveRoot(loop)
            root.addSublayer(s)
            loop.endTurn()
            s.colors = [CGColor.black, CGColor.white]
            loop.endTurn()
            loop.advance(to: loop.currentTime + 0.2)   // past the midpoint of the 0.25 s switch (3 → 2 colours)
            let p = s.presentation()
            #expect(p is Shimmer && (p as? Shimmer)?.band == 0.3)
            #expect((p?.colors as? [CGColor])?.count == 2)
        }
    }
}

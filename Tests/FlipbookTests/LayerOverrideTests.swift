import Testing
@testable import Flipbook
import Foundation

/// Apple's overridability of `CALayer` (issue 13): subclasses written for QuartzCore —
/// `override var … { didSet }`, `override init(layer:)`, their own designated initializers,
/// overridden methods and class methods — compile and are called.
@Suite struct LayerOverrideTests {
    /// A subclass as Apple code writes it: a stored property, its own `init()`, a convenience
    /// initializer, `override init(layer:)`, property observers on built-in properties.
    final class Gauge: CALayer {
        var tag = 0
        var boundsSets: [CGRect] = []
        var opacitySets = 0
        var initLayerCalls = 0

        override init() {
            super.init()
            tag = 1
        }

        convenience init(frame: CGRect, tag: Int) {
            self.init()
            self.frame = frame
            self.tag = tag
        }

        override init(layer: Any) {
            super.init(layer: layer)
            initLayerCalls += 1
            tag = (layer as? Gauge)?.tag ?? -1
        }
        required init?(coder: NSCoder) { super.init(coder: coder) }

        override var bounds: CGRect {
            didSet { boundsSets.append(bounds) }
        }

        override var opacity: Float {
            get { super.opacity }
            set { opacitySets += 1; super.opacity = min(newValue, 0.75) }
        }
    }

    @Test func overriddenPropertyObservesTypedAndKVCWrites() {
        withRunLoop { _ in
            let g = Gauge()
            g.bounds = CGRect(x: 0, y: 0, width: 10, height: 20)
            g.setValue(CGRect(x: 0, y: 0, width: 30, height: 40), forKey: "bounds")
            g.setValue(50, forKeyPath: "bounds.size.width")
            #expect(g.boundsSets == [CGRect(x: 0, y: 0, width: 10, height: 20), CGRect(x: 0, y: 0, width: 30, height: 40),
                                     CGRect(x: 0, y: 0, width: 50, height: 40)])
            // `frame` sets `bounds` through the overridable setter too.
            g.frame = CGRect(x: 5, y: 5, width: 8, height: 8)
            #expect(g.boundsSets.last == CGRect(x: 0, y: 0, width: 8, height: 8))
            // An overriding setter can change what is stored, for typed and KVC writes alike.
            g.opacity = 1
            #expect(g.opacity == 0.75)
            g.setValue(0.9, forKey: "opacity")
            #expect(g.opacitySets == 2 && g.value(forKey: "opacity") as? Float == 0.75)
        }
    }

    @Test func ownInitializersAndConvenienceInit() {
        withRunLoop { _ in
            let g = Gauge(frame: CGRect(x: 10, y: 20, width: 30, height: 40), tag: 7)
            #expect(g.tag == 7 && g.frame == CGRect(x: 10, y: 20, width: 30, height: 40))
            #expect(g.position == CGPoint(x: 25, y: 40))
        }
    }

    /// Opted in (`FlipbookPresentationCopying`): Apple's behaviour exactly — copies of the
    /// class, made by its `init(layer:)`.
    final class CopiedGauge: CALayer, FlipbookPresentationCopying {
        var tag = 0
        var initLayerCalls = 0
        override init() { super.init() }
        override init(layer: Any) {
            super.init(layer: layer)
            initLayerCalls += 1
            tag = (layer as? CopiedGauge)?.tag ?? -1
        }
        required init?(coder: NSCoder) { super.init(coder: coder) }
    }

    @Test func initLayerOverrideCopiesStoredPropertyIntoPresentationCopies() {
        let loop = VirtualRunLoop()
        loop.run {
            let root = liveRoot(loop)
            let g = CopiedGauge()
            g.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
            g.tag = 42
            root.addSublayer(g)
            loop.endTurn()
            g.position = CGPoint(x: 100, y: 0)          // implicit animation
            loop.advance(to: 0.125)
            let p = g.presentation()
            #expect(p != nil)
            #expect(p?.tag == 42 && p?.initLayerCalls == 1 && g.initLayerCalls == 0)
            #expect(p.map { $0.position.x > 5 && $0.position.x < 100 } == true)
            #expect(p?.model() === g)
            // The render snapshot's copies are made the same way (and write nothing back).
            _ = g.makeRenderTree()
            #expect(g.initLayerCalls == 0 && g.tag == 42)
        }
    }

    /// Not opted in: the copy is an instance of the nearest Flipbook class (CALayer) holding
    /// the presented values; the subclass's `init(layer:)` is not called, `presentation()` is nil
    /// (CALayer.init(layer:), "Presentation copies").
    @Test func aSubclassOfYoursPresentsThroughAFlipbookClassCopy() {
        let loop = VirtualRunLoop()
        loop.run {
            let root = liveRoot(loop)
            let g = Gauge(frame: CGRect(x: 0, y: 0, width: 10, height: 10), tag: 42)
            root.addSublayer(g)
            loop.endTurn()
            g.position = CGPoint(x: 100, y: 0)          // implicit animation
            loop.advance(to: 0.125)
            #expect(g.presentation() == nil)
            let p = onScreen(g)
            #expect(p.map { type(of: $0) == CALayer.self } == true && g.initLayerCalls == 0)
            #expect(p.map { $0.position.x > 5 && $0.position.x < 100 } == true)
            #expect(p?.model() === g)
        }
    }

    @Test func subclassWithoutInitializersInheritsThem() {
        final class Plain: CALayer, FlipbookPresentationCopying { var flag = true }
        withRunLoop { loop in
            let l = Plain()
            loop.attach(l)
            loop.endTurn()
            l.flag = false
            let p = try? #require(l.presentation())
            // Plain inherits init(layer:), which copies CALayer's values only (as on Apple).
            #expect(p?.flag == true)
            #expect(p.map { type(of: $0) == Plain.self } == true)
        }
    }

    /// Methods and class methods that are `open` on Apple are overridden and called by the model.
    final class Hooked: CALayer {
        var log: [String] = []
        override class func defaultValue(forKey key: String) -> Any? {
            key == "cornerRadius" ? CGFloat(4) : key == "level" ? 3 : super.defaultValue(forKey: key)
        }
        override class func defaultAction(forKey event: String) -> CAAction? {
            event == "zPosition" ? NSNull() : super.defaultAction(forKey: event)
        }
        override func action(forKey event: String) -> CAAction? {
            log.append("action \(event)")
            return super.action(forKey: event)
        }
        override func contains(_ p: CGPoint) -> Bool { p.x >= 0 && p.x < 5 }   // only the left half
        override func addSublayer(_ layer: CALayer) {
            log.append("add")
            super.addSublayer(layer)
        }
        override func removeFromSuperlayer() {
            log.append("remove")
            super.removeFromSuperlayer()
        }
        override func add(_ anim: CAAnimation, forKey key: String?) {
            log.append("anim \(key ?? "nil")")
            super.add(anim, forKey: key)
        }
        override func preferredFrameSize() -> CGSize { CGSize(width: 1, height: 2) }
        override var sublayers: [CALayer]? {
            get { super.sublayers }
            set { log.append("set sublayers"); super.sublayers = newValue }
        }
    }

    @Test func openMethodsAreOverridden() {
        let loop = VirtualRunLoop()
        loop.run {
            let h = Hooked()
            #expect(h.cornerRadius == 4 && h.value(forKey: "level") as? Int == 3)
            h.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
            h.position = CGPoint(x: 5, y: 5)
            #expect(h.hitTest(CGPoint(x: 2, y: 5)) === h)     // local x = 2: left half
            #expect(h.hitTest(CGPoint(x: 8, y: 5)) == nil)    // local x = 8: outside contains
            loop.attach(h)
            loop.endTurn()
            h.log = []
            let child = CALayer()
            h.addSublayer(child)
            h.sublayers = [CALayer()]
            let anim = CABasicAnimation(keyPath: "opacity")
            anim.fromValue = 0; anim.toValue = 1
            h.add(anim, forKey: "fade")
            h.zPosition = 2
            #expect(h.log.contains("add") && h.log.contains("set sublayers") && h.log.contains("anim fade"))
            #expect(h.log.contains("action zPosition") && h.log.contains("action sublayers"))
            // defaultAction NSNull ends the search: no zPosition animation
            #expect(h.animation(forKey: "zPosition") == nil)
            #expect(h.preferredFrameSize() == CGSize(width: 1, height: 2))
            let inner = Hooked()
            h.addSublayer(inner)
            inner.removeFromSuperlayer()
            #expect(inner.log.contains("remove"))
        }
    }
}

extension LayerOverrideTests {
    /// One subclass with the four overrides of the issue's acceptance list, all working together.
    final class Dial: CALayer {
        var label = "none"                           // a stored property, copied by init(layer:)
        var boundsLog: [CGSize] = []
        var layouts = 0
        var draws: [(width: Int, height: Int, ctm: CGAffineTransform, label: String)] = []

        override init() { super.init() }
        override init(layer: Any) {
            super.init(layer: layer)
            label = (layer as? Dial)?.label ?? "?"
        }
        required init?(coder: NSCoder) { super.init(coder: coder) }
        override var bounds: CGRect { didSet { boundsLog.append(bounds.size) } }
        override func layoutSublayers() { layouts += 1; super.layoutSublayers() }
        override func draw(in ctx: CGContext) {
            (model() as Dial).draws.append((ctx.width, ctx.height, ctx.ctm, label))
        }
        override class func needsDisplay(forKey key: String) -> Bool { key == "angle" || super.needsDisplay(forKey: key) }
    }

    @Test func oneSubclassAllOverrides() throws {
        try withRunLoop { loop in
            let d = Dial()
            d.label = "dial"
            d.contentsScale = 2
            d.needsDisplayOnBoundsChange = true
            d.bounds = CGRect(x: 0, y: 0, width: 10, height: 5)
            d.setValue(CGRect(x: 0, y: 0, width: 20, height: 5), forKey: "bounds")
            #expect(d.boundsLog == [CGSize(width: 10, height: 5), CGSize(width: 20, height: 5)])
            loop.endTurn()
            #expect(d.layouts == 1)                                   // once for two bounds changes
            let first = try #require(d.draws.first)
            #expect(d.draws.count == 1 && first.width == 40 && first.height == 10)
            // UIKit's layer context at scale 2 (Apple's CTM: the flip of the 10-pixel bitmap, scaled).
            #expect(first.ctm == CGAffineTransform(a: 2, b: 0, c: 0, d: -2, tx: 0, ty: 10) && first.label == "dial")
            // An animated custom key that needs display: the presentation copy (init(layer:)
            // copied `label`) draws at the snapshot.
            let spin = CABasicAnimation(keyPath: "angle")
            spin.fromValue = CGFloat(0); spin.toValue = CGFloat(1); spin.duration = 1
            d.add(spin, forKey: "spin")
            loop.endTurn()
            _ = d.makeRenderTree(at: 0.5)
            #expect(d.draws.count == 2 && d.draws.last?.label == "dial" && d.draws.last?.width == 40)
            #expect(d.layouts == 1)
        }
    }
}

extension LayerOverrideTests {
    /// The shape of a typical iOS layer subclass, as written there (including the
    /// `required init?(coder:)` Xcode inserts), compiles and makes presentation copies.
    final class Ported: CALayer {
        var tint: CGColor = .black

        override init() {
            super.init()
            needsDisplayOnBoundsChange = true
        }

        override init(layer: Any) {
            super.init(layer: layer)
            if let other = layer as? Ported { tint = other.tint }
        }

        required init?(coder: NSCoder) {
            fatalError("init(coder:) has not been implemented")
        }
    }

    @Test func iOSShapedSubclassPorts() {
        withRunLoop { loop in
            let p = Ported()
            p.tint = .white
            loop.attach(p)
            loop.endTurn()
            // As it is: presented through a CALayer copy (presentation() nil, values on screen).
            #expect(p.presentation() == nil && onScreen(p)?.needsDisplayOnBoundsChange == true)
            // With the one-line opt-in, a copy of the class made by its init(layer:), as on Apple.
            let q = PortedCopied()
            q.tint = .white
            loop.attach(q)
            loop.endTurn()
            let copy = q.presentation()
            #expect(copy?.tint == .white && copy?.needsDisplayOnBoundsChange == true)
        }
    }

    final class PortedCopied: CALayer, FlipbookPresentationCopying {
        var tint: CGColor = .black
        override init() { super.init(); needsDisplayOnBoundsChange = true }
        override init(layer: Any) {
            super.init(layer: layer)
            if let other = layer as? PortedCopied { tint = other.tint }
        }
        required init?(coder: NSCoder) { fatalError("init(coder:) has not been implemented") }
    }

    /// The subclass shapes Swift's rules made hard (issue 37, item 11), as published code writes
    /// them: its own designated `init(frame:)`, `override init(layer:)` and `required init?(coder:)`
    /// but no `override init()` (C); its own initializer and `init?(coder:)` only (D). On Apple both
    /// compile and animate; here they compile unchanged and their animations and drawing show.
    final class PulseLayer: CALayer {
        var radius: CGFloat
        var drawn: [CGFloat] = []
        init(frame: CGRect, radius: CGFloat) {
            self.radius = radius
            super.init()
            self.frame = frame
        }
        override init(layer: Any) {
            radius = (layer as? PulseLayer)?.radius ?? 0
            super.init(layer: layer)
        }
        required init?(coder aDecoder: NSCoder) { fatalError("init(coder:) has not been implemented") }
        var level: CGFloat {
            get { value(forKey: "level") as? CGFloat ?? 0 }
            set { setValue(newValue, forKey: "level") }
        }
        override class func needsDisplay(forKey key: String) -> Bool { key == "level" || super.needsDisplay(forKey: key) }
        override func draw(in ctx: CGContext) {
            drawn.append(level * radius)                      // the presented level, the model's radius
            ctx.setFillColor(CGColor(red: 1, green: 0, blue: 0, alpha: 1))
            ctx.fill(CGRect(x: 0, y: 0, width: bounds.width * level, height: bounds.height))
        }
    }

    final class BadgeOnly: CALayer {
        let text: String
        init(text: String) { self.text = text; super.init() }
        required init?(coder: NSCoder) { fatalError("init(coder:) has not been implemented") }
    }

    @Test func subclassesWithTheirOwnInitializersOnly() throws {
        try withRunLoop { loop in
            let root = liveRoot(loop)
            let pulse = PulseLayer(frame: CGRect(x: 0, y: 0, width: 10, height: 2), radius: 3)
            pulse.level = 1
            let badge = BadgeOnly(text: "3")
            root.addSublayer(pulse); root.addSublayer(badge)
            loop.endTurn()
            let grow = CABasicAnimation(keyPath: "level")
            grow.fromValue = CGFloat(0); grow.toValue = CGFloat(1); grow.duration = 1
            grow.timingFunction = CAMediaTimingFunction(name: .linear)
            pulse.add(grow, forKey: "grow")
            let scale = CABasicAnimation(keyPath: "transform.scale")
            scale.fromValue = CGFloat(1); scale.toValue = CGFloat(3); scale.duration = 1
            scale.timingFunction = CAMediaTimingFunction(name: .linear)
            pulse.add(scale, forKey: "scale")
            badge.add(scale, forKey: "scale")
            loop.endTurn()
            let start = loop.currentTime
            let tree = pulse.makeRenderTree(at: start + 0.5)
            // The model drew with the presented level (0.5) standing in for the copy; radius is its own.
            #expect(pulse.drawn.last == 1.5)
            let img = try #require(tree.contents)
            #expect(img.width == 10 && img.pixelBuffer[4, 0].a == 255 && img.pixelBuffer[5, 0].a == 0)
            #expect(abs(tree.transform.m11 - 2) < 1e-9)
            #expect(abs(badge.makeRenderTree(at: start + 0.5).transform.m11 - 2) < 1e-9)
            // The model is untouched: level 1, its own contents, nothing marked.
            #expect(pulse.level == 1 && !pulse.needsDisplay())
            loop.advance(to: start + 0.5)
            #expect(pulse.presentation() == nil && onScreen(pulse)?.value(forKey: "level") as? CGFloat == 0.5)
        }
    }
}

import Testing
@testable import Flipbook
import FlipbookPixels
import Foundation

private let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)

/// The premultiplied pixel of `image` at (x, y).
private func px(_ image: CGImage?, _ x: Int, _ y: Int) -> RGBA8? { image.map { $0.pixelBuffer[x, y] } }
private let opaqueRed = RGBA8(r: 255, g: 0, b: 0, a: 255)

/// The display cycle (issue 13): `setNeedsDisplay` → commit → `display()` → `draw(in:)` →
/// `contents`; delegate paths; the backing store's size and CTM; custom keys that need display
/// redrawn from the presentation copy while they animate.
@Suite struct DisplayCycleTests {
    /// Records what the backing-store path did.
    final class Probe: CALayer {
        var ctmSeen: CGAffineTransform?
        var sizeSeen: (Int, Int)?
        var draws = 0
        override func draw(in ctx: CGContext) {
            draws += 1
            ctmSeen = ctx.ctm
            sizeSeen = (ctx.width, ctx.height)
            ctx.setFillColor(red)
            ctx.fill(CGRect(x: bounds.minX, y: bounds.minY, width: 5, height: 4))   // left part, in bounds coordinates
        }
    }

    @Test func drawInContextAtContentsScaleTwo() throws {
        try withRunLoop { loop in
            let l = Probe()
            l.bounds = CGRect(x: 3, y: 1, width: 10.5, height: 4)
            l.contentsScale = 2
            l.setNeedsDisplay()
            #expect(l.draws == 0 && l.needsDisplay())          // not before the commit
            loop.endTurn()
            #expect(l.draws == 1 && !l.needsDisplay())
            let size = try #require(l.sizeSeen)
            #expect(size == (21, 8))                            // ceil(10.5 × 2) × 4 × 2
            // UIKit's layer context: the y-flip of the 8-pixel bitmap, scaled by 2, bounds origin (3, 1) at the top-left.
            #expect(l.ctmSeen == CGAffineTransform(a: 2, b: 0, c: 0, d: -2, tx: -6, ty: 10))
            let image = try #require(l.contents as? CGImage)
            #expect(image.width == 21 && image.height == 8)
            #expect(px(image, 0, 0) == opaqueRed && px(image, 9, 7) == opaqueRed)   // 5 points = 10 pixels
            #expect(px(image, 10, 0) == .transparent && px(image, 20, 7) == .transparent)
            // Nothing marked: the next commit does not draw again.
            l.opacity = 0.5
            loop.endTurn()
            #expect(l.draws == 1)
        }
    }

    @Test func emptyBoundsGiveNilContents() {
        withRunLoop { loop in
            let l = Probe()
            l.bounds = CGRect(x: 0, y: 0, width: 4, height: 4)
            l.setNeedsDisplay()
            loop.endTurn()
            #expect(l.contents != nil)
            l.bounds = CGRect(x: 0, y: 0, width: 0, height: 4)
            l.setNeedsDisplay()
            loop.endTurn()
            #expect(l.contents == nil && l.draws == 1)
            l.bounds = CGRect(x: 0, y: 0, width: CGFloat.nan, height: 4)
            l.setNeedsDisplay()
            loop.endTurn()
            #expect(l.contents == nil)
        }
    }

    @Test func setNeedsDisplayInRectMarksTheWholeLayerAndDisplayIfNeededClears() {
        withRunLoop { loop in
            let l = Probe()
            l.bounds = CGRect(x: 0, y: 0, width: 8, height: 8)
            l.setNeedsDisplay(CGRect(x: 0, y: 0, width: 1, height: 1))
            #expect(l.needsDisplay())
            l.displayIfNeeded()
            #expect(!l.needsDisplay() && l.draws == 1)
            l.displayIfNeeded()
            #expect(l.draws == 1)
            loop.endTurn()
            #expect(l.draws == 1)
            let image = l.contents as? CGImage
            #expect(image?.width == 8 && px(image, 4, 3) == opaqueRed && px(image, 5, 3) == .transparent)
        }
    }

    @Test func needsDisplayOnBoundsChange() {
        withRunLoop { loop in
            let l = Probe()
            l.bounds = CGRect(x: 0, y: 0, width: 2, height: 2)
            loop.endTurn()
            #expect(l.draws == 0)
            l.needsDisplayOnBoundsChange = true
            l.bounds = CGRect(x: 0, y: 0, width: 3, height: 2)
            #expect(l.needsDisplay())
            loop.endTurn()
            #expect(l.draws == 1 && (l.contents as? CGImage)?.width == 3)
            l.position = CGPoint(x: 9, y: 9)                 // not a bounds change
            loop.endTurn()
            #expect(l.draws == 1)
        }
    }

    /// A delegate that implements only `draw(_:in:)` and `layerWillDraw(_:)`.
    final class Drawer: CALayerDelegate {
        var log: [String] = []
        func layerWillDraw(_ layer: CALayer) { log.append("willDraw") }
        func draw(_ layer: CALayer, in ctx: CGContext) {
            log.append("draw \(ctx.width)x\(ctx.height)")
            ctx.setFillColor(red)
            ctx.fill(layer.bounds)
        }
    }

    /// A delegate that implements `display(_:)` (and the others, which must then not be called).
    final class Displayer: CALayerDelegate {
        var log: [String] = []
        func display(_ layer: CALayer) { log.append("display"); layer.contents = nil }
        func layerWillDraw(_ layer: CALayer) { log.append("willDraw") }
        func draw(_ layer: CALayer, in ctx: CGContext) { log.append("draw") }
    }

    @Test func delegatePaths() {
        withRunLoop { loop in
            let drawer = Drawer(), displayer = Displayer()
            let a = CALayer(), b = CALayer(), c = CALayer()
            for l in [a, b, c] { l.bounds = CGRect(x: 0, y: 0, width: 3, height: 2) }
            a.delegate = drawer
            b.delegate = displayer
            a.setNeedsDisplay(); b.setNeedsDisplay(); c.setNeedsDisplay()
            loop.endTurn()
            #expect(drawer.log == ["willDraw", "draw 3x2"])
            #expect(px(a.contents as? CGImage, 2, 1) == opaqueRed)
            #expect(displayer.log == ["display"])
            #expect(b.contents == nil)
            // No delegate, no override: a transparent bitmap of the bounds (Apple's empty backing store).
            let image = c.contents as? CGImage
            #expect(image?.width == 3 && px(image, 1, 1) == .transparent)
        }
    }

    @Test func displayOverrideAndOpaqueDrawsAsynchronouslyAccepted() {
        final class Direct: CALayer {
            override func display() { contents = CGImage(pixelBuffer: PixelBuffer(width: 2, height: 2)) }
        }
        withRunLoop { loop in
            let d = Direct()
            d.isOpaque = true
            d.drawsAsynchronously = true
            #expect(d.value(forKey: "opaque") as? Bool == true && d.value(forKey: "isOpaque") as? Bool == true)
            #expect(d.value(forKey: "drawsAsynchronously") as? Bool == true)
            d.setNeedsDisplay()
            loop.endTurn()
            #expect((d.contents as? CGImage)?.width == 2)
        }
    }

    /// A progress bar drawn by `draw(in:)` from a custom animatable property, declared the
    /// Swift-on-Linux way (a computed property over KVC), with a stored colour copied by
    /// `init(layer:)`.
    final class Bar: CALayer {
        var progress: CGFloat {
            get { value(forKey: "progress") as? CGFloat ?? 0 }
            set { setValue(newValue, forKey: "progress") }
        }
        var color = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        var drawnProgress: [CGFloat] = []

        override init() { super.init() }
        override init(layer: Any) {
            super.init(layer: layer)
            color = (layer as? Bar)?.color ?? color
        }
        required init?(coder: NSCoder) { super.init(coder: coder) }
        override class func needsDisplay(forKey key: String) -> Bool {
            key == "progress" || super.needsDisplay(forKey: key)
        }
        override class func defaultValue(forKey key: String) -> Any? {
            key == "progress" ? CGFloat(0) : super.defaultValue(forKey: key)
        }
        override func draw(in ctx: CGContext) {
            (model() as Bar).drawnProgress.append(progress)       // a log on the test object only
            ctx.setFillColor(color)
            ctx.fill(CGRect(x: 0, y: 0, width: bounds.width * progress, height: bounds.height))
        }
    }

    /// The number of filled pixels on row 0 of a snapshot's contents.
    private func filled(_ image: CGImage?) -> Int {
        guard let image else { return -1 }
        return (0..<image.width).filter { image.pixelBuffer[$0, 0].a == 255 }.count
    }

    @Test func customKeyIsRedrawnFromThePresentationLayerWhileItAnimates() throws {
        try withRunLoop { loop in
            let bar = Bar()
            bar.bounds = CGRect(x: 0, y: 0, width: 100, height: 2)
            bar.color = red
            let anim = CABasicAnimation(keyPath: "progress")
            anim.fromValue = CGFloat(0)
            anim.toValue = CGFloat(1)
            anim.duration = 1
            anim.timingFunction = CAMediaTimingFunction(name: .linear)
            bar.progress = 1                                   // model value; marks needs display
            #expect(bar.needsDisplay())
            bar.add(anim, forKey: "progress")
            loop.endTurn()                                     // commit at t = 0: the model draws (progress 1)
            #expect(bar.drawnProgress == [1] && filled(bar.contents as? CGImage) == 100)
            let modelContents = try #require(bar.contents as? CGImage)

            let mid = bar.makeRenderTree(at: 0.5)
            #expect(filled(mid.contents) == 50)
            #expect(px(mid.contents, 10, 0) == opaqueRed)      // the copy kept the stored colour (init(layer:))
            #expect(bar.drawnProgress == [1, 0.5])
            #expect(filled(bar.makeRenderTree(at: 0).contents) == 0)
            #expect(filled(bar.makeRenderTree(at: 0.25).contents) == 25)
            // After the animation (removed on completion): the model's contents, not redrawn.
            #expect(bar.makeRenderTree(at: 1).contents === modelContents)
            #expect(bar.drawnProgress == [1, 0.5, 0, 0.25])
            // Frame order does not matter and the model is untouched.
            #expect(bar.makeRenderTree(at: 0.5).contents == mid.contents)
            #expect(bar.contents as? CGImage === modelContents && bar.progress == 1 && !bar.needsDisplay())
        }
    }

    /// During the animation the delegate's `draw(_:in:)` sees the presented value: for a layer of
    /// the tests' own class (no typed copies) the model stands in for its copy, with the copy's
    /// values in place; for a Flipbook class (or an opted-in one) it receives the copy.
    @Test func delegateDrawsThePresentationCopy() {
        final class Ring: CALayerDelegate {
            var seen: [(isCopy: Bool, value: CGFloat)] = []
            func draw(_ layer: CALayer, in ctx: CGContext) {
                seen.append((layer.model() !== layer, layer.value(forKey: "level") as? CGFloat ?? -1))
            }
        }
        final class Level: CALayer {
            override class func needsDisplay(forKey key: String) -> Bool { key == "level" || super.needsDisplay(forKey: key) }
        }
        withRunLoop { loop in
            let ring = Ring()
            let l = Level()
            l.bounds = CGRect(x: 0, y: 0, width: 4, height: 4)
            l.delegate = ring
            l.setValue(CGFloat(10), forKey: "level")
            let anim = CABasicAnimation(keyPath: "level")
            anim.fromValue = CGFloat(0); anim.toValue = CGFloat(10); anim.duration = 2
            anim.timingFunction = CAMediaTimingFunction(name: .linear)
            l.add(anim, forKey: nil)
            loop.endTurn()
            _ = l.makeRenderTree(at: 0.5)
            #expect(ring.seen.count == 2)
            #expect(ring.seen.first.map { !$0.isCopy && $0.value == 10 } == true)
            #expect(ring.seen.last.map { !$0.isCopy && $0.value == 2.5 } == true)
            #expect(l.value(forKey: "level") as? CGFloat == 10)          // the model's own value is back
            // An animation of a key that does not need display does not redraw.
            let fade = CABasicAnimation(keyPath: "opacity")
            fade.fromValue = 0; fade.toValue = 1; fade.duration = 1
            l.removeAllAnimations()
            l.add(fade, forKey: nil)
            loop.endTurn()
            _ = l.makeRenderTree(at: 0.5)
            #expect(ring.seen.count == 2)
        }
    }
}

extension DisplayCycleTests {
    /// In a live tree the model's new contents cross-fade in (the implicit `contents` action,
    /// as on Apple); a frame whose presentation copy redraws shows that drawing, not a cross-fade.
    @Test func liveRedrawReplacesTheContentsCrossfade() throws {
        try withRunLoop { loop in
            let root = liveRoot(loop)
            let bar = Bar()
            bar.bounds = CGRect(x: 0, y: 0, width: 10, height: 1)
            root.addSublayer(bar)
            loop.endTurn()                                       // bar is live
            bar.progress = 0.5                                   // marks; commit draws; contents cross-fade
            loop.endTurn()
            #expect(bar.animation(forKey: "contents") != nil)
            let fadeOnly = bar.makeRenderTree(at: 0.1)
            #expect(fadeOnly.contentsCrossfade != nil)
            let anim = CABasicAnimation(keyPath: "progress")
            anim.fromValue = CGFloat(0); anim.toValue = CGFloat(0.5); anim.duration = 1
            bar.add(anim, forKey: "progress")
            loop.endTurn()
            let redrawn = bar.makeRenderTree(at: 0.1)
            #expect(redrawn.contentsCrossfade == nil)
            let image = try #require(redrawn.contents)
            // progress 0.05 at t = 0.1: half of pixel 0 covered, nothing after it
            #expect(image.width == 10 && image.pixelBuffer[0, 0].a > 0 && image.pixelBuffer[0, 0].a < 255)
            #expect(image.pixelBuffer[1, 0].a == 0)
        }
    }
}

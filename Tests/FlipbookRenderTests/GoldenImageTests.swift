import Testing
import FlipbookTesting
@testable import FlipbookRender
import Flipbook
import FlipbookPixels
import Foundation

/// Golden-image versions of representative compositor tests, through the project's own
/// visual-regression assertions (dogfooding `FlipbookTesting`). The exact-pixel tests in the
/// other files stay: they say *why* a pixel has its value; these catch any change anywhere in
/// the frame. References: `__Snapshots__/GoldenImageTests/<test>.<name>.png`, recorded with
/// `FLIPBOOK_RECORD=missing`, reviewed by eye, committed; CI (`CI=true`) never records.
///
/// Scenes are live `CALayer` trees, each under its own `VirtualRunLoop` (the assertions move that
/// run loop's clock); two reuse the render-tree scenes of the exact tests.
@Suite struct GoldenImageTests {
    static let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    static let green = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
    static let blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
    static let white = CGColor(red: 1, green: 1, blue: 1, alpha: 1)

    /// A layer whose frame is `rect`.
    static func layer(_ rect: CGRect, _ color: CGColor? = nil) -> CALayer {
        let l = CALayer()
        l.frame = rect
        l.backgroundColor = color
        return l
    }

    /// A `w × h`-pt root whose frame fills a `w × h`-pt image.
    static func root(_ w: Double, _ h: Double) -> CALayer { layer(CGRect(x: 0, y: 0, width: w, height: h)) }

    /// A `w × h` image: left half `l`, right half `r`, with a 2-texel white bar at the top so
    /// the direction of motion is visible.
    static func image(_ w: Int, _ h: Int, _ l: RGBA8, _ r: RGBA8) -> CGImage {
        var b = PixelBuffer(width: w, height: h)
        for y in 0..<h { for x in 0..<w { b[x, y] = y < 2 ? .white : (x < w / 2 ? l : r) } }
        return CGImage(pixelBuffer: b)
    }

    /// A 1 s `CATransition` from the left (push, reveal): the old picture, halfway, the new one.
    @Test(arguments: [CATransitionType.push, .reveal])
    func transitionAtStartMiddleAndEnd(_ type: CATransitionType) {
        let loop = VirtualRunLoop()
        loop.run {
            let card = Self.root(32, 32)
            card.contents = Self.image(8, 8, .red, .blue)
            card.magnificationFilter = .nearest
            loop.attach(card)
            loop.endTurn()
            _ = card.makeRenderTree()                     // changes nothing (the "before" picture is the committed card)
            CATransaction.setDisableActions(true)
            card.contents = Self.image(8, 8, .green, RGBA8(r: 255, g: 255, b: 0, a: 255))
            let t = CATransition()
            t.type = type
            t.subtype = .fromLeft
            t.duration = 1
            card.add(t, forKey: "swap")
            assertRenderings(of: card, at: [0, 0.5, 1], size: CGSize(width: 32, height: 32), background: .black,
                             named: type.rawValue)
        }
    }

    /// A 40×40 layer turned 45°, corner radius 10, clipping an overflowing green child.
    @Test func roundedClipUnderRotation() {
        VirtualRunLoop().run {
            let root = Self.root(64, 64)
            let clip = Self.layer(CGRect(x: 12, y: 12, width: 40, height: 40))
            clip.transform = CATransform3DMakeRotation(.pi / 4, 0, 0, 1)
            clip.masksToBounds = true
            clip.cornerRadius = 10
            clip.addSublayer(Self.layer(CGRect(x: -10, y: -10, width: 60, height: 60), Self.green))
            root.addSublayer(clip)
            assertRendering(of: root, at: 0, size: CGSize(width: 64, height: 64), background: .black, named: "clip")
        }
    }

    /// Perspective (m34 = −1/100) with a 0.6 rad turn about y: the near edge is taller.
    @Test func perspectiveForeshortening() {
        VirtualRunLoop().run {
            let root = Self.root(64, 64)
            var p = CATransform3DIdentity
            p.m34 = -1 / 100
            let card = Self.layer(CGRect(x: 12, y: 12, width: 40, height: 40), Self.green)
            card.transform = CATransform3DRotate(CATransform3DIdentity, 0.6, 0, 1, 0) * p
            card.addSublayer(Self.layer(CGRect(x: 0, y: 0, width: 20, height: 20), Self.blue))
            root.addSublayer(card)
            assertRendering(of: root, at: 0, size: CGSize(width: 64, height: 64), background: .black, named: "turned")
        }
    }

    /// Two overlapping children under a parent at opacity ½, as a group and per layer,
    /// at scale 4 (12×4 pt → 48×16 px).
    @Test(arguments: [true, false])
    func groupOpacity(_ group: Bool) {
        VirtualRunLoop().run {
            let root = Self.root(12, 4)
            let parent = Self.layer(CGRect(x: 0, y: 0, width: 12, height: 4))
            parent.opacity = 0.5
            parent.allowsGroupOpacity = group
            parent.addSublayer(Self.layer(CGRect(x: 0, y: 0, width: 8, height: 4), Self.red))
            parent.addSublayer(Self.layer(CGRect(x: 4, y: 0, width: 8, height: 4), Self.green))
            root.addSublayer(parent)
            assertRendering(of: root, at: 0, size: CGSize(width: 12, height: 4), scale: 4, background: .black,
                            named: group ? "group" : "per-layer")
        }
    }

    /// A 4×4 image in a 24×12 layer, for a fixed-size and a scaling gravity.
    @Test(arguments: [CALayerContentsGravity.topLeft, .resizeAspect])
    func gravity(_ gravity: CALayerContentsGravity) {
        VirtualRunLoop().run {
            let l = Self.root(24, 12)
            l.backgroundColor = Self.white
            l.contents = Self.image(4, 4, .red, .blue)
            l.contentsGravity = gravity
            l.magnificationFilter = .nearest
            assertRendering(of: l, at: 0, size: CGSize(width: 24, height: 12), scale: 2, named: gravity.rawValue)
        }
    }

    /// A rounded green layer with a 3-pt red border and a soft shadow offset downwards, over
    /// white; the transparent variant keeps the shadow's alpha in the reference.
    @Test func borderAndShadow() {
        VirtualRunLoop().run {
            let root = Self.root(48, 48)
            let card = Self.layer(CGRect(x: 10, y: 6, width: 28, height: 24), Self.green)
            card.cornerRadius = 6
            card.borderWidth = 3
            card.borderColor = Self.red
            card.shadowOpacity = 0.8
            card.shadowOffset = CGSize(width: 0, height: 8)
            card.shadowRadius = 3
            root.addSublayer(card)
            assertRendering(of: root, at: 0, size: CGSize(width: 48, height: 48), background: .white, named: "white")
            assertRendering(of: root, at: 0, size: CGSize(width: 48, height: 48), named: "transparent")
        }
    }

    /// The peers' mixed workload scene (rotation, rounded clip, group opacity, contents,
    /// border, shadow, perspective) as a render tree, within a perceptual tolerance of ΔE 1
    /// (documenting the option; the compositor is deterministic, so today it matches exactly).
    @Test func mixedRenderTree() {
        let outcome = assertRendering(of: PeerWorkloadsTestScene.mixed(), width: 96, height: 96, background: .black,
                                      named: "mixed", tolerance: .perceptual(1))
        #expect(outcome.comparison?.isIdentical != false)
    }
}

import Testing
import FlipbookTesting
@testable import FlipbookRender
import Flipbook
import FlipbookPixels
import FlipbookRaster
import Foundation

/// Shadows (issue 12): from the layer's composited alpha (sublayers included), from
/// `shadowPath`, and clipped by `masksToBounds`. Exact-pixel tests say why a pixel has its
/// value; the golden images (`__Snapshots__/ShadowTests/`) show the whole picture.
@Suite struct ShadowTests {
    static let white = RGBA8(r: 255, g: 255, b: 255, a: 255)
    static let black = RGBA8(r: 0, g: 0, b: 0, a: 255)

    /// A white frame with one shadowing layer, hard shadow (radius 0) unless said.
    static func render(_ l: RenderLayer, _ w: Int = 48, _ h: Int = 48, threads: Int = 1) throws -> PixelBuffer {
        try TestScene.render(TestScene.root(Double(w), Double(h), [l]), w, h, threads: threads, background: white)
    }

    /// The shadow's colour over white at shadow alpha `k` (0…255): `over(scale(black, k), white)`.
    static func over(_ k: UInt32) -> RGBA8 {
        RGBA8(packed: PixelMath.over(PixelMath.scale(black.packed, k), white.packed))
    }

    // MARK: Composited alpha

    /// A clear layer with an opaque sublayer: the sublayer's shape casts the shadow; the clear
    /// part of the layer casts nothing (before issue 12 nothing at all was cast).
    @Test func clearLayerCastsItsSublayersShadow() throws {
        let l = TestScene.box(CGRect(x: 8, y: 4, width: 32, height: 16), nil, configure: {
            $0.shadowOpacity = 1; $0.shadowOffset = CGSize(width: 0, height: 20); $0.shadowRadius = 0
        }, sublayers: [TestScene.box(CGRect(x: 0, y: 0, width: 12, height: 16), TestScene.red)])
        let img = try Self.render(l)
        #expect(img[12, 10] == .red)           // the sublayer
        #expect(img[12, 30] == Self.black)     // its shadow, 20 pt lower
        #expect(img[30, 30] == Self.white)     // below the clear part: no shadow
        #expect(img[30, 10] == Self.white)     // the clear layer itself
    }

    /// A shadow pixel far from any edge is exactly the tint: `shadowColor × shadowOpacity`
    /// (α = round(0.5 · 255) = 128) over the background, whatever the blur.
    @Test func shadowInteriorIsTheTintedOpacity() throws {
        for radius in [0.0, 2.0] {
            let l = TestScene.box(CGRect(x: 4, y: 4, width: 40, height: 20), TestScene.green, configure: {
                $0.shadowOpacity = 0.5; $0.shadowOffset = CGSize(width: 0, height: 20); $0.shadowRadius = CGFloat(radius)
            })
            let img = try Self.render(l, 48, 56)
            #expect(img[24, 36] == Self.over(128))
            #expect(img[24, 36] == RGBA8(r: 127, g: 127, b: 127, a: 255))
        }
    }

    /// The layer's opacity multiplies its shadow, sublayers' opacities multiply their part of it.
    @Test func opacitiesMultiplyTheShadow() throws {
        let l = TestScene.box(CGRect(x: 8, y: 4, width: 32, height: 16), nil, opacity: 0.5, configure: {
            $0.shadowOpacity = 1; $0.shadowOffset = CGSize(width: 0, height: 20); $0.shadowRadius = 0
        }, sublayers: [
            TestScene.box(CGRect(x: 0, y: 0, width: 12, height: 16), TestScene.red),
            TestScene.box(CGRect(x: 20, y: 0, width: 12, height: 16), TestScene.red, opacity: 0.5),
        ])
        let img = try Self.render(l)
        // Layer opacity 0.5 with two drawing sublayers: an offscreen group at α 128; inside it
        // the shadow is α 255 under the opaque child and α 128 under the half-transparent one.
        let full = RGBA8(packed: PixelMath.over(PixelMath.scale(Self.black.packed, 128), Self.white.packed))
        let half = RGBA8(packed: PixelMath.over(PixelMath.scale(PixelMath.scale(Self.black.packed, 128), 128),
                                                Self.white.packed))
        #expect(img[12, 30] == full)
        #expect(img[36, 30] == half)
    }

    /// A sublayer's own shadow is part of the composited picture, so it casts a shadow too.
    @Test func sublayerShadowsArePartOfTheCompositedAlpha() throws {
        let child = TestScene.box(CGRect(x: 0, y: 0, width: 8, height: 8), TestScene.red, configure: {
            $0.shadowOpacity = 1; $0.shadowOffset = CGSize(width: 0, height: 10); $0.shadowRadius = 0
        })
        let l = TestScene.box(CGRect(x: 4, y: 4, width: 8, height: 8), nil, configure: {
            $0.shadowOpacity = 1; $0.shadowOffset = CGSize(width: 20, height: 0); $0.shadowRadius = 0
        }, sublayers: [child])
        let img = try Self.render(l)
        #expect(img[8, 8] == .red)            // the child
        #expect(img[8, 18] == Self.black)     // the child's shadow
        #expect(img[28, 8] == Self.black)     // the layer's shadow of the child
        #expect(img[28, 18] == Self.black)    // the layer's shadow of the child's shadow
        #expect(img[28, 30] == Self.white)
    }

    /// A chain of 40 nested shadowed layers: offscreens nest at most
    /// `_Planner.maximumShadowNesting` deep, so the cost stays polynomial (unbounded nesting
    /// would be 2⁴⁰ offscreens); second-order shadows are still exact (test above).
    @Test func nestedShadowsDoNotExplode() throws {
        var node = TestScene.box(CGRect(x: 0, y: 0, width: 4, height: 4), TestScene.red, configure: {
            $0.shadowOpacity = 0.5; $0.shadowOffset = CGSize(width: 0, height: 1); $0.shadowRadius = 0.5
        })
        for _ in 1..<40 {
            node = TestScene.box(CGRect(x: 0.5, y: 0.5, width: 6, height: 6), nil, configure: {
                $0.shadowOpacity = 0.5; $0.shadowOffset = CGSize(width: 0, height: 1); $0.shadowRadius = 0.5
            }, sublayers: [node])
        }
        let start = ContinuousClock.now
        let img = try Self.render(node, 48, 48)
        #expect(ContinuousClock.now - start < .seconds(20))
        #expect(img[21, 21] == .red)
        #expect(img[21, 26].r < 255)
    }

    /// Content just outside the frame still feeds the blur: the shadow of a layer half out of
    /// the frame is the same, inside the frame, as the corresponding part of a larger frame
    /// shifted to contain the whole layer.
    @Test func contentOutsideTheFrameFeedsTheBlur() throws {
        func scene(_ dx: Double) -> RenderLayer {
            TestScene.root(64, 48, [TestScene.box(CGRect(x: dx - 10, y: 4, width: 30, height: 16), TestScene.green, configure: {
                $0.shadowOpacity = 1; $0.shadowOffset = CGSize(width: 0, height: 20); $0.shadowRadius = 3
            })])
        }
        let cut = try TestScene.render(scene(0), 32, 48, background: Self.white)
        let whole = try TestScene.render(scene(16), 64, 48, background: Self.white)
        for y in 0..<48 { for x in 0..<32 { #expect(cut[x, y] == whole[x + 16, y]) } }
    }

    // MARK: shadowPath

    /// `shadowPath` alone decides the shape: the contents, background and sublayers are not
    /// looked at.
    @Test func shadowPathIgnoresTheContent() throws {
        let l = TestScene.box(CGRect(x: 4, y: 4, width: 16, height: 16), TestScene.green,
                              contents: TestScene.image(4, 4, .red), configure: {
            $0.shadowOpacity = 1; $0.shadowOffset = CGSize(width: 0, height: 20); $0.shadowRadius = 0
            $0.shadowPath = CGPath(rect: CGRect(x: 24, y: 0, width: 8, height: 8))
        }, sublayers: [TestScene.box(CGRect(x: 0, y: 0, width: 16, height: 16), TestScene.blue)])
        let img = try Self.render(l)
        #expect(img[12, 30] == Self.white)    // under the content: no shadow
        #expect(img[31, 27] == Self.black)    // the path (layer 24…32 × 0…8, +20 down, +4 origin)
        #expect(img[31, 33] == Self.white)
        #expect(img[27, 27] == Self.white)
    }

    /// An empty `shadowPath` casts nothing (the usual way to switch a shadow off on Apple).
    @Test func emptyShadowPathCastsNothing() throws {
        let l = TestScene.box(CGRect(x: 4, y: 4, width: 16, height: 16), TestScene.green, configure: {
            $0.shadowOpacity = 1; $0.shadowOffset = CGSize(width: 0, height: 20); $0.shadowRadius = 2
            $0.shadowPath = CGMutablePath().copy()
        })
        let img = try Self.render(l)
        for y in 0..<48 { for x in 0..<48 where !(4..<20 ~= x && 4..<20 ~= y) { #expect(img[x, y] == Self.white) } }
    }

    /// An ellipse path under a square layer differs from the layer-shape shadow: the corners
    /// of the square's shadow are empty, the centre is the same.
    @Test func ellipsePathDiffersFromTheLayerShape() throws {
        func scene(_ path: CGPath?) -> RenderLayer {
            TestScene.box(CGRect(x: 8, y: 4, width: 32, height: 16), TestScene.green, configure: {
                $0.shadowOpacity = 1; $0.shadowOffset = CGSize(width: 0, height: 20); $0.shadowRadius = 0
                $0.shadowPath = path
            })
        }
        let square = try Self.render(scene(nil))
        let ellipse = try Self.render(scene(CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 32, height: 16))))
        #expect(square[9, 25] == Self.black && ellipse[9, 25] == Self.white)   // a corner
        #expect(square[24, 32] == Self.black && ellipse[24, 32] == Self.black) // the centre
    }

    /// A path equal to the bounds gives (within coverage rounding at the edges) the same shadow
    /// as the layer's shape, under a rotation and under perspective (the projective path:
    /// flattened in layer space, clipped before the divide).
    @Test(arguments: [false, true])
    func boundsPathMatchesTheLayerShape(_ perspective: Bool) throws {
        var t = CATransform3DMakeRotation(0.4, 0, 0, 1)
        if perspective {
            var p = CATransform3DIdentity
            p.m34 = -1 / 80
            t = CATransform3DRotate(CATransform3DIdentity, 0.7, 0, 1, 0) * p
        }
        func scene(_ path: CGPath?) -> RenderLayer {
            TestScene.box(CGRect(x: 12, y: 8, width: 24, height: 20), TestScene.green, transform: t, configure: {
                $0.shadowOpacity = 1; $0.shadowOffset = CGSize(width: 0, height: 14); $0.shadowRadius = 1
                $0.shadowPath = path
            })
        }
        let shape = try Self.render(scene(nil), 48, 56)
        let path = try Self.render(scene(CGPath(rect: CGRect(x: 0, y: 0, width: 24, height: 20))), 48, 56)
        var worst = 0, sum = 0, shadowPixels = 0
        for y in 0..<56 {
            for x in 0..<48 {
                let d = abs(Int(shape[x, y].r) - Int(path[x, y].r))
                worst = max(worst, d); sum += d
                if path[x, y].r < 128 { shadowPixels += 1 }
            }
        }
        #expect(shadowPixels > 150)
        #expect(worst <= 8)
        #expect(Double(sum) / Double(48 * 56) < 0.5)
    }

    // MARK: masksToBounds

    /// `masksToBounds` clips the shadow with the content: nothing shows outside the bounds.
    @Test func masksToBoundsSuppressesTheShadowOutside() throws {
        for path in [nil, CGPath(rect: CGRect(x: 0, y: 0, width: 16, height: 16))] {
            let l = TestScene.box(CGRect(x: 8, y: 8, width: 16, height: 16), TestScene.green, configure: {
                $0.masksToBounds = true
                $0.shadowOpacity = 1; $0.shadowOffset = CGSize(width: 6, height: 6); $0.shadowRadius = 2
                $0.shadowPath = path
            })
            let img = try Self.render(l)
            for y in 0..<48 { for x in 0..<48 where !(8..<24 ~= x && 8..<24 ~= y) { #expect(img[x, y] == Self.white) } }
            #expect(img[16, 16] == .green)
        }
    }

    /// Inside the bounds of a clear clipping layer, the (clipped) sublayer's shadow shows where
    /// nothing covers it; outside, nothing.
    @Test func masksToBoundsKeepsTheShadowInside() throws {
        let l = TestScene.box(CGRect(x: 8, y: 8, width: 24, height: 24), nil, configure: {
            $0.masksToBounds = true
            $0.shadowOpacity = 1; $0.shadowOffset = CGSize(width: 12, height: 12); $0.shadowRadius = 0
        }, sublayers: [TestScene.box(CGRect(x: -8, y: -8, width: 24, height: 24), TestScene.red)])
        let img = try Self.render(l)
        // The child covers device 0…24, clipped to the bounds 8…32: drawn over 8…24.
        #expect(img[12, 12] == .red)
        #expect(img[4, 4] == Self.white)        // outside the bounds: neither child nor shadow
        // Its shadow is the clipped child moved by 12: 20…36, clipped again at the bounds (…32).
        #expect(img[28, 28] == Self.black)
        #expect(img[30, 22] == Self.black)
        #expect(img[34, 28] == Self.white)
        #expect(img[28, 34] == Self.white)
    }

    // MARK: Determinism

    @Test func oneTwoAndThreeThreadsAreByteIdentical() throws {
        try TestScene.renderExpectingThreadIndependence(Self.scene(), 64, 64)
    }

    /// Every kind of shadow at once, rotated, with blur.
    static func scene() -> RenderLayer {
        TestScene.root(64, 64, [
            TestScene.box(CGRect(x: 4, y: 4, width: 28, height: 20), nil, transform: CATransform3DMakeRotation(0.3, 0, 0, 1),
                          configure: { $0.shadowOpacity = 0.8; $0.shadowOffset = CGSize(width: 2, height: 6); $0.shadowRadius = 3 },
                          sublayers: [TestScene.box(CGRect(x: 0, y: 0, width: 12, height: 12), TestScene.red),
                                      TestScene.box(CGRect(x: 14, y: 6, width: 12, height: 12), TestScene.blue, opacity: 0.6)]),
            TestScene.box(CGRect(x: 36, y: 8, width: 24, height: 24), TestScene.green, configure: {
                $0.shadowOpacity = 1; $0.shadowOffset = CGSize(width: 0, height: 8); $0.shadowRadius = 2.5
                $0.shadowPath = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 24, height: 24))
            }),
            TestScene.box(CGRect(x: 12, y: 38, width: 40, height: 20), TestScene.blue, configure: {
                $0.masksToBounds = true; $0.cornerRadius = 6
                $0.shadowOpacity = 1; $0.shadowOffset = CGSize(width: 0, height: 6); $0.shadowRadius = 2
            }, sublayers: [TestScene.box(CGRect(x: -6, y: -6, width: 20, height: 20), TestScene.red)]),
        ], background: CGColor(red: 1, green: 1, blue: 1, alpha: 1))
    }

    // MARK: Golden images

    static func layer(_ rect: CGRect, _ color: CGColor? = nil) -> CALayer {
        let l = CALayer()
        l.frame = rect
        l.backgroundColor = color
        return l
    }

    /// A clear layer holding three opaque tiles casts their soft shadow.
    @Test func goldenClearLayerSublayersShadow() {
        VirtualRunLoop().run {
            let root = Self.layer(CGRect(x: 0, y: 0, width: 64, height: 64))
            let holder = Self.layer(CGRect(x: 8, y: 6, width: 44, height: 40))
            holder.shadowOpacity = 0.7
            holder.shadowOffset = CGSize(width: 3, height: 8)
            holder.shadowRadius = 3
            holder.addSublayer(Self.layer(CGRect(x: 0, y: 0, width: 20, height: 20), TestScene.red))
            let round = Self.layer(CGRect(x: 24, y: 4, width: 20, height: 20), TestScene.green)
            round.cornerRadius = 10
            holder.addSublayer(round)
            let bar = Self.layer(CGRect(x: 6, y: 28, width: 32, height: 8), TestScene.blue)
            bar.transform = CATransform3DMakeRotation(-0.2, 0, 0, 1)
            holder.addSublayer(bar)
            root.addSublayer(holder)
            assertRendering(of: root, at: 0, size: CGSize(width: 64, height: 64), background: .white, named: "white")
        }
    }

    /// A rotated rounded `masksToBounds` layer holding two overlapping opaque children, red
    /// under green, both larger than the clip: the clip is applied once to the composited
    /// content, so no red fringe shows at the anti-aliased edge (issue 12's reference image;
    /// `CompositorRasterTests.roundedClipHasNoFringe` checks the same with exact values).
    @Test func goldenRoundedClipWithoutFringe() {
        VirtualRunLoop().run {
            let root = Self.layer(CGRect(x: 0, y: 0, width: 64, height: 64))
            let clip = Self.layer(CGRect(x: 12, y: 12, width: 40, height: 40))
            clip.transform = CATransform3DMakeRotation(0.4, 0, 0, 1)
            clip.cornerRadius = 10
            clip.masksToBounds = true
            clip.addSublayer(Self.layer(CGRect(x: -10, y: -10, width: 60, height: 60), TestScene.red))
            clip.addSublayer(Self.layer(CGRect(x: -10, y: -10, width: 60, height: 60), TestScene.green))
            root.addSublayer(clip)
            assertRendering(of: root, at: 0, size: CGSize(width: 64, height: 64), background: .white, named: "white")
        }
    }

    /// A square layer with an ellipse `shadowPath` beside the same square with its own shape.
    @Test func goldenShadowPath() {
        VirtualRunLoop().run {
            let root = Self.layer(CGRect(x: 0, y: 0, width: 64, height: 64))
            for (i, path) in [false, true].enumerated() {
                let sq = Self.layer(CGRect(x: 6 + 30 * Double(i), y: 8, width: 22, height: 22), TestScene.green)
                sq.shadowOpacity = 0.8
                sq.shadowOffset = CGSize(width: 0, height: 18)
                sq.shadowRadius = 2
                if path { sq.shadowPath = CGPath(ellipseIn: CGRect(x: -2, y: 0, width: 26, height: 16)) }
                root.addSublayer(sq)
            }
            assertRendering(of: root, at: 0, size: CGSize(width: 64, height: 64), background: .white, named: "white")
        }
    }

    /// Left: an opaque rounded layer with a big offset shadow; right: the same with
    /// `masksToBounds`, whose shadow is clipped away.
    @Test func goldenMasksToBoundsSuppressesShadow() {
        VirtualRunLoop().run {
            let root = Self.layer(CGRect(x: 0, y: 0, width: 64, height: 64))
            for (i, clip) in [false, true].enumerated() {
                let card = Self.layer(CGRect(x: 6 + 30 * Double(i), y: 10, width: 22, height: 28), TestScene.blue)
                card.cornerRadius = 5
                card.masksToBounds = clip
                card.shadowOpacity = 0.9
                card.shadowOffset = CGSize(width: 3, height: 10)
                card.shadowRadius = 2
                root.addSublayer(card)
            }
            assertRendering(of: root, at: 0, size: CGSize(width: 64, height: 64), background: .white, named: "white")
        }
    }
}

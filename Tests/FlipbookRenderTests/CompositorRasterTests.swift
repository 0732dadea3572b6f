import Testing
@testable import FlipbookRender
import Flipbook
import FlipbookPixels
import Foundation

/// The compositor's shapes through the path rasterizer: exact-area coverage, identical bytes
/// for any band height and thread count.
@Suite struct CompositorRasterTests {
    static func perspective(_ d: CGFloat, angle: CGFloat, x: CGFloat, y: CGFloat) -> CATransform3D {
        var p = CATransform3DIdentity
        p.m34 = -1 / d
        return CATransform3DRotate(p, angle, x, y, 0)
    }

    /// Rotated rounded rects (masked corners, borders, a rounded `masksToBounds` clip) and
    /// perspective quads, one of them partly behind the eye.
    static func scene() -> RenderLayer {
        let img = CGImage(pixelBuffer: PixelBuffer.testPattern(width: 24, height: 24, index: 1))
        var layers: [RenderLayer] = []
        for i in 0..<6 {
            let a = CGFloat(i) * 0.37 + 0.1
            layers.append(TestScene.box(CGRect(x: 6 + CGFloat(i % 3) * 38, y: 6 + CGFloat(i / 3) * 44, width: 30, height: 22),
                                        i % 2 == 0 ? TestScene.red : TestScene.blue, opacity: i == 3 ? 0.6 : 1,
                                        transform: CATransform3DMakeRotation(a, 0, 0, 1), configure: {
                $0.cornerRadius = CGFloat(3 + i * 2)
                if i == 1 { $0.maskedCorners = [.layerMinXMinYCorner, .layerMaxXMaxYCorner] }
                if i % 2 == 0 { $0.borderWidth = 2.5; $0.borderColor = TestScene.green }
            }))
        }
        layers.append(TestScene.box(CGRect(x: 20, y: 60, width: 50, height: 40), TestScene.green,
                                    transform: CATransform3DMakeRotation(0.5, 0, 0, 1), configure: {
            $0.masksToBounds = true; $0.cornerRadius = 10
        }, sublayers: [
            TestScene.box(CGRect(x: -10, y: 5, width: 40, height: 40), TestScene.red, contents: img),
            TestScene.box(CGRect(x: 20, y: -5, width: 40, height: 30), TestScene.blue,
                          transform: CATransform3DMakeRotation(-0.2, 0, 0, 1)) { $0.cornerRadius = 6 },
        ]))
        layers.append(TestScene.box(CGRect(x: 70, y: 50, width: 40, height: 40), TestScene.blue,
                                    transform: perspective(80, angle: 0.9, x: 1, y: 0.3), contents: img) { $0.cornerRadius = 8 })
        layers.append(TestScene.box(CGRect(x: 10, y: 90, width: 90, height: 30), TestScene.red,
                                    transform: perspective(40, angle: 1.3, x: 0, y: 1)) { $0.borderWidth = 3; $0.cornerRadius = 5 })
        return TestScene.root(120, 128, layers)
    }

    @Test func bandHeightsAndThreadCountsGiveIdenticalBytes() throws {
        let root = Self.scene()
        let reference = try Compositor(threadCount: 1, bandHeight: 128).render(root, width: 120, height: 128, background: .black)
        #expect(reference.isValidPremultiplied)
        for band in [1, 7, 16] {
            for threads in [1, 2, 3] {
                let b = try Compositor(threadCount: threads, bandHeight: band).render(root, width: 120, height: 128, background: .black)
                #expect(b == reference, "band \(band), threads \(threads)")
            }
        }
    }

    /// Axis-aligned rounded rects at fractional positions (their straight rows are written
    /// without the cell sweep), narrow and wide (narrow draws are painted a row per call), with
    /// opacity < 1 (the solid painter folds it into the coverage), and small rotated images:
    /// identical bytes for any band height and thread count.
    @Test func axisAlignedRoundedRectsAndSmallLayersGiveIdenticalBytes() throws {
        let img = CGImage(pixelBuffer: PixelBuffer.testPattern(width: 16, height: 16, index: 2))
        var layers: [RenderLayer] = []
        for i in 0..<14 {
            let w = CGFloat(6 + (i * 17) % 70), h = CGFloat(5 + (i * 11) % 40)
            let x = CGFloat(i * 7 % 60) + 0.3 + CGFloat(i) * 0.11, y = CGFloat(i * 9 % 80) + 0.45 + CGFloat(i) * 0.07
            layers.append(TestScene.box(CGRect(x: x, y: y, width: w, height: h), i % 2 == 0 ? TestScene.red : TestScene.blue,
                                        opacity: i % 3 == 0 ? 0.7 : 1) { $0.cornerRadius = CGFloat(i % 5) * 1.7 })
        }
        for i in 0..<5 {
            layers.append(TestScene.box(CGRect(x: 10 + CGFloat(i) * 19.5, y: 95 + CGFloat(i) * 2.3, width: 16, height: 16), TestScene.green,
                                        opacity: 0.8, transform: CATransform3DMakeRotation(CGFloat(i) * 0.6 + 0.2, 0, 0, 1), contents: img))
        }
        let root = TestScene.root(120, 128, layers)
        let reference = try Compositor(threadCount: 1, bandHeight: 128).render(root, width: 120, height: 128, background: .black)
        #expect(reference.isValidPremultiplied)
        for band in [1, 5, 16, 32] {
            for threads in [1, 2] {
                let b = try Compositor(threadCount: threads, bandHeight: band).render(root, width: 120, height: 128, background: .black)
                #expect(b == reference, "band \(band), threads \(threads)")
            }
        }
    }

    /// A root with more sublayers than `_Planner.parallelSublayers` is planned in chunks on
    /// several threads: the same op list (count and bytes) as planning on one, with groups
    /// (opacity with sublayers), masks, clip groups, shadows and images among the sublayers.
    @Test func parallelPlanningGivesTheSameOpsAndBytes() throws {
        let img = CGImage(pixelBuffer: PixelBuffer.testPattern(width: 8, height: 8, index: 3))
        var layers: [RenderLayer] = []
        for i in 0..<(_Planner.parallelSublayers + 77) {
            let x = CGFloat(i * 37 % 110), y = CGFloat(i * 53 % 120) + 0.25
            let kids = i % 7 == 0 ? [TestScene.box(CGRect(x: 2, y: 2, width: 6, height: 5), TestScene.green),
                                     TestScene.box(CGRect(x: 4, y: 3, width: 6, height: 5), TestScene.blue)] : []
            layers.append(TestScene.box(CGRect(x: x, y: y, width: 9 + CGFloat(i % 5), height: 8), i % 2 == 0 ? TestScene.red : TestScene.blue,
                                        opacity: i % 3 == 0 ? 0.6 : 1, transform: CATransform3DMakeRotation(CGFloat(i % 4) * 0.3, 0, 0, 1),
                                        zPosition: CGFloat(i % 11 == 0 ? 1 : 0), contents: i % 5 == 0 ? img : nil, configure: {
                $0.cornerRadius = CGFloat(i % 4)
                if i % 13 == 0 { $0.masksToBounds = true }
                if i % 17 == 0 { $0.shadowOpacity = 0.5; $0.shadowRadius = 1.5 }
                if i % 19 == 0 { $0.mask = TestScene.box(CGRect(x: 1, y: 1, width: 5, height: 5), TestScene.green) }
            }, sublayers: kids))
        }
        let root = TestScene.root(120, 128, layers)
        let one = Compositor(threadCount: 1), three = Compositor(threadCount: 3)
        #expect(one.plan(root, width: 120, height: 128, scale: 1).count == three.plan(root, width: 120, height: 128, scale: 1).count)
        let a = try Compositor(threadCount: 1).render(root, width: 120, height: 128, background: .black)
        for threads in [2, 3] {
            let b = try Compositor(threadCount: threads, bandHeight: 16).render(root, width: 120, height: 128, background: .black)
            #expect(a == b, "threads \(threads)")
        }
    }

    /// A square at (2.25, 1.5)–(6.25, 5.5) on black: exact-area coverage of the edge pixels is
    /// the product of the covered fractions (axis-aligned), e.g. ¾ · ½ at the top-left corner.
    @Test func fractionalRectangleCoversItsArea() throws {
        let root = TestScene.root(8, 8, [TestScene.box(CGRect(x: 2.25, y: 1.5, width: 4, height: 4), TestScene.red)])
        let p = try TestScene.render(root, 8, 8)
        // corner pixel (2, 1): 0.75 · 0.5 = 0.375 → k = round(255·0.375) = 96 (95.625)
        #expect(p[2, 1] == RGBA8(r: 96, g: 0, b: 0, a: 255))
        // top edge (4, 1): ½ → 128 (127.5, round half up)
        #expect(p[4, 1] == RGBA8(r: 128, g: 0, b: 0, a: 255))
        // left edge (2, 3): ¾ → 191 (191.25)
        #expect(p[2, 3] == RGBA8(r: 191, g: 0, b: 0, a: 255))
        // right edge (6, 3): ¼ → 64 (63.75)
        #expect(p[6, 3] == RGBA8(r: 64, g: 0, b: 0, a: 255))
        #expect(p[4, 3] == RGBA8(r: 255, g: 0, b: 0, a: 255))
    }

    /// A 45° rotated square: a pixel cut by the diagonal through its centre is exactly half
    /// covered (exact area), where the old distance product gave the same ½ only by luck of the
    /// formula; a pixel at the tip is covered by a small triangle.
    @Test func rotatedSquareEdgeIsHalfCovered() throws {
        // Square of side 8·√2 centred at (16, 16), rotated 45°: a diamond with vertices (16 ± 8, 16), (16, 16 ± 8).
        let s = 8 * 2.0.squareRoot()
        let root = TestScene.root(32, 32, [TestScene.box(CGRect(x: 16 - s / 2, y: 16 - s / 2, width: s, height: s), TestScene.red,
                                                         transform: CATransform3DMakeRotation(.pi / 4, 0, 0, 1))])
        let p = try TestScene.render(root, 32, 32)
        // Pixel (11, 12): the edge x + y = 24 (from (8,16) to (16,8)) runs through its corners (11,13)–(12,12): half.
        #expect(abs(Int(p[11, 12].r) - 128) <= 1)
        #expect(p[14, 15] == RGBA8(r: 255, g: 0, b: 0, a: 255))
        #expect(p[4, 4] == RGBA8(r: 0, g: 0, b: 0, a: 255))
    }

    /// `masksToBounds` clips the composited content once: a red sublayer exactly under a green
    /// one (both larger than a rotated, rounded clip) never shows at the anti-aliased clip edge.
    /// Clipping each child separately gave `red·c·(1 − c)` there (a visible fringe).
    @Test func roundedClipHasNoFringe() throws {
        let full = CGRect(x: -10, y: -10, width: 60, height: 60)
        let root = TestScene.root(56, 56, [
            TestScene.box(CGRect(x: 8, y: 8, width: 40, height: 40), nil, transform: CATransform3DMakeRotation(0.4, 0, 0, 1),
                          configure: { $0.masksToBounds = true; $0.cornerRadius = 9 }, sublayers: [
                TestScene.box(full, TestScene.red),
                TestScene.box(full, TestScene.green),
            ]),
        ])
        let p = try TestScene.render(root, 56, 56)
        var edge = 0
        for y in 0..<56 {
            for x in 0..<56 {
                #expect(p[x, y].r == 0, "red at (\(x), \(y))")
                if p[x, y].g > 0 && p[x, y].g < 255 { edge += 1 }
            }
        }
        #expect(edge > 40)
        // Same bytes for any band height and thread count (the clip is rasterized per band at the pop).
        let b = try Compositor(threadCount: 3, bandHeight: 7).render(root, width: 56, height: 56, background: .black)
        #expect(b == p)
    }

    /// A border is one path (outer outline + inner one reversed, non-zero): on a layer at
    /// (2.5, 2.5) of 10 × 10 with borderWidth 2 the ring covers x ∈ [2.5, 4.5) on the left, so
    /// pixels 2 and 4 of a middle row are half covered, pixel 3 fully, pixel 5 not at all; the
    /// corner pixel (2, 2) is covered by a ¼ square.
    @Test func borderRingCoversItsArea() throws {
        let root = TestScene.root(16, 16, [TestScene.box(CGRect(x: 2.5, y: 2.5, width: 10, height: 10), nil) {
            $0.borderWidth = 2; $0.borderColor = TestScene.green
        }])
        let p = try TestScene.render(root, 16, 16)
        #expect(p[2, 7] == RGBA8(r: 0, g: 128, b: 0, a: 255))   // ½ → 127.5 → 128
        #expect(p[3, 7] == RGBA8(r: 0, g: 255, b: 0, a: 255))
        #expect(p[4, 7] == RGBA8(r: 0, g: 128, b: 0, a: 255))
        #expect(p[5, 7] == RGBA8(r: 0, g: 0, b: 0, a: 255))
        #expect(p[2, 2] == RGBA8(r: 0, g: 64, b: 0, a: 255))    // ¼ → 63.75 → 64
        #expect(p[12, 12] == RGBA8(r: 0, g: 64, b: 0, a: 255))
    }
}

import Testing
@testable import FlipbookRender
@testable import Flipbook
import FlipbookPixels
import Foundation

/// A `CATransformLayer`'s sublayers are not flattened into it: they are drawn in the nearest
/// flattening ancestor — the rendering context — sorted by depth together with the transform
/// layer's siblings (`_Planner+RenderingContext.swift`).
///
/// Where the expected values come from: Apple's `CATransformLayer` documentation — "Objects
/// used to create true 3D layer hierarchies, rather than the flattened hierarchy rendering
/// model used by other layer types. Unlike normal layers, transform layers do not flatten their
/// sublayers into the plane at Z=0"; "Only the sublayers of a transform layer are rendered";
/// "The `opacity` property is applied to each sublayer individually, the transform layer does
/// not form a compositing group"; `mask` and `masksToBounds` "are also ignored".
@Suite struct TransformLayerContextTests {
    static let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    static let white = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
    static let blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
    static let redPixel = RGBA8(r: 255, g: 0, b: 0, a: 255)
    static let whitePixel = RGBA8(r: 255, g: 255, b: 255, a: 255)
    static let bluePixel = RGBA8(r: 0, g: 0, b: 255, a: 255)

    static func render(_ root: CALayer, _ w: Int, _ h: Int, threads: Int = 1) -> PixelBuffer {
        try! Compositor(threadCount: threads).render(root.makeRenderTree(), width: w, height: h,
                                                     background: RGBA8(r: 0, g: 0, b: 0, a: 255))
    }

    static func box(_ x0: Double, _ x1: Double, _ color: CGColor, z: CGFloat = 0) -> CALayer {
        let l = CALayer()
        l.frame = CGRect(x: x0, y: 0, width: x1 - x0, height: 20)
        l.backgroundColor = color
        l.zPosition = z
        return l
    }

    /// A 40 × 20 root with two sublayers: `container` (holding S, red, x 0…25, at `zPosition`
    /// `sZ`) and, added after it, B (white, x 15…40, `zPosition` 0). They overlap at x 15…25.
    static func scene(_ container: CALayer, sZ: CGFloat) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 40, height: 20)
        container.frame = root.bounds
        container.addSublayer(box(0, 25, red, z: sZ))
        root.addSublayer(container)
        root.addSublayer(box(15, 40, white))
        return root
    }

    /// Apple: S is not flattened into the transform layer's plane (at the transform layer's
    /// depth 0, before B in order); it is sorted with B by its own depth, 20 > 0: S in front.
    @Test func aLiftedSublayerInFrontOfTheTransformLayersLaterSibling() {
        VirtualRunLoop().run {
            let px = Self.render(Self.scene(CATransformLayer(), sZ: 20), 40, 20)
            #expect(px[20, 10] == Self.redPixel)     // the overlap: S
            #expect(px[5, 10] == Self.redPixel && px[35, 10] == Self.whitePixel)
        }
    }

    /// The same sort with S at depth −20 < 0: B in front of it.
    @Test func aLiftedSublayerBehindTheTransformLayersSibling() {
        VirtualRunLoop().run {
            let px = Self.render(Self.scene(CATransformLayer(), sZ: -20), 40, 20)
            #expect(px[20, 10] == Self.whitePixel)   // the overlap: B
            #expect(px[5, 10] == Self.redPixel)
        }
    }

    /// Apple: a plain layer is "the flattened hierarchy rendering model": S's `zPosition` orders
    /// it among its own siblings only, and the plain container (depth 0) comes before B in
    /// order — B covers S whatever S's depth.
    @Test func aPlainContainerStillFlattens() {
        VirtualRunLoop().run {
            for z: CGFloat in [20, -20] {
                let px = Self.render(Self.scene(CALayer(), sZ: z), 40, 20)
                #expect(px[20, 10] == Self.whitePixel, "S at \(z)")
                #expect(px[5, 10] == Self.redPixel)
            }
        }
    }

    /// Nested transform layers: T1 holds T2 (`zPosition` 10, holding S, red, x 0…30,
    /// `zPosition` 10) and then C (blue, x 20…50, `zPosition` 15); B (white, x 40…60,
    /// `zPosition` 12) follows T1 in the root. Neither transform layer flattens, so S (at
    /// 10 + 10 = 20, its whole transform chain), C (15) and B (12) are sorted together: S over
    /// C, C over B. (Flattened, T2 at 10 would put C over S, and T1 at 0 would put B over C.)
    @Test func nestedTransformLayersLiftIntoTheSameContext() {
        VirtualRunLoop().run {
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 60, height: 20)
            let t1 = CATransformLayer(), t2 = CATransformLayer()
            t1.frame = root.bounds
            t2.frame = root.bounds
            t2.zPosition = 10
            t2.addSublayer(Self.box(0, 30, Self.red, z: 10))
            t1.addSublayer(t2)
            t1.addSublayer(Self.box(20, 50, Self.blue, z: 15))
            root.addSublayer(t1)
            root.addSublayer(Self.box(40, 60, Self.white, z: 12))
            let px = Self.render(root, 60, 20)
            #expect(px[25, 10] == Self.redPixel)     // S over C
            #expect(px[45, 10] == Self.bluePixel)    // C over B
            #expect(px[5, 10] == Self.redPixel && px[35, 10] == Self.bluePixel && px[55, 10] == Self.whitePixel)
        }
    }

    /// Apple: "The opacity property is applied to each sublayer individually": S is drawn at
    /// half opacity, in front of B (its depth), and B — not in the transform layer — keeps its
    /// own. Hidden, the transform layer draws none of its sublayers.
    @Test func theTransformLayersOpacityAppliesToEachLiftedSublayer() {
        VirtualRunLoop().run {
            let t = CATransformLayer()
            t.opacity = 0.5
            let root = Self.scene(t, sZ: 20)
            let px = Self.render(root, 40, 20)
            #expect(px[5, 10] == RGBA8(r: 128, g: 0, b: 0, a: 255))      // red ½ over black
            #expect(px[20, 10] == RGBA8(r: 255, g: 127, b: 127, a: 255))  // red ½ over white B
            #expect(px[35, 10] == Self.whitePixel)
            t.isHidden = true
            let hidden = Self.render(root, 40, 20)
            #expect(hidden[5, 10] == RGBA8(r: 0, g: 0, b: 0, a: 255) && hidden[20, 10] == Self.whitePixel)
        }
    }

    /// Apple: `backgroundColor`, border, `mask` and `masksToBounds` of a transform layer are
    /// ignored ("Only the sublayers of a transform layer are rendered"): S shows outside the
    /// transform layer's 10-point-wide bounds, and nothing of its own is drawn.
    @Test func aTransformLayersOwnPropertiesAreIgnored() {
        VirtualRunLoop().run {
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 40, height: 20)
            let t = CATransformLayer()
            t.frame = CGRect(x: 0, y: 0, width: 10, height: 20)
            t.backgroundColor = Self.blue
            t.borderWidth = 2; t.borderColor = Self.white
            t.masksToBounds = true
            let mask = CALayer()
            mask.frame = CGRect(x: 0, y: 0, width: 5, height: 5)
            mask.backgroundColor = Self.white
            t.mask = mask
            t.addSublayer(Self.box(0, 25, Self.red, z: 20))
            root.addSublayer(t)
            root.addSublayer(Self.box(15, 40, Self.white))
            let px = Self.render(root, 40, 20)
            #expect(px[1, 10] == Self.redPixel && px[5, 15] == Self.redPixel)   // no border, no mask
            #expect(px[20, 10] == Self.redPixel)                                 // not clipped, lifted
        }
    }

    /// A cube (six faces in a transform layer, `ReplicatorTransformLayerTests.cube`) and a
    /// white square at its centre (`zPosition` 0) added after it: the faces and the square are
    /// sorted together, so the cube's near faces (depth > 0) cover the square — true 3-D,
    /// Apple's "true 3D layer hierarchies" (flattened, the cube before the square in order, the
    /// square was drawn over it). The same bytes on 3 threads.
    @Test func aSiblingInsideACubeIsHiddenByItsNearFace() {
        VirtualRunLoop().run {
            let root = ReplicatorTransformLayerTests.cube(angle: .pi / 6)
            let inside = CALayer()
            inside.frame = CGRect(x: 50, y: 50, width: 20, height: 20)
            inside.backgroundColor = Self.white
            root.addSublayer(inside)
            let px = Self.render(root, 120, 120)
            let plain = Self.render(ReplicatorTransformLayerTests.cube(angle: .pi / 6), 120, 120)
            #expect(px[60, 60] == plain[60, 60] && px[60, 60].r > 200 && px[60, 60].g < 80, "\(px[60, 60])")
            // Nothing of the square shows: no white pixel where it lies (the few pixels that
            // differ from the cube alone are on an anti-aliased seam between two near faces,
            // where what lies behind shows through a little).
            var white = 0
            for y in 50..<70 { for x in 50..<70 where px[x, y] == Self.whitePixel { white += 1 } }
            #expect(white == 0)
            #expect(Self.render(root, 120, 120, threads: 3) == px)
        }
    }

    /// Many lifted sublayers (planned in chunks on several threads) with a spinning sibling,
    /// rendered frame after frame by a compositor that reuses the kept sublayers' op runs: the
    /// same bytes as planning afresh, on 1 and 2 threads, and the lifted tiles' runs reused.
    @Test(arguments: [1, 2])
    func liftedSublayersReuseTheirRunsWithTheSameBytes(threads: Int) throws {
        let loop = VirtualRunLoop()
        try loop.run {
            let root = CALayer()
            root.bounds = CGRect(x: 0, y: 0, width: 96, height: 64)
            root.position = CGPoint(x: 48, y: 32)
            let t = CATransformLayer()
            t.frame = root.bounds
            t.opacity = 0.9
            for i in 0..<300 {
                let tile = CALayer()
                tile.frame = CGRect(x: Double(i % 20) * 4.7, y: Double(i / 20) * 4.1, width: 5.5, height: 4.5)
                tile.backgroundColor = CGColor(red: Double(i % 7) / 7, green: 0.5, blue: Double(i % 3) / 3, alpha: 0.8)
                tile.zPosition = CGFloat(i % 5) - 2
                t.addSublayer(tile)
            }
            root.addSublayer(t)
            let spinner = CALayer()
            spinner.frame = CGRect(x: 40, y: 20, width: 20, height: 20)
            spinner.backgroundColor = TestScene.red
            root.addSublayer(spinner)
            let spin = CABasicAnimation(keyPath: "transform.rotation.z")
            spin.fromValue = 0; spin.toValue = Double.pi; spin.duration = 1; spin.repeatCount = .infinity
            spinner.add(spin, forKey: "spin")
            CATransaction.flush()
            let compositor = Compositor(threadCount: threads, bandHeight: 16)
            let fresh = Compositor(threadCount: threads, bandHeight: 16)
            fresh.reusesPlans = false
            var reuse = RenderTreeReuse()
            var reused: [Int] = []
            for time in [0.05, 0.1, 0.2, 0.35] {
                loop.advance(to: time)
                let tree = root.makeRenderTree(reusing: &reuse)
                var a = PixelBuffer(width: 96, height: 64), b = PixelBuffer(width: 96, height: 64)
                try compositor.render(tree, into: &a, background: .white)
                try fresh.render(tree, into: &b, background: .white)
                #expect(a == b, "t = \(time), \(threads) threads")
                reused.append(compositor.sublayerRunsReused)
            }
            #expect(reused[0] == 0 && reused.dropFirst().allSatisfy { $0 >= 300 }, "\(reused)")
        }
    }
}

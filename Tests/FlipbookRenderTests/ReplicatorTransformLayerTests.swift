import Testing
import FlipbookTesting
@testable import FlipbookRender
@testable import Flipbook
import FlipbookPixels
import Foundation

/// `CAReplicatorLayer` and `CATransformLayer`: Apple's defaults, instance placement, time
/// shift and colour, the spinning-dots indicator frame by frame, a cube of six faces at two
/// angles, and a transform layer's per-sublayer opacity.
@Suite struct ReplicatorTransformLayerTests {
    static let white = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
    static let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)

    static func render(_ root: CALayer, _ w: Int, _ h: Int, at t: Double? = nil, threads: Int = 1) -> PixelBuffer {
        let tree = t.map { root.makeRenderTree(at: $0) } ?? root.makeRenderTree()
        return try! Compositor(threadCount: threads).render(tree, width: w, height: h, background: RGBA8(r: 0, g: 0, b: 0, a: 255))
    }

    @Test func replicatorDefaultsAndKVC() throws {
        try VirtualRunLoop().run {
            let r = CAReplicatorLayer()
            #expect(r.instanceCount == 1 && r.instanceDelay == 0 && CATransform3DIsIdentity(r.instanceTransform))
            #expect(r.instanceColor == Self.white)
            #expect(r.instanceRedOffset == 0 && r.instanceGreenOffset == 0 && r.instanceBlueOffset == 0 && r.instanceAlphaOffset == 0)
            #expect(!r.preservesDepth)
            #expect(CAReplicatorLayer.defaultValue(forKey: "instanceCount") as? Int == 1)
            r.setValue(12, forKey: "instanceCount")
            r.setValue(0.1, forKey: "instanceDelay")
            #expect(r.instanceCount == 12 && r.instanceDelay == 0.1)
            #expect(r.value(forKey: "instanceCount") as? Int == 12)
            #expect(throws: LayerKVCError.self) { try r._trySetValue("x", forKey: "instanceTransform") }
            #expect(CAReplicatorLayer(layer: r).instanceCount == 12)
        }
    }

    @Test func replicatorKeysAnimateImplicitly() {
        let loop = VirtualRunLoop()
        loop.run {
            let root = CALayer()
            loop.attach(root)
            let r = CAReplicatorLayer()
            root.addSublayer(r)
            loop.endTurn()
            r.instanceCount = 4
            r.instanceDelay = 0.2
            r.instanceTransform = CATransform3DMakeTranslation(10, 0, 0)
            r.instanceColor = Self.red
            r.instanceAlphaOffset = -0.25
            r.preservesDepth = true
            #expect(Set(r.animationKeys() ?? []) == ["instanceCount", "instanceDelay", "instanceTransform", "instanceColor", "instanceAlphaOffset"])
        }
    }

    /// Instance i: translated i × 20, its animation `i · instanceDelay` later, its colour
    /// multiplied by instanceColor + i · offsets.
    @Test func instancesArePlacedDelayedAndTinted() {
        let loop = VirtualRunLoop()
        loop.run {
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 100, height: 20)
            let r = CAReplicatorLayer()
            r.frame = root.bounds
            r.instanceCount = 4
            r.instanceTransform = CATransform3DMakeTranslation(20, 0, 0)
            r.instanceDelay = 0.5
            r.instanceAlphaOffset = -0.25
            let dot = CALayer()
            dot.frame = CGRect(x: 5, y: 5, width: 10, height: 10)
            dot.backgroundColor = Self.white
            r.addSublayer(dot)
            root.addSublayer(r)
            loop.attach(root)
            loop.endTurn()
            let a = CABasicAnimation(keyPath: "backgroundColor")
            a.fromValue = Self.red
            a.toValue = Self.red
            a.duration = 1
            a.beginTime = CACurrentMediaTime() + 1e-9
            dot.add(a, forKey: "red")
            loop.endTurn()
            let t0 = loop.currentTime
            let px = Self.render(root, 100, 20, at: t0 + 0.75)
            // instance 0 (t = 0.75, red, alpha 1), 1 (t = 0.25: red, alpha 0.75),
            // 2 (t = −0.25: not started, white, alpha 0.5), 3 (t = −0.75: white, alpha 0.25)
            #expect(px[10, 10] == RGBA8(r: 255, g: 0, b: 0, a: 255))
            #expect(px[30, 10] == RGBA8(r: 191, g: 0, b: 0, a: 255))
            #expect(px[50, 10] == RGBA8(r: 128, g: 128, b: 128, a: 255))
            #expect(px[70, 10] == RGBA8(r: 64, g: 64, b: 64, a: 255))
            #expect(px[90, 10] == RGBA8(r: 0, g: 0, b: 0, a: 255))      // no fifth instance
            // The snapshot: instance 0 bare, three wrappers.
            #expect(r.makeRenderTree(at: t0 + 0.75).sublayers.count == 4)
        }
    }

    /// Without an instance delay every instance after the first shows the subtree at the same
    /// time: the snapshot builds it once and the instances share its (immutable) nodes; the
    /// pixels are those of separate builds — each instance animated, translated and tinted.
    @Test func undelayedInstancesShareOneBuild() {
        let loop = VirtualRunLoop()
        loop.run {
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 100, height: 20)
            let r = CAReplicatorLayer()
            r.frame = root.bounds
            r.instanceCount = 4
            r.instanceTransform = CATransform3DMakeTranslation(20, 0, 0)
            r.instanceAlphaOffset = -0.25
            let dot = CALayer()
            dot.frame = CGRect(x: 5, y: 5, width: 10, height: 10)
            dot.backgroundColor = Self.white
            r.addSublayer(dot)
            root.addSublayer(r)
            loop.attach(root)
            loop.endTurn()
            let a = CABasicAnimation(keyPath: "backgroundColor")
            a.fromValue = Self.red
            a.toValue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
            a.duration = 1
            dot.add(a, forKey: "color")
            loop.endTurn()
            let t0 = loop.currentTime
            let tree = r.makeRenderTree(at: t0 + 0.5)
            #expect(tree.sublayers.count == 4)
            let shared = tree.sublayers[1].sublayers
            #expect(shared.count == 1)
            for i in 2..<4 { #expect(tree.sublayers[i].sublayers.count == 1 && tree.sublayers[i].sublayers[0] === shared[0]) }
            let px = Self.render(root, 100, 20, at: t0 + 0.5)
            // (255, 0, 0) → (0, 0, 255) at ½: (128, 0, 128) in every instance, alpha 1, ¾, ½, ¼.
            #expect(px[10, 10] == RGBA8(r: 128, g: 0, b: 128, a: 255))
            #expect(px[30, 10] == RGBA8(r: 96, g: 0, b: 96, a: 255))
            #expect(px[50, 10] == RGBA8(r: 64, g: 0, b: 64, a: 255))
            #expect(px[70, 10] == RGBA8(r: 32, g: 0, b: 32, a: 255))
        }
    }

    /// The classic spinner: a dot at 12 o'clock, 12 instances 30° apart, each fading out
    /// (opacity 1 → 0.2 over 1 s, repeating) a twelfth of a second after the previous one.
    static func spinner(_ loop: VirtualRunLoop) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 80, height: 80)
        let r = CAReplicatorLayer()
        r.frame = root.bounds
        r.instanceCount = 12
        r.instanceTransform = CATransform3DMakeRotation(.pi / 6, 0, 0, 1)
        r.instanceDelay = 1.0 / 12
        let dot = CALayer()
        dot.frame = CGRect(x: 36, y: 6, width: 8, height: 8)
        dot.cornerRadius = 4
        dot.backgroundColor = white
        dot.opacity = 0.2
        r.addSublayer(dot)
        root.addSublayer(r)
        loop.attach(root)
        loop.endTurn()
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 1
        fade.toValue = 0.2
        fade.duration = 1
        fade.repeatCount = .infinity
        dot.add(fade, forKey: "fade")
        loop.endTurn()
        return root
    }

    @Test func spinnerFrameByFrame() {
        let loop = VirtualRunLoop()
        loop.run {
            let root = Self.spinner(loop)
            let t0 = loop.currentTime
            assertRenderings(of: root, at: [t0 + 1, t0 + 1.25, t0 + 1.5], size: CGSize(width: 80, height: 80),
                             background: RGBA8(r: 0, g: 0, b: 0, a: 255), named: "spinner")
            // At t0 + 1 + k/12 the brightest dot is instance k (its fade just restarted), going
            // clockwise from 12 o'clock: dot centres at angle 30°·k on a radius of 30.
            for k in [0, 3, 6] {
                let px = Self.render(root, 80, 80, at: t0 + 1 + Double(k) / 12 + 1e-6)
                var best = (0, UInt8(0))
                for j in 0..<12 {
                    let a = Double(j) * .pi / 6
                    let x = Int((40 + 30 * sin(a)).rounded(.down)), y = Int((40 - 30 * cos(a)).rounded(.down))
                    if px[x, y].r > best.1 { best = (j, px[x, y].r) }
                }
                #expect(best.0 == k, "brightest dot at frame k = \(k): \(best)")
            }
        }
    }

    /// A cube of six faces in a transform layer, under a perspective: at 30° and 150° about y
    /// the near faces hide the far ones.
    static func cube(angle: Double) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 120, height: 120)
        var p = CATransform3DIdentity
        p.m34 = -1.0 / 300
        root.sublayerTransform = p
        let cube = CATransformLayer()
        cube.frame = root.bounds
        cube.transform = CATransform3DRotate(CATransform3DMakeRotation(CGFloat(angle), 0, 1, 0), 0.4, 1, 0, 0)
        let colors: [CGColor] = [CGColor(red: 0.9, green: 0.2, blue: 0.2, alpha: 1), CGColor(red: 0.2, green: 0.8, blue: 0.3, alpha: 1),
                                 CGColor(red: 0.2, green: 0.4, blue: 0.9, alpha: 1), CGColor(red: 0.95, green: 0.8, blue: 0.2, alpha: 1),
                                 CGColor(red: 0.7, green: 0.3, blue: 0.8, alpha: 1), CGColor(red: 0.3, green: 0.8, blue: 0.85, alpha: 1)]
        let faces: [CATransform3D] = [
            CATransform3DMakeTranslation(0, 0, 30),
            CATransform3DRotate(CATransform3DMakeTranslation(0, 0, -30), .pi, 0, 1, 0),
            CATransform3DRotate(CATransform3DMakeTranslation(30, 0, 0), .pi / 2, 0, 1, 0),
            CATransform3DRotate(CATransform3DMakeTranslation(-30, 0, 0), -.pi / 2, 0, 1, 0),
            CATransform3DRotate(CATransform3DMakeTranslation(0, -30, 0), .pi / 2, 1, 0, 0),
            CATransform3DRotate(CATransform3DMakeTranslation(0, 30, 0), -.pi / 2, 1, 0, 0),
        ]
        for (t, c) in zip(faces, colors) {
            let f = CALayer()
            f.bounds = CGRect(x: 0, y: 0, width: 60, height: 60)
            f.position = CGPoint(x: 60, y: 60)
            f.backgroundColor = c
            f.transform = t
            cube.addSublayer(f)
        }
        root.addSublayer(cube)
        return root
    }

    @Test func cubeAtTwoAngles() {
        VirtualRunLoop().run {
            assertRendering(of: Self.cube(angle: .pi / 6), at: 0, size: CGSize(width: 120, height: 120),
                            background: RGBA8(r: 0, g: 0, b: 0, a: 255), named: "cube-30")
            assertRendering(of: Self.cube(angle: 5 * .pi / 6), at: 0, size: CGSize(width: 120, height: 120),
                            background: RGBA8(r: 0, g: 0, b: 0, a: 255), named: "cube-150")
            // The front face (red, +z) is the one seen at the centre at 30°; the back (green)
            // at 150° (turned more than 90°, the back face comes round to the front).
            let a = Self.render(Self.cube(angle: .pi / 6), 120, 120), b = Self.render(Self.cube(angle: 5 * .pi / 6), 120, 120)
            #expect(a[60, 60].r > 200 && a[60, 60].g < 80)
            #expect(b[60, 60].g > 180 && b[60, 60].r < 80)
            // Same bytes on 3 threads.
            #expect(Self.render(Self.cube(angle: .pi / 6), 120, 120, threads: 3) == a)
        }
    }

    /// A transform layer's own background is not drawn, and its opacity applies to each
    /// sublayer on its own: where two half-transparent sublayers overlap, the lower one shows
    /// through (a group would hide it).
    @Test func transformLayerOpacityIsPerSublayer() {
        VirtualRunLoop().run {
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 40, height: 20)
            let t = CATransformLayer()
            t.frame = root.bounds
            t.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)   // ignored
            t.opacity = 0.5
            let a = CALayer(), b = CALayer()
            a.frame = CGRect(x: 0, y: 0, width: 25, height: 20); a.backgroundColor = Self.red
            b.frame = CGRect(x: 15, y: 0, width: 25, height: 20); b.backgroundColor = Self.white
            t.addSublayer(a); t.addSublayer(b)
            root.addSublayer(t)
            let px = Self.render(root, 40, 20)
            #expect(px[5, 10] == RGBA8(r: 128, g: 0, b: 0, a: 255))        // red at ½ over black
            #expect(px[35, 10] == RGBA8(r: 128, g: 128, b: 128, a: 255))   // white at ½
            #expect(px[20, 10] == RGBA8(r: 192, g: 128, b: 128, a: 255))   // white ½ over red ½: both show
        }
    }
}

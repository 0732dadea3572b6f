import Testing
import FlipbookTesting
@testable import FlipbookRender
@testable import Flipbook
import FlipbookPixels
import Foundation

/// An emitter's particles are planned from flat records (`RenderLayer.particles`,
/// `_Planner.particles`); the reference is planning each particle's node (`RenderLayer.sublayers`)
/// through the general layer path. The two must give the same ops and so the same bytes — for
/// tinted and untinted particles, sub-rectangles of the contents, minified (mipmapped) and
/// magnified sprites, additive and oldest-last render modes, sublayers above and below the
/// particles, a group (opacity, masksToBounds) and a perspective parent — on 1 and 2 threads.
@Suite struct EmitterParticlePlanTests {
    /// A 16×16 image with a different premultiplied colour per texel.
    static let patch: CGImage = {
        var pb = PixelBuffer(width: 16, height: 16)
        for y in 0..<16 {
            for x in 0..<16 {
                let a = UInt8(128 + 8 * x - (y & 1))
                pb[x, y] = RGBA8(r: UInt8(Int(a) * y / 16), g: UInt8(Int(a) * x / 16), b: a / 2, a: a)
            }
        }
        return CGImage(pixelBuffer: pb)
    }()

    static func scene(mode: CAEmitterLayerRenderMode, decorated: Bool) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 240, height: 160)
        let e = CAEmitterLayer()
        e.frame = root.bounds
        e.emitterPosition = CGPoint(x: 120, y: 20)
        e.emitterShape = .line
        e.emitterSize = CGSize(width: 200, height: 1)
        e.renderMode = mode
        e.seed = 9
        let a = CAEmitterCell()            // tinted, translucent, spinning, scaled from ⅒ to 4×
        a.birthRate = 60; a.lifetime = 2; a.velocity = 50; a.velocityRange = 30
        a.emissionLongitude = .pi / 2; a.emissionRange = .pi / 3; a.yAcceleration = 20
        a.spin = 2; a.spinRange = 5; a.scale = 1.5; a.scaleRange = 1.4; a.scaleSpeed = 0.5
        a.color = CGColor(red: 1, green: 0.5, blue: 0.3, alpha: 0.8); a.alphaRange = 0.3; a.redRange = 0.4
        a.contents = patch
        let b = CAEmitterCell()            // untinted (opaque white), a sub-rectangle at contentsScale 2
        b.birthRate = 40; b.lifetime = 2; b.velocity = 40; b.emissionRange = .pi
        b.spin = 1; b.scale = 0.3; b.scaleRange = 0.25
        b.contents = patch; b.contentsRect = CGRect(x: 0.25, y: 0.125, width: 0.5, height: 0.75); b.contentsScale = 2
        e.emitterCells = [a, b]
        if decorated {
            for (z, c) in [(-1.0, CGColor(red: 0, green: 0, blue: 1, alpha: 1)), (0, CGColor(red: 0, green: 1, blue: 0, alpha: 0.5)),
                           (2, CGColor(red: 1, green: 0, blue: 0, alpha: 0.5))] {
                let s = CALayer()
                s.frame = CGRect(x: 40 + 40 * z, y: 30, width: 70, height: 60)
                s.zPosition = CGFloat(z)
                s.backgroundColor = c
                e.addSublayer(s)
            }
            e.opacity = 0.7
            e.masksToBounds = true
            e.emitterCells = [e.emitterCells![0]]        // tinted only: one batch (an untinted particle would end it)
            e.cornerRadius = 12
            var p = CATransform3DIdentity
            p.m34 = -1 / 300
            root.sublayerTransform = CATransform3DRotate(p, 0.5, 1, 0.3, 0)
        }
        root.addSublayer(e)
        return root
    }

    @Test(arguments: [CAEmitterLayerRenderMode.unordered, .oldestLast, .additive], [false, true])
    func flatParticlesPlanLikeTheirNodes(mode: CAEmitterLayerRenderMode, decorated: Bool) throws {
        let loop = VirtualRunLoop()
        try loop.run {
            let root = Self.scene(mode: mode, decorated: decorated)
            for t in [0.7, 2.5] {
                let tree = root.makeRenderTree(at: t)
                #expect(tree.sublayers[0].particles != nil)
                let bg = RGBA8(r: 20, g: 22, b: 28, a: 255)
                let nodes = Compositor(threadCount: 1)
                nodes.plansParticlesFlat = false
                let reference = try nodes.render(tree, width: 240, height: 160, background: bg)
                for threads in [1, 2] {
                    let flat = Compositor(threadCount: threads)
                    #expect(try flat.render(tree, width: 240, height: 160, background: bg) == reference, "t=\(t) threads=\(threads)")
                    #expect(Self.drawCount(flat.plan(tree, width: 240, height: 160, scale: 1))
                            == Self.drawCount(nodes.plan(tree, width: 240, height: 160, scale: 1)))
                }
            }
        }
    }

    /// Ops, a particle batch counted as the draws it holds (one per particle).
    static func drawCount(_ ops: [_Op]) -> Int {
        ops.reduce(0) { n, op in
            if case .draw(let d) = op, case .particles(let b) = d.paint { return n + b.records.count }
            return n + 1
        }
    }

    /// Unclipped tinted, rotated particles are planned in batches (`_ParticleBatch`), broken
    /// by the untinted ones (their own draws, in order): the scene above has both kinds.
    @Test func unclippedTintedParticlesArePlannedInBatches() throws {
        VirtualRunLoop().run {
            let tree = Self.scene(mode: .unordered, decorated: false).makeRenderTree(at: 2.5)
            let ops = Compositor(threadCount: 1).plan(tree, width: 240, height: 160, scale: 1)
            var batched = 0, single = 0
            for op in ops {
                guard case .draw(let d) = op else { continue }
                if case .particles(let b) = d.paint { batched += b.records.count } else { single += 1 }
            }
            #expect(batched > 20 && single > 20, "batched \(batched), single \(single)")
        }
    }

    /// An emitter that clips (`masksToBounds`, several draws: a clip group) with all its
    /// particles — tinted, translucent, overlapping — inside its bounds: the clip changes nothing, so the group could be left out —
    /// but only if its draws are disjoint (`_Planner.clipChangesNothing`), which a batch of
    /// overlapping particles is not: it counts as its particles' footprints, and the bytes stay
    /// those of the node path, where each particle is a draw of its own.
    @Test func clippedEmitterWithParticlesInsideKeepsItsGroup() throws {
        let loop = VirtualRunLoop()
        try loop.run {
            let root = Self.scene(mode: .unordered, decorated: false)
            let e = root.sublayers![0] as! CAEmitterLayer
            e.masksToBounds = true
            e.emitterCells = [e.emitterCells![0]]        // tinted only: one batch (an untinted particle would end it)
            e.emitterPosition = CGPoint(x: 120, y: 80)
            e.emitterSize = CGSize(width: 100, height: 1)
            e.lifetime = 0.3
            e.scale = 0.25
            for t in [0.405, 0.705] {      // (between births: no particle of age 0, unrotated, outside the batch)
                let tree = root.makeRenderTree(at: t)
                let bg = RGBA8(r: 20, g: 22, b: 28, a: 255)
                let nodes = Compositor(threadCount: 1)
                nodes.plansParticlesFlat = false
                let reference = try nodes.render(tree, width: 240, height: 160, background: bg)
                let flat = Compositor(threadCount: 1)
                let ops = flat.plan(tree, width: 240, height: 160, scale: 1)
                #expect(ops.contains { if case .draw(let d) = $0, case .particles = d.paint { return true }; return false })
                let pushes = { (ops: [_Op]) in ops.filter { if case .push = $0 { return true }; return false }.count }
                #expect(pushes(ops) == pushes(nodes.plan(tree, width: 240, height: 160, scale: 1)), "t=\(t)")
                #expect(try flat.render(tree, width: 240, height: 160, background: bg) == reference, "t=\(t)")
            }
        }
    }

    /// The emitter's node lists its particles' nodes as sublayers (first, then its own
    /// sublayers), built from the records: what the snapshot showed before the records existed.
    @Test func sublayersListParticleNodesFirst() {
        VirtualRunLoop().run {
            let root = Self.scene(mode: .unordered, decorated: true)
            let e = root.makeRenderTree(at: 1.5).sublayers[0]
            let p = e.particles!
            #expect(e.sublayers.count == p.items.count + 3 && e.ownSublayers.count == 3 && e.hasSublayers)
            let first = e.sublayers[0], q = p.items[0], sprite = p.sprites[q.sprite]
            #expect(first.position == q.position && first.bounds.size == sprite.size && first.contents === sprite.image)
            #expect(first.tint == q.tint && first.transform == q.transform && !first.blendsAdditively)
            #expect(e.sublayers[p.items.count].zPosition == -1)
        }
    }
}

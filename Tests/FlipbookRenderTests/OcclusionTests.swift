import Testing
@testable import FlipbookRender
import CFlipbookKernels
import Flipbook
import FlipbookPixels
import FlipbookRaster
import Foundation
import FlipbookTestSupport

/// Occlusion (`_OcclusionMap`): the frame's clear and earlier draws skip the 8-pixel blocks a
/// later opaque draw wholly covers. It must change no byte: every scene here is rendered with
/// and without it, on one and two threads and several band heights, and must also have
/// skipped something (`Compositor.lastOccludedBlocks`), so that the comparison means something.
@Suite struct OcclusionTests {
    /// Rotated solid and gradient layers (opaque and not), some with opacity, rounded corners,
    /// a blend mode, a group with a mask, and an opaque root background.
    static func scene(seed: UInt64, count: Int, w: Double, h: Double) -> CALayer {
        var r = SplitMix64(seed: seed)
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: w, height: h)
        root.backgroundColor = CGColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 1)
        for i in 0..<count {
            let size = CGSize(width: r.uniform(8, 70), height: r.uniform(8, 60))
            let l: CALayer
            switch r.next() % 6 {
            case 0, 1:
                let g = CAGradientLayer()
                g.type = [CAGradientLayerType.axial, .radial, .conic][Int(r.next() % 3)]
                let opaque = r.next() % 4 != 0
                g.colors = (0..<3).map { _ in r.color(opaque: opaque) }
                g.locations = [0, 0.4, 1]
                g.startPoint = CGPoint(x: r.unit(), y: r.unit())
                g.endPoint = CGPoint(x: r.unit(), y: r.unit())
                l = g
            case 2:
                l = CALayer()
                l.backgroundColor = r.color(opaque: false)
            default:
                l = CALayer()
                l.backgroundColor = r.color(opaque: true)
            }
            l.bounds = CGRect(origin: .zero, size: size)
            l.position = CGPoint(x: r.uniform(0, w), y: r.uniform(0, h))
            l.transform = CATransform3DMakeRotation(CGFloat(r.next() % 3 == 0 ? 0 : r.uniform(0, 2 * .pi)), 0, 0, 1)
            switch r.next() % 12 {
            case 0: l.opacity = 0.6
            case 1: l.cornerRadius = 5
            case 2: l.compositingFilter = "multiplyBlendMode"
            case 3:
                let inner = CALayer()
                inner.frame = CGRect(x: 2, y: 3, width: size.width / 2, height: size.height / 2)
                inner.backgroundColor = r.color(opaque: true)
                l.addSublayer(inner)
                l.masksToBounds = true
                l.opacity = 0.8
            default: break
            }
            if i % 17 == 5 {
                let m = CALayer()
                m.frame = CGRect(x: 0, y: 0, width: size.width / 2, height: size.height)
                m.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
                l.mask = m
            }
            root.addSublayer(l)
        }
        return root
    }

    static func render(_ tree: RenderLayer, _ w: Int, _ h: Int, threads: Int, band: Int, occlusion: Bool,
                       background: RGBA8? = RGBA8(r: 250, g: 250, b: 250, a: 255)) throws -> (PixelBuffer, Int) {
        let c = Compositor(threadCount: threads, bandHeight: band)
        c.occlusionCulling = occlusion
        var b = PixelBuffer(width: w, height: h)
        b.fill(RGBA8(r: 7, g: 9, b: 11, a: 255))
        try c.render(tree, into: &b, background: background)
        // The next frame of the same snapshot runs the kept plan with the kept occlusion maps.
        var again = PixelBuffer(width: w, height: h)
        again.fill(RGBA8(r: 7, g: 9, b: 11, a: 255))
        try c.render(tree, into: &again, background: background)
        #expect(c.reusedPlan && again == b)
        return (b, c.lastOccludedBlocks)
    }

    @Test(arguments: [(UInt64(1), 40), (2, 120), (3, 300)])
    func theSameBytesWithAndWithoutOcclusion(_ seed: UInt64, _ count: Int) throws {
        let (w, h) = (203, 157)
        let tree = VirtualRunLoop().run { Self.scene(seed: seed, count: count, w: Double(w), h: Double(h)).makeRenderTree() }
        let (plain, none) = try Self.render(tree, w, h, threads: 1, band: 64, occlusion: false)
        #expect(none == 0)
        for (threads, band) in [(1, 64), (2, 64), (1, 7), (2, 1)] {
            for bg in [RGBA8(r: 250, g: 250, b: 250, a: 255), nil] {
                let (base, _) = try Self.render(tree, w, h, threads: 1, band: 64, occlusion: false, background: bg)
                let (out, skipped) = try Self.render(tree, w, h, threads: threads, band: band, occlusion: true, background: bg)
                #expect(out == base, "seed \(seed), \(threads) threads, bands of \(band), background \(String(describing: bg))")
                #expect(skipped > 0)
            }
        }
        #expect(plain.width == w)
    }

    /// The gradient workload's kind of frame: many rotated opaque gradient squares overlapping
    /// on a frame whose width is not a multiple of 8, with a backend override.
    @Test(arguments: [RasterConfiguration.SIMDMode.auto, .portable])
    func overlappingGradientSquares(_ mode: RasterConfiguration.SIMDMode) throws {
        let (w, h) = (317, 181)
        let tree = VirtualRunLoop().run { () -> RenderLayer in
            var r = SplitMix64(seed: 0x67524144)
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: w, height: h)
            for i in 0..<60 {
                let g = CAGradientLayer()
                g.type = [CAGradientLayerType.axial, .radial, .conic][i % 3]
                g.bounds = CGRect(x: 0, y: 0, width: 40, height: 40)
                g.position = CGPoint(x: r.uniform(0, Double(w)), y: r.uniform(0, Double(h)))
                g.transform = CATransform3DMakeRotation(CGFloat(r.uniform(0, 2 * .pi)), 0, 0, 1)
                g.colors = (0..<3).map { _ in r.color(opaque: true) }
                g.locations = [0, 0.5, 1]
                g.startPoint = i % 3 == 0 ? .zero : CGPoint(x: 0.5, y: 0.5)
                g.endPoint = CGPoint(x: 1, y: i % 3 == 2 ? 0.5 : 1)
                root.addSublayer(g)
            }
            return root.makeRenderTree()
        }
        let saved = RasterConfiguration.simd
        defer { RasterConfiguration.simd = saved }
        RasterConfiguration.simd = mode
        let (base, _) = try Self.render(tree, w, h, threads: 1, band: 64, occlusion: false)
        let (out, skipped) = try Self.render(tree, w, h, threads: 2, band: 16, occlusion: true)
        #expect(out == base)
        #expect(skipped > 100)
    }

    /// Draws that must not occlude: translucent, group opacity, rounded, aliased, a mask, a
    /// translucent gradient stop — nothing is skipped, so nothing could have been skipped wrongly.
    @Test func onlyOpaqueWholePixelsOcclude() throws {
        let (w, h) = (120, 90)
        let tree = VirtualRunLoop().run { () -> RenderLayer in
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: w, height: h)
            let a = CALayer(); a.frame = CGRect(x: 5, y: 5, width: 60, height: 50); a.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 0.99)
            let b = CALayer(); b.frame = CGRect(x: 20, y: 10, width: 60, height: 50); b.backgroundColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1); b.opacity = 0.5
            let c = CALayer(); c.frame = CGRect(x: 40, y: 20, width: 60, height: 50); c.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1); c.cornerRadius = 6
            let d = CAGradientLayer(); d.frame = CGRect(x: 50, y: 30, width: 60, height: 50)
            d.colors = [CGColor(red: 1, green: 1, blue: 0, alpha: 1), CGColor(red: 0, green: 1, blue: 1, alpha: 0.5)]
            let e = CALayer(); e.frame = CGRect(x: 10, y: 40, width: 60, height: 40); e.backgroundColor = CGColor(red: 1, green: 0, blue: 1, alpha: 1)
            e.allowsEdgeAntialiasing = false; e.transform = CATransform3DMakeRotation(0.3, 0, 0, 1)
            let f = CALayer(); f.frame = CGRect(x: 60, y: 5, width: 50, height: 40); f.backgroundColor = CGColor(red: 0.5, green: 0.5, blue: 0, alpha: 1)
            let m = CALayer(); m.frame = CGRect(x: 0, y: 0, width: 25, height: 40); m.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1); f.mask = m
            for l in [a, b, c, d, e, f] { root.addSublayer(l) }
            return root.makeRenderTree()
        }
        let (base, _) = try Self.render(tree, w, h, threads: 1, band: 64, occlusion: false)
        let (out, skipped) = try Self.render(tree, w, h, threads: 1, band: 64, occlusion: true)
        #expect(out == base)
        #expect(skipped == 0)
    }

    /// An opaque root background layer covering the frame: the clear is skipped wherever it
    /// lies, so every pixel is written once by it (and again only by what is drawn over it).
    @Test func anOpaqueBackgroundLayerHidesTheClear() throws {
        let tree = VirtualRunLoop().run { () -> RenderLayer in
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 64, height: 40)
            root.backgroundColor = CGColor(red: 0.2, green: 0.4, blue: 0.6, alpha: 1)
            return root.makeRenderTree()
        }
        let (out, skipped) = try Self.render(tree, 64, 40, threads: 1, band: 64, occlusion: true)
        #expect(skipped == 8 * 40)     // every block of every row
        #expect(out[0, 0] == RGBA8(r: 51, g: 102, b: 153, a: 255) && out[63, 39] == out[0, 0])
    }

    /// Every pixel `_Occluder.row` reports is covered 255 by the rasterizer (the promise the
    /// skipping rests on), on rotated quads at fractional positions — and it finds most of them.
    @Test func occluderRowsAreFullyCovered() {
        let p = _Planner(width: 160, height: 120, scale: 1, mips: _MipCache())
        let scratch = _WorkerScratch()
        var r = SplitMix64(seed: 41)
        var found = 0, full = 0
        for k in 0..<80 {
            let m = CATransform3DConcat(CATransform3DMakeRotation(CGFloat(k % 5 == 0 ? 0 : r.uniform(0, 2 * .pi)), 0, 0, 1),
                                        CATransform3DMakeTranslation(CGFloat(r.uniform(40, 120)), CGFloat(r.uniform(30, 90)), 0))
            let rect = CGRect(x: -r.uniform(5, 40), y: -r.uniform(5, 30), width: r.uniform(10, 80), height: r.uniform(10, 60))
            guard let s = p.shape(rect, _Homography(planeOf: m)),
                  let o = _Occluder.make(shapes: [s], paint: .solid(0xFF00_00FF), alpha: 255, bounds: s.bounds) else { continue }
            let b = s.bounds
            let mask = _BandExecutor.coverageMask([s], b, scratch)
            let wdt = b.x1 - b.x0
            for y in b.y0..<b.y1 {
                let (x0, x1) = o.row(y, x0: b.x0, x1: b.x1)
                if y >= o.y0 && y < o.y1 && x1 > x0 {
                    for x in x0..<x1 { #expect(mask[(y - b.y0) * wdt + x - b.x0] == 255, "quad \(k), pixel (\(x), \(y))") }
                    found += x1 - x0
                }
                for x in b.x0..<b.x1 where mask[(y - b.y0) * wdt + x - b.x0] == 255 { full += 1 }
            }
        }
        #expect(found > 0 && Double(found) > 0.9 * Double(full), "found \(found) of \(full) fully covered pixels")
    }

    /// The kernel with occlusion: the pixels of blocks whose two frame blocks are owned by a
    /// later rank keep their bytes; every other pixel gets the plain kernel's (both builds).
    @Test(.enabled(if: RasterBackend.nativeAvailable), arguments: [Int32(0), 1, 2])
    func theOccludedKernelSkipsOnlyHiddenBlocks(_ kind: Int32) {
        let ramp = GradientRamp(stops: [GradientStop(location: 0, r: 1, g: 0.2, b: 0, a: 1), GradientStop(location: 1, r: 0, g: 0.5, b: 1, a: 1)])
        var r = SplitMix64(seed: 7)
        for wide in [Int32(0), 1] where wide == 0 || RasterBackend.avx512Available {
            for trial in 0..<40 {
                let ox = Int(r.next() % 40), n = 1 + Int(r.next() % 200)
                let blocks = (ox + n + 7) / 8 + 1
                let owner = (0..<blocks).map { _ in UInt16(r.next() % 4 == 0 ? 0 : r.next() % 6) }
                let rank = UInt32(r.next() % 5)
                let mask = (0..<n).map { _ in r.next() % 3 == 0 ? UInt8(255) : UInt8(r.next() & 255) }
                let start = (0..<n).map { _ in UInt32(truncatingIfNeeded: r.next()) | 0xFF00_0000 }
                let (u0, v0, mu, mv) = (Float(r.uniform(-0.5, 1.5)), Float(r.uniform(-1, 1)), Float(r.uniform(-0.02, 0.02)), Float(r.uniform(-0.02, 0.02)))
                var plain = start, occluded = start
                ramp.table.withUnsafeBufferPointer { t in
                    mask.withUnsafeBufferPointer { m in
                        owner.withUnsafeBufferPointer { o in
                            plain.withUnsafeMutableBufferPointer { d in
                                if wide == 1 {
                                    fbk_gradient_over_avx512vl(d.baseAddress!, m.baseAddress!, 200, n, t.baseAddress!, kind, u0, v0, 1, mu, mv, 0, 1024, 1025)
                                } else {
                                    fbk_gradient_over_avx2(d.baseAddress!, m.baseAddress!, 200, n, t.baseAddress!, kind, u0, v0, 1, mu, mv, 0, 1024, 1025)
                                }
                            }
                            occluded.withUnsafeMutableBufferPointer { d in
                                fbk_gradient_over_occluded(d.baseAddress!, m.baseAddress!, 200, n, t.baseAddress!, kind, u0, v0, 1, mu, mv, 0,
                                                           1024, 1025, o.baseAddress!, ox, rank, wide)
                            }
                        }
                    }
                }
                for i in 0..<n {
                    let block = i / 8 * 8
                    let hidden = block + 8 <= n && owner[(ox + block) / 8] > rank && owner[(ox + block + 7) / 8] > rank
                    #expect(occluded[i] == (hidden ? start[i] : plain[i]), "trial \(trial), wide \(wide), pixel \(i)")
                }
            }
        }
    }

    /// The rows kernel (`fbk_gradient_over_rows`, the painter's dense rows) against one call
    /// per row with the start from `GradientPaint.rowStart`: the same bytes, with and without
    /// occlusion, both builds, on a projective map too.
    @Test(.enabled(if: RasterBackend.nativeAvailable), arguments: [Int32(0), 1, 2])
    func theRowsKernelIsOneCallPerRow(_ kind: Int32) {
        let ramp = GradientRamp(stops: [GradientStop(location: 0, r: 0.9, g: 0.1, b: 0.3, a: 1), GradientStop(location: 0.6, r: 0.2, g: 0.9, b: 0.1, a: 0.7),
                                        GradientStop(location: 1, r: 0, g: 0.5, b: 1, a: 1)])
        var r = SplitMix64(seed: 99)
        let (width, rows, blocks) = (96, 12, 12)
        var paintedOccluded = 0
        defer { #expect(paintedOccluded > 10) }
        for wide in [Int32(0), 1] where wide == 0 || RasterBackend.avx512Available {
            for trial in 0..<24 {
                let projective = trial % 4 == 3
                let m: [Float] = [Float(r.uniform(-0.03, 0.03)), Float(r.uniform(-0.03, 0.03)), Float(r.uniform(-1, 1)),
                                  Float(r.uniform(-0.03, 0.03)), Float(r.uniform(-0.03, 0.03)), Float(r.uniform(-1, 1)),
                                  projective ? 0.001 : 0, projective ? -0.002 : 0, 1]
                let y = 5 + Int(r.next() % 20), x = Int(r.next() % 9)
                let starts = (0..<rows).map { _ in Int(r.next() % 30) }
                let counts = (0..<rows).map { i in i % 5 == 4 ? 0 : Int(r.next() % UInt64(width - 9 - starts[i])) }
                let coverage = (0..<(rows * width)).map { _ in r.next() % 3 == 0 ? UInt8(255) : UInt8(r.next() & 255) }
                let owner = (0..<(rows * blocks)).map { _ in UInt16(r.next() % 3 == 0 ? 0 : r.next() % 9) }
                let rowMax = (0..<rows).map { i in owner[(i * blocks)..<((i + 1) * blocks)].max()! }
                let rank = UInt32(r.next() % 6)
                let start = (0..<(rows * width)).map { _ in UInt32(truncatingIfNeeded: r.next()) | 0xFF00_0000 }
                for occluded in [false, true] {
                    var one = start, chunk = start
                    ramp.table.withUnsafeBufferPointer { t in
                        coverage.withUnsafeBufferPointer { c in
                            owner.withUnsafeBufferPointer { o in
                                one.withUnsafeMutableBufferPointer { d in
                                    for i in 0..<rows where counts[i] > 0 {
                                        let mt = (m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8])
                                        let (u0, v0, w0) = GradientPaint.rowStart(mt, y: y + i, x0: x + starts[i])
                                        let hidden = occluded && UInt32(rowMax[i]) > rank
                                        fbk_gradient_over_occluded(d.baseAddress! + i * width + x + starts[i], c.baseAddress! + i * width + starts[i],
                                                                   230, counts[i], t.baseAddress!, kind, u0, v0, w0, m[0], m[3], m[6], 1024, 1026,
                                                                   hidden ? o.baseAddress! + i * blocks : nil, x + starts[i], rank, wide)
                                    }
                                }
                                rowMax.withUnsafeBufferPointer { rm in
                                    m.withUnsafeBufferPointer { mp in
                                        starts.withUnsafeBufferPointer { sp in
                                            counts.withUnsafeBufferPointer { cp in
                                                chunk.withUnsafeMutableBufferPointer { d in
                                                    fbk_gradient_over_rows(d.baseAddress! + x, width, rows, y, x, sp.baseAddress!, cp.baseAddress!,
                                                                           c.baseAddress!, width, 230, t.baseAddress!, kind, mp.baseAddress!, 1024, 1026,
                                                                           occluded ? o.baseAddress! : nil, occluded ? rm.baseAddress! : nil, blocks, y, rank, wide)
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                    #expect(one == chunk, "trial \(trial), wide \(wide), occluded \(occluded)")
                    if occluded && one != start { paintedOccluded += 1 }
                }
            }
        }
    }
}

extension SplitMix64 {
    /// A colour from the next three units, opaque or with an alpha in [0.2, 0.9).
    mutating func color(opaque: Bool) -> CGColor {
        CGColor(red: unit(), green: unit(), blue: unit(), alpha: opaque ? 1 : uniform(0.2, 0.9))
    }
}

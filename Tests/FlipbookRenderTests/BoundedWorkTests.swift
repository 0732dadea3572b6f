import Testing
import FlipbookTesting
@testable import FlipbookRender
import Flipbook
import FlipbookPixels
import Foundation

/// The work of a frame is bounded by the output and the layer count, not by the layers' sizes or
/// shadow radii (issue 40, docs/limits.md "Work per frame"). Asserted as a count of work — the
/// pixels of the shadow offscreens the planner made (`Compositor.lastOffscreenWork`) — never as
/// a time.
@Suite struct BoundedWorkTests {
    /// The compositor fuzz target's tree for the input `[0xcb]` (`FuzzTargets.compositor`, kept
    /// as `Tests/Fixtures/fuzz/hang-compositor-cb-a`): every byte it reads is 203, so every
    /// layer has 3 sublayers down to depth 4 and a mask (itself such a tree) at every level above
    /// it — 341 layers — and every number reads as 556 (`v`): bounds (v, v, v, v), position
    /// (v, v), z v, corner radius and border width v, shadow opacity 1 with offset (v, v) and
    /// radius v, background red at alpha 203/255, opacity 203/200. `v` and `radius` vary here to
    /// show the work does not grow with them.
    static func cb(_ depth: Int = 0, v: CGFloat = 556, radius: CGFloat? = nil) -> RenderLayer {
        RenderLayer(
            bounds: CGRect(x: v, y: v, width: v, height: v), position: CGPoint(x: v, y: v), zPosition: v,
            opacity: 203.0 / 200, masksToBounds: false,
            backgroundColor: CGColor(red: 1, green: 0, blue: 0, alpha: 203.0 / 255),
            cornerRadius: v, borderWidth: v,
            contentsRect: CGRect(x: v, y: v, width: v, height: v),
            shadowOpacity: 1, shadowOffset: CGSize(width: v, height: v), shadowRadius: radius ?? v,
            mask: depth < 4 ? cb(depth + 1, v: v, radius: radius) : nil,
            sublayers: depth < 4 ? (0..<3).map { _ in cb(depth + 1, v: v, radius: radius) } : [],
            cornerCurve: .circular)
    }

    /// A chain of `n` layers, each masked by a large layer that casts a huge shadow and
    /// itself casting one: many nested masks, each with a shadow wider than the frame.
    static func maskChain(_ n: Int, size: CGFloat, radius: CGFloat) -> RenderLayer {
        var node = RenderLayer(bounds: CGRect(x: 0, y: 0, width: 20, height: 20), position: CGPoint(x: 24, y: 20),
                               backgroundColor: TestScene.green)
        for i in 0..<n {
            let mask = RenderLayer(bounds: CGRect(x: 0, y: 0, width: size, height: size), position: CGPoint(x: 10, y: 10),
                                   backgroundColor: TestScene.red, shadowOpacity: 1,
                                   shadowOffset: CGSize(width: 3, height: 5), shadowRadius: radius)
            node = RenderLayer(bounds: CGRect(x: 0, y: 0, width: size, height: size), position: CGPoint(x: 24 + i % 3, y: 20),
                               backgroundColor: CGColor(red: 0, green: 0, blue: 1, alpha: 0.5),
                               shadowOpacity: 1, shadowOffset: CGSize(width: -4, height: 6), shadowRadius: radius,
                               mask: mask, sublayers: [node])
        }
        return node
    }

    /// Layers of the tree, masks included.
    static func layerCount(_ l: RenderLayer) -> Int {
        1 + (l.mask.map(layerCount) ?? 0) + l.sublayers.reduce(0) { $0 + layerCount($1) }
    }

    /// The shadow offscreens the rules allow (docs/limits.md): one per shadowed layer in the
    /// frame, plus one inside the offscreen of each shadowed ancestor (a mask's ancestors are
    /// the masked layer's and the masked layer itself) — offscreens nest two deep.
    static func offscreenPairs(_ l: RenderLayer, shadowedAbove: Int = 0) -> Int {
        let casts = l.shadowOpacity > 0
        let below = shadowedAbove + (casts ? 1 : 0)
        return (casts ? 1 + shadowedAbove : 0) + (l.mask.map { offscreenPairs($0, shadowedAbove: below) } ?? 0)
            + l.sublayers.reduce(0) { $0 + offscreenPairs($1, shadowedAbove: below) }
    }

    /// The bound: each offscreen at most `(w + 4R) × (h + 4R)` pixels with `R = min(512, the
    /// frame's longer side)` — the reach of a shadow's source past what it covers, twice for a
    /// shadow nested in another's offscreen — whatever the layers' sizes and radii.
    static func bound(_ w: Int, _ h: Int, _ tree: RenderLayer) -> Int {
        let r = min(_Planner.maximumShadowReach, max(w, h))
        return offscreenPairs(tree) * (w + 4 * r) * (h + 4 * r)
    }

    static func work(_ tree: RenderLayer, _ w: Int, _ h: Int) throws -> _OffscreenWork {
        let c = Compositor(threadCount: 1)
        _ = try c.render(tree, width: w, height: h)
        return c.lastOffscreenWork
    }

    /// The `[0xcb]` input: 341 layers, all shadowed, 48×40. Before the bound it made 1,280
    /// offscreens of 860,674,260 pixels in all (about 1.4 s of a release build); the reach of
    /// each is now at most the frame's longer side, and shadows nested in an offscreen are
    /// drawn only where it is read.
    @Test func cbInputWorkIsBoundedByTheOutput() throws {
        let tree = Self.cb()
        #expect(Self.layerCount(tree) == 341)
        #expect(Self.offscreenPairs(tree) == 1_593)
        let w = try Self.work(tree, 48, 40)
        #expect(w.count <= Self.offscreenPairs(tree))
        #expect(w.pixels <= Self.bound(48, 40, tree))       // 1,593 × 240 × 232 = 88,697,280
        #expect(w.pixels <= 8_000_000)                        // what it is: 6,678,144 (341 offscreens)
    }

    /// Three nested shadowed layers of side `size` on the frame's centre, shadow radius
    /// `radius`: the same work bound for 40-point layers with radius 16 as for 10⁴-point layers
    /// with radius 10⁴ (before the bound, the larger ones made offscreens of up to
    /// (48 + 2 × 145)² pixels: the blur was capped by the frame, its reach only at 512).
    static func shadowedChain(size: CGFloat, radius: CGFloat) -> RenderLayer {
        var node: RenderLayer? = nil
        for i in 0..<3 {
            // Each layer centred on its superlayer, the outermost on the frame.
            let p = i == 2 ? CGPoint(x: 24, y: 20) : CGPoint(x: size / 2, y: size / 2)
            node = RenderLayer(bounds: CGRect(x: 0, y: 0, width: size, height: size), position: p,
                               backgroundColor: TestScene.green, shadowOpacity: 1,
                               shadowOffset: CGSize(width: 2, height: 3), shadowRadius: radius,
                               sublayers: node.map { [$0] } ?? [])
        }
        return node!
    }

    @Test func workDoesNotGrowWithLayerSizeOrRadius() throws {
        let small = try Self.work(Self.shadowedChain(size: 40, radius: 16), 48, 40)
        let large = try Self.work(Self.shadowedChain(size: 10_000, radius: 10_000), 48, 40)
        #expect(small.count == 6 && large.count == 6)
        #expect(small.pixels <= Self.bound(48, 40, Self.shadowedChain(size: 40, radius: 16)))
        #expect(large.pixels <= Self.bound(48, 40, Self.shadowedChain(size: 10_000, radius: 10_000)))
        #expect(large.pixels <= 2 * small.pixels)
    }

    /// Many nested masks, each mask and each masked layer casting a shadow of radius 10⁴ from a
    /// 10⁴-point layer, on a 48×40 frame: bounded by the output, and the frame is drawn.
    @Test func nestedMasksWithHugeShadowsAreBoundedByTheOutput() throws {
        let tree = Self.maskChain(12, size: 10_000, radius: 10_000)
        #expect(Self.offscreenPairs(tree) == 168)   // layer k: 1 + k; its mask: 2 + k (k = 0…11)
        let w = try Self.work(tree, 48, 40)
        #expect(w.count > 0)
        #expect(w.pixels <= Self.bound(48, 40, tree))
        // Each offscreen at most (48 + 2R)(40 + 2R) = 144 × 136 px at the first level.
        #expect(w.pixels <= w.count * 240 * 232)
        let img = try TestScene.render(tree, 48, 40)
        #expect(img[24, 20].a > 0)
    }

    /// A 1920×1080 frame keeps the 512-pixel reach: the bound changes nothing there (the
    /// reference frames are unchanged), and the work is bounded by the same rule.
    @Test func largeFramesKeepTheFullReach() throws {
        let tree = Self.maskChain(3, size: 4_000, radius: 400)
        let w = try Self.work(tree, 1920, 1080)
        #expect(w.count > 0)
        #expect(w.pixels <= Self.bound(1920, 1080, tree))
    }
}

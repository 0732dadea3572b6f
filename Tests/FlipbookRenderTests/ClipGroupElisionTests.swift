import Testing
@testable import FlipbookRender
import Flipbook
import FlipbookPixels
import FlipbookRaster
import Foundation

/// A `masksToBounds` layer over several draws clips them through an offscreen group; when the
/// clip covers all of its content fully and the draws (and nested groups) touch disjoint
/// pixels, the planner leaves the group out (`_Planner.endClipGroup`). The bytes must be those
/// of the group: compared with the group kept, on scenes where it is left out and on scenes
/// where it must not be.
@Suite struct ClipGroupElisionTests {
    static func render(_ root: RenderLayer, _ w: Int, _ h: Int, elide: Bool) throws -> PixelBuffer {
        let c = Compositor(threadCount: 1, bandHeight: 8)
        c.elidesClipGroups = elide
        return try c.render(root, width: w, height: h, background: RGBA8(r: 20, g: 40, b: 60, a: 255))
    }

    static func groups(_ root: RenderLayer, _ w: Int, _ h: Int, elide: Bool) -> Int {
        let c = Compositor(threadCount: 1)
        c.elidesClipGroups = elide
        return c.plan(root, width: w, height: h, scale: 1).filter { if case .push = $0 { return true }; return false }.count
    }

    /// A clipping parent (rotated by `angle`, at a fractional position) holding `boxes`.
    static func scene(angle: CGFloat, boxes: [CGRect], opacities: [Float] = [], masked: Bool = false) -> RenderLayer {
        let colors = [TestScene.red, TestScene.green, TestScene.blue, CGColor(red: 0.5, green: 0.2, blue: 0.9, alpha: 0.6)]
        let subs = boxes.enumerated().map { i, r in
            TestScene.box(r, colors[i % colors.count], opacity: i < opacities.count ? opacities[i] : 1) { o in
                o.cornerRadius = i % 2 == 0 ? 0 : 3
                if masked && i == 0 { o.mask = TestScene.box(CGRect(x: 2, y: 2, width: 6, height: 6), TestScene.red) }
            }
        }
        let parent = TestScene.box(CGRect(x: 10.3, y: 8.6, width: 80.5, height: 60.25), nil,
                                   transform: CATransform3DMakeRotation(angle, 0, 0, 1)) { $0.masksToBounds = true }
        let clipper = RenderLayer(bounds: parent.bounds, position: parent.position, transform: parent.transform,
                                  masksToBounds: true, sublayers: subs)
        return TestScene.root(100, 80, [clipper])
    }

    @Test(arguments: [0.0, 0.05, -0.3, .pi / 2])
    func sameBytesWithAndWithoutTheGroup(_ angle: Double) throws {
        let disjoint = [CGRect(x: 10, y: 10, width: 12, height: 9.5), CGRect(x: 30.5, y: 12, width: 10, height: 10),
                        CGRect(x: 50, y: 30, width: 8, height: 14)]
        let overlapping = disjoint + [CGRect(x: 15, y: 12, width: 20, height: 10)]
        let cut = [CGRect(x: 72, y: 25, width: 16, height: 9), CGRect(x: 30, y: 12, width: 10, height: 10)]   // the first crosses the clip's right edge
        for (boxes, opacities, masked) in [(disjoint, [], false), (disjoint, [0.5, 1, 0.7], false), (disjoint, [], true),
                                           (overlapping, [], false), (cut, [], false)] as [([CGRect], [Float], Bool)] {
            let root = Self.scene(angle: CGFloat(angle), boxes: boxes, opacities: opacities, masked: masked)
            #expect(try Self.render(root, 100, 80, elide: true) == Self.render(root, 100, 80, elide: false),
                    "angle \(angle), \(boxes.count) boxes, opacities \(opacities), masked \(masked)")
        }
        // Left out where it changes nothing; kept where the draws overlap or the clip cuts one.
        let small = angle == .pi / 2 ? Self.scene(angle: 0, boxes: disjoint) : Self.scene(angle: CGFloat(angle), boxes: disjoint)
        #expect(Self.groups(small, 100, 80, elide: true) < Self.groups(small, 100, 80, elide: false))
        let o = Self.scene(angle: CGFloat(angle), boxes: overlapping)
        #expect(Self.groups(o, 100, 80, elide: true) == Self.groups(o, 100, 80, elide: false))
        let c = Self.scene(angle: CGFloat(angle), boxes: cut)
        #expect(Self.groups(c, 100, 80, elide: true) == Self.groups(c, 100, 80, elide: false))
    }

    /// `coversFully` promises coverage 255 on every pixel of the rectangle: checked against the
    /// rasterizer on rotated and fractional rectangles.
    @Test func fullCoverageIsFullCoverage() {
        let p = _Planner(width: 120, height: 100, scale: 1, mips: _MipCache())
        let scratch = _WorkerScratch()
        var checked = 0
        for k in 0..<60 {
            let a = Double(k) * 0.37, ox = 10 + Double(k % 7) * 0.29, oy = 8 + Double(k % 5) * 0.41
            let m = CATransform3DConcat(CATransform3DMakeRotation(CGFloat(k % 4 == 0 ? 0 : a), 0, 0, 1),
                                        CATransform3DMakeTranslation(CGFloat(60 + ox), CGFloat(50 + oy), 0))
            guard let s = p.shape(CGRect(x: -35.3, y: -22.7, width: 70.6 + Double(k % 3), height: 45.1), _Homography(planeOf: m)) else { continue }
            for r in [_IRect(x0: 50, y0: 40, x1: 70, y1: 60), _IRect(x0: 30, y0: 35, x1: 90, y1: 65), _IRect(x0: 45, y0: 30, x1: 75, y1: 70)] {
                guard _Planner.coversFully(s, r) else { continue }
                let mask = _BandExecutor.coverageMask([s], r, scratch)
                let n = (r.x1 - r.x0) * (r.y1 - r.y0)
                #expect((0..<n).allSatisfy { mask[$0] == 255 }, "rotation \(a), rect \(r)")
                checked += 1
            }
        }
        #expect(checked > 20)
    }
}

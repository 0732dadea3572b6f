import Testing
import FlipbookTesting
@testable import FlipbookRender
@testable import Flipbook
import FlipbookPixels
import FlipbookScene
import Foundation

/// `cornerCurve = .continuous`: the published corner geometry, how it differs from a circular
/// corner in pixels, the capsule limit, and reference images for backgrounds, borders, clips
/// and shadows at several sizes.
@Suite struct ContinuousCornerTests {
    static let blue = CGColor(red: 0.2, green: 0.4, blue: 0.9, alpha: 1)

    @Test func expansionFactorAndDefaults() {
        VirtualRunLoop().run { #expect(CALayer().cornerCurve == .circular) }
        #expect(CALayer.cornerCurveExpansionFactor(.circular) == 1)
        #expect(abs(CALayer.cornerCurveExpansionFactor(.continuous) - 1.528665) < 1e-5)
    }

    /// The top-left corner of radius 10 at the origin: it leaves the left edge 15.29 above the
    /// corner and meets the top edge 15.29 right of it; its first and last chords run along the
    /// edges' directions (tangent continuity), and it stays inside the circular corner's curve.
    @Test func cornerGeometry() {
        var pts: [(Double, Double)] = []
        _Planner.continuousCorner((0, 0), uIn: (0, 1), uOut: (1, 0), r: 10, f: 0, n: 8, into: &pts)
        let e = 15.2866483
        #expect(abs(pts.first!.0) < 1e-12 && abs(pts.first!.1 - e) < 1e-9)
        #expect(abs(pts.last!.0 - e) < 1e-9 && abs(pts.last!.1) < 1e-12)
        // Tangents: the first chord nearly vertical, the last nearly horizontal.
        let a = pts[1], b = pts[pts.count - 2]
        #expect(abs(a.0) / abs(a.1 - pts[0].1) < 0.05)
        #expect(abs(b.1) / abs(pts.last!.0 - b.0) < 0.05)
        // The middle of the curve (its diagonal point) is where the circular corner's is
        // (10·(1 − 1/√2) = 2.93 along each axis, within 0.1): same radius, longer transitions.
        let mid = pts.min { abs($0.0 - $0.1) < abs($1.0 - $1.1) }!
        #expect(abs(mid.0 - 2.93) < 0.1 && abs(mid.1 - 2.93) < 0.1)
        // Blend: f = 1 is the circular corner (ends at 10 from the corner).
        var circ: [(Double, Double)] = []
        _Planner.continuousCorner((0, 0), uIn: (0, 1), uOut: (1, 0), r: 10, f: 1, n: 8, into: &circ)
        #expect(abs(circ.first!.1 - 10) < 1e-9 && abs(circ.last!.0 - 10) < 1e-9)
        #expect(_Planner.continuousBlend(r: 10, half: 50) == 0)
        #expect(_Planner.continuousBlend(r: 30, half: 30) == 1)
    }

    static func card(_ size: CGSize, radius: CGFloat, curve: CALayerCornerCurve, configure: (CALayer) -> Void = { _ in }) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: size.width + 20, height: size.height + 20)
        let l = CALayer()
        l.frame = CGRect(x: 10, y: 10, width: size.width, height: size.height)
        l.cornerRadius = radius
        l.cornerCurve = curve
        l.backgroundColor = blue
        configure(l)
        root.addSublayer(l)
        return root
    }

    static func render(_ root: CALayer) -> PixelBuffer {
        try! Compositor(threadCount: 1).render(root.makeRenderTree(), width: Int(root.bounds.width), height: Int(root.bounds.height))
    }

    /// 200×100, radius 30: on the top edge between 30 and 45.9 from the corner the circular
    /// corner is already straight (full pixels), the continuous one still curving; at the
    /// corner's diagonal the continuous corner covers less.
    @Test func continuousDiffersFromCircularWhereTheGeometrySays() {
        VirtualRunLoop().run {
            let circ = Self.render(Self.card(CGSize(width: 200, height: 100), radius: 30, curve: .circular))
            let cont = Self.render(Self.card(CGSize(width: 200, height: 100), radius: 30, curve: .continuous))
            // The top row of the card (y = 10), by columns from the corner: the circular corner
            // reaches the edge at 30 (full from there); the continuous one eases in, still
            // short of full at 30…40 and full only from about 41 (1.53·30 = 45.9, the last
            // tenths of a pixel too small to show).
            #expect(circ[10 + 30, 10].a == 255 && cont[10 + 30, 10].a < 220)
            #expect(Int(circ[10 + 24, 10].a) - Int(cont[10 + 24, 10].a) > 60)
            #expect(circ[10 + 45, 10].a == 255 && cont[10 + 45, 10].a == 255)
            #expect((0..<22).allSatisfy { circ[10 + $0, 10].a == 0 && cont[10 + $0, 10].a == 0 })
            // It takes a little more area off the corner, and the rest is identical.
            var ca = 0, ka = 0
            for y in 10..<56 { for x in 10..<56 { ca += Int(circ[x, y].a); ka += Int(cont[x, y].a) } }
            #expect(ka < ca && ca - ka < 255 * 30)
            #expect(circ[110, 60] == cont[110, 60] && circ[60, 10] == cont[60, 10])
        }
    }

    /// A continuous capsule (radius = half the height) is a capsule: within a rounding step of
    /// the circular one everywhere; a small radius on a big card is clearly different.
    @Test func capsuleLimit() {
        VirtualRunLoop().run {
            let a = Self.render(Self.card(CGSize(width: 60, height: 60), radius: 30, curve: .circular))
            let b = Self.render(Self.card(CGSize(width: 60, height: 60), radius: 30, curve: .continuous))
            var worst = 0
            for y in 0..<80 { for x in 0..<80 { worst = max(worst, abs(Int(a[x, y].a) - Int(b[x, y].a))) } }
            #expect(worst <= 24, "\(worst)")
        }
    }

    @Test func referenceImages() {
        VirtualRunLoop().run {
            for (name, size, r) in [("40x40-r10", CGSize(width: 40, height: 40), CGFloat(10)),
                                    ("200x100-r30", CGSize(width: 200, height: 100), 30),
                                    ("60x60-r30", CGSize(width: 60, height: 60), 30),
                                    ("120x40-r20", CGSize(width: 120, height: 40), 20)] {
                let root = Self.card(size, radius: r, curve: .continuous)
                assertRendering(of: root, at: 0, size: root.bounds.size, background: .white, named: name)
            }
            // Border, masksToBounds clip over a child, shadow (no shadowPath) and maskedCorners.
            let styled = Self.card(CGSize(width: 160, height: 90), radius: 28, curve: .continuous) { l in
                l.borderWidth = 4
                l.borderColor = CGColor(gray: 0.1, alpha: 1)
                l.masksToBounds = true
                l.maskedCorners = [.layerMinXMinYCorner, .layerMaxXMaxYCorner]
                let child = CALayer()
                child.frame = CGRect(x: -10, y: 45, width: 200, height: 60)
                child.backgroundColor = CGColor(red: 1, green: 0.6, blue: 0.1, alpha: 1)
                l.addSublayer(child)
            }
            assertRendering(of: styled, at: 0, size: styled.bounds.size, background: .white, named: "border-clip-masked")
            let shadowRoot = CALayer()
            shadowRoot.frame = CGRect(x: 0, y: 0, width: 160, height: 110)
            let s = CALayer()
            s.frame = CGRect(x: 30, y: 20, width: 100, height: 60)
            s.cornerRadius = 22
            s.cornerCurve = .continuous
            s.backgroundColor = CGColor(gray: 1, alpha: 1)
            s.shadowOpacity = 0.6
            s.shadowRadius = 6
            s.shadowOffset = CGSize(width: 0, height: 6)
            shadowRoot.addSublayer(s)
            assertRendering(of: shadowRoot, at: 0, size: shadowRoot.bounds.size, background: RGBA8(r: 230, g: 232, b: 236, a: 255), named: "shadow")
        }
    }

    @Test func sceneKey() throws {
        let d = try SceneParser.parse(##"{"output": {"size": "40x40", "duration": 1}, "layers": [{"frame": [0, 0, 40, 40], "cornerRadius": 10, "cornerCurve": "continuous"}]}"##,
                                      file: "s.json", baseDirectory: "/tmp")
        #expect(d.root.sublayers.first?.cornerCurve == .continuous)
        #expect(throws: SceneError.self) {
            try SceneParser.parse(##"{"output": {"size": "40x40", "duration": 1}, "layers": [{"cornerCurve": "squircle"}]}"##, file: "s.json", baseDirectory: "/tmp")
        }
    }
}

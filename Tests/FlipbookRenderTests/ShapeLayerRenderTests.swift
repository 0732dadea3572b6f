import Testing
import FlipbookTesting
@testable import FlipbookRender
@testable import Flipbook
@testable import FlipbookGraphics
import FlipbookPixels
import FlipbookRaster
import Foundation

/// `CAShapeLayer` drawn by the compositor: reference images (caps, joins, dashes with phase,
/// fill rules, strokeStart/strokeEnd on a circle and on a multi-subpath path, a path animation
/// mid-flight, perspective, shadow) and exact numbers (fill coverage = the rasterizer's exact
/// coverage; a ring trimmed to 0.25 covers the first quadrant only).
/// References: `__Snapshots__/ShapeLayerRenderTests/…`, recorded with `FLIPBOOK_RECORD=missing`.
@Suite struct ShapeLayerRenderTests {
    static let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    static let green = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
    static let blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
    static let white = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
    static let yellow = CGColor(red: 1, green: 0.85, blue: 0, alpha: 1)

    static func root(_ w: Double, _ h: Double) -> CALayer {
        let l = CALayer()
        l.frame = CGRect(x: 0, y: 0, width: w, height: h)
        return l
    }

    static func shape(_ frame: CGRect, _ path: CGPath?) -> CAShapeLayer {
        let s = CAShapeLayer()
        s.frame = frame
        s.path = path
        return s
    }

    static func polyline(_ pts: [CGPoint]) -> CGPath {
        let m = CGMutablePath()
        m.addLines(between: pts)
        return m
    }

    /// A thick horizontal line with each cap, over a thin guide marking the path's ends.
    @Test(arguments: [CAShapeLayerLineCap.butt, .round, .square])
    func caps(_ cap: CAShapeLayerLineCap) {
        VirtualRunLoop().run {
            let root = Self.root(64, 32)
            let line = Self.shape(root.bounds, Self.polyline([CGPoint(x: 16, y: 16), CGPoint(x: 48, y: 16)]))
            line.strokeColor = Self.white
            line.lineWidth = 14
            line.lineCap = cap
            let guide = Self.shape(root.bounds, Self.polyline([CGPoint(x: 16, y: 4), CGPoint(x: 16, y: 28),
                                                               CGPoint(x: 48, y: 28), CGPoint(x: 48, y: 4)]))
            guide.fillColor = nil
            guide.strokeColor = Self.red
            root.addSublayer(line)
            root.addSublayer(guide)
            assertRendering(of: root, at: 0, size: CGSize(width: 64, height: 32), background: .black, named: cap.rawValue)
        }
    }

    /// A zig-zag with a 58° corner and a 92.5° one, each join; the miter variant is also drawn
    /// with miterLimit 2 (the 58° corner, miter ratio 2.06, bevels; the other, 1.38, keeps its miter).
    @Test(arguments: [("miter", CGFloat(10)), ("miter-limit2", 2), ("round", 10), ("bevel", 10)])
    func joins(_ join: String, _ limit: CGFloat) {
        VirtualRunLoop().run {
            let root = Self.root(96, 64)
            let z = Self.shape(root.bounds, Self.polyline([CGPoint(x: 10, y: 50), CGPoint(x: 30, y: 14),
                                                           CGPoint(x: 50, y: 50), CGPoint(x: 86, y: 32)]))
            z.fillColor = nil
            z.strokeColor = Self.white
            z.lineWidth = 8
            z.lineJoin = CAShapeLayerLineJoin(rawValue: join.hasPrefix("miter") ? "miter" : join)
            z.miterLimit = limit
            root.addSublayer(z)
            assertRendering(of: root, at: 0, size: CGSize(width: 96, height: 64), background: .black, named: join)
        }
    }

    /// A rounded rectangle stroked with dashes [10, 5, 2, 5] at phase 0 and 7, round caps on
    /// the second so the dots show.
    @Test(arguments: [CGFloat(0), 7])
    func dashesWithPhase(_ phase: CGFloat) {
        VirtualRunLoop().run {
            let root = Self.root(80, 56)
            let r = Self.shape(root.bounds, CGPath(roundedRect: CGRect(x: 8, y: 8, width: 64, height: 40),
                                                   cornerWidth: 10, cornerHeight: 10))
            r.fillColor = CGColor(red: 0, green: 0, blue: 1, alpha: 0.5)
            r.strokeColor = Self.yellow
            r.lineWidth = 3
            r.lineDashPattern = [10, 5, 2, 5]
            r.lineDashPhase = phase
            if phase != 0 { r.lineCap = .round }
            root.addSublayer(r)
            assertRendering(of: root, at: 0, size: CGSize(width: 80, height: 56), background: .black,
                            named: "phase\(Int(phase))")
        }
    }

    /// A pentagram and two concentric circles drawn the same way round: non-zero fills the
    /// star's centre and the inner disk, even-odd leaves them empty.
    @Test(arguments: [CAShapeLayerFillRule.nonZero, .evenOdd])
    func fillRules(_ rule: CAShapeLayerFillRule) {
        VirtualRunLoop().run {
            let root = Self.root(128, 64)
            let star = CGMutablePath()
            for i in 0..<5 {
                let a = -Double.pi / 2 + Double(i) * 4 * Double.pi / 5
                let p = CGPoint(x: 32 + 28 * cos(a), y: 33 + 28 * sin(a))
                if i == 0 { star.move(to: p) } else { star.addLine(to: p) }
            }
            star.closeSubpath()
            star.addEllipse(in: CGRect(x: 68, y: 4, width: 56, height: 56))
            star.addEllipse(in: CGRect(x: 82, y: 18, width: 28, height: 28))
            let s = Self.shape(root.bounds, star)
            s.fillColor = Self.green
            s.fillRule = rule
            s.strokeColor = Self.red
            root.addSublayer(s)
            assertRendering(of: root, at: 0, size: CGSize(width: 128, height: 64), background: .black, named: rule.rawValue)
        }
    }

    /// strokeEnd 0, 0.25, 0.5 and 1 (strokeStart 0) side by side, and strokeStart 0.25 …
    /// strokeEnd 0.75 last: a ring (starts at 3 o'clock, runs clockwise on screen) and a path of
    /// three subpaths (two lines and a closed triangle), measured together.
    @Test(arguments: ["circle", "subpaths"])
    func strokeStartAndEnd(_ kind: String) {
        VirtualRunLoop().run {
            let root = Self.root(200, 40)
            for (i, (start, end)) in [(0.0, 0.0), (0, 0.25), (0, 0.5), (0, 1), (0.25, 0.75)].enumerated() {
                let path: CGPath
                if kind == "circle" {
                    path = CGPath(ellipseIn: CGRect(x: 6, y: 6, width: 28, height: 28))
                } else {
                    let m = CGMutablePath()
                    m.move(to: CGPoint(x: 4, y: 6)); m.addLine(to: CGPoint(x: 36, y: 6))
                    m.move(to: CGPoint(x: 4, y: 14)); m.addLine(to: CGPoint(x: 36, y: 14))
                    m.move(to: CGPoint(x: 8, y: 36)); m.addLine(to: CGPoint(x: 20, y: 20)); m.addLine(to: CGPoint(x: 32, y: 36))
                    m.closeSubpath()
                    path = m
                }
                let s = Self.shape(CGRect(x: Double(i) * 40, y: 0, width: 40, height: 40), path)
                s.fillColor = nil
                s.strokeColor = Self.white
                s.lineWidth = 4
                s.strokeStart = CGFloat(start)
                s.strokeEnd = CGFloat(end)
                root.addSublayer(s)
            }
            assertRendering(of: root, at: 0, size: CGSize(width: 200, height: 40), background: .black, named: kind)
        }
    }

    /// A square morphing into a rotated, larger square (same structure) by an explicit `path`
    /// animation with a stroke: start, mid-flight, end.
    @Test func pathAnimationMidFlight() {
        let loop = VirtualRunLoop()
        loop.run {
            let root = Self.root(64, 64)
            let from = CGPath(rect: CGRect(x: 22, y: 22, width: 20, height: 20))
            let to = Self.polyline([CGPoint(x: 32, y: 4), CGPoint(x: 60, y: 32), CGPoint(x: 32, y: 60), CGPoint(x: 4, y: 32)])
                .mutableCopy()!
            to.closeSubpath()
            // `to` is move + 3 lines + close, like `from`.
            let s = Self.shape(root.bounds, to)
            s.fillColor = Self.blue
            s.strokeColor = Self.white
            s.lineWidth = 2
            s.lineJoin = .round
            root.addSublayer(s)
            loop.attach(root)
            loop.endTurn()
            let a = CABasicAnimation(keyPath: "path")
            a.fromValue = from
            a.toValue = to
            a.duration = 1
            a.timingFunction = CAMediaTimingFunction(name: .linear)
            s.add(a, forKey: "morph")
            assertRenderings(of: root, at: [0, 0.5, 1], size: CGSize(width: 64, height: 64), background: .black, named: "morph")
        }
    }

    /// A progress ring (round caps, strokeEnd 0.7) under perspective, with a shadow without
    /// shadowPath that follows the stroke and fill.
    @Test func perspectiveAndShadow() {
        VirtualRunLoop().run {
            let root = Self.root(96, 96)
            let ring = Self.shape(CGRect(x: 16, y: 16, width: 64, height: 64), CGPath(ellipseIn: CGRect(x: 8, y: 8, width: 48, height: 48)))
            ring.fillColor = CGColor(red: 0, green: 0.4, blue: 1, alpha: 0.6)
            ring.strokeColor = Self.yellow
            ring.lineWidth = 8
            ring.lineCap = .round
            ring.strokeEnd = 0.7
            ring.shadowOpacity = 1
            ring.shadowColor = Self.red
            ring.shadowOffset = CGSize(width: 4, height: 6)
            ring.shadowRadius = 2
            var p = CATransform3DIdentity
            p.m34 = -1 / 120
            ring.transform = CATransform3DRotate(CATransform3DIdentity, 0.7, 1, 0.3, 0) * p
            root.addSublayer(ring)
            assertRendering(of: root, at: 0, size: CGSize(width: 96, height: 96), background: .white, named: "ring")
        }
    }

    /// A progress ring: `strokeEnd` animated 0 → 1 over 1 s (linear, round caps) on a grey
    /// track, frame by frame.
    @Test func progressRingFrameByFrame() {
        let loop = VirtualRunLoop()
        loop.run {
            let root = Self.root(48, 48)
            let circle = CGPath(ellipseIn: CGRect(x: 6, y: 6, width: 36, height: 36))
            let track = Self.shape(root.bounds, circle)
            track.fillColor = nil
            track.strokeColor = CGColor(gray: 0.3, alpha: 1)
            track.lineWidth = 6
            let ring = Self.shape(root.bounds, circle)
            ring.fillColor = nil
            ring.strokeColor = Self.green
            ring.lineWidth = 6
            ring.lineCap = .round
            ring.strokeEnd = 1
            // Start at 12 o'clock: the ring turned −90° about its centre.
            ring.transform = CATransform3DMakeRotation(-.pi / 2, 0, 0, 1)
            root.addSublayer(track)
            root.addSublayer(ring)
            loop.attach(root)
            loop.endTurn()
            let a = CABasicAnimation(keyPath: "strokeEnd")
            a.fromValue = 0
            a.toValue = 1
            a.duration = 1
            a.timingFunction = CAMediaTimingFunction(name: .linear)
            ring.add(a, forKey: "progress")
            assertRenderings(of: root, at: [0, 0.25, 0.5, 0.75, 1], size: CGSize(width: 48, height: 48), background: .black,
                             named: "ring")
        }
    }

    /// A shape larger than its layer with `masksToBounds`: alone (the clip multiplied into the
    /// draw) and over a background (one clip group), rounded corners, at scale 2.
    @Test(arguments: [false, true])
    func masksToBoundsClipsTheShape(_ background: Bool) {
        VirtualRunLoop().run {
            let root = Self.root(48, 48)
            let s = Self.shape(CGRect(x: 8, y: 8, width: 32, height: 32), CGPath(ellipseIn: CGRect(x: -8, y: 4, width: 48, height: 40)))
            s.fillColor = Self.blue
            s.strokeColor = Self.yellow
            s.lineWidth = 4
            s.masksToBounds = true
            s.cornerRadius = 8
            if background { s.backgroundColor = CGColor(red: 0.5, green: 0, blue: 0, alpha: 1) }
            root.addSublayer(s)
            assertRendering(of: root, at: 0, size: CGSize(width: 48, height: 48), scale: 2, background: .black,
                            named: background ? "over-background" : "alone")
        }
    }

    // MARK: Exact numbers

    /// Renders `layer` (a root) at scale 1 into a transparent `w × h` frame.
    static func frame(_ layer: CALayer, _ w: Int, _ h: Int, threads: Int = 1, scale: CGFloat = 1) throws -> PixelBuffer {
        try Compositor(threadCount: threads, bandHeight: 8).render(layer.makeRenderTree(), width: w, height: h, scale: scale,
                                                                    background: .transparent)
    }

    /// An opaque white fill's alpha is the rasterizer's exact coverage of the path, byte for byte
    /// (fill rule, curves and an off-pixel offset included), with 1 and 3 threads.
    @Test(arguments: [CAShapeLayerFillRule.nonZero, .evenOdd], [1.0, 2.0])
    func fillCoverageIsTheRasterizersExactCoverage(_ rule: CAShapeLayerFillRule, _ scale: Double) throws {
        try VirtualRunLoop().run {
            let path = CGMutablePath()
            path.addEllipse(in: CGRect(x: 3.3, y: 4.7, width: 40.2, height: 30.9))
            path.addRect(CGRect(x: 10.25, y: 12.5, width: 30, height: 25.75))
            path.move(to: CGPoint(x: 2, y: 40)); path.addCurve(to: CGPoint(x: 46, y: 44), control1: CGPoint(x: 20, y: 20), control2: CGPoint(x: 30, y: 60))
            let s = Self.shape(CGRect(x: 0.5, y: 0.25, width: 48, height: 48), path)
            s.fillColor = Self.white
            s.fillRule = rule
            let root = Self.root(50, 50)
            root.addSublayer(s)
            let n = Int(50 * scale)
            var expected = CoverageBitmap(width: n, height: n)
            PathRasterizer().fill(RasterPath(path), rule: rule == .evenOdd ? .evenOdd : .nonZero,
                                  transform: RasterTransform.translation(0.5, 0.25).concatenating(.scale(scale, scale)),
                                  clip: RasterClip(width: n, height: n), into: &expected)
            for threads in [1, 3] {
                let img = try Self.frame(root, n, n, threads: threads, scale: CGFloat(scale))
                var mismatches = 0
                for y in 0..<n { for x in 0..<n where img[x, y].a != expected[x, y] { mismatches += 1 } }
                #expect(mismatches == 0, "\(threads) threads")
            }
            #expect(expected.area > 500)
        }
    }

    /// A path that leaves the frame (curves wholly below, right of and above it, and one left of
    /// it, whose cover still counts) is flattened once per frame, culled to the frame: the bytes
    /// are still the rasterizer's whole-path fill, in bands of 8 rows on 1 and 2 threads.
    @Test func fillCulledToTheFrameKeepsItsBytes() throws {
        try VirtualRunLoop().run {
            let path = CGMutablePath()
            path.move(to: CGPoint(x: 5, y: 5))
            path.addCurve(to: CGPoint(x: 30, y: 90), control1: CGPoint(x: 60, y: 70), control2: CGPoint(x: 10, y: 120))   // below
            path.addCurve(to: CGPoint(x: 44, y: 20), control1: CGPoint(x: 90, y: 60), control2: CGPoint(x: 80, y: 10))    // right
            path.addCurve(to: CGPoint(x: 20, y: 8), control1: CGPoint(x: 40, y: -30), control2: CGPoint(x: 25, y: -40))    // above
            path.addCurve(to: CGPoint(x: 5, y: 30), control1: CGPoint(x: -30, y: 10), control2: CGPoint(x: -20, y: 28))    // left
            path.closeSubpath()
            let s = Self.shape(CGRect(x: 0, y: 0, width: 48, height: 48), path)
            s.fillColor = Self.white
            let root = Self.root(48, 48)
            root.addSublayer(s)
            var expected = CoverageBitmap(width: 48, height: 48)
            PathRasterizer().fill(RasterPath(path), rule: .nonZero, transform: .identity,
                                  clip: RasterClip(width: 48, height: 48), into: &expected)
            for threads in [1, 2] {
                let img = try Self.frame(root, 48, 48, threads: threads)
                var mismatches = 0
                for y in 0..<48 { for x in 0..<48 where img[x, y].a != expected[x, y] { mismatches += 1 } }
                #expect(mismatches == 0, "\(threads) threads")
            }
            #expect(expected.area > 300)
        }
    }

    /// A stroke's alpha is the rasterizer's coverage of the stroker's outline, byte for byte.
    @Test func strokeCoverageIsTheStrokersOutline() throws {
        try VirtualRunLoop().run {
            let path = Self.polyline([CGPoint(x: 5, y: 40), CGPoint(x: 20, y: 6), CGPoint(x: 44, y: 30)])
            let s = Self.shape(CGRect(x: 0, y: 0, width: 48, height: 48), path)
            s.fillColor = nil
            s.strokeColor = Self.white
            s.lineWidth = 5
            s.lineJoin = .round
            s.lineCap = .square
            s.lineDashPattern = [9, 3]
            s.lineDashPhase = 2
            let root = Self.root(48, 48)
            root.addSublayer(s)
            var outline = RasterPath()
            PathStroker().stroke(RasterPath(path), style: StrokeStyle(width: 5, cap: .square, join: .round, dashes: [9, 3], dashPhase: 2),
                                 into: &outline)
            var expected = CoverageBitmap(width: 48, height: 48)
            PathRasterizer().fill(outline, rule: .nonZero, clip: RasterClip(width: 48, height: 48), into: &expected)
            let img = try Self.frame(root, 48, 48)
            var mismatches = 0
            for y in 0..<48 { for x in 0..<48 where img[x, y].a != expected[x, y] { mismatches += 1 } }
            #expect(mismatches == 0)
            #expect(expected.area > 100)
        }
    }

    /// A ring of radius 40 stroked 6 wide, trimmed to strokeEnd 0.25: it covers the quadrant
    /// from 3 o'clock to 6 o'clock (y down) and ends at 90° ± 0.5°: the pixels just before
    /// 90° − 0.5° (measured on the ring's centre line) are covered, those beyond 90° + 0.5° not.
    @Test func ringTrimmedToAQuarterEndsAt90Degrees() throws {
        try VirtualRunLoop().run {
            let root = Self.root(100, 100)
            // Scale 1, centre (50, 50); butt caps so the end is a straight cut.
            let s = Self.shape(root.bounds, CGPath(ellipseIn: CGRect(x: 10, y: 10, width: 80, height: 80)))
            s.fillColor = nil
            s.strokeColor = Self.white
            s.lineWidth = 6
            s.strokeEnd = 0.25
            root.addSublayer(s)
            let img = try Self.frame(root, 100, 100)
            func alpha(_ x: Int, _ y: Int) -> Int { Int(img[x, y].a) }
            #expect(alpha(50 + 28, 50 + 28) == 255)       // 45°: inside the stroke
            #expect(alpha(50 - 28, 50 + 28) == 0)         // 135°: not drawn
            #expect(alpha(50 + 28, 50 - 28) == 0)         // −45°: not drawn
            // The cut near (50, 90): per pixel row through the stroke (y 87 … 93, symmetric about
            // the centre line y = 90), the covered length left of x = 51 gives the cut's x; the
            // mean over the rows is where the cut crosses the centre line (a tilt of the cap
            // cancels out). 0.5° at r = 40 is 0.35 px.
            var cuts: [Double] = []
            for y in 87...92 {
                var covered = 0.0
                for x in 40...50 { covered += Double(alpha(x, y)) / 255 }
                cuts.append(51 - covered)
            }
            let cut = cuts.reduce(0, +) / Double(cuts.count)
            let degrees = 90 + atan((cut - 50) / 40) * 180 / .pi
            #expect(abs(degrees - 90) < 0.5, "cut at x = \(cut), \(degrees)°")
            #expect(abs(degrees - 90) < 0.05)
            // The butt cap is perpendicular to the curve (vertical here): the cut is the pixel
            // edge x = 50 on every row inside the stroke (row 92 meets the outer edge's curve).
            for y in 87...91 {
                #expect(alpha(50, y) >= 254, "y=\(y)")
                #expect(alpha(49, y) <= 1, "y=\(y)")
            }
        }
    }

    /// Without `shadowPath`, a shape layer's shadow is its drawn shape: radius 0, offset 20 to
    /// the right, opaque red — the shadow's alpha is the fill's coverage moved by 20 px, and
    /// nothing shadows the empty rest of the bounds.
    @Test func shadowFollowsTheShape() throws {
        try VirtualRunLoop().run {
            let root = Self.root(60, 30)
            let tri = CGMutablePath()
            tri.move(to: CGPoint(x: 2.5, y: 25)); tri.addLine(to: CGPoint(x: 10, y: 3.3)); tri.addLine(to: CGPoint(x: 17.5, y: 25))
            tri.closeSubpath()
            let s = Self.shape(CGRect(x: 0, y: 0, width: 20, height: 30), tri)
            s.fillColor = Self.white
            s.shadowOpacity = 1
            s.shadowRadius = 0
            s.shadowOffset = CGSize(width: 20, height: 0)
            s.shadowColor = Self.red
            root.addSublayer(s)
            let img = try Self.frame(root, 60, 30)
            var mismatches = 0
            for y in 0..<30 {
                for x in 0..<20 {
                    let shape = img[x, y], shadow = img[x + 20, y]
                    if shadow.a != shape.a || shadow.r != shape.a || shadow.g != 0 { mismatches += 1 }
                }
                for x in 40..<60 where img[x, y].a != 0 { mismatches += 1 }
            }
            #expect(mismatches == 0)
            #expect(img[10, 20].a == 255 && img[30, 20] == RGBA8(r: 255, g: 0, b: 0, a: 255))
        }
    }

    /// A 0.25-unit line under perspective is a hairline: drawn (1 px wide at reduced alpha),
    /// not lost between pixel centres; the same line 4 units wide is opaque.
    @Test(arguments: [CGFloat(0.25), 4])
    func hairlinesUnderPerspective(_ width: CGFloat) throws {
        try VirtualRunLoop().run {
            let root = Self.root(64, 64)
            let s = Self.shape(CGRect(x: 8, y: 8, width: 48, height: 48), Self.polyline([CGPoint(x: 4, y: 10.5), CGPoint(x: 44, y: 30.5)]))
            s.strokeColor = Self.white
            s.lineWidth = width
            var p = CATransform3DIdentity
            p.m34 = -1 / 100
            s.transform = CATransform3DRotate(CATransform3DIdentity, 0.5, 0, 1, 0) * p
            root.addSublayer(s)
            let img = try Self.frame(root, 64, 64)
            var maxA = 0, sum = 0
            for y in 0..<64 { for x in 0..<64 { maxA = max(maxA, Int(img[x, y].a)); sum += Int(img[x, y].a) } }
            if width < 1 {
                #expect(maxA > 20 && maxA < 200, "max alpha \(maxA)")
            } else {
                #expect(maxA == 255)
            }
            #expect(sum > 0)
        }
    }
}

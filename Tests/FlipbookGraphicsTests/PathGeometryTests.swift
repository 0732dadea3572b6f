import Testing
import Foundation
import FlipbookPixels
@testable import FlipbookGraphics

private func close(_ a: CGPoint, _ b: CGPoint, _ eps: CGFloat = 1e-9) -> Bool { abs(a.x - b.x) < eps && abs(a.y - b.y) < eps }

/// The shoelace area of the flattened path (every subpath closed), signed.
private func signedArea(_ p: CGPath) -> Double {
    var sum = 0.0
    for line in p._flattened(tolerance: 1e-3) {
        for i in 0..<line.count {
            let a = line[i], b = line[(i + 1) % line.count]
            sum += Double(a.x * b.y - b.x * a.y)
        }
    }
    return sum / 2
}

@Suite struct PathGeometryTests {
    @Test func applyWithBlockHandsOutPointsPerElementType() {
        let m = CGMutablePath()
        m.move(to: CGPoint(x: 1, y: 2))
        m.addLine(to: CGPoint(x: 3, y: 4))
        m.addQuadCurve(to: CGPoint(x: 7, y: 8), control: CGPoint(x: 5, y: 6))
        m.addCurve(to: CGPoint(x: 13, y: 14), control1: CGPoint(x: 9, y: 10), control2: CGPoint(x: 11, y: 12))
        m.closeSubpath()
        var seen: [(CGPathElementType, [CGPoint])] = []
        m.applyWithBlock { e in
            let n: Int
            switch e.pointee.type {
            case .moveToPoint, .addLineToPoint: n = 1
            case .addQuadCurveToPoint: n = 2
            case .addCurveToPoint: n = 3
            case .closeSubpath: n = 0
            }
            seen.append((e.pointee.type, (0..<n).map { e.pointee.points[$0] }))
        }
        #expect(seen.map(\.0) == [.moveToPoint, .addLineToPoint, .addQuadCurveToPoint, .addCurveToPoint, .closeSubpath])
        #expect(seen[0].1 == [CGPoint(x: 1, y: 2)] && seen[1].1 == [CGPoint(x: 3, y: 4)])
        #expect(seen[2].1 == [CGPoint(x: 5, y: 6), CGPoint(x: 7, y: 8)])
        #expect(seen[3].1 == [CGPoint(x: 9, y: 10), CGPoint(x: 11, y: 12), CGPoint(x: 13, y: 14)])
        #expect(seen[4].1.isEmpty)
    }

    @Test func arcClockwiseMeansDecreasingAngle() {
        // clockwise: false, 0 → π/2: increasing angle, a quarter through (c + r·(cos, sin)).
        let a = CGMutablePath()
        a.addArc(center: CGPoint(x: 10, y: 10), radius: 5, startAngle: 0, endAngle: .pi / 2, clockwise: false)
        #expect(close(a.currentPoint, CGPoint(x: 10, y: 15)))
        #expect(a.elements.count == 2)   // move + one cubic
        if case let .moveToPoint(p) = a.elements[0] { #expect(close(p, CGPoint(x: 15, y: 10))) } else { Issue.record("no move") }
        let ab = a.boundingBoxOfPath
        #expect(abs(ab.minX - 10) < 1e-3 && abs(ab.maxX - 15) < 1e-3 && abs(ab.minY - 10) < 1e-3)
        // clockwise: true, 0 → π/2: decreasing angle, the long way (−3π/2) through (10, 5) — in
        // y-down space that point is above the centre: counter-clockwise on screen.
        let b = CGMutablePath()
        b.addArc(center: CGPoint(x: 10, y: 10), radius: 5, startAngle: 0, endAngle: .pi / 2, clockwise: true)
        #expect(close(b.currentPoint, CGPoint(x: 10, y: 15)))
        #expect(b.elements.count == 4)   // move + three quarter cubics
        if case let .addCurveToPoint(_, _, p) = b.elements[1] { #expect(close(p, CGPoint(x: 10, y: 5))) } else { Issue.record("no curve") }
        if case let .addCurveToPoint(_, _, p) = b.elements[2] { #expect(close(p, CGPoint(x: 5, y: 10))) } else { Issue.record("no curve") }
        let bb = b.boundingBoxOfPath
        #expect(abs(bb.minX - 5) < 1e-3 && abs(bb.minY - 5) < 1e-3 && abs(bb.maxY - 15) < 1e-3)
        // A quarter-circle cubic's midpoint is on the circle within 0.03 %.
        if case let .addCurveToPoint(c1, c2, p) = a.elements[1] {
            let mid = CGPoint(x: (15 + 3 * c1.x + 3 * c2.x + p.x) / 8, y: (10 + 3 * c1.y + 3 * c2.y + p.y) / 8)
            #expect(abs(hypot(mid.x - 10, mid.y - 10) - 5) < 5 * 3e-4)
        }
    }

    @Test func arcSweepNormalisation() {
        // 0 → 2π increasing is a full circle.
        let full = CGMutablePath()
        full.addArc(center: .zero, radius: 1, startAngle: 0, endAngle: 2 * .pi, clockwise: false)
        #expect(full.elements.count == 5 && abs(full._length - 2 * .pi) < 1e-3)
        // 0 → 2π *decreasing* is a full circle too, turning the requested (decreasing) way: on iOS
        // `UIBezierPath(arcCenter:radius:startAngle: 0, endAngle: 2 * .pi, clockwise: false)` —
        // Core Graphics' `clockwise: true` — draws the whole circle (NVActivityIndicatorView's
        // circle/ring shapes, ProgressHUD's dots); Chromium's canvas `arc()` makes the same choice.
        let down = CGMutablePath()
        down.addArc(center: .zero, radius: 1, startAngle: 0, endAngle: 2 * .pi, clockwise: true)
        #expect(down.elements.count == 5 && abs(down._length - 2 * .pi) < 1e-3)
        if case let .addCurveToPoint(_, _, p) = down.elements[1] { #expect(close(p, CGPoint(x: 0, y: -1))) } else { Issue.record("no curve") }
        #expect(close(down.currentPoint, CGPoint(x: 1, y: 0)))
        // Any whole multiple, either direction: −π/2 → 3π/2 (computed in floating point) and 4π.
        for (s, e, cw) in [(-CGFloat.pi / 2, 3 * CGFloat.pi / 2, true), (0, 4 * .pi, true), (0, 4 * .pi, false), (.pi, -3 * .pi, false)] {
            let c = CGMutablePath()
            c.addArc(center: .zero, radius: 1, startAngle: s, endAngle: e, clockwise: cw)
            #expect(abs(c._length - 2 * .pi) < 1e-3, "\(s) → \(e), clockwise \(cw)")
        }
        // A zero sweep is the start point alone.
        let dot = CGMutablePath()
        dot.addArc(center: .zero, radius: 1, startAngle: 1, endAngle: 1, clockwise: true)
        #expect(dot.elements.count == 1 && close(dot.currentPoint, CGPoint(x: Foundation.cos(1.0), y: Foundation.sin(1.0))))
        // Not a multiple: reduced into the requested direction. 0 → 5π/2 increasing is one full
        // circle (2π or more that way, as Core Graphics and the canvas); decreasing it is −3π/2.
        let over = CGMutablePath()
        over.addArc(center: .zero, radius: 1, startAngle: 0, endAngle: 5 * .pi / 2, clockwise: false)
        #expect(abs(over._length - 2 * .pi) < 1e-3)
        let back = CGMutablePath()
        back.addArc(center: .zero, radius: 1, startAngle: 0, endAngle: 5 * .pi / 2, clockwise: true)
        #expect(abs(back._length - 3 * .pi / 2) < 1e-3 && close(back.currentPoint, CGPoint(x: 0, y: 1)))
        // 3π/2 → 0 increasing goes π/2 (mod 2π); a non-empty path gets a line to the start.
        let m = CGMutablePath()
        m.move(to: CGPoint(x: -3, y: 0))
        m.addArc(center: .zero, radius: 2, startAngle: 3 * .pi / 2, endAngle: 0, clockwise: false)
        if case let .addLineToPoint(p) = m.elements[1] { #expect(close(p, CGPoint(x: 0, y: -2))) } else { Issue.record("no line") }
        #expect(close(m.currentPoint, CGPoint(x: 2, y: 0)) && m.elements.count == 3)
        // Relative arc: the same rule in the direction of delta's sign — 4π is one circle, 5π/2 too.
        for d in [4 * CGFloat.pi, -4 * .pi, 5 * .pi / 2] {
            let r = CGMutablePath()
            r.addRelativeArc(center: .zero, radius: 1, startAngle: 0, delta: d)
            #expect(abs(r._length - 2 * .pi) < 2e-3, "delta \(d)")
        }
        let neg = CGMutablePath()
        neg.addRelativeArc(center: CGPoint(x: 1, y: 1), radius: 1, startAngle: .pi, delta: -.pi / 2)
        #expect(close(neg.currentPoint, CGPoint(x: 1, y: 2)))   // π − π/2 = π/2: (1, 1) + (0, 1)
        // With a transform the arc's points are mapped.
        let t = CGMutablePath()
        t.addArc(center: .zero, radius: 1, startAngle: 0, endAngle: .pi / 2, clockwise: false,
                 transform: CGAffineTransform(scaleX: 3, y: 2))
        #expect(close(t.currentPoint, CGPoint(x: 0, y: 2)))
    }

    @Test func fullCircleDrawnWithEitherFlagPaintsTheDisc() {
        // Pixels: ProgressHUD's dot — `UIBezierPath(arcCenter:radius:startAngle: 0, endAngle: 2 * .pi,
        // clockwise: false)`, i.e. Core Graphics' `clockwise: true` — filled, and the same circle
        // with the other flag, paint the same disc (iOS draws both; before this rule the first was
        // a single point and painted nothing).
        var images: [PixelBuffer] = []
        for cw in [true, false] {
            let c = makeContext(20, 20)
            c.setFillColor(CGColor(red: 1, green: 0, blue: 0, alpha: 1))
            c.addArc(center: CGPoint(x: 10, y: 10), radius: 6, startAngle: 0, endAngle: 2 * .pi, clockwise: cw)
            c.fillPath()
            #expect(c.pixel(10, 10) == RGBA8(r: 255, g: 0, b: 0, a: 255), "clockwise \(cw)")
            #expect(c.pixel(10, 5) == RGBA8(r: 255, g: 0, b: 0, a: 255) && c.pixel(1, 1).a == 0)
            images.append(c.makeImage()!.pixelBuffer)
        }
        #expect(images[0].bytes == images[1].bytes)
    }

    @Test func tangentArc() {
        let m = CGMutablePath()
        m.move(to: .zero)
        m.addArc(tangent1End: CGPoint(x: 10, y: 0), tangent2End: CGPoint(x: 10, y: 10), radius: 5)
        // Line to the first tangent point (5, 0), arc about (5, 5) to (10, 5).
        if case let .addLineToPoint(p) = m.elements[1] { #expect(close(p, CGPoint(x: 5, y: 0))) } else { Issue.record("no line") }
        #expect(close(m.currentPoint, CGPoint(x: 10, y: 5)))
        #expect(m.elements.count == 3)
        for q in m._flattened(tolerance: 1e-3)[0].dropFirst(2) { #expect(abs(hypot(q.x - 5, q.y - 5) - 5) < 0.01) }
        // Collinear points: a line to tangent1End only.
        let c = CGMutablePath()
        c.move(to: .zero)
        c.addArc(tangent1End: CGPoint(x: 5, y: 0), tangent2End: CGPoint(x: 10, y: 0), radius: 3)
        #expect(c.elements.count == 2 && c.currentPoint == CGPoint(x: 5, y: 0))
        // Empty path: a move to tangent1End.
        let e = CGMutablePath()
        e.addArc(tangent1End: CGPoint(x: 1, y: 2), tangent2End: CGPoint(x: 3, y: 4), radius: 1)
        #expect(e.elements == [.moveToPoint(CGPoint(x: 1, y: 2))])
    }

    @Test func containsWithBothRules() {
        // A pentagram (self-intersecting): the centre has winding 2.
        let star = CGMutablePath()
        for k in 0..<5 {
            let a = -Double.pi / 2 + Double(k) * 4 * Double.pi / 5
            let p = CGPoint(x: 50 + 40 * cos(a), y: 50 + 40 * sin(a))
            if k == 0 { star.move(to: p) } else { star.addLine(to: p) }
        }
        star.closeSubpath()
        let centre = CGPoint(x: 50, y: 50)
        #expect(star.contains(centre))
        #expect(!star.contains(centre, using: .evenOdd))
        let tip = CGPoint(x: 50, y: 15)          // inside the top point, winding 1
        #expect(star.contains(tip) && star.contains(tip, using: .evenOdd))
        #expect(!star.contains(CGPoint(x: 5, y: 5)))
        // The transform maps the point before the test.
        #expect(star.contains(CGPoint(x: 0, y: 0), transform: CGAffineTransform(translationX: 50, y: 15)))
        // A square with a hole drawn the other way round: outside under both rules; the same
        // direction: inside under winding only.
        let ring = CGMutablePath()
        ring.addRect(CGRect(x: 0, y: 0, width: 10, height: 10))
        ring.move(to: CGPoint(x: 3, y: 3)); ring.addLine(to: CGPoint(x: 3, y: 7)); ring.addLine(to: CGPoint(x: 7, y: 7))
        ring.addLine(to: CGPoint(x: 7, y: 3)); ring.closeSubpath()
        #expect(!ring.contains(CGPoint(x: 5, y: 5)) && !ring.contains(CGPoint(x: 5, y: 5), using: .evenOdd))
        #expect(ring.contains(CGPoint(x: 1, y: 5)) && ring.contains(CGPoint(x: 1, y: 5), using: .evenOdd))
        let same = CGMutablePath()
        same.addRect(CGRect(x: 0, y: 0, width: 10, height: 10))
        same.addRect(CGRect(x: 3, y: 3, width: 4, height: 4))
        #expect(same.contains(CGPoint(x: 5, y: 5)) && !same.contains(CGPoint(x: 5, y: 5), using: .evenOdd))
        // Curves: a circle.
        let circle = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 10, height: 10))
        #expect(circle.contains(CGPoint(x: 5, y: 0.05)) && !circle.contains(CGPoint(x: 0.5, y: 0.5)))
    }

    @Test func strokedCopyHasTheStrokeArea() {
        let line = CGMutablePath()
        line.move(to: .zero); line.addLine(to: CGPoint(x: 10, y: 0))
        let butt = line.copy(strokingWithWidth: 2, lineCap: .butt, lineJoin: .miter, miterLimit: 10)
        #expect(abs(abs(signedArea(butt)) - 20) < 1e-9)
        #expect(butt.contains(CGPoint(x: 5, y: 0.9)) && !butt.contains(CGPoint(x: 5, y: 1.1)) && !butt.contains(CGPoint(x: -0.1, y: 0)))
        let square = line.copy(strokingWithWidth: 2, lineCap: .square, lineJoin: .miter, miterLimit: 10)
        #expect(abs(abs(signedArea(square)) - 24) < 1e-9)
        let round = line.copy(strokingWithWidth: 2, lineCap: .round, lineJoin: .miter, miterLimit: 10)
        #expect(abs(abs(signedArea(round)) - (20 + Double.pi)) < 0.02)
        // Thin strokes are not widened to a hairline; the transform maps the outline.
        let thin = line.copy(strokingWithWidth: 0.1, lineCap: .butt, lineJoin: .miter, miterLimit: 10,
                             transform: CGAffineTransform(scaleX: 1, y: 10))
        #expect(abs(abs(signedArea(thin)) - 10) < 1e-9)
        #expect(line.copy(strokingWithWidth: 0, lineCap: .butt, lineJoin: .miter, miterLimit: 10).isEmpty)
    }

    @Test func dashedCopy() {
        let line = CGMutablePath()
        line.move(to: .zero); line.addLine(to: CGPoint(x: 10, y: 0))
        let d = line.copy(dashingWithPhase: 0, lengths: [2, 1])
        let dashes = d._flattened().map { ($0.first!.x, $0.last!.x) }
        #expect(dashes.count == 4)
        for (got, want) in zip(dashes, [(0.0, 2.0), (3, 5), (6, 8), (9, 10)]) {
            #expect(abs(got.0 - want.0) < 1e-9 && abs(got.1 - want.1) < 1e-9)
        }
        let p = line.copy(dashingWithPhase: 1, lengths: [2, 1])
        let pd = p._flattened().map { ($0.first!.x, $0.last!.x) }
        #expect(pd.count == 4 && abs(pd[0].1 - 1) < 1e-9 && abs(pd[1].0 - 2) < 1e-9 && abs(pd[3].1 - 10) < 1e-9)
        // A closed square, perimeter 40, dash 6 / gap 4: four dashes, the last ends in a gap.
        let sq = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10))
        let sd = sq.copy(dashingWithPhase: 0, lengths: [6, 4])
        #expect(sd._flattened().count == 4)
        #expect(abs(sd._length - 24) < 1e-9)
        // Dash 7 / gap 3: dashes at 0, 10, 20, 30; the last (30…37) stops before the end. With
        // phase 5 the path starts 2 into a dash … the run 35…40 continues over the start into
        // 0…2 and becomes one dash: 4 dashes, not 5.
        let sj = sq.copy(dashingWithPhase: 5, lengths: [7, 3])
        #expect(sj._flattened().count == 4)
        #expect(abs(sj._length - 28) < 1e-9)
        #expect(sj._flattened().contains { close($0.first!, CGPoint(x: 0, y: 5)) && close($0.last!, CGPoint(x: 2, y: 0)) })
        // Curves stay curves and keep their length.
        let circle = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 20, height: 20))
        let cd = circle.copy(dashingWithPhase: 0, lengths: [1])
        #expect(cd.elements.contains { if case .addCurveToPoint = $0 { return true } else { return false } })
        let L = circle._length, full = (L / 2).rounded(.down)   // dashes start at 0, 2, 4, …
        #expect(abs(cd._length - (full + min(1, L - 2 * full))) < 1e-4)   // lengths from 1e-4 polylines
        // Empty / invalid pattern: the path unchanged.
        #expect(line.copy(dashingWithPhase: 0, lengths: []) == line.copy())
        #expect(line.copy(dashingWithPhase: 0, lengths: [1, -1]) == line.copy())
    }

    @Test func boundingBoxesAndTransformedCopies() {
        let m = CGMutablePath()
        m.move(to: .zero)
        m.addCurve(to: CGPoint(x: 10, y: 0), control1: CGPoint(x: 0, y: 8), control2: CGPoint(x: 10, y: 8))
        #expect(m.boundingBox == CGRect(x: 0, y: 0, width: 10, height: 8))
        #expect(abs(m.boundingBoxOfPath.height - 6) < 1e-3)       // the cubic peaks at ¾ · 8
        var t = CGAffineTransform(translationX: 5, y: 1)
        let c = m.copy(using: &t)!
        #expect(c.boundingBox == CGRect(x: 5, y: 1, width: 10, height: 8))
        #expect(m.copy(using: nil) == m.copy())
        let mc = m.mutableCopy(using: &t)!
        mc.addLine(to: .zero)
        #expect(mc.elements.count == 3 && m.elements.count == 2)
        // Apple's pointer-transform initializers.
        var s = CGAffineTransform(scaleX: 2, y: 2)
        #expect(CGPath(rect: CGRect(x: 0, y: 0, width: 1, height: 1), transform: &s).boundingBox == CGRect(x: 0, y: 0, width: 2, height: 2))
        #expect(CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 1, height: 1), transform: nil).boundingBox == CGRect(x: 0, y: 0, width: 1, height: 1))
        #expect(CGPath(roundedRect: CGRect(x: 0, y: 0, width: 4, height: 4), cornerWidth: 1, cornerHeight: 1, transform: &s)
            .boundingBox == CGRect(x: 0, y: 0, width: 8, height: 8))
    }
}

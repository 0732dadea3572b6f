import Testing
import Foundation
import FlipbookPixels
import FlipbookRaster
@testable import FlipbookGraphics
import FlipbookTestSupport

/// The solid fast path (normal blend, no shadow: coverage painted straight into the bitmap by
/// `_SolidPaintSink`) against the general engine (a coverage buffer per shape, then the
/// compositing loop), byte for byte, on random fills and strokes — with and without a clip,
/// with alpha < 1, antialiasing on and off, hairlines, a non-identity CTM, shapes crossing the
/// bitmap's edges.
@Suite struct CGContextFastPathTests {
    /// The shared seeded generator (FlipbookTestSupport's SplitMix64) with a point helper.
    struct RNG {
        var g: SplitMix64
        init(state: UInt64) { g = SplitMix64(seed: state) }
        mutating func next() -> UInt64 { g.next() }
        mutating func unit() -> Double { g.unit() }
        mutating func uniform(_ a: Double, _ b: Double) -> Double { g.uniform(a, b) }
        mutating func point(_ w: Double, _ h: Double) -> CGPoint { CGPoint(x: uniform(-20, w + 20), y: uniform(-20, h + 20)) }
    }

    /// A random path: 1–3 subpaths of lines, quadratics and cubics, sometimes closed.
    static func randomPath(_ rng: inout RNG, _ w: Double, _ h: Double) -> CGPath {
        let p = CGMutablePath()
        for _ in 0..<(1 + Int(rng.next() % 3)) {
            p.move(to: rng.point(w, h))
            for _ in 0..<(1 + Int(rng.next() % 4)) {
                switch rng.next() % 3 {
                case 0: p.addLine(to: rng.point(w, h))
                case 1: p.addQuadCurve(to: rng.point(w, h), control: rng.point(w, h))
                default: p.addCurve(to: rng.point(w, h), control1: rng.point(w, h), control2: rng.point(w, h))
                }
            }
            if rng.next() % 2 == 0 { p.closeSubpath() }
        }
        return p
    }

    enum ClipKind: CaseIterable { case none, rect, path }

    /// Draws the same random sequence into a context on the fast path or the general path.
    static func draw(seed: UInt64, general: Bool, clip: ClipKind, alpha: CGFloat, antialias: Bool, ctm: Bool) -> PixelBuffer {
        let w = 96, h = 72
        let c = CGContext(data: nil, width: w, height: h, bitsPerComponent: 8, bytesPerRow: 0,
                          space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
        c._generalPathOnly = general
        // A half-transparent backdrop so that over() has something to blend with.
        c.setFillColor(CGColor(red: 0.9, green: 0.8, blue: 0.3, alpha: 0.5))
        c.fill(CGRect(x: 0, y: 0, width: w, height: h / 2))
        var rng = RNG(state: seed)
        if ctm {
            c.translateBy(x: 40, y: 30)
            c.rotate(by: 0.3)
            c.scaleBy(x: 1.3, y: 0.8)
            c.translateBy(x: -40, y: -30)
        }
        switch clip {
        case .none: break
        case .rect: c.clip(to: CGRect(x: 10.5, y: 7.25, width: 60.3, height: 50.6))
        case .path:
            c.addEllipse(in: CGRect(x: 5.3, y: 4.1, width: 80, height: 60))
            c.addRect(CGRect(x: 30, y: 20, width: 20, height: 20))
            c.clip(using: .evenOdd)
        }
        c.setAlpha(alpha)
        c.setShouldAntialias(antialias)
        for i in 0..<24 {
            let color = CGColor(red: rng.unit(), green: rng.unit(), blue: rng.unit(), alpha: rng.uniform(0.2, 1))
            c.addPath(randomPath(&rng, Double(w), Double(h)))
            switch i % 4 {
            case 0: c.setFillColor(color); c.fillPath(using: .winding)
            case 1: c.setFillColor(color); c.fillPath(using: .evenOdd)
            default:
                c.setStrokeColor(color)
                // Some hairlines (< 1 px: coverage scaled), some thick.
                c.setLineWidth(i % 3 == 0 ? CGFloat(rng.uniform(0.1, 0.9)) : CGFloat(rng.uniform(1, 9)))
                c.setLineCap([CGLineCap.butt, .round, .square][Int(rng.next() % 3)])
                c.setLineJoin([CGLineJoin.miter, .round, .bevel][Int(rng.next() % 3)])
                if i % 5 == 0 { c.setLineDash(phase: 1, lengths: [4, 3]) } else { c.setLineDash(phase: 0, lengths: []) }
                c.strokePath()
            }
        }
        // Rectangles and a combined fill + stroke go through the same engine.
        c.setFillColor(CGColor(red: 0.1, green: 0.5, blue: 0.9, alpha: 0.7))
        c.fill(CGRect(x: 3.5, y: 50.25, width: 40.5, height: 9.5))
        c.addPath(randomPath(&rng, Double(w), Double(h)))
        c.drawPath(using: .fillStroke)
        return c.makeImage()!.pixelBuffer
    }

    @Test(arguments: ClipKind.allCases)
    func fastPathEqualsGeneralPath(clip: ClipKind) {
        var cases = 0
        for seed in UInt64(1)...6 {
            for alpha in [CGFloat(1), 0.6] {
                for antialias in [true, false] {
                    let ctm = seed % 2 == 0
                    let fast = Self.draw(seed: seed, general: false, clip: clip, alpha: alpha, antialias: antialias, ctm: ctm)
                    let general = Self.draw(seed: seed, general: true, clip: clip, alpha: alpha, antialias: antialias, ctm: ctm)
                    #expect(fast == general, "seed \(seed), clip \(clip), alpha \(alpha), antialias \(antialias)")
                    cases += 1
                }
            }
        }
        #expect(cases == 24)
    }

    /// The frames are not trivially equal because nothing was drawn.
    @Test func randomDrawingPaintsPixels() {
        let a = Self.draw(seed: 3, general: false, clip: .none, alpha: 1, antialias: true, ctm: false)
        let b = Self.draw(seed: 4, general: false, clip: .none, alpha: 1, antialias: true, ctm: false)
        #expect(a != b)
    }

    /// The reused buffers keep no state between calls: the current path is empty after a fill
    /// or stroke, and a path built after a stroke fills as in a fresh context.
    @Test func reusedBuffersDoNotLeakBetweenCalls() {
        func fresh() -> CGContext { makeContext(40, 30) }
        let a = fresh()
        a.setLineWidth(3)
        a.addPath(CGPath(ellipseIn: CGRect(x: 2, y: 2, width: 30, height: 20), transform: .identity))
        a.strokePath()
        #expect(a.isPathEmpty)
        a.addRect(CGRect(x: 5, y: 5, width: 10, height: 10))
        let before = a.makeImage()!.pixelBuffer
        a.fillPath()
        #expect(a.isPathEmpty)
        let b = fresh()
        b.setLineWidth(3)
        b.addPath(CGPath(ellipseIn: CGRect(x: 2, y: 2, width: 30, height: 20), transform: .identity))
        b.strokePath()
        #expect(b.makeImage()!.pixelBuffer == before)
        b.fill(CGRect(x: 5, y: 5, width: 10, height: 10))
        #expect(a.makeImage()!.pixelBuffer == b.makeImage()!.pixelBuffer)
    }
}

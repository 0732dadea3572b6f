import Testing
import Foundation
import FlipbookPixels
import FlipbookRaster
@testable import FlipbookGraphics

/// A transparent RGBA8 context of `w` × `h` pixels set up as the one a layer's `draw(in:)`
/// receives (UIKit's orientation: user space = pixels, origin top-left, y down), so that a
/// test's coordinates are its pixel rows. ``makeBitmapContext(_:_:)`` is the plain bitmap
/// context (Apple's y-up orientation).
func makeContext(_ w: Int, _ h: Int) -> CGContext {
    let c = makeBitmapContext(w, h)
    c._orientTopDown()
    return c
}

/// A transparent RGBA8 bitmap context as `CGContext(data:…)` makes it: origin bottom-left, y up.
func makeBitmapContext(_ w: Int, _ h: Int) -> CGContext {
    CGContext(data: nil, width: w, height: h, bitsPerComponent: 8, bytesPerRow: 0,
              space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
}

extension CGContext {
    func pixel(_ x: Int, _ y: Int) -> RGBA8 { makeImage()!.pixelBuffer[x, y] }
    /// Pixels whose alpha is not 0.
    var paintedCount: Int { makeImage()!.pixelBuffer.bytes.enumerated().filter { $0.offset % 4 == 3 && $0.element != 0 }.count }
    var alphaSum: Int { makeImage()!.pixelBuffer.bytes.enumerated().filter { $0.offset % 4 == 3 }.reduce(0) { $0 + Int($1.element) } }
}

@Suite struct CGContextTests {
    @Test func formatsOtherThanRGBA8PremultipliedAreRejected() {
        let s = CGColorSpaceCreateDeviceRGB()
        #expect(CGContext(data: nil, width: 4, height: 4, bitsPerComponent: 16, bytesPerRow: 0, space: s,
                          bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue) == nil)
        #expect(CGContext(data: nil, width: 4, height: 4, bitsPerComponent: 8, bytesPerRow: 0, space: s,
                          bitmapInfo: CGImageAlphaInfo.last.rawValue) == nil)
        #expect(CGContext(data: nil, width: 4, height: 4, bitsPerComponent: 8, bytesPerRow: 18, space: s,
                          bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue) == nil)
    }

    @Test func fillRectAtHalfPixelOffsetGivesHalfCoverageEdges() {
        let c = makeContext(8, 4)
        c.fill(CGRect(x: 1.5, y: 1, width: 3, height: 2))
        // Exact area 0.5 → round(255 · 0.5) with half up = 128 (docs/rasterizer.md).
        #expect(c.pixel(1, 1) == RGBA8(r: 0, g: 0, b: 0, a: 128))
        #expect(c.pixel(2, 1) == RGBA8(r: 0, g: 0, b: 0, a: 255))
        #expect(c.pixel(4, 2) == RGBA8(r: 0, g: 0, b: 0, a: 128))
        #expect(c.pixel(5, 1).a == 0 && c.pixel(2, 0).a == 0 && c.pixel(2, 3).a == 0)
    }

    @Test func colourSettersAndAlpha() {
        let c = makeContext(4, 1)
        c.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        c.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
        c.setFillColor(gray: 1, alpha: 0.5)
        c.fill(CGRect(x: 1, y: 0, width: 1, height: 1))
        c.setAlpha(0.5)
        c.setFillColor(CGColor(red: 0, green: 0, blue: 1, alpha: 1))
        c.fill(CGRect(x: 2, y: 0, width: 1, height: 1))
        #expect(c.pixel(0, 0) == RGBA8(r: 255, g: 0, b: 0, a: 255))
        #expect(c.pixel(1, 0) == RGBA8(r: 128, g: 128, b: 128, a: 128))
        #expect(c.pixel(2, 0) == RGBA8(r: 0, g: 0, b: 128, a: 128))
    }

    @Test func contentsScaleTwoCTM() {
        // The layer display code scales the CTM by contentsScale: a 10×10 point rect covers 20×20 pixels.
        let c = makeContext(32, 32)
        c.scaleBy(x: 2, y: 2)
        // Apple's CTM in a layer context at scale 2: y flipped into the y-up device space.
        #expect(c.ctm == CGAffineTransform(a: 2, b: 0, c: 0, d: -2, tx: 0, ty: 32))
        c.fill(CGRect(x: 1, y: 1, width: 10, height: 10))
        #expect(c.paintedCount == 400)
        #expect(c.pixel(2, 2).a == 255 && c.pixel(21, 21).a == 255 && c.pixel(22, 22).a == 0 && c.pixel(1, 1).a == 0)
    }

    @Test func ctmOperationsCompose() {
        let c = makeBitmapContext(4, 4)
        c.translateBy(x: 10, y: 20)
        c.scaleBy(x: 2, y: 3)
        c.rotate(by: .pi / 2)
        let p = CGPoint(x: 1, y: 0).applying(c.ctm)   // rotate → (0, 1), scale → (0, 3), translate → (10, 23)
        #expect(abs(p.x - 10) < 1e-12 && abs(p.y - 23) < 1e-12)
        c.concatenate(CGAffineTransform(translationX: 1, y: 0))
        let q = CGPoint.zero.applying(c.ctm)           // (1, 0) → rotate (0, 1) → (0, 3) → (10, 23)
        #expect(abs(q.x - 10) < 1e-12 && abs(q.y - 23) < 1e-12)
    }

    @Test func saveRestoreNestsStateAndClip() {
        let c = makeContext(10, 1)
        c.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        c.saveGState()
        c.clip(to: CGRect(x: 2, y: 0, width: 6, height: 1))
        c.setFillColor(red: 0, green: 1, blue: 0, alpha: 1)
        c.saveGState()
        c.clip(to: CGRect(x: 4, y: 0, width: 6, height: 1))
        c.translateBy(x: 100, y: 0)
        c.setFillColor(red: 0, green: 0, blue: 1, alpha: 1)
        c.restoreGState()
        // Back to clip [2, 8), green, the layer context's CTM (the flip of its one row).
        #expect(c.ctm == CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: 1))
        c.fill(CGRect(x: 0, y: 0, width: 3, height: 1))
        #expect(c.pixel(1, 0).a == 0 && c.pixel(2, 0) == RGBA8(r: 0, g: 255, b: 0, a: 255))
        c.saveGState()
        c.clip(to: CGRect(x: 4, y: 0, width: 6, height: 1))
        c.fill(CGRect(x: 0, y: 0, width: 10, height: 1))     // only [4, 8)
        #expect(c.pixel(3, 0).a == 0 && c.pixel(4, 0).g == 255 && c.pixel(7, 0).g == 255 && c.pixel(8, 0).a == 0)
        c.restoreGState()
        c.restoreGState()
        c.fill(CGRect(x: 8, y: 0, width: 2, height: 1))       // red, unclipped
        #expect(c.pixel(9, 0) == RGBA8(r: 255, g: 0, b: 0, a: 255))
        c.restoreGState()                                      // unbalanced: harmless
    }

    @Test func clipToPathIsAntialiasedAndEmptiesThePath() {
        let c = makeContext(8, 1)
        c.addRect(CGRect(x: 2.5, y: 0, width: 3, height: 1))
        c.clip()
        #expect(c.isPathEmpty)
        c.fill(CGRect(x: 0, y: 0, width: 8, height: 1))
        #expect(c.pixel(2, 0).a == 128 && c.pixel(3, 0).a == 255 && c.pixel(5, 0).a == 128 && c.pixel(6, 0).a == 0)
        // Even-odd clip: two nested rects leave a ring.
        let d = makeContext(6, 1)
        d.addRect(CGRect(x: 0, y: 0, width: 6, height: 1))
        d.addRect(CGRect(x: 2, y: 0, width: 2, height: 1))
        d.clip(using: .evenOdd)
        d.fill(CGRect(x: 0, y: 0, width: 6, height: 1))
        #expect(d.pixel(1, 0).a == 255 && d.pixel(2, 0).a == 0 && d.pixel(3, 0).a == 0 && d.pixel(4, 0).a == 255)
        // clip(to: rects) is their union.
        let e = makeContext(6, 1)
        e.clip(to: [CGRect(x: 0, y: 0, width: 1, height: 1), CGRect(x: 4, y: 0, width: 1, height: 1)])
        e.fill(CGRect(x: 0, y: 0, width: 6, height: 1))
        #expect(e.paintedCount == 2 && e.pixel(4, 0).a == 255)
    }

    @Test func clipToMaskUsesAlphaOrGray() throws {
        // Gray (opaque) mask: white keeps, black clips.
        var pb = PixelBuffer(width: 2, height: 1)
        pb[0, 0] = RGBA8(r: 255, g: 255, b: 255, a: 255); pb[1, 0] = RGBA8(r: 0, g: 0, b: 0, a: 255)
        let c = makeContext(4, 2)
        c.interpolationQuality = .none
        c.clip(to: CGRect(x: 0, y: 0, width: 4, height: 1), mask: CGImage(pixelBuffer: pb))
        c.fill(CGRect(x: 0, y: 0, width: 4, height: 2))
        #expect(c.pixel(0, 0).a == 255 && c.pixel(1, 0).a == 255 && c.pixel(2, 0).a == 0 && c.pixel(3, 0).a == 0)
        #expect(c.pixel(0, 1).a == 0)   // outside the mask rect
        // Alpha mask: transparent / half.
        var am = PixelBuffer(width: 2, height: 1)
        am[0, 0] = RGBA8(r: 0, g: 0, b: 0, a: 0); am[1, 0] = RGBA8(r: 0, g: 0, b: 0, a: 128)
        let d = makeContext(2, 1)
        d.interpolationQuality = .none
        d.clip(to: CGRect(x: 0, y: 0, width: 2, height: 1), mask: CGImage(pixelBuffer: am))
        d.fill(CGRect(x: 0, y: 0, width: 2, height: 1))
        #expect(d.pixel(0, 0).a == 0 && d.pixel(1, 0).a == 128)
    }

    @Test func antialiasingOffThresholdsAtHalf() {
        let c = makeContext(8, 1)
        c.setShouldAntialias(false)
        c.fill(CGRect(x: 1.5, y: 0, width: 2.75, height: 1))   // left edge 0.5 → 255, right edge 0.25 → 0
        #expect(c.pixel(1, 0).a == 255 && c.pixel(3, 0).a == 255 && c.pixel(4, 0).a == 0)
        let d = makeContext(8, 1)
        d.setAllowsAntialiasing(false)
        d.fill(CGRect(x: 1.4, y: 0, width: 2, height: 1))      // 0.6 → 255, 0.4 → 0
        #expect(d.pixel(1, 0).a == 255 && d.pixel(3, 0).a == 0)
        d.setAllowsAntialiasing(true)
        d.fill(CGRect(x: 5.5, y: 0, width: 1, height: 1))
        #expect(d.pixel(5, 0).a == 128)
    }

    @Test func pathConstructionGoesThroughTheCTMWhenAdded() {
        let c = makeContext(4, 4)
        #expect(c.isPathEmpty && c.path == nil && c.currentPointOfPath == .zero && c.boundingBoxOfPath.isNull)
        c.translateBy(x: 10, y: 0)
        c.move(to: .zero)
        c.addLine(to: CGPoint(x: 5, y: 5))
        c.translateBy(x: -10, y: 0)             // later CTM changes do not move the points
        #expect(c.currentPointOfPath == CGPoint(x: 15, y: 5))
        #expect(c.boundingBoxOfPath == CGRect(x: 10, y: 0, width: 5, height: 5))
        var pts: [CGPoint] = []
        c.path!.applyWithBlock { pts.append($0.pointee.points[0]) }
        #expect(pts == [CGPoint(x: 10, y: 0), CGPoint(x: 15, y: 5)])
        c.addQuadCurve(to: CGPoint(x: 20, y: 0), control: CGPoint(x: 18, y: 5))
        c.addCurve(to: CGPoint(x: 30, y: 0), control1: CGPoint(x: 22, y: 2), control2: CGPoint(x: 28, y: 2))
        c.closePath()
        c.addRects([CGRect(x: 0, y: 0, width: 1, height: 1)])
        c.addLines(between: [CGPoint(x: 1, y: 1), CGPoint(x: 2, y: 2)])
        c.addEllipse(in: CGRect(x: 0, y: 0, width: 2, height: 2))
        c.addPath(CGPath(rect: CGRect(x: 0, y: 0, width: 1, height: 1)))
        #expect(c.path!.elements.count == 2 + 3 + 5 + 2 + 6 + 5)
        c.beginPath()
        #expect(c.isPathEmpty)
    }

    @Test func fillPathRulesAndDrawPathModes() {
        // Two nested same-direction squares: winding fills the hole, even-odd leaves it.
        func draw(_ mode: CGPathDrawingMode) -> CGContext {
            let c = makeContext(8, 8)
            c.addRect(CGRect(x: 0, y: 0, width: 8, height: 8))
            c.addRect(CGRect(x: 2, y: 2, width: 4, height: 4))
            c.setStrokeColor(red: 1, green: 0, blue: 0, alpha: 1)
            c.drawPath(using: mode)
            #expect(c.isPathEmpty)
            return c
        }
        #expect(draw(.fill).pixel(3, 3).a == 255)
        #expect(draw(.eoFill).pixel(3, 3).a == 0 && draw(.eoFill).pixel(1, 1).a == 255)
        let s = draw(.stroke)   // 1-wide stroke centred on x = 2: pixels 1 and 2 half covered
        #expect(s.pixel(1, 4) == RGBA8(r: 128, g: 0, b: 0, a: 128) && s.pixel(3, 3).a == 0 && s.pixel(0, 4) == RGBA8(r: 128, g: 0, b: 0, a: 128))
        let fs = draw(.eoFillStroke)
        #expect(fs.pixel(3, 3).a == 0 && fs.pixel(0, 4) == RGBA8(r: 128, g: 0, b: 0, a: 255) && fs.pixel(1, 4) == RGBA8(r: 128, g: 0, b: 0, a: 255))
        #expect(fs.pixel(2, 4) == RGBA8(r: 128, g: 0, b: 0, a: 128))   // red half over the hole's edge
    }

    @Test func strokeCapsThroughTheStroker() {
        func line(_ cap: CGLineCap) -> CGContext {
            let c = makeContext(12, 10)
            c.setLineWidth(2)
            c.setLineCap(cap)
            c.strokeLineSegments(between: [CGPoint(x: 3, y: 5), CGPoint(x: 9, y: 5)])
            return c
        }
        let butt = line(.butt), square = line(.square), round = line(.round)
        #expect(butt.paintedCount == 12 && butt.pixel(2, 4).a == 0 && butt.pixel(3, 4).a == 255)
        #expect(square.paintedCount == 16 && square.pixel(2, 4).a == 255 && square.pixel(9, 5).a == 255)
        let r = round.pixel(2, 4).a
        #expect(r > 0 && r < 255)                 // quarter disk in that pixel: π/4 ≈ 0.785 → ~200
        #expect(abs(Double(round.alphaSum) / 255 - (12 + Double.pi)) < 0.1)   // inscribed polygons: slightly less
    }

    @Test func strokeJoinsThroughTheStroker() {
        // A right angle at (6, 6), width 4: the miter fills the corner square, the bevel cuts
        // it diagonally, round is in between.
        func corner(_ join: CGLineJoin) -> Double {
            let c = makeContext(12, 12)
            c.setLineWidth(4)
            c.setLineJoin(join)
            c.move(to: CGPoint(x: 0, y: 6)); c.addLine(to: CGPoint(x: 6, y: 6)); c.addLine(to: CGPoint(x: 6, y: 12))
            c.strokePath()
            return Double(c.alphaSum) / 255
        }
        let body = 6.0 * 4 + 6 * 4 - 4        // both arms including the inner 2×2 overlap counted once
        let miter = corner(.miter), bevel = corner(.bevel), round = corner(.round)
        #expect(abs(miter - (body + 4)) < 0.01)          // outer corner 2×2 square
        #expect(abs(bevel - (body + 2)) < 0.01)          // half of it
        #expect(abs(round - (body + Double.pi)) < 0.1)   // quarter disk of radius 2 (inscribed polygon)
        // Miter limit below √2 turns the right-angle miter into a bevel.
        let c = makeContext(12, 12)
        c.setLineWidth(4); c.setMiterLimit(1.2)
        c.move(to: CGPoint(x: 0, y: 6)); c.addLine(to: CGPoint(x: 6, y: 6)); c.addLine(to: CGPoint(x: 6, y: 12))
        c.strokePath()
        #expect(abs(Double(c.alphaSum) / 255 - (body + 2)) < 0.01)
    }

    @Test func dashesAndRectStrokes() {
        let c = makeContext(12, 3)
        c.setLineWidth(2)
        c.setLineDash(phase: 1, lengths: [2, 1])
        c.strokeLineSegments(between: [CGPoint(x: 0, y: 1), CGPoint(x: 10, y: 1)])
        // phase 1: on [0,1), off [1,2), on [2,4), off [4,5), on [5,7), off, on [8,10)
        let on = (0..<10).map { c.pixel($0, 0).a == 255 }
        #expect(on == [true, false, true, true, false, true, true, false, true, true])
        let r = makeContext(10, 10)
        r.stroke(CGRect(x: 2, y: 2, width: 6, height: 6), width: 2)
        #expect(r.paintedCount == 64 - 16 && r.pixel(1, 1).a == 255 && r.pixel(3, 3).a == 0)
        let r2 = makeContext(10, 10)
        r2.setLineWidth(2)
        r2.stroke(CGRect(x: 2, y: 2, width: 6, height: 6))
        #expect(r2.paintedCount == 48)
    }

    @Test func fillUnderARotatedCTMIsTheRasterizersExactCoverage() {
        let c = makeContext(40, 40)
        c.translateBy(x: 20, y: 20); c.rotate(by: 0.3); c.scaleBy(x: 1.5, y: 1)
        c.addEllipse(in: CGRect(x: -10, y: -8, width: 20, height: 16))
        c.addRect(CGRect(x: -3, y: -3, width: 6, height: 6))
        let device = c._path._copy()   // the stored device-space path
        c.fillPath(using: .evenOdd)
        var cov = CoverageBitmap(width: 40, height: 40)
        PathRasterizer().fill(RasterPath(device), rule: .evenOdd, clip: RasterClip(width: 40, height: 40), into: &cov)
        // Opaque black over transparent: alpha = div255(255 · m) = m, exactly.
        var same = true
        for y in 0..<40 { for x in 0..<40 where c.pixel(x, y).a != cov[x, y] { same = false } }
        #expect(same)
        #expect(cov.area > 100 && c.pixel(20, 20).a == 0)   // the hole
    }

    @Test func strokeUsesTheCTMAtStrokeTime() {
        // The path is added at identity; the CTM is scaled before stroking: the points stay, the
        // width doubles (Core Graphics' rule).
        let c = makeContext(20, 10)
        c.move(to: CGPoint(x: 2, y: 5)); c.addLine(to: CGPoint(x: 12, y: 5))
        c.scaleBy(x: 2, y: 2)
        c.setLineWidth(1)
        c.strokePath()
        #expect(c.paintedCount == 20)                 // x 2..12, y 4..6
        #expect(c.pixel(2, 4).a == 255 && c.pixel(11, 5).a == 255 && c.pixel(12, 5).a == 0 && c.pixel(5, 6).a == 0)
        // Dash lengths are in user space too: 2 user units = 4 pixels.
        let d = makeContext(20, 4)
        d.scaleBy(x: 2, y: 2)
        d.setLineDash(phase: 0, lengths: [2])
        d.strokeLineSegments(between: [CGPoint(x: 0, y: 1), CGPoint(x: 10, y: 1)])
        #expect((0..<20).map { d.pixel($0, 1).a == 255 } == (0..<20).map { ($0 / 4) % 2 == 0 })
    }

    @Test func hairlineAndZeroWidth() {
        let c = makeContext(6, 3)
        c.setLineWidth(0.5)
        c.strokeLineSegments(between: [CGPoint(x: 0, y: 1.5), CGPoint(x: 6, y: 1.5)])
        #expect(c.pixel(2, 1).a == 128)   // a 1-pixel line at alpha × 0.5
    }

    @Test func ellipses() {
        let c = makeContext(24, 24)
        c.move(to: CGPoint(x: 1, y: 1))
        c.fillEllipse(in: CGRect(x: 2, y: 2, width: 20, height: 20))
        #expect(c.isPathEmpty)
        #expect(abs(Double(c.alphaSum) / 255 - Double.pi * 100) < 1)   // flattening loses ~⅔·tol·perimeter
        let s = makeContext(24, 24)
        s.setLineWidth(2)
        s.strokeEllipse(in: CGRect(x: 2, y: 2, width: 20, height: 20))
        #expect(abs(Double(s.alphaSum) / 255 - Double.pi * (121 - 81)) < 1)
        #expect(s.pixel(12, 12).a == 0)
    }

    @Test func clearMakesTransparent() {
        let c = makeContext(6, 1)
        c.fill(CGRect(x: 0, y: 0, width: 6, height: 1))
        c.setAlpha(0.1); c.setBlendMode(.multiply)   // ignored by clear
        c.clear(CGRect(x: 1.5, y: 0, width: 2, height: 1))
        #expect(c.pixel(0, 0).a == 255 && c.pixel(1, 0).a == 127 && c.pixel(2, 0).a == 0 && c.pixel(3, 0).a == 127)
    }

    @Test func replacePathWithStrokedPathFillsLikeTheStroke() {
        func setup(_ c: CGContext) {
            c.setLineWidth(3); c.setLineJoin(.round)
            c.move(to: CGPoint(x: 2, y: 2)); c.addLine(to: CGPoint(x: 14, y: 5)); c.addLine(to: CGPoint(x: 4, y: 14))
        }
        let a = makeContext(16, 16); setup(a); a.strokePath()
        let b = makeContext(16, 16); setup(b); b.replacePathWithStrokedPath()
        #expect(!b.isPathEmpty)
        #expect(b.pathContains(CGPoint(x: 8, y: 3.5), mode: .fill))
        #expect(!b.pathContains(CGPoint(x: 8, y: 8), mode: .fill))
        b.fillPath()
        #expect(a.makeImage() == b.makeImage())
    }

    @Test func resetClipDataAndSpaceConversions() {
        let c = makeBitmapContext(4, 4)
        c.clip(to: CGRect(x: 0, y: 0, width: 1, height: 1))
        c.resetClip()
        c.fill(CGRect(x: 0, y: 0, width: 4, height: 4))
        #expect(c.paintedCount == 16)
        #expect(c.data!.load(fromByteOffset: 4 * 5 + 3, as: UInt8.self) == 255)
        c.translateBy(x: 1, y: 2); c.scaleBy(x: 2, y: 2)
        #expect(c.convertToDeviceSpace(CGPoint(x: 1, y: 1)) == CGPoint(x: 3, y: 4))
        #expect(c.convertToUserSpace(CGPoint(x: 3, y: 4)) == CGPoint(x: 1, y: 1))
        #expect(c.convertToDeviceSpace(CGRect(x: 0, y: 0, width: 1, height: 1)) == CGRect(x: 1, y: 2, width: 2, height: 2))
        #expect(c.convertToUserSpace(CGSize(width: 2, height: 4)) == CGSize(width: 1, height: 2))
        #expect(c.userSpaceToDeviceSpaceTransform == c.ctm)
    }

    @Test func drawsIntoCallerMemory() {
        var bytes = [UInt8](repeating: 0, count: 4 * 8 * 2)   // 4×2 pixels, 32-byte rows
        bytes.withUnsafeMutableBytes { raw in
            let c = CGContext(data: raw.baseAddress, width: 4, height: 2, bitsPerComponent: 8, bytesPerRow: 32,
                              space: CGColorSpace(name: CGColorSpace.sRGB)!, bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
            c.setFillColor(red: 0, green: 0, blue: 1, alpha: 1)
            c.fill(CGRect(x: 1, y: 1, width: 1, height: 1))     // y up: the top row, row 0 in memory
        }
        #expect(Array(bytes[4..<8]) == [0, 0, 255, 255])
        #expect(bytes.filter { $0 != 0 }.count == 2)
    }

    @Test func drawImageAsCoreGraphicsScaledAndNearest() {
        var pb = PixelBuffer(width: 2, height: 2)
        pb[0, 0] = RGBA8(r: 255, g: 0, b: 0, a: 255); pb[1, 0] = RGBA8(r: 0, g: 255, b: 0, a: 255)
        pb[0, 1] = RGBA8(r: 0, g: 0, b: 255, a: 255); pb[1, 1] = RGBA8(r: 255, g: 255, b: 255, a: 255)
        let img = CGImage(pixelBuffer: pb)
        let c = makeContext(6, 6)
        c.interpolationQuality = .none
        c.draw(img, in: CGRect(x: 1, y: 1, width: 4, height: 4))
        // As Core Graphics: row 0 of the image at maxY of the rect (upside down in y-down space).
        #expect(c.pixel(1, 4) == pb[0, 0] && c.pixel(2, 3) == pb[0, 0])
        #expect(c.pixel(4, 4) == pb[1, 0] && c.pixel(1, 1) == pb[0, 1] && c.pixel(4, 1) == pb[1, 1])
        #expect(c.pixel(0, 0).a == 0 && c.pixel(5, 5).a == 0)
        // The iOS idiom (flip the CTM about the rect) draws it upright.
        let u = makeContext(6, 6)
        u.interpolationQuality = .none
        u.translateBy(x: 0, y: 6); u.scaleBy(x: 1, y: -1)
        u.draw(img, in: CGRect(x: 1, y: 1, width: 4, height: 4))
        #expect(u.pixel(1, 1) == pb[0, 0] && u.pixel(4, 1) == pb[1, 0] && u.pixel(1, 4) == pb[0, 1] && u.pixel(4, 4) == pb[1, 1])
        // Bilinear at alpha 0.5: an image of one colour stays that colour at half alpha.
        var solid = PixelBuffer(width: 3, height: 3); solid.fill(RGBA8(r: 200, g: 100, b: 50, a: 255))
        let d = makeContext(4, 4)
        d.setAlpha(0.5)
        d.draw(CGImage(pixelBuffer: solid), in: CGRect(x: 0, y: 0, width: 4, height: 4))
        #expect(d.pixel(2, 1) == RGBA8(r: 100, g: 50, b: 25, a: 128))
    }

    @Test func drawImageByTilingRepeatsOverTheClip() {
        var pb = PixelBuffer(width: 2, height: 1)
        pb[0, 0] = RGBA8(r: 255, g: 0, b: 0, a: 255); pb[1, 0] = RGBA8(r: 0, g: 0, b: 255, a: 255)
        let c = makeContext(9, 2)
        c.interpolationQuality = .none
        c.clip(to: CGRect(x: 0, y: 0, width: 8, height: 2))
        c.draw(CGImage(pixelBuffer: pb), in: CGRect(x: 1, y: 0, width: 2, height: 1), byTiling: true)
        // Tiles at x = …, −1, 1, 3, 5, 7: red on odd columns, blue on even ones, every row.
        for y in 0..<2 { for x in 0..<8 { #expect(c.pixel(x, y) == (x % 2 == 1 ? pb[0, 0] : pb[1, 0])) } }
        #expect(c.pixel(8, 0).a == 0)   // clipped
        // Bilinear tiling of a one-colour image is that colour everywhere (wrap, no fading edge).
        var solid = PixelBuffer(width: 3, height: 3); solid.fill(RGBA8(r: 10, g: 20, b: 30, a: 255))
        let d = makeContext(7, 7)
        d.draw(CGImage(pixelBuffer: solid), in: CGRect(x: 0.5, y: 0.5, width: 2.5, height: 2.5), byTiling: true)
        #expect(d.pixel(0, 0) == RGBA8(r: 10, g: 20, b: 30, a: 255) && d.pixel(6, 6) == RGBA8(r: 10, g: 20, b: 30, a: 255))
    }

    @Test func shadowOffsetIsBaseSpaceYDown() {
        let c = makeContext(12, 12)
        c.scaleBy(x: 2, y: 2)   // the CTM does not scale the offset
        c.setShadow(offset: CGSize(width: 3, height: 2), blur: 0, color: CGColor(red: 0, green: 0, blue: 1, alpha: 1))
        c.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        c.fill(CGRect(x: 1, y: 1, width: 2, height: 2))   // pixels [2, 6) × [2, 6)
        #expect(c.pixel(3, 3) == RGBA8(r: 255, g: 0, b: 0, a: 255))
        #expect(c.pixel(7, 6) == RGBA8(r: 0, g: 0, b: 255, a: 255))   // [5, 9) × [4, 8)
        #expect(c.pixel(8, 7).b == 255 && c.pixel(9, 7).a == 0 && c.pixel(6, 3).a == 0)
        // Default colour: black at ⅓ alpha; blur spreads it (σ = blur/2) and conserves alpha.
        let d = makeContext(40, 40)
        d.setShadow(offset: CGSize(width: 0, height: 20), blur: 4)
        d.fill(CGRect(x: 10, y: 2, width: 10, height: 10))
        var shadow = 0
        for y in 14..<40 { for x in 0..<40 { shadow += Int(d.pixel(x, y).a) } }
        #expect(abs(Double(shadow) / 255 - 100.0 / 3) < 1.5)
        // σ = 2: the centre (2.5σ from every edge) is nearly ⅓·255, an edge pixel about 60 % of it,
        // a pixel centre 2.5 px outside about 11 % (Gaussian CDF at −1.25σ).
        #expect((80...85).contains(d.pixel(15, 27).a))
        #expect((40...62).contains(d.pixel(15, 22).a))
        #expect((4...14).contains(d.pixel(15, 19).a))
        d.setShadow(offset: .zero, blur: 0, color: nil)
        #expect(d._state.shadow == nil)
    }

    @Test func transparencyLayerCompositesTheGroupOnce() {
        let c = makeContext(6, 1)
        c.setAlpha(0.5)
        c.beginTransparencyLayer(auxiliaryInfo: nil)
        c.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        c.fill(CGRect(x: 0, y: 0, width: 4, height: 1))
        c.setFillColor(red: 0, green: 0, blue: 1, alpha: 1)
        c.fill(CGRect(x: 2, y: 0, width: 4, height: 1))
        c.endTransparencyLayer()
        // The overlap is blue at half alpha: the red underneath does not show through.
        #expect(c.pixel(0, 0) == RGBA8(r: 128, g: 0, b: 0, a: 128))
        #expect(c.pixel(3, 0) == RGBA8(r: 0, g: 0, b: 128, a: 128))
        // Without the layer, red shows through the overlap.
        let d = makeContext(6, 1)
        d.setAlpha(0.5)
        d.setFillColor(red: 1, green: 0, blue: 0, alpha: 1); d.fill(CGRect(x: 0, y: 0, width: 4, height: 1))
        d.setFillColor(red: 0, green: 0, blue: 1, alpha: 1); d.fill(CGRect(x: 2, y: 0, width: 4, height: 1))
        #expect(d.pixel(3, 0).r > 0)
        // State inside and after: alpha 1 inside, restored after; nested layers.
        let e = makeContext(2, 1)
        e.setAlpha(0.5)
        e.beginTransparencyLayer(auxiliaryInfo: nil)
        #expect(e._state.alpha == 1)
        e.beginTransparencyLayer(auxiliaryInfo: nil)
        e.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
        e.endTransparencyLayer()
        e.endTransparencyLayer()
        #expect(e._state.alpha == 0.5)
        #expect(e.pixel(0, 0) == RGBA8(r: 0, g: 0, b: 0, a: 128))
        e.endTransparencyLayer()   // unbalanced: harmless
    }

    @Test func transparencyLayerInRectAndClipAppliedOnce() {
        let c = makeContext(8, 1)
        c.clip(to: CGRect(x: 0.5, y: 0, width: 7, height: 1))
        c.beginTransparencyLayer(in: CGRect(x: 0, y: 0, width: 6, height: 1), auxiliaryInfo: nil)
        c.fill(CGRect(x: 0, y: 0, width: 8, height: 1))
        c.endTransparencyLayer()
        #expect(c.pixel(0, 0).a == 128 && c.pixel(1, 0).a == 255 && c.pixel(5, 0).a == 255 && c.pixel(6, 0).a == 0)
    }
}

import Testing
import Foundation
import FlipbookPixels
@testable import FlipbookGraphics

/// Bitmap contexts have Apple's orientation (issue 37, item 4). Apple's expectations: Quartz 2D
/// Programming Guide, "Quartz 2D Coordinate Systems" (a bitmap context's default coordinate
/// system has its origin at the lower-left, y up; UIKit sets up a flipped, top-left-origin
/// context for `drawRect:` / a layer's `draw(in:)`, which is why iOS code that draws images
/// into a context it made itself is upright without a flip), and `CGBitmapContextCreateImage`
/// (the image's first row is the first row of the bitmap's memory).
@Suite struct BitmapOrientationTests {
    /// Memory row `y` of the context's bitmap (row 0 first in memory), as RGBA8.
    func memoryPixel(_ c: CGContext, _ x: Int, _ y: Int) -> RGBA8 {
        let px = c.data!.load(fromByteOffset: y * c.bytesPerRow + 4 * x, as: UInt32.self)
        return RGBA8(packed: px)
    }

    @Test func theOriginIsTheBottomLeft() {
        let c = makeBitmapContext(6, 4)
        #expect(c.ctm == .identity)
        c.setFillColor(CGColor(red: 1, green: 0, blue: 0, alpha: 1))
        c.fill(CGRect(x: 0, y: 0, width: 6, height: 1))           // y = 0 … 1: the bottom row
        #expect(memoryPixel(c, 0, 3) == RGBA8(r: 255, g: 0, b: 0, a: 255))
        #expect(memoryPixel(c, 0, 0).a == 0)
        // makeImage(): the first memory row is the image's top row.
        let img = c.makeImage()!.pixelBuffer
        #expect(img[2, 3] == RGBA8(r: 255, g: 0, b: 0, a: 255) && img[2, 0].a == 0)
        // Device space is y-up too: (0, 0) user → (0, 0) device; the point (1, 3) is near the top.
        #expect(c.convertToDeviceSpace(CGPoint(x: 1, y: 3)) == CGPoint(x: 1, y: 3))
    }

    /// iOS code drawing a particle image or an icon into a bitmap context gets it upright.
    @Test func drawnImagesAreUpright() {
        var pb = PixelBuffer(width: 2, height: 2)
        pb[0, 0] = RGBA8(r: 255, g: 0, b: 0, a: 255); pb[1, 0] = RGBA8(r: 255, g: 0, b: 0, a: 255)   // red top row
        pb[0, 1] = RGBA8(r: 0, g: 0, b: 255, a: 255); pb[1, 1] = RGBA8(r: 0, g: 0, b: 255, a: 255)   // blue bottom row
        let c = makeBitmapContext(2, 2)
        c.interpolationQuality = .none
        c.draw(CGImage(pixelBuffer: pb), in: CGRect(x: 0, y: 0, width: 2, height: 2))
        let out = c.makeImage()!.pixelBuffer
        #expect(out[0, 0] == pb[0, 0] && out[1, 1] == pb[1, 1])
        #expect(out.bytes == pb.bytes)
    }

    /// The flip iOS code writes (and `UIGraphicsImageRenderer` makes) gives UIKit's top-left
    /// origin; then images come out upside down, exactly as on iOS.
    @Test func flippingTheCTMGivesUIKitsOrientation() {
        let c = makeBitmapContext(6, 4)
        c.translateBy(x: 0, y: 4)
        c.scaleBy(x: 1, y: -1)
        c.setFillColor(CGColor(red: 0, green: 1, blue: 0, alpha: 1))
        c.fill(CGRect(x: 0, y: 0, width: 6, height: 1))
        #expect(memoryPixel(c, 0, 0) == RGBA8(r: 0, g: 255, b: 0, a: 255))
        #expect(memoryPixel(c, 0, 3).a == 0)
        #expect(c.ctm == CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: 4))
    }

    /// Angles turn counter-clockwise on screen in a y-up space: π/2 is straight up.
    @Test func arcsAndRotationFollowYUp() {
        let c = makeBitmapContext(20, 20)
        c.addArc(center: CGPoint(x: 10, y: 10), radius: 8, startAngle: 0, endAngle: .pi / 2, clockwise: false)
        #expect(c.currentPointOfPath == CGPoint(x: 10, y: 18))
        c.addLine(to: CGPoint(x: 10, y: 10)); c.closePath()
        c.fillPath()
        // The quarter disc is in the upper right on screen: memory rows above row 10.
        #expect(memoryPixel(c, 14, 6).a == 255)
        #expect(memoryPixel(c, 14, 14).a == 0)
    }

    /// Shadow offsets are in base space, y up in a bitmap context: a positive height goes up
    /// ("Quartz 2D Programming Guide", Shadows: offsets in base space). In a layer's
    /// `draw(in:)` context (UIKit's) a positive height goes down (see `CGContextTests`).
    @Test func shadowOffsetsGoUpInABitmapContext() {
        let c = makeBitmapContext(12, 12)
        c.setShadow(offset: CGSize(width: 0, height: 4), blur: 0, color: CGColor(red: 0, green: 0, blue: 1, alpha: 1))
        c.setFillColor(CGColor(red: 1, green: 0, blue: 0, alpha: 1))
        c.fill(CGRect(x: 2, y: 2, width: 2, height: 2))               // memory rows 8, 9
        #expect(memoryPixel(c, 2, 8) == RGBA8(r: 255, g: 0, b: 0, a: 255))
        #expect(memoryPixel(c, 2, 4) == RGBA8(r: 0, g: 0, b: 255, a: 255))   // rows 4, 5: four up
        #expect(memoryPixel(c, 2, 11).a == 0)
    }

    /// Glyphs (y-up outlines) are upright at an identity text matrix, ink above the baseline.
    @Test func textIsUpright() throws {
        let c = makeBitmapContext(40, 40)
        c.setFont(CGFont.bundledDefault)
        c.setFontSize(24)
        c.setFillColor(CGColor(red: 0, green: 0, blue: 0, alpha: 1))
        let glyph = CGFont.bundledDefault.glyph(for: "T")
        c.showGlyphs([glyph], at: [CGPoint(x: 10, y: 10)])               // baseline at memory row 30
        var rows = Set<Int>()
        for y in 0..<40 { for x in 0..<40 where memoryPixel(c, x, y).a > 128 { rows.insert(y) } }
        #expect(!rows.isEmpty && rows.max()! < 30 && rows.min()! > 5)
        // The T's bar is at the top: the widest inked row is the topmost one.
        func width(_ y: Int) -> Int { (0..<40).filter { memoryPixel(c, $0, y).a > 128 }.count }
        #expect(width(rows.min()!) > 3 * width(rows.max()!))
    }
}

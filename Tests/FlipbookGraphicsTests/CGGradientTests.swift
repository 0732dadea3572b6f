import Testing
import Foundation
import FlipbookPixels
import FlipbookRaster
@testable import FlipbookGraphics

/// `CGGradient` and `CGContext.drawLinearGradient` / `drawRadialGradient`: Core Graphics'
/// geometry and options, drawn with the gradient paint `CAGradientLayer` uses.
@Suite struct CGGradientTests {
    static let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    static let blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
    static let gradient = CGGradient(colorsSpace: nil, colors: [red, blue], locations: [0, 1])!

    @Test func initializers() {
        #expect(CGGradient(colorsSpace: nil, colors: [], locations: nil) == nil)
        let comps: [CGFloat] = [1, 0, 0, 1, 0, 0, 1, 1]
        let g = CGGradient(colorSpace: CGColorSpaceCreateDeviceRGB(), colorComponents: comps, locations: nil, count: 2)!
        #expect(g._ramp == Self.gradient._ramp)
        let gray = CGGradient(colorSpace: CGColorSpaceCreateDeviceGray(), colorComponents: [0, 1, 1, 1], locations: [0, 1], count: 2)!
        #expect(RGBA8(packed: gray._ramp.table[1023]) == RGBA8(r: 255, g: 255, b: 255, a: 255))
    }

    /// Linear, both ends extended: every row alike, red at the left, blue at the right, and the
    /// column values those of the shared paint (the CAGradientLayer formula).
    @Test func linearGradientFillsTheClip() {
        let ctx = makeContext(100, 6)
        ctx.drawLinearGradient(Self.gradient, start: CGPoint(x: 0, y: 3), end: CGPoint(x: 100, y: 3),
                               options: [.drawsBeforeStartLocation, .drawsAfterEndLocation])
        let px = ctx.makeImage()!.pixelBuffer
        for x in [0, 37, 99] {
            let i = Int((Double(x) + 0.5) / 100 * 1023 + 0.5)
            #expect(px[x, 0].r == UInt8((255 * (1 - Double(i) / 1023)).rounded()) && px[x, 5] == px[x, 0])
        }
    }

    /// Without options nothing is painted before the start or after the end; the CTM applies.
    @Test func linearGradientOptionsAndCTM() {
        let ctx = makeContext(100, 4)
        ctx.translateBy(x: 20, y: 0)
        ctx.drawLinearGradient(Self.gradient, start: .zero, end: CGPoint(x: 60, y: 0), options: [])
        #expect(ctx.pixel(10, 1).a == 0 && ctx.pixel(90, 1).a == 0)
        #expect(ctx.pixel(21, 1) == RGBA8(r: 255, g: 0, b: 0, a: 255) || ctx.pixel(21, 1).r > 245)
        #expect(ctx.pixel(78, 1).b > 245)
        let clipped = makeContext(100, 4)
        clipped.clip(to: CGRect(x: 0, y: 0, width: 50, height: 4))
        clipped.drawLinearGradient(Self.gradient, start: .zero, end: CGPoint(x: 100, y: 0), options: [])
        #expect(clipped.pixel(49, 1).a == 255 && clipped.pixel(50, 1).a == 0)
    }

    /// Concentric radial: red at the centre, blue at radius 40; beyond it only with the option.
    @Test func concentricRadial() {
        for extend in [false, true] {
            let ctx = makeContext(100, 100)
            ctx.drawRadialGradient(Self.gradient, startCenter: CGPoint(x: 50, y: 50), startRadius: 0,
                                   endCenter: CGPoint(x: 50, y: 50), endRadius: 40,
                                   options: extend ? [.drawsAfterEndLocation] : [])
            #expect(ctx.pixel(50, 50).r > 250)
            #expect(ctx.pixel(50, 89).b > 245 && ctx.pixel(50, 89).a == 255)   // distance 39.5
            #expect(ctx.pixel(50, 95).a == (extend ? 255 : 0))                 // distance 45.5
            #expect(ctx.pixel(2, 2).a == (extend ? 255 : 0))
        }
    }

    /// Offset centres: a cone from a small circle to a big one; outside the cone nothing.
    @Test func twoCircleCone() {
        let ctx = makeContext(100, 60)
        ctx.drawRadialGradient(Self.gradient, startCenter: CGPoint(x: 15, y: 30), startRadius: 5,
                               endCenter: CGPoint(x: 70, y: 30), endRadius: 25, options: [])
        #expect(ctx.pixel(70, 30).a == 255)          // inside the end circle
        #expect(ctx.pixel(15, 30).a == 255)          // inside the start circle (a later circle covers it)
        #expect(ctx.pixel(2, 2).a == 0 && ctx.pixel(99, 2).a == 0)
        #expect(ctx.pixel(94, 30).b > 240)           // on the end circle's right edge: t ≈ 1
    }

    /// Equal start and end: nothing; a singular CTM: nothing.
    @Test func degenerateInputsDrawNothing() {
        let ctx = makeContext(10, 10)
        ctx.drawLinearGradient(Self.gradient, start: .zero, end: .zero, options: [.drawsAfterEndLocation])
        #expect(ctx.paintedCount == 0)
        ctx.scaleBy(x: 0, y: 1)
        ctx.drawLinearGradient(Self.gradient, start: .zero, end: CGPoint(x: 1, y: 0), options: [.drawsAfterEndLocation])
        #expect(ctx.paintedCount == 0)
    }
}

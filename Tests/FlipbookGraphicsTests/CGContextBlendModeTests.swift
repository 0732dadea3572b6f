import Testing
import Foundation
import FlipbookPixels
import FlipbookTestSupport
@testable import FlipbookGraphics

/// Each blend mode on one pixel against the W3C / Porter–Duff formula evaluated independently in
/// floating point on premultiplied values (the kernel rounds once: within 1 of the exact value).
@Suite struct CGContextBlendModeTests {
    /// The premultiplied pixel a colour becomes when copied into a transparent context.
    static func pixel(of c: CGColor) -> RGBA8 {
        let ctx = makeContext(1, 1)
        ctx.setFillColor(c)
        ctx.setBlendMode(.copy)
        ctx.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
        return ctx.pixel(0, 0)
    }

    static func draw(_ s: CGColor, over d: CGColor, mode: CGBlendMode) -> RGBA8 {
        let ctx = makeContext(1, 1)
        ctx.setFillColor(d); ctx.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
        ctx.setBlendMode(mode)
        ctx.setFillColor(s); ctx.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
        return ctx.pixel(0, 0)
    }

    /// Expected premultiplied result in 0…1 per channel (r, g, b, a): the formulas written out
    /// in floating point (`BlendReference`, shared with the compositor's tests).
    static func expected(_ S: [Double], _ D: [Double], _ mode: CGBlendMode) -> [Double] {
        BlendReference.composite(S, onto: D, BlendReference.Mode(rawValue: "\(mode)")!)
    }

    static let pairs: [(CGColor, CGColor)] = [
        (CGColor(red: 0.8, green: 0.3, blue: 0.1, alpha: 0.7), CGColor(red: 0.2, green: 0.6, blue: 0.9, alpha: 0.5)),
        (CGColor(red: 0.9, green: 0.5, blue: 0.2, alpha: 1), CGColor(red: 0.3, green: 0.7, blue: 0.6, alpha: 1)),
        (CGColor(red: 0.1, green: 1, blue: 0.45, alpha: 0.4), CGColor(red: 1, green: 0.2, blue: 0, alpha: 0.9)),
    ]

    @Test(arguments: CGBlendMode.allCases)
    func modeMatchesItsFormula(_ mode: CGBlendMode) {
        for (s, d) in Self.pairs {
            let sp = Self.pixel(of: s), dp = Self.pixel(of: d)
            let S = [sp.r, sp.g, sp.b, sp.a].map { Double($0) / 255 }, D = [dp.r, dp.g, dp.b, dp.a].map { Double($0) / 255 }
            let want = Self.expected(S, D, mode).map { min(max($0, 0), 1) * 255 }
            let got = Self.draw(s, over: d, mode: mode)
            let g = [got.r, got.g, got.b, got.a].map(Double.init)
            for i in 0..<4 {
                #expect(abs(g[i] - want[i]) <= 1, "\(mode) channel \(i): got \(g[i]), want \(want[i]) for \(s) over \(d)")
            }
        }
    }

    @Test func modesDifferFromNormal() {
        // Guard against a mode silently falling back to source-over.
        let (s, d) = Self.pairs[0]
        let normal = Self.draw(s, over: d, mode: .normal)
        for mode in CGBlendMode.allCases where mode != .normal {
            #expect(Self.draw(s, over: d, mode: mode) != normal, "\(mode)")
        }
    }

    @Test func coverageLerpsTheResultWithTheDestination() {
        // copy at half coverage over opaque red: half the source, half the old pixel.
        let ctx = makeContext(2, 1)
        ctx.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        ctx.fill(CGRect(x: 0, y: 0, width: 2, height: 1))
        ctx.setBlendMode(.copy)
        ctx.setFillColor(red: 0, green: 0, blue: 1, alpha: 0.5)   // (0, 0, 128, 128)
        ctx.fill(CGRect(x: 0.5, y: 0, width: 1.5, height: 1))
        #expect(ctx.pixel(1, 0) == RGBA8(r: 0, g: 0, b: 128, a: 128))
        // m = 128: div255(R·128 + D·127) per channel.
        #expect(ctx.pixel(0, 0) == RGBA8(r: 127, g: 0, b: 64, a: 191))
        // destinationOut with a clip: only inside the clip.
        let c = makeContext(4, 1)
        c.fill(CGRect(x: 0, y: 0, width: 4, height: 1))
        c.clip(to: CGRect(x: 1, y: 0, width: 2, height: 1))
        c.setBlendMode(.destinationOut)
        c.fill(CGRect(x: 0, y: 0, width: 4, height: 1))
        #expect(c.pixel(0, 0).a == 255 && c.pixel(1, 0).a == 0 && c.pixel(2, 0).a == 0 && c.pixel(3, 0).a == 255)
    }

    @Test func blendModeAppliesToImagesStrokesAndLayers() {
        var pb = PixelBuffer(width: 1, height: 1); pb[0, 0] = RGBA8(r: 0, g: 255, b: 0, a: 255)
        let ctx = makeContext(3, 1)
        ctx.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        ctx.fill(CGRect(x: 0, y: 0, width: 3, height: 1))
        ctx.setBlendMode(.multiply)
        ctx.draw(CGImage(pixelBuffer: pb), in: CGRect(x: 0, y: 0, width: 1, height: 1))
        #expect(ctx.pixel(0, 0) == RGBA8(r: 0, g: 0, b: 0, a: 255))      // red × green = black
        ctx.setBlendMode(.plusLighter)
        ctx.setStrokeColor(red: 0, green: 0, blue: 1, alpha: 1)
        ctx.setLineWidth(1)
        ctx.strokeLineSegments(between: [CGPoint(x: 1, y: 0.5), CGPoint(x: 2, y: 0.5)])
        #expect(ctx.pixel(1, 0) == RGBA8(r: 255, g: 0, b: 255, a: 255))  // red + blue
        // A layer composited with sourceIn (inside: the layer where the destination is).
        let l = makeContext(2, 1)
        l.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
        l.setBlendMode(.sourceIn)
        l.beginTransparencyLayer(auxiliaryInfo: nil)
        #expect(l._state.blendMode == .normal)
        l.setFillColor(red: 0, green: 1, blue: 0, alpha: 1)
        l.fill(CGRect(x: 0, y: 0, width: 2, height: 1))
        l.endTransparencyLayer()
        #expect(l.pixel(0, 0) == RGBA8(r: 0, g: 255, b: 0, a: 255) && l.pixel(1, 0).a == 0)
    }

    @Test func shadowUsesTheBlendModeAndTheClip() {
        let ctx = makeContext(10, 1)
        ctx.clip(to: CGRect(x: 0, y: 0, width: 6, height: 1))
        ctx.setShadow(offset: CGSize(width: 3, height: 0), blur: 0, color: CGColor(red: 0, green: 0, blue: 1, alpha: 1))
        ctx.fill(CGRect(x: 0, y: 0, width: 2, height: 1))
        #expect(ctx.pixel(1, 0) == RGBA8(r: 0, g: 0, b: 0, a: 255))
        #expect(ctx.pixel(3, 0) == RGBA8(r: 0, g: 0, b: 255, a: 255) && ctx.pixel(4, 0).b == 255 && ctx.pixel(2, 0).a == 0)
        // In copy mode the shadow replaces only the pixels it covers.
        let cp = makeContext(10, 1)
        cp.setFillColor(red: 0, green: 1, blue: 0, alpha: 1)
        cp.fill(CGRect(x: 0, y: 0, width: 10, height: 1))
        cp.setBlendMode(.copy)
        cp.setShadow(offset: CGSize(width: 4, height: 0), blur: 0, color: CGColor(red: 0, green: 0, blue: 1, alpha: 0.5))
        cp.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        cp.fill(CGRect(x: 0, y: 0, width: 2, height: 1))
        #expect(cp.pixel(0, 0) == RGBA8(r: 255, g: 0, b: 0, a: 255))
        #expect(cp.pixel(4, 0) == RGBA8(r: 0, g: 0, b: 128, a: 128))   // copied shadow colour
        #expect(cp.pixel(3, 0) == RGBA8(r: 0, g: 255, b: 0, a: 255) && cp.pixel(8, 0) == RGBA8(r: 0, g: 255, b: 0, a: 255))
        // The shadow of a shape left of the bitmap still falls inside; the clip stops it at 6.
        ctx.fill(CGRect(x: -4, y: 0, width: 12, height: 1))
        #expect(ctx.pixel(5, 0) == RGBA8(r: 0, g: 0, b: 0, a: 255) && ctx.pixel(7, 0).a == 0)
    }
}

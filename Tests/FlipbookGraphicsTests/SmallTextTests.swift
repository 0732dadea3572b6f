import Testing
@testable import FlipbookGraphics
import FlipbookRaster
import Foundation

/// Small text drawn by `_drawText` (one path per line, issue 41; the glyph mask cache of issue
/// 37, item 12, before it) against the exact reference: the same glyphs (HarfBuzz-shaped,
/// unhinted FreeType outlines in font units) filled as one path at their exact, unrounded
/// positions by the exact-area rasterizer and composited by the same rule. The drawing differs
/// from it only by where glyph origins and outline points were rounded to (docs/text.md, "One
/// path per line").
@Suite struct SmallTextTests {
    static let corpus = "The quick brown fox jumps over the lazy dog. Pack my box with five dozen liquor jugs! "
        + "How vexingly quick daft zebras jump; sphinx of black quartz, judge my vow. 0123456789 (AV Wa To fi fl) "
    static let pad = 4.0

    /// Six lines of 60 characters of the corpus (line i from offset 37 i), one paragraph: the
    /// lines' baselines fall at six different phases within the pixel.
    static func layout(size: Double) -> TextLayout {
        let c = Array(corpus)
        let s = (0..<6).map { i in String((0..<60).map { c[(i * 37 + $0) % c.count] }) }.joined(separator: "\n")
        let scalars = s.unicodeScalars.map(\.value)
        return TextLayout(scalars: scalars, styleOf: Array(repeating: 0, count: scalars.count),
                          styles: [TextStyle(font: .bundledDefault, size: size)], width: 4000, height: 4000,
                          wrapped: false, truncation: .none, alignment: .natural)
    }

    /// Black text on white at `scale` (a backing store's CTM), origin (4, 4) pt: the masked
    /// path (`_drawText`), or the exact reference. Returns the bitmap and its line boxes.
    static func render(size: Double, scale: Double, exact: Bool) -> (width: Int, pixels: [UInt32], boxes: [_IRect]) {
        let l = layout(size: size)
        let w = Int(((2 * pad + size * 40) * scale).rounded(.up)), h = Int(((2 * pad + l.size.height) * scale).rounded(.up))
        let ctx = CGContext(data: nil, width: w, height: h, bitsPerComponent: 8, bytesPerRow: 0,
                            space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
        // y down, as a layer's backing store (a bitmap context is y-up: its CTM flips y, and
        // `_drawText` would take the exact path — comparing the reference with itself)
        ctx._orientTopDown()
        ctx.setFillColor(CGColor(red: 1, green: 1, blue: 1, alpha: 1))
        ctx.fill(CGRect(x: 0, y: 0, width: w, height: h))
        ctx.scaleBy(x: CGFloat(scale), y: CGFloat(scale))
        let black = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        let origin = CGPoint(x: pad, y: pad)
        if exact {
            var path = RasterPath()
            for g in l.glyphs {
                let k = g.size / Double(g.font.unitsPerEm)
                let t = RasterTransform(a: k, b: 0, c: 0, d: -k, tx: pad + g.x, ty: pad + g.y).concatenating(ctx._rasterCTM)
                path.append(g.font._outline(g.glyph), transform: t)
            }
            ctx._fillDevice(path, rule: .winding, color: black)
        } else {
            ctx._drawText(l, at: origin, defaultColor: black)
        }
        // Each line's box: its advance width × ascent to descent, in device pixels (outward).
        let f = CGFont.bundledDefault, k = size / Double(f.unitsPerEm)
        let boxes = l.lines.map { ln in
            _IRect(x0: Int(((pad + ln.x) * scale).rounded(.down)), y0: Int(((pad + ln.baseline - Double(f.ascent) * k) * scale).rounded(.down)),
                   x1: Int(((pad + ln.x + ln.width) * scale).rounded(.up)), y1: Int(((pad + ln.baseline - Double(f.descent) * k) * scale).rounded(.up)))
        }
        let px = ctx.data!.assumingMemoryBound(to: UInt32.self)
        return (w, Array(UnsafeBufferPointer(start: px, count: w * h)), boxes)
    }

    /// 9, 14, 24 and 36 pt Latin text at scale 2 is within a mean |Δ| of 0.1 (per channel, over
    /// the line boxes' pixels) of the exact reference, and no pixel is off by more than 2: one
    /// path per line with origins on the rasterizer's 1/256 px differs from it by rounding only
    /// (measured 0.060, 0.048, 0, 0; max 2, 2, 0, 0 — at 24 and 36 pt every origin is on the
    /// 1/256 px grid). The glyph mask cache before it (a 1/32–1/8 px grid, masks summed) was
    /// 0.40, 0.29, 0.27, 0.41; with origins floored to 1/4 px 6.6, 4.7, 2.5 and 1.6, ~100 off.
    @Test(arguments: [9.0, 14, 24, 36])
    func latinTextAtScale2MatchesTheExactReference(_ size: Double) {
        let a = Self.render(size: size, scale: 2, exact: false), b = Self.render(size: size, scale: 2, exact: true)
        // the pixels of the line boxes, each once (neighbouring lines' boxes share a row)
        var inBox = [Bool](repeating: false, count: b.pixels.count)
        for r in b.boxes { for y in r.y0..<r.y1 { for x in r.x0..<r.x1 { inBox[y * b.width + x] = true } } }
        var sum = 0, n = 0, worst = 0
        for i in inBox.indices where inBox[i] {
            for shift: UInt32 in [0, 8, 16] {
                let d = abs(Int((a.pixels[i] >> shift) & 255) - Int((b.pixels[i] >> shift) & 255))
                sum += d; worst = max(worst, d)
            }
            n += 3
        }
        let mean = Double(sum) / Double(n)
        #expect(n > 10_000)
        #expect(mean <= 0.1, "\(size) pt: mean |Δ| \(mean) over \(n / 3) pixels")
        #expect(worst <= 2, "\(size) pt: max |Δ| \(worst)")
    }

    /// A layout's lines are rasterized once and kept: the second drawing (from the kept
    /// coverage) is byte-identical to the first, and to the first drawing of a new layout of a
    /// new font made from the same bytes (nothing carried over); a changed CTM draws anew, and
    /// coming back to the first CTM gives the first bytes again.
    @Test func redrawsAreByteIdenticalToTheFirstDrawing() {
        func draw(_ l: TextLayout, dx: Double = 0) -> [UInt8] {
            let ctx = CGContext(data: nil, width: 300, height: 60, bitsPerComponent: 8, bytesPerRow: 0,
                                space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
            ctx._orientTopDown()                                             // y down: the kept-lines path
            ctx.translateBy(x: CGFloat(dx), y: 0)
            ctx.scaleBy(x: 2, y: 2)
            ctx._drawText(l, at: CGPoint(x: 1.3, y: 2.7), defaultColor: CGColor(red: 0.2, green: 0.4, blue: 0.9, alpha: 0.8))
            return Array(UnsafeBufferPointer(start: ctx.data!.assumingMemoryBound(to: UInt8.self), count: 300 * 60 * 4))
        }
        func layout(_ f: CGFont) -> TextLayout {
            let s = "Waffle AV To fi 0123 ffi", scalars = s.unicodeScalars.map(\.value)
            return TextLayout(scalars: scalars, styleOf: Array(repeating: 0, count: scalars.count),
                              styles: [TextStyle(font: f, size: 11.3)], width: 1000, height: 1000,
                              wrapped: false, truncation: .none, alignment: .natural)
        }
        let l = layout(.bundledDefault)
        let first = draw(l)
        #expect(first.contains { $0 != 0 })
        #expect(draw(l) == first)                                            // from the kept coverage
        let fresh = CGFont(CGDataProvider(data: CGFont.bundledFontData(0)))!
        #expect(draw(layout(fresh)) == first)                                // a new font, a new layout
        let moved = draw(l, dx: 0.3)
        #expect(moved != first)                                              // 0.3 px: drawn anew
        #expect(draw(l) == first)
        #expect(draw(l, dx: 0.3) == moved)
    }

    /// The kept coverage is painted through the state like any fill: a clip of the whole bitmap
    /// gives the bytes of no clip (the clip's rows, not the span kernel's batch); `.sourceAtop`
    /// on an opaque background is source-over (the general compositor's path, within 1 level);
    /// without antialiasing every pixel is background or the full colour.
    @Test func keptLinesPaintThroughClipBlendModeAndAntialiasing() {
        let l = Self.layout(size: 9)
        func draw(_ setUp: (CGContext) -> Void) -> [UInt8] {
            let ctx = CGContext(data: nil, width: 400, height: 140, bitsPerComponent: 8, bytesPerRow: 0,
                                space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
            ctx._orientTopDown()
            ctx.setFillColor(CGColor(red: 1, green: 1, blue: 1, alpha: 1))
            ctx.fill(CGRect(x: 0, y: 0, width: 400, height: 140))
            ctx.scaleBy(x: 1.5, y: 1.5)
            setUp(ctx)
            ctx._drawText(l, at: CGPoint(x: 2.25, y: 1.6), defaultColor: CGColor(red: 0.1, green: 0.3, blue: 0.8, alpha: 1))
            return Array(UnsafeBufferPointer(start: ctx.data!.assumingMemoryBound(to: UInt8.self), count: 400 * 140 * 4))
        }
        let plain = draw { _ in }
        #expect(plain.contains { $0 != 255 })
        #expect(draw { $0.clip(to: CGRect(x: -10, y: -10, width: 1000, height: 1000)) } == plain)
        let atop = draw { $0.setBlendMode(.sourceAtop) }
        #expect(zip(atop, plain).allSatisfy { abs(Int($0) - Int($1)) <= 1 })
        #expect(atop.contains { $0 != 255 })
        let aliased = draw { $0.setShouldAntialias(false) }
        let ink: [UInt8] = [26, 77, 204, 255]                // the colour, premultiplied, opaque
        for i in stride(from: 0, to: aliased.count, by: 4) {
            let px = Array(aliased[i..<(i + 4)])
            #expect(px == [255, 255, 255, 255] || px == ink)
        }
        #expect(aliased.contains { $0 == 26 })
    }
}

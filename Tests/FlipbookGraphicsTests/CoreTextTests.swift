import Testing
import Foundation
import FlipbookPixels
@testable import FlipbookGraphics

/// Core Text's line and frame API (CTLine, CTFramesetter, CTFrame) on Flipbook's typesetter.
/// Every expectation cites where Apple states it: the Core Text reference pages
/// (developer.apple.com/documentation/coretext) and the header comments of CTLine.h, CTFrame.h,
/// CTFramesetter.h, CTFont.h, CTStringAttributes.h and CTParagraphStyle.h.
///
/// The tests set the CTM themselves (`baseCTM`), so they hold whatever a new bitmap context's
/// CTM is.
@Suite struct CoreTextTests {
    static let size: CGFloat = 40
    static let font = CTFontCreateWithName("DejaVu Sans", size, nil)
    static var k: Double { Double(size) / Double(CGFont.bundledDefault.unitsPerEm) }

    static func string(_ s: String, _ attrs: [NSAttributedString.Key: Any] = [:]) -> NSAttributedString {
        var a = attrs
        if a[.font] == nil { a[.font] = font }
        return NSAttributedString(string: s, attributes: a)
    }

    /// The nominal advance of a character in DejaVu Sans at `size`, in points.
    static func advance(_ c: Unicode.Scalar) -> Double {
        var g = CGFont.bundledDefault.glyph(for: c), a: Int32 = 0
        _ = CGFont.bundledDefault.getGlyphAdvances(glyphs: &g, count: 1, advances: &a)
        return Double(a) * k
    }

    /// A `w` × `h` context, y up (a new bitmap context: Core Graphics' own convention, origin
    /// bottom-left) or y down (flipped to UIKit's orientation, origin top-left).
    static func context(_ w: Int, _ h: Int, yUp: Bool) -> CGContext {
        let c = CGContext(data: nil, width: w, height: h, bitsPerComponent: 8, bytesPerRow: 0,
                          space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
        if !yUp { c.translateBy(x: 0, y: CGFloat(h)); c.scaleBy(x: 1, y: -1) }
        return c
    }

    /// Bytes of the context's pixels (rows top to bottom in memory).
    static func bytes(_ c: CGContext) -> [UInt8] { c.makeImage()!.pixelBuffer.bytes }

    /// The bounding box of pixels with alpha > 0 in device pixels (rows from the top of the
    /// bitmap), restricted to rows `rows`; nil when nothing is inked.
    static func ink(_ c: CGContext, rows: Range<Int>? = nil) -> (x0: Int, y0: Int, x1: Int, y1: Int)? {
        let img = c.makeImage()!.pixelBuffer
        var r: (x0: Int, y0: Int, x1: Int, y1: Int)? = nil
        for y in rows ?? 0..<img.height {
            for x in 0..<img.width where img[x, y].a != 0 {
                r = r.map { (min($0.x0, x), min($0.y0, y), max($0.x1, x + 1), max($0.y1, y + 1)) } ?? (x, y, x + 1, y + 1)
            }
        }
        return r
    }

    /// The declarations read as Apple's Swift API (Core Text headers as imported into Swift):
    /// each line compiles only if labels, optionality, parameter and result types match.
    @Test func signaturesMatchApple() {
        let _: (CFAttributedString) -> CTLine = CTLineCreateWithAttributedString
        let _: (CTLine, CGContext) -> Void = CTLineDraw
        let _: (CTLine, UnsafeMutablePointer<CGFloat>?, UnsafeMutablePointer<CGFloat>?, UnsafeMutablePointer<CGFloat>?) -> Double
            = CTLineGetTypographicBounds
        let _: (CTLine, CGContext?) -> CGRect = CTLineGetImageBounds
        let _: (CTLine) -> CFIndex = CTLineGetGlyphCount
        let _: (CTLine) -> CFRange = CTLineGetStringRange
        let _: (CTLine) -> Double = CTLineGetTrailingWhitespaceWidth
        let _: (CTLine, CGFloat, Double) -> Double = CTLineGetPenOffsetForFlush
        let _: (CTLine, CFIndex, UnsafeMutablePointer<CGFloat>?) -> CGFloat = CTLineGetOffsetForStringIndex
        let _: (CFAttributedString) -> CTFramesetter = CTFramesetterCreateWithAttributedString
        let _: (CTFramesetter, CFRange, CFDictionary?, CGSize, UnsafeMutablePointer<CFRange>?) -> CGSize
            = CTFramesetterSuggestFrameSizeWithConstraints
        let _: (CTFramesetter, CFRange, CGPath, CFDictionary?) -> CTFrame = CTFramesetterCreateFrame
        let _: (CTFrame, CGContext) -> Void = CTFrameDraw
        let _: (CTFrame) -> CFArray = CTFrameGetLines
        let _: (CTFrame, CFRange, UnsafeMutablePointer<CGPoint>) -> Void = CTFrameGetLineOrigins
        let _: (CTFrame) -> CFRange = CTFrameGetVisibleStringRange
        let _: (CTFrame) -> CFRange = CTFrameGetStringRange
        let _: (CTFrame) -> CGPath = CTFrameGetPath
        let _: (CTFont) -> CGFloat = CTFontGetAscent
        let _: (CTFont) -> CGFloat = CTFontGetDescent
        let _: (CTFont) -> CGFloat = CTFontGetLeading
        let _: (CTFont) -> UInt32 = CTFontGetUnitsPerEm
        let _: (UnsafePointer<CTParagraphStyleSetting>?, Int) -> CTParagraphStyle = CTParagraphStyleCreate
        let _: (CTParagraphStyle, CTParagraphStyleSpecifier, Int, UnsafeMutableRawPointer) -> Bool = CTParagraphStyleGetValueForSpecifier
        let _: CFString = kCTFontAttributeName
        let _: CFString = kCTForegroundColorAttributeName
        let _: CFString = kCTForegroundColorFromContextAttributeName
        let _: CFString = kCTKernAttributeName
        let _: CFString = kCTParagraphStyleAttributeName
        // Raw values as Apple's (the keys Core Text and Foundation share).
        #expect(kCTFontAttributeName as String == NSAttributedString.Key.font.rawValue)
        #expect(kCTKernAttributeName as String == NSAttributedString.Key.kern.rawValue)
        #expect(kCTParagraphStyleAttributeName as String == NSAttributedString.Key.paragraphStyle.rawValue)
        // A paragraph style's alignment reads back.
        var a = CTTextAlignment.natural
        #expect(CTParagraphStyleGetValueForSpecifier(Self.centered(), .alignment, 1, &a) && a == .center)
    }

    // MARK: Metrics

    /// CTLineGetTypographicBounds: "The typographic width of the line. … ascent: the ascent of
    /// the line. descent: the descent of the line. leading: the leading of the line" (CTLine.h),
    /// i.e. the fonts' ascent/descent/leading (CTFontGetAscent/Descent/Leading: "the scaled
    /// font-ascent metric", descent positive). The width is the sum of the advances and includes
    /// trailing whitespace (CTLineGetTrailingWhitespaceWidth is reported separately).
    @Test func typographicBoundsAreTheFontsMetrics() {
        let f = CGFont.bundledDefault
        #expect(CTFontGetAscent(Self.font) == CGFloat(Double(f.ascent) * Self.k))
        #expect(CTFontGetDescent(Self.font) == CGFloat(-Double(f.descent) * Self.k))
        #expect(CTFontGetDescent(Self.font) > 0)
        #expect(CTFontGetLeading(Self.font) == CGFloat(Double(f.leading) * Self.k))

        // Digits have no kerning pairs: the width is the sum of the nominal advances.
        let line = CTLineCreateWithAttributedString(Self.string("1234 "))
        var a: CGFloat = 0, d: CGFloat = 0, l: CGFloat = 0
        let w = CTLineGetTypographicBounds(line, &a, &d, &l)
        let expected = 4 * Self.advance("1") + Self.advance(" ")
        #expect(abs(w - expected) < 1e-9, "\(w) vs \(expected)")
        #expect(a == CTFontGetAscent(Self.font) && d == CTFontGetDescent(Self.font) && l == CTFontGetLeading(Self.font))
        #expect(abs(CTLineGetTrailingWhitespaceWidth(line) - Self.advance(" ")) < 1e-9)
        // Nil pointers are allowed ("Pass NULL if you don't need this value").
        #expect(CTLineGetTypographicBounds(line, nil, nil, nil) == w)

        // A character the font lacks is drawn with a fallback font (Devanagari: Noto Sans
        // Devanagari); the line's ascent and descent are the largest of its fonts'.
        let deva = CTLineCreateWithAttributedString(Self.string("1क"))
        let n = CGFont.bundledDevanagari
        let kn = Double(Self.size) / Double(n.unitsPerEm)
        _ = CTLineGetTypographicBounds(deva, &a, &d, &l)
        #expect(abs(Double(a) - max(Double(f.ascent) * Self.k, Double(n.ascent) * kn)) < 1e-9)
        #expect(abs(Double(d) - max(-Double(f.descent) * Self.k, -Double(n.descent) * kn)) < 1e-9)

        // No font attribute: Core Text's default, Helvetica 12 (CTStringAttributes.h,
        // kCTFontAttributeName: "Default is Helvetica 12") — here the bundled default at 12 pt.
        let plain = CTLineCreateWithAttributedString(NSAttributedString(string: "1"))
        #expect(abs(CTLineGetTypographicBounds(plain, &a, nil, nil) - Self.advance("1") * 12 / Double(Self.size)) < 1e-9)
        #expect(abs(Double(a) - Double(f.ascent) * 12 / Double(f.unitsPerEm)) < 1e-9)
        // An empty string: an empty line.
        let empty = CTLineCreateWithAttributedString(NSAttributedString(string: ""))
        #expect(CTLineGetTypographicBounds(empty, nil, nil, nil) == 0 && CTLineGetGlyphCount(empty) == 0)
    }

    /// CTLineGetGlyphCount: "the total glyph count for the line" (CTLine.h) — glyphs after
    /// shaping: a ligature is one glyph for several characters; a base and a combining mark the
    /// font composes are one glyph, two when it does not. CTLineGetStringRange: "the range of
    /// characters that originally spawned the glyphs", in UTF-16 units.
    @Test func glyphCountCountsShapedGlyphs() {
        let office = CTLineCreateWithAttributedString(Self.string("office"))
        #expect(CTLineGetGlyphCount(office) == 4)                        // o, ffi, c, e
        #expect(CTLineGetStringRange(office) == CFRange(location: 0, length: 6))
        let composed = CTLineCreateWithAttributedString(Self.string("e\u{301}"))   // e + combining acute → é
        #expect(CTLineGetGlyphCount(composed) == 1)
        let stacked = CTLineCreateWithAttributedString(Self.string("q\u{301}"))    // no precomposed q́: base + mark
        #expect(CTLineGetGlyphCount(stacked) == 2)
        #expect(CTLineGetStringRange(stacked) == CFRange(location: 0, length: 2))
        // Characters outside the BMP are two UTF-16 units.
        let astral = CTLineCreateWithAttributedString(Self.string("a\u{1D400}b"))
        #expect(CTLineGetStringRange(astral) == CFRange(location: 0, length: 4))
        // Caret offsets: before "ffi" at the o's advance; inside the ligature, shared evenly.
        let o = Self.advance("o")
        #expect(abs(Double(CTLineGetOffsetForStringIndex(office, 1, nil)) - o) < 1e-9)
        let ffi = Double(CTLineGetOffsetForStringIndex(office, 4, nil)) - o
        #expect(abs(Double(CTLineGetOffsetForStringIndex(office, 2, nil)) - (o + ffi / 3)) < 1e-9)
        #expect(Double(CTLineGetOffsetForStringIndex(office, 6, nil)) == CTLineGetTypographicBounds(office, nil, nil, nil))
    }

    /// kCTKernAttributeName: "The kerning attribute indicate how many points the following
    /// character should be shifted from its default offset as defined by the current
    /// character's font in points … If this attribute is set to 0.0, no kerning will be done at
    /// all" (CTStringAttributes.h). Flipbook adds it after every character, the last included.
    @Test func kernAttributeShiftsAndZeroTurnsKerningOff() {
        let plain = CTLineGetTypographicBounds(CTLineCreateWithAttributedString(Self.string("1234")), nil, nil, nil)
        let kerned = CTLineCreateWithAttributedString(Self.string("1234", [.kern: 5.0]))
        #expect(abs(CTLineGetTypographicBounds(kerned, nil, nil, nil) - (plain + 20)) < 1e-9)
        let key = NSAttributedString.Key(kCTKernAttributeName as String)
        let tight = CTLineCreateWithAttributedString(Self.string("1234", [key: NSNumber(value: -2.5)]))
        #expect(abs(CTLineGetTypographicBounds(tight, nil, nil, nil) - (plain - 10)) < 1e-9)
        // "AV" is pair-kerned by the font; a kern of 0 leaves the two nominal advances.
        let av = CTLineGetTypographicBounds(CTLineCreateWithAttributedString(Self.string("AV")), nil, nil, nil)
        let unkerned = CTLineGetTypographicBounds(CTLineCreateWithAttributedString(Self.string("AV", [.kern: 0])), nil, nil, nil)
        #expect(av < Self.advance("A") + Self.advance("V") - 0.5)
        #expect(abs(unkerned - (Self.advance("A") + Self.advance("V"))) < 1e-9)
    }

    /// A line is one line: "Without a typesetter object, the line cannot be properly broken"
    /// (CTLine.h, CTLineCreateWithAttributedString). Flipbook's choices where Apple is silent:
    /// a line separator in it draws nothing and takes no width; a tab is blank up to the next
    /// 28-point tab stop (the default tab stops, 12 left tabs every 28 points — NSParagraphStyle
    /// `tabStops`).
    @Test func breaksAndTabsInALine() {
        let ab = CTLineCreateWithAttributedString(Self.string("1\n1"))
        #expect(CTLineGetGlyphCount(ab) == 2 && CTLineGetStringRange(ab) == CFRange(location: 0, length: 3))
        #expect(abs(CTLineGetTypographicBounds(ab, nil, nil, nil) - 2 * Self.advance("1")) < 1e-9)
        // At the default 12 points (no font attribute): "1" is 7.6 points wide, the tab ends at 28.
        let tab = CTLineCreateWithAttributedString(NSAttributedString(string: "1\t1"))
        let one = Self.advance("1") * 12 / Double(Self.size)
        #expect(abs(CTLineGetTypographicBounds(tab, nil, nil, nil) - (28 + one)) < 1e-9)
        let c = Self.context(60, 30, yUp: true)
        c.textPosition = CGPoint(x: 2, y: 10)
        CTLineDraw(tab, c)
        // Ink on both sides of the tab, nothing in it (no .notdef box for the tab).
        let img = c.makeImage()!.pixelBuffer
        func inked(_ xs: Range<Int>) -> Bool { xs.contains { x in (0..<30).contains { img[x, $0].a != 0 } } }
        #expect(inked(2..<10) && inked(30..<38))
        #expect(!inked(Int((2 + one).rounded(.up))..<30))
    }

    // MARK: Drawing

    /// CTLineDraw: "This is a convenience call, since the line could be drawn run-by-run by
    /// getting the glyph runs and accessing the glyphs out of them … This call also expects a
    /// text matrix with `y` values increasing from bottom to top" (CTLine.h) — the same pixels
    /// as showGlyphs of the line's glyphs at their positions, at the text position (y up in
    /// text space, then the text matrix and the CTM). Flipbook then advances the text position
    /// by the line's width (Apple: "may leave the graphics context in any state").
    @Test(arguments: [true, false])
    func lineDrawIsShowGlyphsOfItsGlyphs(yUp: Bool) {
        let line = CTLineCreateWithAttributedString(Self.string("Hello, Wörld — fi", [.foregroundColor: CGColor.black]))
        let a = Self.context(420, 100, yUp: yUp), b = Self.context(420, 100, yUp: yUp)
        // In a y-down space the text matrix flips glyphs upright (UIKit's recipe).
        let tm = yUp ? CGAffineTransform.identity : CGAffineTransform(scaleX: 1, y: -1)
        for c in [a, b] { c.textMatrix = tm; c.textPosition = CGPoint(x: 10.3, y: yUp ? 30.6 : 69.4) }
        CTLineDraw(line, a)
        b.setFont(Self.font.graphicsFont); b.setFontSize(Self.size); b.setFillColor(.black)
        b.showGlyphs(line.glyphs.map { CGGlyph($0.glyph) }, at: line.glyphs.map { CGPoint(x: $0.x, y: $0.y) })
        let pa = Self.bytes(a)
        #expect(pa == Self.bytes(b))
        // Upright in both: the baseline is device row 69.4; the ink is mostly above it.
        let ink = Self.ink(a)!
        #expect(ink.y0 < 40 && ink.y1 <= 80, "\(ink)")
        let w = CTLineGetTypographicBounds(line, nil, nil, nil)
        #expect(abs(Double(a.textPosition.x) - (10.3 + w)) < 1e-9)
        #expect(a.textPosition.y == (yUp ? 30.6 : 69.4))
    }

    /// CTLineGetImageBounds: "A rectangle that tightly encloses the paths of the line's glyphs,
    /// which will be translated by the supplied context's text position … NULL, in which case
    /// the bounds are relative to CGPointZero" (CTLine.h) — so its pixel rounding-out is
    /// exactly the inked pixels.
    @Test func imageBoundsEncloseExactlyTheInk() {
        let line = CTLineCreateWithAttributedString(Self.string("Quartz gj"))
        let c = Self.context(300, 100, yUp: true)
        c.textPosition = CGPoint(x: 12.25, y: 31.6)
        let r = CTLineGetImageBounds(line, c)
        CTLineDraw(line, c)
        // y up: device row = 100 − y.
        let expected = (x0: Int(r.minX.rounded(.down)), y0: Int((100 - r.maxY).rounded(.down)),
                        x1: Int(r.maxX.rounded(.up)), y1: Int((100 - r.minY).rounded(.up)))
        let ink = Self.ink(c)!
        #expect(ink == expected, "ink \(ink) vs bounds \(r)")
        // Without a context: relative to the line's origin; descenders below the baseline.
        let moved = CTLineGetImageBounds(line, nil).offsetBy(dx: 12.25, dy: 31.6)
        #expect(abs(moved.minX - r.minX) < 1e-9 && abs(moved.minY - r.minY) < 1e-9 && abs(moved.width - r.width) < 1e-9)
        #expect(CTLineGetImageBounds(line, nil).minY < 0)
        // No ink (Flipbook's choice; Apple's union of no rectangles is unspecified): an empty
        // rectangle at the text position.
        c.textPosition = CGPoint(x: 7, y: 9)
        #expect(CTLineGetImageBounds(CTLineCreateWithAttributedString(Self.string("  ")), c) == CGRect(x: 7, y: 9, width: 0, height: 0))
    }

    /// Colours: kCTForegroundColorAttributeName "Value must be a CGColorRef. Default value is
    /// black."; kCTForegroundColorFromContextAttributeName: "Never set a foreground color in the
    /// CGContext; use what is set as the context's fill color" (CTStringAttributes.h) — the
    /// fill colour is used only then.
    @Test func foregroundColourDefaultsToBlackNotTheFillColour() {
        func drawn(_ attrs: [NSAttributedString.Key: Any]) -> RGBA8 {
            let c = Self.context(60, 60, yUp: true)
            c.setFillColor(CGColor(red: 1, green: 0, blue: 0, alpha: 1))
            c.textPosition = CGPoint(x: 5, y: 10)
            CTLineDraw(CTLineCreateWithAttributedString(Self.string("█", attrs)), c)   // U+2588 FULL BLOCK
            return c.makeImage()!.pixelBuffer[20, 30]
        }
        #expect(drawn([:]) == RGBA8(r: 0, g: 0, b: 0, a: 255))
        #expect(drawn([.foregroundColor: CGColor(red: 0, green: 0, blue: 1, alpha: 1)]) == RGBA8(r: 0, g: 0, b: 255, a: 255))
        let ct = NSAttributedString.Key(kCTForegroundColorAttributeName as String)
        #expect(drawn([ct: CGColor(red: 0, green: 1, blue: 0, alpha: 1)]) == RGBA8(r: 0, g: 255, b: 0, a: 255))
        let fromContext = NSAttributedString.Key(kCTForegroundColorFromContextAttributeName as String)
        #expect(drawn([fromContext: true]) == RGBA8(r: 255, g: 0, b: 0, a: 255))
    }

    // MARK: Frames

    static func centered() -> CTParagraphStyle {
        var alignment = CTTextAlignment.center
        return withUnsafePointer(to: &alignment) { p in
            var s = CTParagraphStyleSetting(spec: .alignment, valueSize: MemoryLayout<CTTextAlignment>.size, value: p)
            return CTParagraphStyleCreate(&s, 1)
        }
    }

    /// CTFramesetterCreateFrame / CTFrameDraw: lines fill the path from its top — Core Text's
    /// frame coordinates are y up, and CTFrameGetLineOrigins gives "the origin of the
    /// corresponding line in the array of lines returned by CTFrameGetLines, relative to the
    /// origin of the frame's path" (CTFrame.h) — each a line height below the previous;
    /// kCTTextAlignmentCenter centres each line (CTParagraphStyle.h). CTFrameGetLines' lines
    /// and CTLineGetStringRange cover the string, the newline in its line.
    @Test func frameCentresTwoLines() {
        let text = Self.string("Hello\nwide world", [.paragraphStyle: Self.centered()])
        let rect = CGRect(x: 20, y: 10, width: 300, height: 150)
        let frame = CTFramesetterCreateFrame(CTFramesetterCreateWithAttributedString(text), CFRange(location: 0, length: 0),
                                             CGPath(rect: rect, transform: nil), nil)
        let lines = CTFrameGetLines(frame) as! [CTLine]
        #expect(lines.count == 2)
        var origins = [CGPoint](repeating: .zero, count: 2)
        CTFrameGetLineOrigins(frame, CFRange(location: 0, length: 0), &origins)
        let ascent = Double(CTFontGetAscent(Self.font))
        let height = ascent + Double(CTFontGetDescent(Self.font) + CTFontGetLeading(Self.font))
        #expect(abs(origins[0].y - (150 - ascent)) < 1e-9)
        #expect(abs(origins[0].y - origins[1].y - height) < 1e-9)
        for (line, o) in zip(lines, origins) {
            let w = CTLineGetTypographicBounds(line, nil, nil, nil) - CTLineGetTrailingWhitespaceWidth(line)
            #expect(abs(o.x - (300 - w) / 2) < 1e-9)
        }
        #expect(CTLineGetStringRange(lines[0]) == CFRange(location: 0, length: 6))      // "Hello\n"
        #expect(CTLineGetStringRange(lines[1]) == CFRange(location: 6, length: 10))
        #expect(CTFrameGetVisibleStringRange(frame) == CFRange(location: 0, length: 16))

        // Pixels: each line's ink is its image bounds at its origin, centred in the rectangle.
        let c = Self.context(340, 170, yUp: true)
        CTFrameDraw(frame, c)
        for (i, line) in lines.enumerated() {
            let b = CTLineGetImageBounds(line, nil).offsetBy(dx: rect.minX + origins[i].x, dy: rect.minY + origins[i].y)
            let rows = Int((170 - b.maxY).rounded(.down))..<Int((170 - b.minY).rounded(.up))
            let ink = Self.ink(c, rows: rows)!
            #expect(ink.x0 == Int(b.minX.rounded(.down)) && ink.x1 == Int(b.maxX.rounded(.up)), "line \(i): \(ink) vs \(b)")
            #expect(abs(Double(ink.x0 + ink.x1) / 2 - Double(rect.midX)) < 3, "line \(i) ink \(ink)")
        }
        // The first line's ink starts within its line box at the rectangle's top.
        let top = Self.ink(c)!
        #expect(top.y0 >= Int(170 - rect.maxY) && top.y0 < Int(170 - rect.maxY) + Int(ascent))
    }

    /// CTFramesetterSuggestFrameSizeWithConstraints: "A value of CGFLOAT_MAX for either
    /// dimension indicates that it should be treated as unconstrained"; fitRange: "The range of
    /// the string that actually fit in the constrained size"; the result: "The actual dimensions
    /// for the given string range and constraints" (CTFramesetter.h). A frame shows the lines
    /// that fit (CTFrameGetVisibleStringRange).
    @Test func suggestedSizeAndFitRange() {
        let setter = CTFramesetterCreateWithAttributedString(Self.string("1111 2222 3333"))
        let one = 4 * Self.advance("1")
        let lineHeight = Double(CTFontGetAscent(Self.font) + CTFontGetDescent(Self.font) + CTFontGetLeading(Self.font))
        var fit = CFRange()
        let free = CTFramesetterSuggestFrameSizeWithConstraints(setter, CFRange(), nil,
                                                                CGSize(width: CGFloat.greatestFiniteMagnitude, height: .greatestFiniteMagnitude), &fit)
        #expect(abs(free.height - lineHeight) < 1e-9 && fit == CFRange(location: 0, length: 14))
        #expect(abs(free.width - (3 * one + 2 * Self.advance(" "))) < 1e-9)
        // Wider than one word, narrower than two: three lines, as wide as a word.
        let narrow = CTFramesetterSuggestFrameSizeWithConstraints(setter, CFRange(), nil,
                                                                  CGSize(width: one + 10, height: .greatestFiniteMagnitude), &fit)
        #expect(abs(narrow.height - 3 * lineHeight) < 1e-9 && abs(narrow.width - one) < 1e-9)
        // Room for two lines and a half: the third does not fit.
        let short = CTFramesetterSuggestFrameSizeWithConstraints(setter, CFRange(), nil,
                                                                 CGSize(width: one + 10, height: 2.5 * lineHeight), &fit)
        #expect(abs(short.height - 2 * lineHeight) < 1e-9 && fit == CFRange(location: 0, length: 10))
        let frame = CTFramesetterCreateFrame(setter, CFRange(location: 5, length: 0),
                                             CGPath(rect: CGRect(x: 0, y: 0, width: one + 10, height: 1.5 * lineHeight), transform: nil), nil)
        #expect(CTFrameGetStringRange(frame) == CFRange(location: 5, length: 9))
        #expect(CTFrameGetVisibleStringRange(frame) == CFRange(location: 5, length: 5))
        // Flipbook: a path that is not a rectangle is laid out in its bounding box.
        let oval = CTFramesetterCreateFrame(setter, CFRange(), CGPath(ellipseIn: CGRect(x: 0, y: 0, width: one + 10, height: 100), transform: nil), nil)
        let box = CTFramesetterCreateFrame(setter, CFRange(), CGPath(rect: CGRect(x: 0, y: 0, width: one + 10, height: 100), transform: nil), nil)
        #expect(CTFrameGetVisibleStringRange(oval) == CTFrameGetVisibleStringRange(box))
    }

    // MARK: Missing glyphs and emoji

    /// A character no font has (the style's font, then the bundled fallbacks; installed fonts
    /// are used only by name) is shaped to glyph 0, `.notdef`, of the style's font and drawn as
    /// that glyph — DejaVu Sans's is a hollow box — with its advance. Apple's Core Text draws
    /// such a character with its LastResort font (a placeholder box): visible, with a width, too.
    @Test func aGlyphNoFontHasDrawsTheNotdefBox() {
        let ch = "\u{4E2D}"                                            // 中: no bundled font has CJK
        #expect(CGFont.bundledDefault.glyph(for: "\u{4E2D}") == 0 && CGFont.bundledDevanagari.glyph(for: "\u{4E2D}") == 0)
        let line = CTLineCreateWithAttributedString(Self.string(ch))
        #expect(CTLineGetGlyphCount(line) == 1)
        #expect(line.glyphs[0].glyph == 0 && line.glyphs[0].font === Self.font.graphicsFont)
        var notdef: CGGlyph = 0, a: Int32 = 0
        _ = CGFont.bundledDefault.getGlyphAdvances(glyphs: &notdef, count: 1, advances: &a)
        #expect(abs(CTLineGetTypographicBounds(line, nil, nil, nil) - Double(a) * Self.k) < 1e-9)
        let c = Self.context(80, 80, yUp: true)
        c.textPosition = CGPoint(x: 10, y: 20)
        CTLineDraw(line, c)
        let ink = try! #require(Self.ink(c))
        // Hollow: the middle of the box is empty.
        #expect(c.makeImage()!.pixelBuffer[(ink.x0 + ink.x1) / 2, (ink.y0 + ink.y1) / 2].a == 0)
    }

    /// Emoji: Flipbook draws outlines only, in the foreground colour. An emoji a bundled font has
    /// as an outline — DejaVu Sans has the Emoticons block (U+1F600…) and the Miscellaneous
    /// Symbols and Dingbats it covers — is that monochrome outline; one no font has (🎉
    /// U+1F389, ✨ U+2728, 👍 U+1F44D) is the `.notdef` box, and a ZWJ sequence or a
    /// skin-tone modifier draws its parts side by side (zero-width joiners and variation
    /// selectors are blank and take no width). Apple draws the colour bitmap of Apple Color
    /// Emoji instead; colour fonts (sbix, CBDT, COLR layers) are not read here.
    @Test func emojiAreOutlinesOrTheNotdefBox() {
        let grin = CTLineCreateWithAttributedString(Self.string("\u{1F600}", [.foregroundColor: CGColor(red: 1, green: 0, blue: 0, alpha: 1)]))
        #expect(CTLineGetGlyphCount(grin) == 1 && grin.glyphs[0].glyph != 0)
        let c = Self.context(80, 80, yUp: true)
        c.textPosition = CGPoint(x: 10, y: 20)
        CTLineDraw(grin, c)
        let img = c.makeImage()!.pixelBuffer
        let ink = Self.ink(c)!
        var red = 0
        for y in ink.y0..<ink.y1 { for x in ink.x0..<ink.x1 where img[x, y].a == 255 { #expect(img[x, y] == RGBA8(r: 255, g: 0, b: 0, a: 255)); red += 1 } }
        #expect(red > 20)
        let party = CTLineCreateWithAttributedString(Self.string("\u{1F389}"))
        #expect(party.glyphs.map(\.glyph) == [0])
        // A heart with the emoji presentation selector: the heart and a blank, zero-width glyph.
        let heart = CTLineCreateWithAttributedString(Self.string("\u{2764}\u{FE0F}"))
        #expect(heart.glyphs.count == 2 && heart.glyphs[0].glyph != 0 && heart.glyphs[1].advance == 0)
        #expect(CGFont.bundledDefault._outlineBounds(heart.glyphs[1].glyph).isNull)
    }
}

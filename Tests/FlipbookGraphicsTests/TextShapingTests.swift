import Testing
@testable import FlipbookGraphics
import FlipbookRaster
import Foundation

/// Fonts and the typesetter: the bundled fonts, glyph coverage against exact outline areas,
/// shaping (kerning, ligatures, Arabic joining and direction, a Devanagari conjunct, combining
/// marks), line breaking, truncation, alignment, hostile input.
@Suite struct TextShapingTests {
    static let font = CGFont.bundledDefault

    static func layout(_ s: String, size: Double = 20, width: Double = 1000, height: Double = 1000, wrapped: Bool = false,
                       truncation: TextTruncation = .none, alignment: TextAlignment = .natural) -> TextLayout {
        let scalars = s.unicodeScalars.map(\.value)
        return TextLayout(scalars: scalars, styleOf: Array(repeating: 0, count: scalars.count),
                          styles: [TextStyle(font: font, size: size)], width: width, height: height,
                          wrapped: wrapped, truncation: truncation, alignment: alignment)
    }

    static func advance(_ c: Unicode.Scalar, size: Double = 20) -> Double {
        var g = font.glyph(for: c), a: Int32 = 0
        _ = font.getGlyphAdvances(glyphs: &g, count: 1, advances: &a)
        return Double(a) * size / Double(font.unitsPerEm)
    }

    // MARK: Fonts

    @Test func bundledFontsAreCompiledIn() {
        let f = CGFont.bundledDefault
        #expect(f.postScriptName == "DejaVuSans")
        #expect(f.fullName == "DejaVu Sans")
        #expect(f.unitsPerEm == 2048)
        #expect(f.numberOfGlyphs > 5000)
        #expect(f.ascent > 0 && f.descent < 0)
        #expect(CGFont.bundledDevanagari.postScriptName == "NotoSansDevanagari-Regular")
        // By name, case-insensitively, without fontconfig (the bytes are in the library).
        #expect(CGFont("dejavu sans")?.postScriptName == "DejaVuSans")
        #expect(CGFont("NotoSansDevanagari-Regular")?.unitsPerEm == CGFont.bundledDevanagari.unitsPerEm)
        // A name nothing has is nil, never fontconfig's nearest match.
        #expect(CGFont("No Such Font Flipbook 1234") == nil)
        #expect(CGFont(CGDataProvider(data: Data([1, 2, 3, 4]))) == nil)
        #expect(CGFont(contentsOfFile: "/nonexistent/font.ttf") == nil)
    }

    /// An installed font by family and PostScript name through fontconfig (when the machine has
    /// DejaVu Sans Mono; the bundled fonts never need this).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf")))
    func installedFontsByName() {
        #expect(CGFont("DejaVu Sans Mono")?.postScriptName == "DejaVuSansMono")
        #expect(CGFont("DejaVuSansMono-Bold")?.postScriptName == "DejaVuSansMono-Bold")
        let file = CGFont(CGDataProvider(filename: "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf")!)
        #expect(file?.postScriptName == "DejaVuSansMono")
    }

    /// The rasterized coverage of a glyph equals its outline's exact area within 0.5 % ("O", a
    /// ring: the hole must be subtracted; "g" and "&": curves and self-touching contours).
    @Test(arguments: ["O", "g", "&", "8"])
    func glyphCoverageMatchesTheOutlineArea(_ ch: String) throws {
        let size = 160.0
        let g = Self.font.glyph(for: ch.unicodeScalars.first!)
        let outline = Self.font._outline(UInt32(g))
        let k = size / Double(Self.font.unitsPerEm)
        // exact area: the outline flattened 1000× finer than the rasterizer's tolerance
        struct Area: FlattenSink {
            var area = 0.0, first = RasterPoint(0, 0), last = RasterPoint(0, 0)
            mutating func moveTo(_ p: RasterPoint) { first = p; last = p }
            mutating func lineTo(_ p: RasterPoint, smooth: Bool) { area += last.x * p.y - p.x * last.y; last = p }
            mutating func endSubpath(closed: Bool) { area += last.x * first.y - first.x * last.y; last = first }
        }
        var a = Area()
        outline.flatten(transform: .scale(k, k), tolerance: 0.00002, into: &a)
        let exact = abs(a.area) / 2
        #expect(exact > 1000)
        let ctx = try #require(CGContext(data: nil, width: 200, height: 200, bitsPerComponent: 8, bytesPerRow: 0,
                                         space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue))
        ctx.setFont(Self.font)
        ctx.setFontSize(CGFloat(size))
        ctx.setFillColor(CGColor(red: 1, green: 1, blue: 1, alpha: 1))
        ctx.showGlyphs([g], at: [CGPoint(x: 20, y: 50)])
        let px = ctx.data!.assumingMemoryBound(to: UInt32.self)
        var sum = 0.0
        for i in 0..<(200 * 200) { sum += Double(px[i] >> 24) / 255 }
        #expect(abs(sum - exact) / exact < 0.005, "\(ch): coverage \(sum) vs exact \(exact)")
    }

    // MARK: Shaping

    @Test func kerningAndLigatures() {
        // "AV" is kerned: closer than the two advances
        let av = Self.layout("AV")
        #expect(av.glyphs.count == 2)
        #expect(av.glyphs[1].x < Self.advance("A") - 0.5)
        // "fi" and "ffi" become one ligature glyph each
        #expect(Self.layout("fi").glyphs.count == 1)
        let office = Self.layout("office")
        #expect(office.glyphs.count == 4)                       // o, ffi, c, e
        #expect(office.glyphs[1].glyph != UInt32(Self.font.glyph(for: "f")))
    }

    /// Arabic is shaped right to left with joined forms; an Arabic paragraph aligns right.
    @Test func arabicJoinsAndRunsRightToLeft() {
        let isolated = UInt32(Self.font.glyph(for: "ب"))
        let l = Self.layout("بب", width: 500)
        #expect(l.glyphs.count == 2)
        #expect(l.glyphs.allSatisfy { $0.glyph != isolated })     // initial + final forms
        #expect(l.glyphs[0].glyph != l.glyphs[1].glyph)
        // natural alignment of a right-to-left paragraph: flush right
        #expect(abs(l.lines[0].x + l.lines[0].width - 500) < 1e-9)
        // mixed: the Arabic run sits between the Latin runs, its first word on the right
        let m = Self.layout("ab مرحبا بالعالم cd")
        let xs = m.glyphs.map(\.x)
        #expect(xs == xs.sorted())                                // glyphs in visual order
        let meem = Self.layout("مرحبا").glyphs.last!.glyph          // the first letter is drawn last (rightmost)
        let arabic = m.glyphs.filter { $0.glyph > 1000 && $0.glyph < 6000 && !["a", "b", "c", "d"].map { UInt32(Self.font.glyph(for: $0)) }.contains($0.glyph) }
        #expect(arabic.last?.glyph == meem)
    }

    /// The Unicode Bidirectional Algorithm (ICU): numbers inside right-to-left text keep their
    /// digit order; explicit overrides (U+202E … U+202C) reverse Latin letters.
    @Test func bidiNumbersAndOverrides() {
        let g = { (c: Unicode.Scalar) in UInt32(Self.font.glyph(for: c)) }
        let num = Self.layout("مرحبا 123")
        let digits = num.glyphs.filter { [g("1"), g("2"), g("3")].contains($0.glyph) }
        #expect(digits.map(\.glyph) == [g("1"), g("2"), g("3")])        // left to right
        let arabicX = num.glyphs.filter { !digits.map(\.glyph).contains($0.glyph) && $0.glyph != g(" ") }.map(\.x)
        #expect(digits.allSatisfy { d in arabicX.allSatisfy { $0 > d.x } })   // the number sits left of the word
        let over = Self.layout("a\u{202E}bc\u{202C}d")
        #expect(over.glyphs.map(\.glyph).filter { $0 != 3 } .filter { [g("a"), g("b"), g("c"), g("d")].contains($0) }
                == [g("a"), g("c"), g("b"), g("d")])
    }

    /// Devanagari comes from the bundled Noto Sans Devanagari: क + ् + ष form one conjunct glyph.
    @Test func devanagariConjunct() {
        let l = Self.layout("क्ष")
        #expect(l.glyphs.count == 1)
        #expect(l.glyphs[0].font === CGFont.bundledDevanagari)
        #expect(Self.layout("नमस्ते").glyphs.allSatisfy { $0.font === CGFont.bundledDevanagari })
    }

    /// Combining marks stay on their base: e + U+0301 is one composed glyph (the font has é);
    /// q + U+0301 (no precomposed form) puts the accent over the q without advancing.
    @Test func combiningMarks() {
        #expect(Self.layout("e\u{301}").glyphs.count == 1)
        let q = Self.layout("q\u{301}x")
        #expect(q.glyphs.count == 3)
        let qAdvance = Self.advance("q")
        #expect(q.glyphs[1].x < qAdvance)                         // the mark sits over the q
        #expect(abs(q.glyphs[2].x - qAdvance) < 1e-9)             // and takes no room
    }

    // MARK: Lines

    @Test func wrappingAtThreeWidths() {
        let text = "The quick brown fox jumps over the lazy dog, then naps."
        var counts: [Int] = []
        for w in [400.0, 200.0, 100.0] {
            let l = Self.layout(text, size: 16, width: w, wrapped: true)
            counts.append(l.lines.count)
            for line in l.lines { #expect(line.width <= w + 1e-9) }
            // lines are spaced by the font's line height
            let lh = Double(Int(Self.font.ascent) - Int(Self.font.descent) + Int(Self.font.leading)) * 16 / 2048
            for i in 1..<l.lines.count { #expect(abs(l.lines[i].baseline - l.lines[i - 1].baseline - lh) < 1e-9) }
        }
        #expect(counts[0] < counts[1] && counts[1] < counts[2])
        #expect(counts[0] == 2)
        // A word longer than the line breaks between characters.
        let long = Self.layout("Supercalifragilistic", size: 16, width: 60, wrapped: true)
        #expect(long.lines.count > 2)
        for line in long.lines { #expect(line.width <= 60 + 1e-9) }
        // Not wrapped: one line per paragraph, newlines honoured.
        #expect(Self.layout(text + "\nsecond\r\nthird", width: 50).lines.count == 3)
    }

    @Test func truncationModes() {
        let text = "abcdefghijklmnopqrstuvwxyz"
        let ell = UInt32(Self.font.glyph(for: "\u{2026}"))
        func ellipsisIndex(_ m: TextTruncation) -> (Int, Int, Double) {
            let l = Self.layout(text, size: 16, width: 100, truncation: m)
            #expect(l.lines.count == 1)
            #expect(l.lines[0].width <= 100 + 1e-9)
            return (l.glyphs.firstIndex { $0.glyph == ell } ?? -1, l.glyphs.count, l.lines[0].width)
        }
        let (s, sn, _) = ellipsisIndex(.start), (m, mn, _) = ellipsisIndex(.middle), (e, en, _) = ellipsisIndex(.end)
        #expect(s == 0)
        #expect(e == en - 1)
        #expect(m > 2 && m < mn - 3)
        #expect(sn > 5 && en > 5)
        // .none: the line runs past the width
        #expect(Self.layout(text, size: 16, width: 100).lines[0].width > 150)
        // Wrapped text taller than the box: the last line that fits ends in an ellipsis.
        let wrapped = Self.layout("one two three four five six seven eight nine ten", size: 16, width: 90, height: 40,
                                  wrapped: true, truncation: .end)
        #expect(wrapped.lines.count == 2)
        #expect(wrapped.glyphs.last?.glyph == ell)
    }

    @Test func alignment() {
        let w = 300.0
        let left = Self.layout("Hello", width: w, alignment: .left).lines[0]
        let right = Self.layout("Hello", width: w, alignment: .right).lines[0]
        let center = Self.layout("Hello", width: w, alignment: .center).lines[0]
        #expect(left.x == 0)
        #expect(abs(right.x + right.width - w) < 1e-9)
        #expect(abs(center.x - (w - center.width) / 2) < 1e-9)
        // justified: every line but a paragraph's last spans the width
        let j = Self.layout("one two three four five six seven eight nine", size: 16, width: 150, wrapped: true, alignment: .justified)
        #expect(j.lines.count >= 3)
        for line in j.lines.dropLast() { #expect(abs(line.width - 150) < 1e-6) }
        #expect(j.lines.last!.width < 150)
    }

    /// Nothing a user can pass makes the typesetter crash or hang.
    @Test func hostileInput() {
        for s in ["", "\n\n\n", "\r\n", " ", "   x   ", "\u{301}", "\u{200D}\u{200D}", "a\u{0}b", String(repeating: "W", count: 2000),
                  "\u{202E}abc", "🙂👍🏽", "\u{FFFF}\u{10FFFF}"] {
            for w in [0.0, 1, 7, 1000, .nan, .infinity, -5] {
                _ = Self.layout(s, size: 12, width: w, height: 20, wrapped: true, truncation: .middle, alignment: .justified)
                _ = Self.layout(s, size: 12, width: w, wrapped: false, truncation: .start)
            }
        }
        _ = Self.layout("big", size: 1e6)
        _ = Self.layout("none", size: 0)
    }
}

/// Line-break opportunities come from ICU (UAX #14), not only spaces.
@Suite struct TextLineBreakTests {
    static func lines(_ s: String, width: Double) -> [String] {
        let scalars = s.unicodeScalars.map(\.value)
        let l = TextLayout(scalars: scalars, styleOf: Array(repeating: 0, count: scalars.count),
                           styles: [TextStyle(font: .bundledDefault, size: 10)], width: width, height: 1000,
                           wrapped: true, truncation: .none, alignment: .left)
        return l.lineRanges.map { r in String(String.UnicodeScalarView(s.unicodeScalars.map { $0 }[r])) }
    }

    @Test func opportunitiesFollowUAX14() {
        // a hyphen between words, a slash in a URL-like run, an em dash, CJK between ideographs
        #expect(Self.lines("well-known fact", width: 40) == ["well-", "known ", "fact"])
        #expect(Self.lines("red—green", width: 30) == ["red—", "green"])
        // no break before closing punctuation or inside a number
        #expect(Self.lines("(hello) 3.14159", width: 36).allSatisfy { !$0.hasPrefix(")") && !$0.hasPrefix(".") })
        // ideographs break between characters, but not before 。
        let cjk = Self.lines("漢字漢字漢字。", width: 13)
        #expect(cjk.count >= 3)
        #expect(cjk.allSatisfy { !$0.hasPrefix("。") })
        // U+200B (zero width space) is an opportunity; U+00A0 (no-break space) is not
        #expect(Self.lines("aaaa\u{200B}bbbb", width: 30) == ["aaaa\u{200B}", "bbbb"])
        #expect(Self.lines("aaa\u{A0}bbb cc", width: 45).first == "aaa\u{A0}bbb ")
    }
}

/// Core Graphics' glyph API: text space y up through the text matrix, the drawing modes, the
/// state that saveGState keeps (font, size, mode) and what it does not (text matrix).
@Suite struct ContextGlyphTests {
    static func context() -> CGContext {
        // y down, as a layer's draw(in:) context (a plain bitmap context is y up: BitmapOrientationTests)
        let c = CGContext(data: nil, width: 60, height: 40, bitsPerComponent: 8, bytesPerRow: 0,
                          space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
        c._orientTopDown()
        return c
    }
    static func ink(_ ctx: CGContext, above: UInt32 = 128) -> (count: Int, top: Int, bottom: Int) {
        let px = ctx.data!.assumingMemoryBound(to: UInt32.self)
        var n = 0, top = Int.max, bottom = Int.min
        for y in 0..<40 { for x in 0..<60 where px[y * 60 + x] >> 24 > above { n += 1; top = min(top, y); bottom = max(bottom, y) } }
        return (n, top, bottom)
    }

    @Test func textMatrixFlipsAndModesPaint() {
        let g = CGFont.bundledDefault.glyph(for: "T")
        // y-down device: without a flip the "T" hangs upside down below the baseline at y = 10
        let a = Self.context()
        a.setFont(.bundledDefault); a.setFontSize(20)
        a.showGlyphs([g], at: [CGPoint(x: 5, y: 10)])
        let up = Self.ink(a)
        #expect(up.count > 20 && up.top >= 9)                       // all ink below the baseline
        // with the text matrix flipped (UIKit's recipe) it stands on the baseline at y = 30
        let b = Self.context()
        b.setFont(.bundledDefault); b.setFontSize(20)
        b.textMatrix = CGAffineTransform(scaleX: 1, y: -1)
        b.textPosition = CGPoint(x: 0, y: 30)
        b.showGlyphs([g], at: [CGPoint(x: 5, y: 0)])
        let upright = Self.ink(b)
        #expect(upright.bottom <= 30 && upright.top >= 14 && abs(upright.count - up.count) <= 2, "\(upright) \(up)")
        // stroke mode paints only the outline; invisible paints nothing
        let c = Self.context()
        c.setFont(.bundledDefault); c.setFontSize(20); c.textMatrix = b.textMatrix
        c.setTextDrawingMode(.invisible)
        c.showGlyphs([g], at: [CGPoint(x: 5, y: 0)])
        #expect(Self.ink(c).count == 0)
        c.setTextDrawingMode(.stroke); c.setLineWidth(1)
        c.showGlyphs([g], at: [CGPoint(x: 5, y: 0)])
        let stroked = Self.ink(c, above: 0).count
        #expect(stroked > 10 && stroked < upright.count * 3, "\(stroked) \(upright)")
        // font, size and mode are saved state; the text matrix is not (Apple's rule)
        c.saveGState(); c.setFontSize(0); c.setTextDrawingMode(.fill); c.textMatrix = .identity; c.restoreGState()
        #expect(c.textMatrix == .identity && c.textPosition == .zero)
        c.textPosition = CGPoint(x: 1, y: 2)
        #expect(c.textMatrix == CGAffineTransform(translationX: 1, y: 2))
        c.showGlyphs([g], at: [CGPoint(x: 30, y: 10)])              // size 20 again, stroke mode again
        #expect(Self.ink(c, above: 0).count > stroked)
    }
}

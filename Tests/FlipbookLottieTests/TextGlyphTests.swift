import Testing
import Foundation
@testable import FlipbookLottie
import Flipbook
import FlipbookPixels

/// Glyph-shaped text (the file's `chars`): placement, justification, tracking, line pitch,
/// box text, caps, colours. The glyphs are TextTestSupport's rectangles, so every edge falls on
/// a whole pixel and the ink bounds are exact.
@Suite struct TextGlyphTests {
    typealias S = TextTestSupport

    /// "AI" at size 20 with its origin at (20, 50): "A" inks x 20…32, "I" (pen at 20 + 70 × 0.2
    /// = 34) x 36…40, both from the baseline (y 50) up 70 × 0.2 = 14 px; red fill, nothing
    /// between the two.
    @Test func glyphTextIsDrawnAtItsBaselineOrigin() throws {
        let (layers, context) = S.map(S.document("AI"))
        #expect(context.warnings.isEmpty)
        let p = try S.render(layers, origin: CGPoint(x: 20, y: 50))
        let ink = try #require(S.ink(p))
        #expect(ink == (20, 36, 40, 50))
        #expect(S.runs(p, row: 43) == [20..<32, 36..<40])
        #expect(S.pixel(p, 26, 43) == [255, 0, 0, 255])
        #expect(S.pixel(p, 34, 43) == [0, 0, 0, 0])
    }

    /// Left text starts at x = 0, right text ends at 0 (the last advance's end: "AI" is
    /// 14 + 8 = 22 wide), centred text is centred on 0.
    @Test(arguments: [(0, 100), (1, 78), (2, 89)])
    func justificationAlignsEachLineAroundTheOrigin(_ j: Int, _ start: Int) throws {
        let (layers, _) = S.map(S.document("AI") { $0.justification = j })
        let p = try S.render(layers, origin: CGPoint(x: 100, y: 50))
        #expect(S.runs(p, row: 43) == [start..<(start + 12), (start + 16)..<(start + 20)])
    }

    /// Right and centre justification align every line on its own width: "A\rAI" right-
    /// aligned ends both lines at x = 0.
    @Test func eachLineIsJustifiedOnItsOwnWidth() throws {
        let (layers, _) = S.map(S.document("A\rAI") { $0.justification = 1; $0.lineHeight = 30 })
        let p = try S.render(layers, origin: CGPoint(x: 100, y: 30))
        // Line 1 "A" (14 wide) from 86; line 2 "AI" (22 wide) from 78.
        #expect(S.runs(p, row: 25) == [86..<98])
        #expect(S.runs(p, row: 55) == [78..<90, 94..<98])
    }

    /// Tracking `tr` adds tr / 1000 × size after each character: 250 → 5 px at size 20, so "I"
    /// moves from 34 to 39; right-aligned, the line is 22 + 5 = 27 wide (no tracking after the
    /// last character).
    @Test func trackingAddsSpaceAfterEachCharacter() throws {
        let (left, _) = S.map(S.document("AI") { $0.tracking = 250 })
        let p = try S.render(left, origin: CGPoint(x: 20, y: 50))
        #expect(S.runs(p, row: 43) == [20..<32, 41..<45])
        let (right, _) = S.map(S.document("AI") { $0.tracking = 250; $0.justification = 1 })
        let q = try S.render(right, origin: CGPoint(x: 100, y: 50))
        #expect(S.runs(q, row: 43) == [73..<85, 94..<98])
    }

    /// Lines are `lh` apart (baselines 0 and 30); without `lh`, 1.2 × size (24). A trailing
    /// space does not count in a right-aligned line's width.
    @Test func lineHeightSeparatesBaselines() throws {
        let (layers, _) = S.map(S.document("A\rI") { $0.lineHeight = 30 })
        let p = try S.render(layers, origin: CGPoint(x: 20, y: 30))
        #expect(S.ink(p)! == (20, 16, 32, 60))
        #expect(S.runs(p, row: 20) == [20..<32])
        #expect(S.runs(p, row: 50) == [22..<26])
        #expect(S.runs(p, row: 31).isEmpty && S.runs(p, row: 45).isEmpty)

        let (def, _) = S.map(S.document("A\rI ") { $0.justification = 1 })
        let q = try S.render(def, origin: CGPoint(x: 100, y: 30))
        #expect(S.ink(q)! == (86, 16, 98, 54))
        #expect(S.runs(q, row: 50) == [94..<98])   // "I" is 8 wide: pen at 92
    }

    /// Baseline shift `ls` raises the text.
    @Test func baselineShiftRaisesTheText() throws {
        let (layers, _) = S.map(S.document("A") { $0.baselineShift = 6 })
        let p = try S.render(layers, origin: CGPoint(x: 20, y: 50))
        #expect(S.ink(p)! == (20, 30, 32, 44))
    }

    /// Box text wraps at the box width (40: "AI " + "A" = 42 does not fit, so the second word
    /// moves down), its first baseline at ps.y + ascent (5 + 70 % × 20 = 19), the next 24
    /// below; centred in the box (10 + (40 − 22) / 2 = 19).
    @Test func boxTextWrapsInsideTheBox() throws {
        let (layers, _) = S.map(S.document("AI AI") {
            $0.boxSize = [40, 100]; $0.boxPosition = [10, 5]; $0.justification = 2
        })
        let p = try S.render(layers, origin: CGPoint(x: 0, y: 0))
        #expect(S.ink(p)! == (19, 5, 39, 43))
        #expect(S.runs(p, row: 10) == [19..<31, 35..<39])
        #expect(S.runs(p, row: 35) == [19..<31, 35..<39])
        #expect(S.runs(p, row: 22).isEmpty)
        // Left-aligned in the box: from ps.x.
        let (left, _) = S.map(S.document("AI AI") { $0.boxSize = [40, 100]; $0.boxPosition = [10, 5] })
        #expect(S.ink(try S.render(left, origin: .zero))! == (10, 5, 30, 43))
    }

    /// A word longer than the box breaks between characters.
    @Test func aWordWiderThanTheBoxBreaksBetweenCharacters() throws {
        let (layers, _) = S.map(S.document("AAA") { $0.boxSize = [30, 100]; $0.boxPosition = [0, 0]; $0.lineHeight = 20 })
        let p = try S.render(layers, origin: .zero)
        // 14 + 14 = 28 fits, the third A (42) does not.
        #expect(S.runs(p, row: 10) == [0..<12, 14..<26])
        #expect(S.runs(p, row: 30) == [0..<12])
    }

    /// `ca` 1 draws the text in capitals ("ai" = "AI"); `ca` 2 draws lower-case letters as
    /// capitals at 70 % ("Ai": "I" is 14 × 0.7 = 9.8 px tall and advances 5.6).
    @Test func capsUpperCaseTheText() throws {
        let (upper, _) = S.map(S.document("ai") { $0.caps = 1 })
        let (plain, _) = S.map(S.document("AI"))
        #expect(try S.render(upper, origin: CGPoint(x: 20, y: 50)) == S.render(plain, origin: CGPoint(x: 20, y: 50)))
        let (small, _) = S.map(S.document("AiA") { $0.caps = 2 })
        let p = try S.render(small, origin: CGPoint(x: 20, y: 50))
        // "A" 20…32, small "I" pen 34: ink 34 + 1.4 … 34 + 4.2, from y 50 − 9.8; "A" at 34 + 5.6.
        // Small "I": 35.4…38.2 (pixels more than half covered: 35…37); last "A": 39.6…51.6.
        #expect(S.runs(p, row: 48) == [20..<32, 35..<38, 40..<52])
        // Above the small capital (50 − 9.8 = 40.2): only the two "A"s.
        #expect(S.runs(p, row: 39) == [20..<32, 40..<52])
    }

    /// Fill `fc` and stroke `sc` / `sw`: with `of` (stroke over fill) the stroke's inner half
    /// covers the fill's edge; without, the fill covers it and only the outer half shows.
    @Test(arguments: [true, false])
    func fillAndStrokeColours(_ strokeOverFill: Bool) throws {
        let (layers, _) = S.map(S.document("A") {
            $0.fillColor = [1, 0, 0]; $0.strokeColor = [0, 0, 1]; $0.strokeWidth = 4; $0.strokeOverFill = strokeOverFill
        })
        #expect(layers.count == 1 && layers[0].sublayers?.count == 2)
        let p = try S.render(layers, origin: CGPoint(x: 20, y: 50))
        // "A" fills x 20…32; the stroke covers 18…22 on its left edge.
        #expect(S.pixel(p, 26, 43) == [255, 0, 0, 255])      // inside: fill
        #expect(S.pixel(p, 18, 43) == [0, 0, 255, 255])      // outer half: stroke
        #expect(S.pixel(p, 21, 43) == (strokeOverFill ? [0, 0, 255, 255] : [255, 0, 0, 255]))
        #expect(S.ink(p)! == (18, 34, 34, 52))
    }

    /// A fill with a fourth component is translucent; no `fc` draws no fill (stroke only).
    @Test func fillAlphaAndNoFill() throws {
        let (half, _) = S.map(S.document("A") { $0.fillColor = [0, 1, 0, 0.5] })
        let p = try S.render(half, origin: CGPoint(x: 20, y: 50))
        let c = S.pixel(p, 26, 43)
        #expect(c[0] == 0 && c[2] == 0 && c[1] == c[3] && (127...128).contains(c[3]))
        let (outline, _) = S.map(S.document("A") { $0.fillColor = nil; $0.strokeColor = [0, 0, 1]; $0.strokeWidth = 2 })
        let q = try S.render(outline, origin: CGPoint(x: 20, y: 50))
        #expect(S.pixel(q, 26, 43) == [0, 0, 0, 0])
        #expect(S.pixel(q, 20, 43) == [0, 0, 255, 255])
    }

    /// Glyph groups apply their transform: a glyph whose group is moved by (10, −10) and scaled
    /// 50 % about its anchor draws there.
    @Test func glyphGroupTransformsApply() throws {
        var tr = LottieTransform()
        tr.position = .combined(LottieAnimated([10, -10]))
        tr.scale = LottieAnimated([50, 50])
        let g = S.glyph("A", advance: 70, [S.rectPath(0, -60, 60, 0)], transform: tr)
        let (layers, _) = S.map(S.document("A"), composition: S.composition(glyphs: [g]))
        let p = try S.render(layers, origin: CGPoint(x: 20, y: 50))
        // (0…30, −30…0) + (10, −10) = (10…40, −40…−10) in glyph units → × 0.2 → (2…8, −8…−2).
        #expect(S.ink(p)! == (22, 42, 28, 48))
    }

    /// The file's glyphs are used only for the document's font family and style; a character
    /// without a glyph sends the document to its font (with a warning naming the character).
    @Test func aMissingGlyphFallsBackToTheFont() throws {
        let (layers, context) = S.map(S.document("AZ"))
        #expect(context.warnings.contains { $0.feature == "glyphs" && $0.message.contains("\"Z\"") })
        // The font "Test" is not installed either: DejaVu Sans, warned.
        #expect(context.warnings.contains { $0.feature == "font" && $0.message.contains("Test") })
        let p = try S.render(layers, origin: CGPoint(x: 20, y: 50))
        let ink = try #require(S.ink(p))
        #expect(ink.maxX > 40)   // DejaVu's "A" and "Z", not the 12-px rectangle
    }
}

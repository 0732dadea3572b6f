import Testing
import Foundation
@testable import FlipbookLottie
import Flipbook
import FlipbookPixels

/// Font-based text (no glyph shapes in the file): the font's outlines placed with Lottie's
/// baseline origin and justification, the font found by name (bundled, installed), a missing
/// font drawn with DejaVu Sans and warned about.
@Suite struct TextFontTests {
    typealias S = TextTestSupport
    static let dejaVu = LottieFont(name: "DejaVuSans", family: "DejaVu Sans", style: "Book")

    /// Where "Hi" at size 40 inks from its origin, from DejaVu Sans's own outlines and advances
    /// (points: x from the origin, y down from the baseline).
    static func expectedInk(of text: String, size: Double) -> (minX: Double, minY: Double, maxX: Double, maxY: Double, advance: Double) {
        let f = CGFont.bundledDefault
        let k = size / Double(f.unitsPerEm)
        var pen = 0.0, minX = Double.infinity, maxX = -Double.infinity, top = -Double.infinity, bottom = Double.infinity
        for s in text.unicodeScalars {
            var g = f.glyph(for: s)
            let b = f.path(for: g)!.boundingBox
            minX = min(minX, pen + b.minX * k); maxX = max(maxX, pen + b.maxX * k)
            top = max(top, b.maxY * k); bottom = min(bottom, b.minY * k)
            var a: Int32 = 0
            _ = f.getGlyphAdvances(glyphs: &g, count: 1, advances: &a)
            pen += Double(a) * k
        }
        return (minX, -top, maxX, -bottom, pen)
    }

    static func near(_ a: Int, _ b: Double, _ tolerance: Double = 1) -> Bool { abs(Double(a) - b) <= tolerance }

    /// Left-aligned "Hi" at size 40 with DejaVu Sans (bundled): the ink sits on the baseline
    /// (y 60) from the origin (x 20) as the font's outlines say, no warning.
    @Test func fontTextSitsOnTheBaselineFromTheOrigin() throws {
        let comp = S.composition(fonts: [Self.dejaVu], glyphs: [])
        let (layers, context) = S.map(S.document("Hi", size: 40, font: "DejaVuSans"), composition: comp)
        #expect(context.warnings.isEmpty)
        let p = try S.render(layers, origin: CGPoint(x: 20, y: 60))
        let ink = try #require(S.ink(p))
        let e = Self.expectedInk(of: "Hi", size: 40)
        #expect(Self.near(ink.minX, 20 + e.minX) && Self.near(ink.maxX, 20 + e.maxX))
        #expect(Self.near(ink.minY, 60 + e.minY) && Self.near(ink.maxY, 60 + e.maxY))
        #expect(ink.maxY == 60)                           // nothing below the baseline
        #expect(ink.minY < 32 && ink.minY > 26)           // "i"'s dot ≈ 0.76 em above it
        #expect(S.pixel(p, 20 + 6, 50) == [255, 0, 0, 255])   // the "H" stem, red
    }

    /// Right and centre justification put the line's advance end, or middle, at x = 0.
    @Test(arguments: [1, 2])
    func fontTextJustification(_ j: Int) throws {
        let comp = S.composition(fonts: [Self.dejaVu], glyphs: [])
        let (layers, _) = S.map(S.document("Hi", size: 40, font: "DejaVuSans") { $0.justification = j }, composition: comp)
        let p = try S.render(layers, origin: CGPoint(x: 100, y: 60))
        let ink = try #require(S.ink(p))
        let e = Self.expectedInk(of: "Hi", size: 40)
        let x0 = 100 - e.advance * (j == 1 ? 1 : 0.5)
        #expect(Self.near(ink.minX, x0 + e.minX) && Self.near(ink.maxX, x0 + e.maxX))
    }

    /// Tracking moves the second character by tr / 1000 × size (200 at 40: 8 points), and two
    /// lines are `lh` apart.
    @Test func fontTextTrackingAndLines() throws {
        let comp = S.composition(fonts: [Self.dejaVu], glyphs: [])
        let (plain, _) = S.map(S.document("Hi", size: 40, font: "DejaVuSans"), composition: comp)
        let (tracked, _) = S.map(S.document("Hi", size: 40, font: "DejaVuSans") { $0.tracking = 200 }, composition: comp)
        let a = try #require(S.ink(try S.render(plain, origin: CGPoint(x: 20, y: 60))))
        let b = try #require(S.ink(try S.render(tracked, origin: CGPoint(x: 20, y: 60))))
        #expect(b.minX == a.minX && b.maxX == a.maxX + 8)
        let (lines, _) = S.map(S.document("H\rH", size: 20, font: "DejaVuSans") { $0.lineHeight = 40 }, composition: comp)
        let p = try S.render(lines, origin: CGPoint(x: 20, y: 30))
        let ink = try #require(S.ink(p))
        #expect(ink.maxY == 70)                           // second baseline 30 + 40
        #expect(S.runs(p, row: 35).isEmpty)               // nothing between the lines
    }

    /// A font that is neither bundled nor installed is drawn with DejaVu Sans — the same pixels
    /// — and one warning names it.
    @Test func aMissingFontWarnsAndFallsBackToTheBundledSans() throws {
        let missing = LottieFont(name: "NoSuchFont-Bold", family: "No Such Font", style: "Bold")
        let comp = S.composition(fonts: [missing, Self.dejaVu], glyphs: [])
        let text = LottieTextData(documents: [.init(time: 0, document: S.document("Hi", size: 40, font: "NoSuchFont-Bold")),
                                              .init(time: 10, document: S.document("Hi!", size: 40, font: "NoSuchFont-Bold"))])
        let (layers, context) = S.map(text, composition: comp)
        #expect(context.warnings.map(\.feature) == ["font"])
        #expect(context.warnings.first?.message.contains("No Such Font Bold") == true)
        #expect(context.warnings.first?.path == "layers[3].t.d")
        let (reference, _) = S.map(S.document("Hi", size: 40, font: "DejaVuSans"), composition: comp)
        #expect(try S.render([layers[0]], origin: CGPoint(x: 20, y: 60)) == S.render(reference, origin: CGPoint(x: 20, y: 60)))
    }

    /// A style the family lacks draws the family's regular face, with a warning.
    @Test func aMissingStyleUsesTheFamily() throws {
        let odd = LottieFont(name: "DejaVuSans-Wobbly", family: "DejaVu Sans", style: "Wobbly")
        let comp = S.composition(fonts: [odd, Self.dejaVu], glyphs: [])
        let (layers, context) = S.map(S.document("Hi", size: 40, font: "DejaVuSans-Wobbly"), composition: comp)
        #expect(context.warnings.map(\.feature) == ["font style"])
        let (reference, _) = S.map(S.document("Hi", size: 40, font: "DejaVuSans"), composition: comp)
        #expect(try S.render(layers, origin: CGPoint(x: 20, y: 60)) == S.render(reference, origin: CGPoint(x: 20, y: 60)))
    }

    /// An installed font is found by its PostScript name (`fName`): DejaVu Sans Bold (the
    /// fonts-dejavu package) is wider than the bundled Book face.
    @Test(.enabled(if: CGFont("DejaVuSans-Bold") != nil, "needs DejaVu Sans Bold installed"))
    func anInstalledFontIsUsed() throws {
        let bold = LottieFont(name: "DejaVuSans-Bold", family: "DejaVu Sans", style: "Bold")
        let comp = S.composition(fonts: [bold, Self.dejaVu], glyphs: [])
        let (layers, context) = S.map(S.document("HHH", size: 40, font: "DejaVuSans-Bold"), composition: comp)
        #expect(context.warnings.isEmpty)
        let (book, _) = S.map(S.document("HHH", size: 40, font: "DejaVuSans"), composition: comp)
        let a = try #require(S.ink(try S.render(layers, origin: CGPoint(x: 20, y: 60))))
        let b = try #require(S.ink(try S.render(book, origin: CGPoint(x: 20, y: 60))))
        #expect(a.maxX > b.maxX + 4)                      // Bold "H" advances 0.838 em, Book 0.752
        #expect(a.maxY == 60 && b.maxY == 60)
    }

    /// Box text with a font: the first baseline is ps.y + the font's ascent (`fonts.list`'s
    /// `ascent`, percent of the size), and lines wrap at the box width.
    @Test func fontBoxText() throws {
        var font = Self.dejaVu
        font.ascent = 75
        let comp = S.composition(fonts: [font], glyphs: [])
        let (layers, _) = S.map(S.document("HH HH", size: 20, font: "DejaVuSans") {
            $0.boxSize = [40, 100]; $0.boxPosition = [10, 10]; $0.lineHeight = 30
        }, composition: comp)
        let p = try S.render(layers, origin: .zero)
        let ink = try #require(S.ink(p))
        // Baselines 10 + 15 = 25 and 55; "HH" is 2 × 15.0 = 30 wide, "HH HH" (66) is not.
        #expect(ink.maxY == 55)
        #expect(S.runs(p, row: 22).count == 4 && S.runs(p, row: 52).count == 4)   // two "H"s, two stems each
        #expect(S.runs(p, row: 35).isEmpty)
    }
}

import Testing
import Foundation
@testable import FlipbookLottie
import Flipbook
import FlipbookPixels

/// Text layers from Bodymovin JSON as After Effects exports them: the parser's text data,
/// fonts and glyphs through the text mapper.
@Suite struct TextJSONTests {
    typealias S = TextTestSupport

    /// A rectangle glyph in After Effects' export form (`data.shapes`: a group of one `sh`).
    static func glyph(_ ch: String, _ w: Double, _ x0: Double, _ x1: Double) -> String {
        """
        {"ch": "\(ch)", "size": 100, "style": "Regular", "w": \(w), "fFamily": "Test",
         "data": {"shapes": [{"ty": "gr", "nm": "\(ch)", "np": 3, "cix": 2, "bm": 0, "ix": 1, "mn": "ADBE Vector Group", "hd": false,
           "it": [{"ind": 0, "ty": "sh", "ix": 1, "nm": "\(ch)", "mn": "ADBE Vector Shape - Group", "hd": false,
                   "ks": {"a": 0, "ix": 2, "k": {"c": true, "v": [[\(x0), -70], [\(x1), -70], [\(x1), 0], [\(x0), 0]],
                                                  "i": [[0, 0], [0, 0], [0, 0], [0, 0]], "o": [[0, 0], [0, 0], [0, 0], [0, 0]]}}}]}]}}
        """
    }

    static func textLayer(_ ind: Int, documents: String, extra: String = "") -> String {
        """
        {"ddd": 0, "ind": \(ind), "ty": 5, "nm": "text \(ind)", "sr": 1, "ip": 0, "op": 100, "st": 0, "bm": 0,
         "ks": {"o": {"a": 0, "k": 100}, "r": {"a": 0, "k": 0}, "p": {"a": 0, "k": [20, 50, 0]}, "a": {"a": 0, "k": [0, 0, 0]}, "s": {"a": 0, "k": [100, 100, 100]}},
         "t": {"d": {"k": [\(documents)]}, "p": {}, "m": {"g": 1, "a": {"a": 0, "k": [0, 0]}}, "a": []\(extra)}}
        """
    }

    static let json = """
    {"v": "5.7.4", "fr": 10, "ip": 0, "op": 100, "w": 200, "h": 100, "nm": "text", "ddd": 0, "assets": [],
     "fonts": {"list": [{"fName": "Test-Regular", "fFamily": "Test", "fStyle": "Regular", "ascent": 70},
                        {"fName": "DejaVuSans", "fFamily": "DejaVu Sans", "fStyle": "Book", "ascent": 75.9}]},
     "chars": [\(glyph("A", 70, 0, 60)), \(glyph("I", 40, 10, 30)), {"ch": " ", "size": 100, "style": "Regular", "w": 30, "fFamily": "Test", "data": {}}],
     "layers": [
       \(textLayer(1, documents: """
         {"s": {"s": 20, "f": "Test-Regular", "t": "AI", "j": 0, "tr": 0, "lh": 24, "ls": 0, "fc": [1, 0, 0], "sc": [0, 0, 1], "sw": 2, "of": true}, "t": 0},
         {"s": {"s": 20, "f": "Test-Regular", "t": "I", "j": 1, "tr": 0, "lh": 24, "ls": 0, "fc": [0, 1, 0]}, "t": 50}
         """)),
       \(textLayer(2, documents: """
         {"s": {"s": 40, "f": "DejaVuSans", "t": "Hi", "j": 2, "tr": 0, "lh": 48, "ls": 0, "fc": [0, 0, 0]}, "t": 0}
         """, extra: #", "a2": 0"#)),
       \(textLayer(3, documents: """
         {"s": {"s": 20, "f": "Test-Regular", "t": "AI", "j": 0, "tr": 0, "lh": 24, "ls": 0, "fc": [1, 0, 0]}, "t": 0}
         """).replacingOccurrences(of: #""a": []"#, with: #""a": [{"nm": "Animator 1", "s": {"t": 0}, "a": {"o": {"a": 0, "k": 0}}}]"#))
     ]}
    """

    static func textData(_ comp: LottieComposition, _ i: Int) throws -> LottieTextData {
        guard case let .text(t) = comp.layers[i].kind else { throw CancellationError() }
        return t
    }

    /// The exported glyph text draws from the file's `chars` (the same pixels as the hand-built
    /// model), with the document's stroke over its fill; its second document is right-aligned
    /// and green.
    @Test func exportedGlyphTextDrawsFromTheChars() throws {
        let comp = try LottieParser.parse(Data(Self.json.utf8), file: "text.json").composition
        let t = try Self.textData(comp, 0)
        #expect(t.documents.count == 2 && t.animatorCount == 0 && !t.hasPath)
        let (layers, context) = S.map(t, composition: comp, path: "layers[0]")
        #expect(context.warnings.isEmpty)
        #expect(layers.count == 2)
        let p = try S.render([layers[0]], origin: CGPoint(x: 20, y: 50))
        #expect(S.ink(p)! == (19, 35, 41, 51))                   // "AI" inked 20…40 × 36…50, stroke 1 px out
        #expect(S.pixel(p, 26, 43) == [255, 0, 0, 255])
        #expect(S.pixel(p, 20, 43) == [0, 0, 255, 255])          // stroke over fill on the edge
        #expect(layers[1].isHidden)                               // until frame 50
        layers[1].isHidden = false
        let q = try S.render([layers[1]], origin: CGPoint(x: 100, y: 50))
        #expect(S.runs(q, row: 43) == [94..<98])                   // "I" right-aligned: pen at 92
        #expect(S.pixel(q, 95, 43) == [0, 255, 0, 255])
    }

    /// A font without glyphs draws from the font (DejaVu Sans, bundled), centred on the origin.
    @Test func exportedFontTextDrawsFromTheFont() throws {
        let comp = try LottieParser.parse(Data(Self.json.utf8), file: "text.json").composition
        let (layers, context) = S.map(try Self.textData(comp, 1), composition: comp, path: "layers[1]")
        #expect(context.warnings.isEmpty)
        let p = try S.render(layers, origin: CGPoint(x: 100, y: 60))
        let ink = try #require(S.ink(p))
        let e = TextFontTests.expectedInk(of: "Hi", size: 40)
        #expect(TextFontTests.near(ink.minX, 100 - e.advance / 2 + e.minX) && TextFontTests.near(ink.maxX, 100 - e.advance / 2 + e.maxX))
        #expect(ink.maxY == 60)
        #expect(S.pixel(p, ink.minX + 2, 50) == [0, 0, 0, 255])
    }

    /// An animator is warned about at `layers[2].t.a` and the text drawn without it.
    @Test func exportedAnimatorWarns() throws {
        let comp = try LottieParser.parse(Data(Self.json.utf8), file: "text.json").composition
        let (layers, context) = S.map(try Self.textData(comp, 2), composition: comp, path: "layers[2]")
        #expect(context.warnings.map(\.path) == ["layers[2].t.a"])
        #expect(S.ink(try S.render(layers, origin: CGPoint(x: 20, y: 50)))! == (20, 36, 40, 50))
    }
}

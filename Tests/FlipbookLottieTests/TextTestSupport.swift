import Testing
import Foundation
@testable import FlipbookLottie
import Flipbook
import FlipbookRender
import FlipbookPixels

/// Hand-built text models and a renderer for the text mapper's tests.
///
/// The glyph font "Test" (`fName` "Test-Regular", ascent 70 %) has glyphs in Lottie's units
/// (100 to the em, y down, baseline at 0), as `sh` paths in a group, as After Effects exports:
/// - "A": the rectangle x 0…60, y −70…0, advance 70;
/// - "I": the rectangle x 10…30, y −70…0, advance 40;
/// - " ": no shape, advance 30.
/// At size 20 (× 0.2) "A" inks x 0…12, "I" x 2…6 of its pen position, both y −14…0.
enum TextTestSupport {
    static let fontName = "Test-Regular"
    static let testFont = LottieFont(name: fontName, family: "Test", style: "Regular", ascent: 70)

    static func rectPath(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> LottieShapeItem {
        let b = LottieBezier(closed: true,
                             vertices: [CGPoint(x: x0, y: y0), CGPoint(x: x1, y: y0), CGPoint(x: x1, y: y1), CGPoint(x: x0, y: y1)],
                             inTangents: Array(repeating: .zero, count: 4), outTangents: Array(repeating: .zero, count: 4))
        return LottieShapeItem(kind: .path(LottieAnimated(b), reversed: false))
    }

    static func glyph(_ ch: String, advance: Double, _ items: [LottieShapeItem], transform: LottieTransform? = nil) -> LottieGlyph {
        LottieGlyph(character: ch, family: "Test", style: "Regular", size: 100, advance: advance,
                    shapes: items.isEmpty ? [] : [LottieShapeItem(kind: .group(items: items, transform: transform))])
    }

    static let glyphs: [LottieGlyph] = [
        glyph("A", advance: 70, [rectPath(0, -70, 60, 0)]),
        glyph("I", advance: 40, [rectPath(10, -70, 30, 0)]),
        glyph(" ", advance: 30, []),
    ]

    static func composition(fonts: [LottieFont] = [testFont], glyphs: [LottieGlyph] = glyphs) -> LottieComposition {
        var c = LottieComposition(width: 200, height: 100, frameRate: 10, inPoint: 0, outPoint: 100, layers: [])
        c.fonts = fonts
        c.glyphs = glyphs
        return c
    }

    static func document(_ text: String, size: Double = 20, font: String = fontName,
                         _ configure: (inout LottieTextDocument) -> Void = { _ in }) -> LottieTextDocument {
        var d = LottieTextDocument(text: text, fontName: font, size: size)
        d.fillColor = [1, 0, 0]
        configure(&d)
        return d
    }

    /// Maps `text` on a fresh context of `composition`.
    static func map(_ text: LottieTextData, composition: LottieComposition = composition(),
                    path: String = "layers[3]") -> (layers: [CALayer], context: LottieMappingContext) {
        let context = LottieMappingContext(composition: composition)
        let layers = LottieTextMapper.makeLayers(for: text, path: path, clock: context.rootClock, context: context)
        return (layers, context)
    }

    static func map(_ document: LottieTextDocument, composition: LottieComposition = composition()) -> (layers: [CALayer], context: LottieMappingContext) {
        map(LottieTextData(documents: [.init(time: 0, document: document)]), composition: composition)
    }

    /// A 200 × 100 root with `layers` under a layer whose origin is at `origin` (the Lottie
    /// text layer's (0, 0)).
    static func root(_ layers: [CALayer], origin: CGPoint) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 100)
        let text = CALayer()
        text.anchorPoint = .zero
        text.position = origin
        for l in layers { text.addSublayer(l) }
        root.addSublayer(text)
        return root
    }

    /// Renders `layers` with the text origin at `origin`, in a 200 × 100 transparent frame.
    static func render(_ layers: [CALayer], origin: CGPoint) throws -> PixelBuffer {
        try VirtualRunLoop().run {
            try Compositor(threadCount: 1).render(root(layers, origin: origin).makeRenderTree(), width: 200, height: 100)
        }
    }

    /// The premultiplied RGBA of pixel (x, y).
    static func pixel(_ p: PixelBuffer, _ x: Int, _ y: Int) -> [UInt8] {
        let i = y * p.bytesPerRow + x * 4
        return Array(p.bytes[i..<i + 4])
    }

    /// The bounds of the pixels whose alpha is at least `threshold`, in pixels (max exclusive);
    /// nil when there are none.
    static func ink(_ p: PixelBuffer, threshold: UInt8 = 128) -> (minX: Int, minY: Int, maxX: Int, maxY: Int)? {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in 0..<p.height {
            for x in 0..<p.width where p.bytes[y * p.bytesPerRow + x * 4 + 3] >= threshold {
                minX = min(minX, x); minY = min(minY, y); maxX = max(maxX, x + 1); maxY = max(maxY, y + 1)
            }
        }
        return maxX < 0 ? nil : (minX, minY, maxX, maxY)
    }

    /// The columns (x) that have ink in row `y`, as runs `[start, end)`.
    static func runs(_ p: PixelBuffer, row y: Int, threshold: UInt8 = 128) -> [Range<Int>] {
        var out: [Range<Int>] = []
        var start: Int?
        for x in 0...p.width {
            let on = x < p.width && p.bytes[y * p.bytesPerRow + x * 4 + 3] >= threshold
            if on, start == nil { start = x }
            if !on, let s = start { out.append(s..<x); start = nil }
        }
        return out
    }
}

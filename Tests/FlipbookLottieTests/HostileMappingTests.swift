import Foundation
import Testing
import FlipbookPixels
import FlipbookPNG
@testable import FlipbookLottie

/// Hostile documents that load, and what the mapping makes of them: a documented clamp with a
/// warning through `LottieLogger` (or a documented reading), frames that render, and a bounded
/// layer tree — never a crash, a hang or an unbounded allocation.
@Suite struct HostileMappingTests {
    typealias H = Hostile
    static let red = [255, 0, 0, 255], clear = [0, 0, 0, 0]

    // MARK: Repeaters

    @Test func aBillionRepeaterCopiesAreClampedTo1000() throws {
        let rp = #"{"ty": "rp", "c": {"k": 1e9}, "tr": {"p": {"k": [1, 0]}}}"#
        let r = try H.render(H.document("[\(H.shapes(H.square + ", " + rp))]"))
        #expect(r.logged == ["layers[0].shapes[0].it[2]: repeater copies: 1000000000 copies asked; clamped to 1000"])
        // A translation-only repeater is a replicator of 1000 instances.
        let replicators = H.layers(r.root).compactMap { $0 as? CAReplicatorLayer }
        #expect(replicators.map(\.instanceCount) == [1000])
        #expect(r.frames[0].rgba(32, 32) == Self.red)
        // 1e300 copies: the message names the number as it is.
        let huge = try H.render(H.document("[\(H.shapes(H.square + #", {"ty": "rp", "c": {"k": 1e300}}"#))]"))
        #expect(huge.logged == ["layers[0].shapes[0].it[2]: repeater copies: 1e+300 copies asked; clamped to 1000"])
    }

    @Test func nestedRepeatersAreBoundedInAll() throws {
        // A rotating repeater of 1000 copies inside a group repeated 1000 times: 10⁶ outlines.
        let inner = #"{"ty": "gr", "it": [\#(H.square), {"ty": "rp", "c": {"k": 1000}, "tr": {"p": {"k": [1, 0]}, "r": {"k": 3}}}]}"#
        let outer = #"{"ty": "rp", "c": {"k": 1000}, "tr": {"p": {"k": [0, 1]}, "r": {"k": 3}}}"#
        let r = try H.render(H.document("[\(H.shapes(inner + ", " + outer))]"))
        #expect(r.logged == [
            "layers[0].shapes[0].it[1]: repeater copies: 1000 copies of 1000 outlines would make 1000000; clamped to 10 copies (at most 10000 outlines)",
            "layers[0].shapes[0].it[0].it[2]: repeater copies: 1000 copies inside 10 copies of enclosing repeaters; clamped to 100 (at most 1000 copies built as layers in all)",
        ])
        // 10 outer copies × 100 inner ones, each a container and the square's fill layer.
        #expect(H.layers(r.root).filter { $0 is CAShapeLayer }.count == 1000)
        // Two repeaters in a row stroke one outline of at most 10 000 squares.
        let row = try H.render(H.document("[\(H.shapes(H.square + #", {"ty": "rp", "c": {"k": 1000}, "tr": {"p": {"k": [1, 0]}}}, {"ty": "rp", "c": {"k": 1000}, "tr": {"p": {"k": [0, 1]}}}"#))]"))
        #expect(row.logged == ["layers[0].shapes[0].it[3]: repeater copies: 1000 copies of 1000 outlines would make 1000000; clamped to 10 copies (at most 10000 outlines)"])
        #expect(LottieShapeProgram.maximumCopies == 1000 && LottieShapeProgram.maximumInstances == 10_000
                && LottieShapeProgram.maximumCopyLayers == 1000)
    }

    @Test func theLayerBudgetBoundsPrecompositionsOfRepeaters() throws {
        // 15 instances of a precomposition whose repeater builds 1000 copies as layers (2 001
        // layers each): 30 000 layers asked, the budget is 10 000.
        let rep = H.shapes(H.square + #", {"ty": "rp", "c": {"k": 1000}, "tr": {"p": {"k": [1, 0]}, "r": {"k": 1}}}"#)
        let instances = Array(repeating: #"{"ty": 0, "ks": {}, "refId": "p"}"#, count: 15).joined(separator: ", ")
        let r = try H.render(H.document("[\(instances)]", extra: #", "assets": [{"id": "p", "layers": [\#(rep)]}]"#))
        // Instances are built bottom-most (last) first: the fifth runs out inside its repeater,
        // and the ten listed before it are left out.
        #expect(r.logged == [
            "assets[0].layers[0].shapes[0].it[2]: layer budget: the animation maps to more than 10000 layers; copies 992 to 999 are left out",
            "layers[9]: layer budget: the animation maps to more than 10000 layers; this layer and the ones listed before it are left out",
        ])
        #expect(r.layerCount < LottieMappingContext.maximumLayers + 10)
        #expect(r.frames[0].rgba(32, 32) == Self.red)
        // A replicator's instances count: 1000 instances of 2 layers, ten times.
        let replicated = H.shapes(H.square + #", {"ty": "rp", "c": {"k": 1000}, "tr": {"p": {"k": [1, 0]}}}"#)
        let tenTimes = Array(repeating: #"{"ty": 0, "ks": {}, "refId": "p"}"#, count: 10).joined(separator: ", ")
        let rr = try H.render(H.document("[\(tenTimes)]", extra: #", "assets": [{"id": "p", "layers": [\#(replicated)]}]"#))
        #expect(rr.logged == ["layers[4]: layer budget: the animation maps to more than 10000 layers; this layer and the ones listed before it are left out"])
        // Inside one repeater, the copies past the budget are left out.
        var c = LottieComposition(width: 100, height: 80, frameRate: 30, inPoint: 0, outPoint: 60, layers: [])
        c.layers = try #require(try? LottieParser.parse(Data(H.document("[\(rep)]").utf8), file: "a.json").composition.layers)
        let context = LottieMappingContext(composition: c, maximumLayers: 500)
        let root = LottieLayerMapper(context: context).makeRootLayer()
        #expect(context.warnings.map(\.description) == ["layers[0].shapes[0].it[2]: layer budget: the animation maps to more than 500 layers; copies 250 to 999 are left out"])
        // The root, the layer's transform layer and group container, and 250 copies of 2 layers.
        #expect(LottieMappingContext.subtreeSize(root) == 503)
    }

    // MARK: Shapes

    @Test func aBillionStarPointsAreClampedTo10000() throws {
        let star = #"{"ty": "sr", "sy": 1, "p": {"k": [50, 40]}, "or": {"k": 30}, "ir": {"k": 10}, "pt": {"k": 1e9}}, {"ty": "fl", "c": {"k": [1, 0, 0]}}"#
        let r = try H.render(H.document("[\(H.shapes(star))]"))
        #expect(r.logged == ["layers[0].shapes[0].it[0].pt: polystar points: 1000000000 points asked; clamped to 10000"])
        #expect(r.frames[0].rgba(32, 32) == Self.red)
        let s = LottiePolystar(isStar: true, position: LottieAnimated([0, 0]), outerRadius: LottieAnimated([30]), outerRoundness: LottieAnimated([0]),
                               innerRadius: LottieAnimated([10]), innerRoundness: LottieAnimated([0]), rotation: LottieAnimated([0]),
                               points: LottieAnimated([1e9]), reversed: false)
        #expect(LottieShapeGeometry.paths(of: .polystar(s), atFrame: 0)?.first?.vertices.count == 20_000)
        var polygon = s
        polygon.isStar = false
        #expect(LottieShapeGeometry.paths(of: .polystar(polygon), atFrame: 0)?.first?.vertices.count == 10_000)
    }

    @Test func aPathWithAHundredThousandVertices() throws {
        // Vertex counts are bounded by the file's size only: a 10⁵-gon (a circle of radius 20
        // about the centre) fills and strokes.
        let vertices = (0..<100_000).map { i -> String in
            let a = 2 * Double.pi * Double(i) / 100_000
            return "[\(50 + 20 * cos(a)), \(40 + 20 * sin(a))]"
        }.joined(separator: ",")
        let path = #"{"ty": "sh", "ks": {"k": {"c": true, "v": [\#(vertices)]}}}, {"ty": "st", "c": {"k": [0, 0, 1]}, "w": {"k": 1}}, {"ty": "fl", "c": {"k": [1, 0, 0]}}"#
        let r = try H.render(H.document("[\(H.shapes(path))]"))
        #expect(r.logged.isEmpty)
        #expect(r.frames[0].rgba(32, 32) == Self.red)
        #expect(r.frames[0].rgba(32, 10) == Self.clear)
    }

    @Test func hugeHandlesInTrimsAndMergesAreMeasured() throws {
        // A handle 10³⁰⁰ away: the control polygon's length is 2·10³⁰⁰, past Int's range (the
        // sampling steps are clamped before they become an Int). Found by the fuzz target
        // (Tests/Fixtures/fuzz/crash-lottie-hugehandle-a).
        let path = #"{"ty": "sh", "ks": {"k": {"c": true, "v": [[40, 30], [60, 30], [60, 50]], "i": [[0, 0], [0, -1e300], [0, 0]], "o": [[0, 0], [0, 0], [0, 0]]}}}"#
        for modifier in [#"{"ty": "tm", "s": {"k": 0}, "e": {"k": 50}, "o": {"k": 0}, "m": 1}"#,
                         #"\#(H.square.components(separatedBy: ", {\"ty\": \"fl\"").first!), {"ty": "mm", "mm": 3}"#] {
            let r = try H.render(H.document("[\(H.shapes(path + ", " + modifier + #", {"ty": "st", "c": {"k": [1, 0, 0]}, "w": {"k": 2}}"#))]"))
            #expect(r.logged.isEmpty)
            #expect(r.frames.count == 3)
        }
    }

    @Test func hugeStrokeWidthsCoverTheComposition() throws {
        let stroke = #"{"ty": "rc", "p": {"k": [50, 40]}, "s": {"k": [20, 20]}}, {"ty": "st", "c": {"k": [1, 0, 0]}, "w": {"k": 1e300}, "lj": 1, "ml": 1e300}"#
        let r = try H.render(H.document("[\(H.shapes(stroke))]"))
        #expect(r.logged.isEmpty)
        // The composition (100 × 80 fitted: 64 × 51.2 from y = 6.4) is covered, the frame's
        // margins are not (the composition clips).
        for p in [(32, 32), (1, 8), (62, 56)] { #expect(r.frames[0].rgba(p.0, p.1) == Self.red) }
        #expect(r.frames[0].rgba(32, 2) == Self.clear)
    }

    @Test func zeroNegativeAndTinyDashesDrawASolidLine() throws {
        func render(_ dashes: String) throws -> H.Rendered {
            let item = #"{"ty": "rc", "p": {"k": [50, 40]}, "s": {"k": [40, 40]}}, {"ty": "st", "c": {"k": [1, 0, 0]}, "w": {"k": 4}\#(dashes)}"#
            return try H.render(H.document("[\(H.shapes(item))]"))
        }
        let solid = try render("")
        #expect(solid.frames[0].rgba(19, 32) == Self.red)
        for dashes in [
            #", "d": [{"n": "d", "v": {"k": 0}}, {"n": "g", "v": {"k": 0}}, {"n": "o", "v": {"k": 0}}]"#,
            #", "d": [{"n": "d", "v": {"k": -5}}, {"n": "g", "v": {"k": 3}}, {"n": "o", "v": {"k": 1e300}}]"#,
            #", "d": [{"n": "d", "v": {"k": 1e-300}}, {"n": "g", "v": {"k": 1e-300}}]"#,
            #", "d": [{"n": "d", "v": {"k": [{"t": 0, "s": [0]}, {"t": 60, "s": [-1]}]}}, {"n": "g", "v": {"k": 0}}]"#,
        ] {
            let r = try render(dashes)
            #expect(r.logged.isEmpty)
            #expect(r.frames == solid.frames, "\(dashes)")
        }
    }

    @Test func tenThousandGradientStopsRender() throws {
        let colors = (0..<10_000).map { i in "\(Double(i) / 9_999), 1, 0, 0" }.joined(separator: ", ")
        let alphas = (0..<10_000).map { i in "\(Double(i) / 9_999), 1" }.joined(separator: ", ")
        let g = #"{"ty": "gf", "t": 1, "s": {"k": [0, 0]}, "e": {"k": [100, 0]}, "g": {"p": 10000, "k": {"k": [\#(colors), \#(alphas)]}}}"#
        let r = try H.render(H.document("[\(H.shapes(#"{"ty": "rc", "p": {"k": [50, 40]}, "s": {"k": [100, 80]}}, "# + g))]"))
        #expect(r.logged.isEmpty)
        #expect(r.frames[0].rgba(32, 32) == Self.red)
    }

    // MARK: Time

    /// A precomposition whose square's opacity goes 0 → 100 % over frames 0 … 60, shown by a
    /// layer with `timing` (`sr`, `st`, `tm` members); `square` adds members to the square's
    /// layer (its `ip`, `op`).
    static func fading(_ timing: String, square members: String = "") -> String {
        let square = #"{"ty": 4, "ks": {"o": {"a": 1, "k": [{"t": 0, "s": [0]}, {"t": 60, "s": [100]}]}}\#(members), "shapes": [{"ty": "gr", "it": [\#(H.square)]}]}"#
        return H.document(#"[{"ty": 0, "ks": {}, "refId": "p"\#(timing)}]"#, extra: #", "assets": [{"id": "p", "layers": [\#(square)]}]"#)
    }

    @Test func negativeTinyAndHugeStretches() throws {
        // sr −1 with st 60 plays the precomposition backwards: root frame r shows its frame
        // 60 − r (frame 60 is the square's out point: not drawn; 30 → half; 1 → 1/60).
        let back = try H.render(Self.fading(#", "sr": -1, "st": 60"#))
        #expect(back.logged.isEmpty)
        #expect(back.frames.map { Int($0[32, 32].a) } == [0, 128, 4])
        // A huge stretch holds its frame 0 (local frame (r − st) / sr ≈ 0); a tiny one runs
        // past the square's out point at once (nothing drawn after frame 0).
        let huge = try H.render(Self.fading(#", "sr": 1e300"#))
        #expect(huge.frames.map { Int($0[32, 32].a) } == [0, 0, 0])
        let tiny = try H.render(Self.fading(#", "sr": 1e-300"#, square: #", "op": 1e308"#))
        #expect(tiny.frames.map { Int($0[32, 32].a) } == [0, 255, 255])
        // A stretch of 0 would divide time by zero: refused.
        #expect(H.error(Self.fading(#", "sr": 0"#))?.description == "animation:1: layers[0].sr: expected a non-zero time stretch, got 0")
    }

    @Test func nestedHugeStretchesOverflowTime() throws {
        // Three levels of sr 10³⁰⁰: the third precomposition's time scale is ∞ and its offset
        // 0 · ∞ = NaN, so every local frame is NaN, in no layer's [ip, op): nothing is drawn.
        let square = #"{"ty": 4, "ks": {"o": {"a": 1, "k": [{"t": 0, "s": [30]}, {"t": 60, "s": [100]}]}}, "op": 1e308, "shapes": [{"ty": "gr", "it": [\#(H.square)]}]}"#
        let level = { (id: String, ref: String) in #"{"id": "\#(id)", "layers": [{"ty": 0, "ks": {}, "refId": "\#(ref)", "sr": 1e300, "op": 1e308}]}"# }
        let assets = [level("a", "b"), level("b", "c"), #"{"id": "c", "layers": [\#(square)]}"#].joined(separator: ", ")
        let r = try H.render(H.document(#"[{"ty": 0, "ks": {}, "refId": "a", "sr": 1e300}]"#, extra: #", "assets": [\#(assets)]"#))
        #expect(r.logged.isEmpty)
        #expect(r.frames.map { Int($0[32, 32].a) } == [0, 0, 0])
        // Two levels (time scale 10⁶⁰⁰ = ∞, offset 0): local frame r / ∞ = 0, the first keyframe.
        let two = [level("a", "c"), #"{"id": "c", "layers": [\#(square)]}"#].joined(separator: ", ")
        let r2 = try H.render(H.document(#"[{"ty": 0, "ks": {}, "refId": "a", "sr": 1e300}]"#, extra: #", "assets": [\#(two)]"#))
        #expect(r2.frames.map { Int($0[32, 32].a) } == [77, 77, 77])
    }

    @Test func negativeAndHugeTimeRemaps() throws {
        // Remapped times below 0 read as 0 (documented clamp); a huge one shows the
        // precomposition's frame 3·10³⁰¹ (its last value: the square's out point is later).
        let remap = #", "tm": {"a": 1, "k": [{"t": 0, "s": [-1e300]}, {"t": 30, "s": [-5]}, {"t": 59, "s": [1e300]}]}"#
        let r = try H.render(Self.fading(remap, square: #", "op": 1e308"#))
        #expect(r.logged.isEmpty)
        #expect(r.frames.map { Int($0[32, 32].a) } == [0, 0, 255])
        // With the default out point (the composition's 60), frame 3·10³⁰¹ is past it.
        #expect(try H.render(Self.fading(remap)).frames.map { Int($0[32, 32].a) } == [0, 0, 0])
    }

    @Test func aTimelineOf100000FramesIsSampledInBoundedTime() throws {
        // The longest timeline, under a time remap (every property sampled at every frame).
        let remap = #", "tm": {"a": 1, "k": [{"t": 0, "s": [0]}, {"t": 100000, "s": [2]}]}"#
        let r = try H.render(Self.fading(remap).replacingOccurrences(of: #""op": 60"#, with: #""op": 100000"#))
        #expect(r.frameCount == 100_000)
        // Frame 50 000 shows second 1 of the precomposition: its frame 30, half opaque.
        #expect(r.frames.map { Int($0[32, 32].a) } == [0, 128, 255])
    }

    @Test func layersWithInvertedInAndOutPointsAreNotDrawn() throws {
        let r = try H.render(H.document(##"[{"ty": 1, "ks": {}, "sc": "#ff0000", "sw": 100, "sh": 80, "ip": 50, "op": 10}, {"ty": 1, "ks": {}, "sc": "#ff0000", "sw": 100, "sh": 80, "ip": 1e300, "op": -1e300}]"##))
        #expect(r.logged.isEmpty)
        #expect(r.frames.allSatisfy { $0.rgba(32, 32) == Self.clear })
    }

    // MARK: Geometry

    @Test func overflowingTransformsDrawNothing() throws {
        // 1e300 % scales under a 1e300 % parent: the product overflows to ∞ (then NaN).
        let layers = #"[{"ty": 3, "ind": 1, "ks": {"s": {"k": [1e300, 1e300]}}}, {"ty": 4, "parent": 1, "ks": {"s": {"k": [1e300, -1e300]}, "r": {"k": 1e300}}, "shapes": [{"ty": "gr", "it": [\#(H.square)]}]}]"#
        let r = try H.render(H.document(layers))
        #expect(r.logged.isEmpty)
        #expect(r.frames.allSatisfy { $0.rgba(32, 32) == Self.clear })
    }

    @Test func theLargestCompositionRendersSmall() throws {
        // 16384 × 16384 points (the bound), with a full-size solid, mask and matte: fitted into
        // 64 × 64, nothing is allocated at the composition's size.
        let layers = ##"[{"ty": 1, "ks": {}, "sc": "#ffffff", "sw": 16384, "sh": 16384, "td": 1}, {"ty": 1, "ks": {}, "sc": "#ff0000", "sw": 16384, "sh": 16384, "tt": 1, "masksProperties": [{"mode": "a", "pt": {"k": {"c": true, "v": [[0, 0], [16384, 0], [16384, 16384], [0, 16384]]}}, "x": {"k": 1e6}}]}]"##
        let r = try H.render(H.document(layers, w: "16384", h: "16384"))
        #expect(r.logged.isEmpty)
        #expect(r.frames[0].rgba(32, 32) == Self.red && r.frames[0].rgba(0, 0) == Self.red)
    }

    // MARK: Images

    @Test func base64ThatIsNotAnImageAndTruncatedImages() throws {
        func render(_ uri: String) throws -> H.Rendered {
            try H.render(H.document(#"[{"ty": 2, "ks": {}, "refId": "i"}]"#, extra: #", "assets": [{"id": "i", "w": 100, "h": 80, "p": "\#(uri)", "e": 1}]"#))
        }
        let text = try render("data:image/png;base64,aGVsbG8gd29ybGQ=")
        #expect(text.logged == ["assets[0].p: image: the image data is not a PNG or JPEG image; the image is left out"])
        let notBase64 = try render("data:image/png;base64,!!!!")
        #expect(notBase64.logged == ["assets[0].p: image: malformed base64 in the data URI; the image is left out"])
        let png = try PNG.encodedData(PixelBuffer(width: 40, height: 20))
        let truncatedPNG = try render("data:image/png;base64," + png.prefix(png.count - 20).base64EncodedString())
        #expect(truncatedPNG.logged.count == 1)
        #expect(truncatedPNG.logged.first?.hasPrefix("layers[0]: image: the PNG image cannot be decoded (") == true)
        let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0])
        let truncatedJPEG = try render("data:image/jpeg;base64," + jpeg.base64EncodedString())
        #expect(truncatedJPEG.logged.count == 1)
        #expect(truncatedJPEG.logged.first?.hasPrefix("layers[0]: image: the JPEG image cannot be decoded (") == true)
        for r in [text, notBase64, truncatedPNG, truncatedJPEG] { #expect(r.frames[0].rgba(32, 32) == Self.clear) }
    }

    @Test func imagesShareOnePixelBudget() throws {
        // A header claiming 16384 × 16385 pixels: over the per-side bound, never decoded.
        let tall = Hostile.pngHeader(width: 16384, height: 16385).base64EncodedString()
        let r = try H.render(H.document(#"[{"ty": 2, "ks": {}, "refId": "a"}]"#, extra: #", "assets": [{"id": "a", "p": "data:image/png;base64,\#(tall)"}]"#))
        #expect(r.logged == ["layers[0]: image: the PNG image cannot be decoded (PNG header claims 16384x16385 pixels, above the limit of 16384 pixels per side); not drawn"])
        #expect(LottieImageDecoding.maximumPixels == 1 << 28)
        // The images of one tree share the budget (lowered to 10 pixels here): layers are built
        // bottom-most (last) first, so c (4 × 2) decodes and b (4 × 2 too) no longer fits; a
        // (6 × 2) is over the budget alone. None of b and a is decoded.
        let small = try PNG.encodedData(PixelBuffer(width: 4, height: 2)).base64EncodedString()
        let wide = try PNG.encodedData(PixelBuffer(width: 6, height: 2)).base64EncodedString()
        let assets = #", "assets": [{"id": "a", "p": "data:image/png;base64,\#(wide)"}, {"id": "b", "p": "data:image/png;base64,\#(small)"}, {"id": "c", "p": "data:image/png;base64,\#(small)"}]"#
        let layers = #"[{"ty": 2, "ks": {}, "refId": "a"}, {"ty": 2, "ks": {}, "refId": "b"}, {"ty": 2, "ks": {}, "refId": "c"}]"#
        let c = try LottieParser.parse(Data(H.document(layers, extra: assets).utf8), file: "a.json").composition
        let context = LottieMappingContext(composition: c)
        let mapper = LottieLayerMapper(context: context)
        mapper.imagePixelBudget = LottieImageDecoding.Budget(total: 10)
        _ = mapper.makeRootLayer()
        #expect(context.warnings.map(\.description) == [
            "layers[1]: image: the image is 4 × 2 pixels, which with the images decoded before it passes the budget of 10 for all images; not drawn",
            "layers[0]: image: the image is 6 × 2 pixels, above the limit of 10; not drawn",
        ])
        #expect(mapper.imagePixelBudget.remaining == 2)
    }
}

import Foundation
import Testing
import FlipbookPixels
import FlipbookRender
@testable import FlipbookLottie

/// Every refusal names the file, line and JSON path: exact messages.
@Suite struct ParsingErrorTests {
    typealias S = ParsingSupport

    @Test func wrongTypeNamesTheDeepPathAndLine() {
        let text = """
        {"v": "5.7.0", "fr": 30, "ip": 0, "op": 60, "w": 100, "h": 100,
        "layers": [
        {"ty": 3, "ks": {}},
        {"ty": 3, "ks": {}},
        {"ty": 3, "ks": {}},
        {"ty": 4, "ks": {}, "shapes": [{"ty": "gr", "it": [
          {"ty": "rc", "s": {"a": 0, "k": [10, 10]}},
          {"ty": "el", "s": {"a": 0, "k": [10, 10]}},
          {"ty": "fl", "c": {"a": 0, "k": "red"}}
        ]}]}
        ]}
        """
        #expect(S.message(text) == "anim.json:9: layers[3].shapes[0].it[2].c.k: expected a number or an array of numbers, got a string")
        #expect(S.error(text)?.kind == .invalid)
        #expect(S.error(text)?.line == 9)
        #expect(S.error(text)?.path == "layers[3].shapes[0].it[2].c.k")
    }

    @Test func wrongTypeInsideAKeyframeNamesTheElement() {
        let layers = """
        [{"ty": 3, "ks": {"o": {"a": 1, "k": [
          {"t": 0, "s": [0]},
          {"t": 10, "s": [100, "x"]}
        ]}}}]
        """
        #expect(S.message(S.document(layers: layers)) == "anim.json:3: layers[0].ks.o.k[1].s[1]: expected a number, got a string")
    }

    @Test func syntaxErrorsNameLineAndColumn() {
        #expect(S.message("{\n  \"w\": 1\n  \"h\": 2}") == "anim.json: line 3, column 3: expected ',' or '}', found '\"'")
        #expect(S.error("[1,]")?.kind == .syntax)
    }

    @Test func missingRequiredKeys() {
        #expect(S.message(#"{"fr": 30, "ip": 0, "op": 60, "h": 80, "layers": []}"#) == #"anim.json:1: missing required key "w" (the composition width)"#)
        #expect(S.message(#"{"fr": 30, "ip": 0, "w": 1, "h": 80, "layers": []}"#) == #"anim.json:1: missing required key "op" (the frame after the last)"#)
        #expect(S.message(#"{"fr": 30, "ip": 0, "op": 9, "w": 1, "h": 80}"#) == #"anim.json:1: missing required key "layers" (the composition's layers)"#)
        #expect(S.message(S.document(layers: #"[{"ks": {}}]"#)).hasSuffix(#"layers[0]: missing required key "ty" (the layer type: 0 precomposition, 1 solid, 2 image, 3 null, 4 shape, 5 text)"#))
        #expect(S.message(S.document(layers: #"[{"ty": 3}]"#)) == #"anim.json:1: layers[0]: missing required key "ks" (the layer's transform)"#)
        #expect(S.message(S.document(layers: #"[{"ty": 0, "ks": {}}]"#)) == #"anim.json:1: layers[0]: missing required key "refId" (the precomposition asset's id)"#)
    }

    @Test func filesThatAreNotRegularAreRefusedUnread() {
        // `/dev/zero` never ends: it must be refused before reading, not read until memory runs out.
        #expect(throws: LottieError.self) { try LottieAnimation.load(filepath: "/dev/zero") }
        do { _ = try LottieAnimation.load(filepath: "/dev/zero"); Issue.record("loaded /dev/zero") } catch {
            #expect(error.kind == .unreadable)
            #expect(error.message == "cannot read the file: not a regular file")
        }
        do { _ = try LottieAnimation.load(filepath: "/"); Issue.record("loaded a directory") } catch {
            #expect(error.message == "cannot read the file: it is a directory")
        }
    }

    @Test func nonFiniteNumbersAreRefused() {
        let text = #"{"fr": 1e999, "ip": 0, "op": 60, "w": 100, "h": 80, "layers": []}"#
        #expect(S.message(text) == "anim.json:1: fr: expected a finite number, got inf")
        let deep = S.document(layers: #"[{"ty": 3, "ks": {"p": {"a": 0, "k": [1, -1e400]}}}]"#)
        #expect(S.message(deep) == "anim.json:1: layers[0].ks.p.k[1]: expected a finite number, got -inf")
    }

    @Test func compositionBounds() {
        func doc(w: String = "100", h: String = "80", fr: String = "30", ip: String = "0", op: String = "60") -> String {
            #"{"fr": \#(fr), "ip": \#(ip), "op": \#(op), "w": \#(w), "h": \#(h), "layers": []}"#
        }
        #expect(S.message(doc(w: "0")) == "anim.json:1: w: expected a width between 0 (exclusive) and 16384, got 0")
        #expect(S.message(doc(h: "16385")) == "anim.json:1: h: expected a height between 0 (exclusive) and 16384, got 16385")
        #expect(S.error(doc(h: "16385"))?.kind == .tooLarge)
        #expect(S.message(doc(w: "16384", h: "16384")) == "no error")
        #expect(S.message(doc(fr: "0")) == "anim.json:1: fr: expected frames per second between 0 (exclusive) and 1000, got 0")
        #expect(S.message(doc(fr: "1000.5")) == "anim.json:1: fr: expected frames per second between 0 (exclusive) and 1000, got 1000.5")
        #expect(S.message(doc(ip: "10", op: "10")) == "anim.json:1: op: expected an out point after the in point (10), got 10")
    }

    @Test func tooManyKeyframes() {
        var limits = LottieLimits()
        limits.maximumKeyframes = 3
        let kf = (0..<4).map { #"{"t": \#($0), "s": [\#($0)]}"# }.joined(separator: ", ")
        let text = S.document(layers: #"[{"ty": 3, "ks": {"r": {"a": 1, "k": [\#(kf)]}}}]"#)
        #expect(S.message(text, limits: limits) == "anim.json:1: layers[0].ks.r.k: 4 keyframes; the limit is 3 per property")
        #expect(S.error(text, limits: limits)?.kind == .tooLarge)
        limits.maximumKeyframes = 4
        #expect(S.message(text, limits: limits) == "no error")
        #expect(LottieLimits.standard.maximumKeyframes == 100_000)
    }

    @Test func keyframeTimesMustNotDecrease() {
        let text = S.document(layers: #"[{"ty": 3, "ks": {"o": {"a": 1, "k": [{"t": 5, "s": [0]}, {"t": 2, "s": [1]}]}}}]"#)
        #expect(S.message(text) == "anim.json:1: layers[0].ks.o.k[1].t: keyframe times must not decrease: 2 after 5")
    }

    /// Real files carry precomposition layers whose asset is gone: drawn as nothing, warned.
    @Test func missingPrecompositionAssetDrawsNothing() throws {
        let text = """
        {"fr": 30, "ip": 0, "op": 60, "w": 100, "h": 80,
         "assets": [{"id": "img", "p": "x.png", "u": ""}],
         "layers": [{"ty": 1, "sc": "#ff0000", "sw": 100, "sh": 80, "ks": {}},
                    {"ty": 0, "ks": {}, "w": 100, "h": 80,
                     "refId": "nope"}]}
        """
        for t in [text, text.replacingOccurrences(of: "\"nope\"", with: "\"img\"")] {
            let animation = try LottieAnimation(data: Data(t.utf8))
            let loop = VirtualRunLoop()
            let scene = loop.run { LottieRendering.scene(for: animation, size: .scale(1), logger: .silent) }
            #expect(scene.animationLayer.warnings.map(\.path).contains("layers[1].refId"))
            let pixels = try loop.run { try Compositor(threadCount: 1).render(scene.root.makeRenderTree(at: 0), width: 100, height: 80) }
            #expect(pixels[50, 40] == RGBA8(r: 255, g: 0, b: 0, a: 255))
        }
    }

    @Test func precompositionCycles() {
        let text = """
        {"fr": 30, "ip": 0, "op": 60, "w": 100, "h": 80,
         "assets": [
          {"id": "a", "layers": [{"ty": 0, "ks": {}, "refId": "b"}]},
          {"id": "b", "layers": [{"ty": 3, "ks": {}},
                                 {"ty": 0, "ks": {}, "refId": "a"}]}
         ],
         "layers": [{"ty": 0, "ks": {}, "refId": "a"}]}
        """
        #expect(S.message(text) == #"anim.json:5: assets[1].layers[1].refId: precomposition "a" contains itself (a → b → a)"#)
        let selfCycle = #"{"fr": 30, "ip": 0, "op": 60, "w": 100, "h": 80, "assets": [{"id": "s", "layers": [{"ty": 0, "ks": {}, "refId": "s"}]}], "layers": []}"#
        // Found in an asset no layer uses, too.
        #expect(S.message(selfCycle) == #"anim.json:1: assets[0].layers[0].refId: precomposition "s" contains itself (s → s)"#)
    }

    @Test func expandedLayerCountIsBounded() {
        // c0 … c4 each hold 10 instances of the next; c5 holds 10 nulls: 10^6 layers once expanded.
        var assets: [String] = []
        for i in 0..<5 {
            let layers = Array(repeating: #"{"ty": 0, "ks": {}, "refId": "c\#(i + 1)"}"#, count: 10).joined(separator: ", ")
            assets.append(#"{"id": "c\#(i)", "layers": [\#(layers)]}"#)
        }
        assets.append(#"{"id": "c5", "layers": [\#(Array(repeating: #"{"ty": 3, "ks": {}}"#, count: 10).joined(separator: ", "))]}"#)
        let root = #"[{"ty": 0, "ks": {}, "refId": "c0"}]"#
        let text = S.document(layers: root, extra: #", "assets": [\#(assets.joined(separator: ", "))]"#)
        #expect(S.message(text) == "anim.json:1: layers[0].refId: with this precomposition the animation has more than 100000 layers (each precomposition layer counted with its asset's layers); the limit is 100000")
        #expect(S.error(text)?.kind == .tooLarge)
        // From c2 down: 1 + 10 + 10·(10 + 10·(10 + 10·10)) = 11,111 layers.
        var limits = LottieLimits()
        limits.maximumExpandedLayers = 11_111
        let four = S.document(layers: #"[{"ty": 0, "ks": {}, "refId": "c2"}]"#, extra: #", "assets": [\#(assets.joined(separator: ", "))]"#)
        #expect(S.message(four, limits: limits) == "no error")
        limits.maximumExpandedLayers = 11_110
        #expect(S.message(four, limits: limits).contains("more than 11110 layers"))
    }

    @Test func otherValueChecks() {
        #expect(S.message(S.document(layers: #"[{"ty": 3, "ks": {}, "sr": 0}]"#)) == "anim.json:1: layers[0].sr: expected a non-zero time stretch, got 0")
        let gradient = S.shapeLayer(#"{"ty": "gf", "t": 1, "s": {"k": [0, 0]}, "e": {"k": [1, 1]}, "g": {"p": 3, "k": {"k": [0, 1, 0, 0, 1, 0, 0, 1]}}}"#)
        #expect(S.message(S.document(layers: "[\(gradient)]")) == "anim.json:1: layers[0].shapes[0].it[0].g.k: g.p says 3 colour stops (12 numbers) but the value has 8")
        let shortPosition = S.document(layers: #"[{"ty": 3, "ks": {"p": {"k": [5]}}}]"#)
        #expect(S.message(shortPosition) == "no error")   // padded with zeros, warned (ParsingValueTests)
        let emptyPosition = S.document(layers: #"[{"ty": 3, "ks": {"p": {"k": []}}}]"#)
        #expect(S.message(emptyPosition) == "anim.json:1: layers[0].ks.p.k: expected at least 1 number, got 0")
        let dup = #"{"fr": 30, "ip": 0, "op": 60, "w": 100, "h": 80, "assets": [{"id": "a", "layers": []}, {"id": "a", "layers": []}], "layers": []}"#
        #expect(S.message(dup) == #"anim.json:1: assets[1].id: duplicate asset id "a" (first on line 1)"#)
        let tangents = S.shapeLayer(#"{"ty": "sh", "ks": {"k": {"c": true, "v": [[0, 0], [1, 1]], "i": [[0, 0]], "o": [[0, 0], [0, 0]]}}}"#)
        #expect(S.message(S.document(layers: "[\(tangents)]")) == "anim.json:1: layers[0].shapes[0].it[0].ks.k.i: expected 2 in tangents (one per vertex), got 1")
    }

    @Test func errorDescriptionFormat() {
        let e = LottieError(kind: .tooLarge, file: "a.lottie", line: nil, path: "animations/x.json", message: "too big")
        #expect(e.description == "a.lottie: animations/x.json: too big")
        let f = LottieError(kind: .invalid, file: "a.json", line: 3, path: "", message: "bad")
        #expect(f.description == "a.json:3: bad")
    }
}

import Foundation
import Testing
@testable import FlipbookLottie

/// Animated properties, transforms, shape items, text: what the parser makes of each form.
@Suite struct ParsingValueTests {
    typealias S = ParsingSupport

    func opacity(_ k: String) throws -> LottieAnimated<LottieVector> {
        try S.parse(S.document(layers: #"[{"ty": 3, "ks": {"o": \#(k)}}]"#)).composition.layers[0].transform.opacity
    }

    @Test func staticValuesAreOneKeyframe() throws {
        let o = try opacity(#"{"a": 0, "k": 50}"#)
        #expect(o.keyframes == [LottieKeyframe(time: 0, value: [50])])
        #expect(try opacity(#"{"k": [25]}"#).initialValue == [25])
    }

    @Test func oldFormatEndValueFoldsIntoTheNextKeyframe() throws {
        let o = try opacity(#"{"a": 1, "k": [{"t": 0, "s": [0], "e": [100]}, {"t": 10, "s": [100], "e": [40]}, {"t": 20}]}"#)
        #expect(o.keyframes.map(\.time) == [0, 10, 20])
        #expect(o.keyframes.map(\.value) == [[0], [100], [40]])
        // An `s` wins over the previous `e` (lottie-ios).
        let p = try opacity(#"{"a": 1, "k": [{"t": 0, "s": [0], "e": [100]}, {"t": 10, "s": [70]}]}"#)
        #expect(p.keyframes.map(\.value) == [[0], [70]])
        // No `s` and no previous `e`: the previous value.
        let q = try opacity(#"{"a": 1, "k": [{"t": 0, "s": [30]}, {"t": 10}]}"#)
        #expect(q.keyframes.map(\.value) == [[30], [30]])
        #expect(S.message(S.document(layers: #"[{"ty": 3, "ks": {"o": {"a": 1, "k": [{"t": 0}]}}}]"#))
                == #"anim.json:1: layers[0].ks.o.k[0]: missing required key "s" (the keyframe's value)"#)
    }

    @Test func easingPerDimensionAndHold() throws {
        let text = S.document(layers: #"""
        [{"ty": 3, "ks": {"s": {"a": 1, "k": [
          {"t": 0, "s": [100, 100], "o": {"x": [0.1, 0.2], "y": [0.3, 0.4]}, "i": {"x": 0.7, "y": 0.9}},
          {"t": 10, "s": [50, 60], "h": 1},
          {"t": 20, "s": [10, 10], "o": {"x": [0.5, 0.6], "y": [0.25]}}
        ]}}}]
        """#)
        let s = try S.parse(text).composition.layers[0].transform.scale
        #expect(s.keyframes[0].outEase == [CGPoint(x: 0.1, y: 0.3), CGPoint(x: 0.2, y: 0.4)])
        #expect(s.keyframes[0].inEase == [CGPoint(x: 0.7, y: 0.9)])
        #expect(s.keyframes.map(\.hold) == [false, true, false])
        #expect(s.keyframes[1].outEase.isEmpty)
        // The shorter list's last entry repeats.
        #expect(s.keyframes[2].outEase == [CGPoint(x: 0.5, y: 0.25), CGPoint(x: 0.6, y: 0.25)])
    }

    @Test func splitAndSpatialPositions() throws {
        let split = S.document(layers: #"[{"ty": 3, "ks": {"p": {"s": true, "x": {"a": 0, "k": 12}, "y": {"a": 1, "k": [{"t": 0, "s": [3]}, {"t": 5, "s": [9]}]}}}}]"#)
        guard case let .split(x, y) = try S.parse(split).composition.layers[0].transform.position else { Issue.record("not split"); return }
        #expect(x.keyframes == [LottieKeyframe(time: 0, value: [12])])
        #expect(y.keyframes.map(\.value) == [[3], [9]])
        let old = S.document(layers: #"[{"ty": 3, "ks": {"px": {"k": 1}, "py": {"k": 2}}}]"#)
        guard case let .split(ox, oy) = try S.parse(old).composition.layers[0].transform.position else { Issue.record("not split"); return }
        #expect(ox.initialValue == [1] && oy.initialValue == [2])
        let spatial = S.document(layers: #"[{"ty": 3, "ks": {"p": {"a": 1, "k": [{"t": 0, "s": [0, 0, 0], "to": [10, 0, 0], "ti": [-10, 5, 0]}, {"t": 9, "s": [50, 50, 0]}]}}}]"#)
        guard case let .combined(p) = try S.parse(spatial).composition.layers[0].transform.position else { Issue.record("not combined"); return }
        #expect(p.keyframes[0].spatialOut == [10, 0, 0] && p.keyframes[0].spatialIn == [-10, 5, 0])
        #expect(p.keyframes[1].spatialOut == nil)
    }

    @Test func transformDefaultsAndRotationAlias() throws {
        let c = try S.parse(S.document(layers: #"[{"ty": 3, "ks": {}}, {"ty": 3, "ks": {"rz": {"k": 45}}}]"#)).composition
        #expect(c.layers[0].transform == LottieTransform())
        #expect(c.layers[1].transform.rotation.initialValue == [45])
        #expect(c.layers[0].inPoint == 0 && c.layers[0].outPoint == 60)
        #expect(c.layers[0].startTime == 0 && c.layers[0].timeStretch == 1)
    }

    @Test func expressionsWarnOncePerProperty() throws {
        let r = try S.parse(S.document(layers: #"[{"ty": 3, "ks": {"r": {"a": 0, "k": 10, "x": "time * 30"}}}]"#))
        #expect(r.composition.layers[0].transform.rotation.expression == "time * 30")
        #expect(r.composition.layers[0].transform.rotation.initialValue == [10])
        #expect(r.warnings == [LottieWarning(feature: "expression", path: "layers[0].ks.r", message: "expression not evaluated; its static value is used")])
        let keyed = try S.parse(S.document(layers: #"[{"ty": 3, "ks": {"r": {"a": 1, "k": [{"t": 0, "s": [0]}, {"t": 10, "s": [90]}], "x": "loopOut()"}}}]"#))
        #expect(keyed.warnings == [LottieWarning(feature: "expression", path: "layers[0].ks.r", message: "expression not evaluated; its keyframes are used")])
    }

    /// lottie-ios's sample pr_1599 has an anchor `[9.688]`: read as `[9.688, 0]`, warned.
    @Test func shortVectorsArePaddedWithZeros() throws {
        let r = try S.parse(S.document(layers: #"[{"ty": 3, "ks": {"a": {"a": 0, "k": [9.5]}, "p": {"a": 1, "k": [{"t": 0, "s": [3]}, {"t": 9, "s": [4, 5]}]}}}]"#))
        #expect(r.composition.layers[0].transform.anchor.initialValue == [9.5, 0])
        #expect(r.warnings.map(\.description) == [
            "layers[0].ks.a.k: short value: expected 2 numbers, got 1; the missing ones read as 0",
            "layers[0].ks.p.k[0].s: short value: expected 2 numbers, got 1; the missing ones read as 0",
        ])
    }

    @Test func coloursWritten0To255AreScaled() throws {
        let text = S.document(layers: "[\(S.shapeLayer(#"{"ty": "fl", "c": {"k": [255, 127.5, 51, 1]}, "o": {"k": 100}}, {"ty": "fl", "c": {"k": [1, 0.5, 0.2]}}"#))]")
        guard case let .shape(s) = try S.parse(text).composition.layers[0].kind, case let .group(it, _) = s[0].kind,
              case let .fill(f0) = it[0].kind, case let .fill(f1) = it[1].kind else { Issue.record("not fills"); return }
        #expect(f0.color.initialValue == [1, 0.5, 0.2, 1])
        #expect(f1.color.initialValue == [1, 0.5, 0.2])
        #expect(f1.opacity.initialValue == [100])
    }

    @Test func shapeItems() throws {
        let items = #"""
        {"ty": "sh", "d": 3, "ks": {"a": 1, "k": [
           {"t": 0, "s": [{"c": true, "v": [[0, 0], [10, 0], [10, 10]], "i": [[0, 0], [0, 0], [0, 0]], "o": [[1, 1], [0, 0], [0, 0]]}]},
           {"t": 5, "s": [{"c": true, "v": [[0, 0], [20, 0], [20, 20]], "i": [[0, 0], [0, 0], [0, 0]], "o": [[0, 0], [0, 0], [0, 0]]}]}]}},
        {"ty": "st", "c": {"k": [0, 0, 1]}, "o": {"k": 80}, "w": {"k": 3}, "lc": 1, "lj": 3, "ml2": {"k": 7},
         "d": [{"n": "d", "v": {"k": 4}}, {"n": "g", "v": {"k": 2}}, {"n": "o", "v": {"k": 1}}]},
        {"ty": "sr", "sy": 2, "p": {"k": [5, 5]}, "or": {"k": 10}, "os": {"k": 0}, "r": {"k": 0}, "pt": {"k": 6}},
        {"ty": "rp", "c": {"k": 4}, "o": {"k": 0}, "m": 2, "tr": {"p": {"k": [10, 0]}, "so": {"k": 100}, "eo": {"k": 20}}},
        {"ty": "tm", "s": {"k": 10}, "e": {"k": 90}, "o": {"k": 0}, "m": 2},
        {"ty": "zz", "nm": "zig"},
        {"ty": "tr", "p": {"k": [3, 4]}, "o": {"k": 50}}
        """#
        guard let item = S.firstItem(try S.parse(S.document(layers: "[\(S.shapeLayer(items))]")).composition) else {
            Issue.record("no item"); return
        }
        guard case let .path(path, reversed) = item.kind else { Issue.record("not a path"); return }
        #expect(reversed)
        #expect(path.keyframes.count == 2)
        #expect(path.keyframes[1].value.vertices == [CGPoint(x: 0, y: 0), CGPoint(x: 20, y: 0), CGPoint(x: 20, y: 20)])
        #expect(path.keyframes[0].value.outTangents[0] == CGPoint(x: 1, y: 1))

        let c = try S.parse(S.document(layers: "[\(S.shapeLayer(items))]")).composition
        guard case let .shape(s) = c.layers[0].kind, case let .group(it, tr) = s[0].kind else { Issue.record("no group"); return }
        // The trailing `tr` became the group's transform.
        #expect(it.count == 6)
        #expect(tr?.opacity.initialValue == [50])
        guard case let .stroke(st) = it[1].kind else { Issue.record("not a stroke"); return }
        #expect(st.style.lineCap == 1 && st.style.lineJoin == 3 && st.style.miterLimit == 7)
        #expect(st.style.dashes.map(\.kind) == ["d", "g", "o"])
        #expect(st.style.dashes.map(\.value.initialValue) == [[4], [2], [1]])
        guard case let .polystar(star) = it[2].kind else { Issue.record("not a polystar"); return }
        #expect(!star.isStar && star.innerRadius == nil && star.points.initialValue == [6])
        guard case let .repeater(rp) = it[3].kind else { Issue.record("not a repeater"); return }
        #expect(rp.copies.initialValue == [4] && !rp.stacksAbove)
        #expect(rp.transform.startOpacity?.initialValue == [100] && rp.transform.endOpacity?.initialValue == [20])
        guard case let .trim(tm) = it[4].kind else { Issue.record("not a trim"); return }
        #expect(tm.individually && tm.end.initialValue == [90])
        guard case let .zigZag(amplitude, ridges, pointType) = it[5].kind else { Issue.record("not a zig-zag"); return }
        #expect(it[5].name == "zig" && amplitude.initialValue == [0] && ridges.initialValue == [0] && pointType.initialValue == [1])
    }

    @Test func layersOfEveryKind() throws {
        let layers = #"""
        [{"ty": 1, "ks": {}, "sc": "#ff8000", "sw": 40, "sh": 30, "nm": "bg", "ind": 1, "ip": 5, "op": 50, "st": 2, "sr": 2},
         {"ty": 2, "ks": {}, "refId": "missing", "parent": 1, "hd": true, "bm": 2, "tt": 1, "tp": 1, "td": 0, "ao": 1},
         {"ty": 5, "ks": {}, "t": {"d": {"k": [{"t": 0, "s": {"t": "Hi\rthere", "f": "Roboto-Bold", "s": 24, "j": 2, "fc": [1, 0, 0], "tr": 10, "lh": 28}},
                                           {"t": 30, "s": {"t": "Bye", "f": "Roboto-Bold", "s": 20}}]},
                                 "a": [{}, {}], "m": {"a": {"k": [50, 0]}}, "p": {}}},
         {"ty": 6, "refId": "audio_0", "ef": [{"ty": 25, "nm": "Drop Shadow", "en": 1}]},
         {"ty": 3, "ks": {}, "masksProperties": [{"mode": "s", "inv": true, "pt": {"k": {"c": true, "v": [[0, 0]], "i": [[0, 0]], "o": [[0, 0]]}}, "o": {"k": 50}}]}]
        """#
        let extra = #", "fonts": {"list": [{"fName": "Roboto-Bold", "fFamily": "Roboto", "fStyle": "Bold", "ascent": 75}]}, "markers": [{"cm": "intro", "tm": 5, "dr": 10}], "assets": [{"id": "audio_0", "t": 2, "p": "a.mp3", "u": ""}]"#
        let r = try S.parse(S.document(layers: layers, extra: extra))
        let c = r.composition
        #expect(c.layers[0].kind == .solid(color: "#ff8000", width: 40, height: 30))
        #expect(c.layers[0].name == "bg" && c.layers[0].index == 1 && c.layers[0].inPoint == 5 && c.layers[0].outPoint == 50)
        #expect(c.layers[0].startTime == 2 && c.layers[0].timeStretch == 2)
        #expect(c.layers[1].kind == .image(refId: "missing"))
        #expect(c.layers[1].parent == 1 && c.layers[1].hidden && c.layers[1].blendMode == 2)
        #expect(c.layers[1].matteMode == 1 && c.layers[1].matteParent == 1 && !c.layers[1].isMatteSource && c.layers[1].autoOrient)
        guard case let .text(t) = c.layers[2].kind else { Issue.record("not text"); return }
        #expect(t.documents.map(\.time) == [0, 30])
        #expect(t.documents[0].document.text == "Hi\rthere" && t.documents[0].document.justification == 2)
        #expect(t.documents[0].document.fillColor == [1, 0, 0] && t.documents[0].document.lineHeight == 28)
        #expect(t.animatorCount == 2 && t.alignment == [50, 0] && !t.hasPath)
        #expect(c.layers[3].kind == .other(type: 6) && c.layers[3].transform == LottieTransform())
        #expect(c.layers[3].effects == [LottieEffect(type: 25, name: "Drop Shadow", enabled: true)])
        #expect(c.layers[4].masks.first?.mode == "s" && c.layers[4].masks.first?.inverted == true)
        #expect(c.layers[4].masks.first?.opacity.initialValue == [50])
        #expect(c.fonts == [LottieFont(name: "Roboto-Bold", family: "Roboto", style: "Bold", ascent: 75)])
        #expect(c.markers == [LottieMarker(name: "intro", frame: 5, duration: 10)])
        // The sound asset is left out; the image layer names no image asset: warnings, not errors.
        #expect(c.assets.isEmpty)
        #expect(r.warnings.map(\.path) == ["assets[0]", "layers[1].refId"])
        #expect(r.warnings[0].message == #"asset "audio_0" is a sound asset (t 2); left out"#)
    }

    @Test func unknownKeysAndNullsAreIgnored() throws {
        let c = try S.parse(#"{"fr": 30, "ip": 0, "op": 60, "w": 100, "h": 80, "meta": {"g": "x"}, "nm": null, "layers": [{"ty": 3, "ks": {"o": {"k": 40, "ix": 11}}, "mn": "x", "bounds": [1]}]}"#).composition
        #expect(c.name == nil && c.layers[0].transform.opacity.initialValue == [40])
    }
}

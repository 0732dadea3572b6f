import Foundation
import Testing
@testable import FlipbookLottie

/// The four real fixtures (Tests/Fixtures/lottie/fixtures, from airbnb/lottie-ios): their
/// documented facts, as the parser reads them.
@Suite struct ParsingFixtureTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/lottie/fixtures")

    static func load(_ name: String) throws -> LottieAnimation {
        try LottieAnimation.load(filepath: fixtures.appendingPathComponent(name).path)
    }

    /// Every layer of the composition and of its assets.
    static func allLayers(_ c: LottieComposition) -> [LottieLayer] {
        c.layers + c.assets.flatMap { a -> [LottieLayer] in
            if case let .precomposition(layers, _) = a.kind { return layers } else { return [] }
        }
    }

    /// Every shape item, groups included, depth first.
    static func allItems(_ c: LottieComposition) -> [LottieShapeItem] {
        func walk(_ items: [LottieShapeItem]) -> [LottieShapeItem] {
            items.flatMap { item -> [LottieShapeItem] in
                if case let .group(inner, _) = item.kind { return [item] + walk(inner) }
                return [item]
            }
        }
        return allLayers(c).flatMap { l -> [LottieShapeItem] in
            if case let .shape(items) = l.kind { return walk(items) } else { return [] }
        }
    }

    /// Counts of layer kinds: "shape", "solid", "null", "precomp", …
    static func layerKinds(_ layers: [LottieLayer]) -> [String: Int] {
        var out: [String: Int] = [:]
        for l in layers {
            let k: String
            switch l.kind {
            case .precomposition: k = "precomp"
            case .solid: k = "solid"
            case .image: k = "image"
            case .null: k = "null"
            case .shape: k = "shape"
            case .text: k = "text"
            case .other: k = "other"
            }
            out[k, default: 0] += 1
        }
        return out
    }

    static func itemKinds(_ items: [LottieShapeItem]) -> [String: Int] {
        var out: [String: Int] = [:]
        for i in items {
            let k: String
            switch i.kind {
            case .group: k = "gr"
            case .rectangle: k = "rc"
            case .ellipse: k = "el"
            case .polystar: k = "sr"
            case .path: k = "sh"
            case .fill: k = "fl"
            case .stroke: k = "st"
            case let .gradientFill(g): k = g.gradient.isRadial ? "gf radial" : "gf linear"
            case let .gradientStroke(g): k = g.gradient.isRadial ? "gs radial" : "gs linear"
            case .trim: k = "tm"
            case .roundedCorners: k = "rd"
            case .repeater: k = "rp"
            case .merge: k = "mm"
            case .offsetPath: k = "op"
            case .puckerBloat: k = "pb"
            case .zigZag: k = "zz"
            case .transform: k = "tr"
            case let .unknown(t): k = "unknown \(t)"
            }
            out[k, default: 0] += 1
        }
        return out
    }

    /// Hold keyframes of every vector property of the transforms and shape items.
    static func holdCount(_ c: LottieComposition) -> Int {
        func h(_ a: LottieAnimated<LottieVector>?) -> Int { a?.keyframes.filter(\.hold).count ?? 0 }
        func t(_ t: LottieTransform?) -> Int {
            guard let t else { return 0 }
            var n = h(t.anchor) + h(t.scale) + h(t.rotation) + h(t.opacity) + h(t.skew) + h(t.skewAxis)
            switch t.position {
            case let .combined(p): n += h(p)
            case let .split(x, y): n += h(x) + h(y)
            }
            return n
        }
        var n = allLayers(c).reduce(0) { $0 + t($1.transform) }
        for item in allItems(c) {
            switch item.kind {
            case let .fill(f): n += h(f.color) + h(f.opacity)
            case let .stroke(s): n += h(s.color) + h(s.opacity) + h(s.style.width)
            case let .group(_, tr): n += t(tr)
            case let .path(p, _): n += p.keyframes.filter(\.hold).count
            case let .gradientFill(g): n += h(g.opacity) + h(g.gradient.stops) + h(g.gradient.start) + h(g.gradient.end)
            case let .gradientStroke(g): n += h(g.opacity) + h(g.gradient.stops) + h(g.gradient.start) + h(g.gradient.end) + h(g.style.width)
            case let .rectangle(r): n += h(r.position) + h(r.size) + h(r.roundness)
            case let .ellipse(e): n += h(e.position) + h(e.size)
            case let .trim(tm): n += h(tm.start) + h(tm.end) + h(tm.offset)
            default: break
            }
        }
        return n
    }

    @Test func lottieLogo() throws {
        let a = try Self.load("LottieLogo1.json")
        let c = a.composition
        #expect(a.size == CGSize(width: 375, height: 667))
        #expect(a.framerate == 30)
        #expect(a.startFrame == 0 && a.endFrame == 179)
        #expect(abs(a.duration - 179.0 / 30) < 1e-12)
        #expect(c.version == "4.4.26")
        #expect(c.layers.count == 48)
        #expect(Self.layerKinds(c.layers) == ["shape": 45, "solid": 3])
        let items = Self.itemKinds(Self.allItems(c))
        #expect(items["st"] == 41 && items["fl"] == 4 && items["tm"] == 40 && items["sh"] == 39)
        #expect(items["el"] == 5 && items["rc"] == 1 && items["gr"] == 45)
        // Every group's `tr` was pulled out into the group's transform.
        #expect(items["tr"] == nil)
        #expect(Self.allItems(c).allSatisfy { if case let .group(_, t) = $0.kind { return t != nil } else { return true } })
        #expect(c.layers.contains { $0.parent != nil })
        #expect(a.parseWarnings.isEmpty)
        #expect(a.sourceURL?.lastPathComponent == "LottieLogo1.json")
    }

    @Test func motionCorpse() throws {
        let a = try Self.load("MotionCorpse_Jrcanest.json")
        let c = a.composition
        #expect(a.size == CGSize(width: 1920, height: 1080))
        #expect(a.framerate == 24 && a.endFrame - a.startFrame == 82)
        #expect(Self.layerKinds(c.layers) == ["shape": 16, "solid": 4, "null": 6])
        let items = Self.itemKinds(Self.allItems(c))
        #expect(items["st"] == 13 && items["fl"] == 16 && items["rd"] == 2)
        // 11 keyframes with "h": 1 in the file, all on stroke and fill colours.
        #expect(Self.holdCount(c) == 11)
        // layers[5].shapes[0].it: path, stroke (colour held at frames 0, 6, 18, 30), fill
        // (held at 0, 6, 18), and the group's transform (pulled out).
        guard case let .shape(shapes) = c.layers[5].kind, case let .group(it, transform) = shapes[0].kind,
              case let .stroke(stroke) = it[1].kind, case let .fill(fill) = it[2].kind else {
            Issue.record("layers[5].shapes[0].it is not path, stroke, fill"); return
        }
        #expect(it.count == 3 && transform != nil)
        #expect(stroke.color.keyframes.map(\.time) == [0, 6, 18, 30])
        #expect(stroke.color.keyframes.allSatisfy { $0.hold })
        #expect(fill.color.keyframes.map(\.time) == [0, 6, 18])
    }

    @Test func issue2066() throws {
        let a = try Self.load("issue_2066.json")
        let c = a.composition
        #expect(a.size == CGSize(width: 548, height: 583))
        #expect(a.framerate == 60 && a.startFrame == 0 && a.endFrame == 153)
        #expect(c.layers.count == 42)
        #expect(c.assets.map(\.id) == ["comp_0", "comp_1"])
        let all = Self.allLayers(c)
        #expect(Self.layerKinds(all) == ["shape": 46, "precomp": 3, "null": 6])
        let items = Self.itemKinds(Self.allItems(c))
        #expect(items["gf linear"] == 14 && items["gf radial"] == 9)
        #expect(items["gs linear"] == 3 && items["gs radial"] == 1)
        #expect(items["fl"] == 22 && items["st"] == 4 && items["mm"] == 1)
        #expect(all.flatMap(\.masks).map(\.mode) == ["a"])
        #expect(all.filter { $0.matteMode == 2 }.count == 1)
        #expect(all.filter { $0.isMatteSource }.count == 1)
        #expect(all.filter { $0.blendMode == 2 }.count == 1)
        #expect(Self.holdCount(c) == 23)
        // Negative X scale somewhere.
        #expect(all.contains { $0.transform.scale.keyframes.contains { $0.value[0] < 0 } })
        // Markers: "4" at 110, "6" at 118, zero duration.
        #expect(a.markerNames == ["4", "6"])
        #expect(a.frameTime(forMarker: "4") == 110)
        #expect(a.durationFrameTime(forMarker: "6") == 0)
        #expect(a.progressTime(forMarker: "4") == 110.0 / 153)
        #expect(a.progressTime(forMarker: "none") == nil)
        // Gradient stops: p colour stops, 4·p numbers at least.
        for item in Self.allItems(c) {
            if case let .gradientFill(g) = item.kind {
                #expect(g.gradient.stops.keyframes.allSatisfy { $0.value.count >= 4 * g.gradient.colorStopCount })
            }
        }
    }

    @Test func issue769() throws {
        let a = try Self.load("issue_769.json")
        let c = a.composition
        #expect(a.size == CGSize(width: 800, height: 400))
        #expect(a.framerate == 60 && a.endFrame == 200)
        #expect(Self.layerKinds(c.layers) == ["precomp": 5, "shape": 1])
        #expect(c.assets.count == 7)
        let all = Self.allLayers(c)
        #expect(Self.layerKinds(all) == ["precomp": 11, "shape": 7])
        let items = Self.itemKinds(Self.allItems(c))
        #expect(items["rp"] == 6 && items["fl"] == 6 && items["gf linear"] == 1)
        #expect(all.flatMap(\.masks).count == 1)
        // The precomposition layers name existing assets.
        let ids = Set(c.assets.map(\.id))
        for l in all { if case let .precomposition(ref, _, _) = l.kind { #expect(ids.contains(ref)) } }
    }

    /// Old-format (Bodymovin 4) keyframes carry `e`; the last has only `t`. In LottieLogo1,
    /// layers[1].shapes[0].it[1] is a trim whose start goes 87 → 50.633 (t 76 → 79) → 0 (t 83,
    /// written `{"t": 83}`).
    @Test func oldFormatEndValuesBecomeTheNextKeyframesValue() throws {
        let a = try Self.load("LottieLogo1.json")
        guard case let .shape(shapes) = a.composition.layers[1].kind, case let .group(it, _) = shapes[0].kind,
              case let .trim(trim) = it[1].kind else { Issue.record("layers[1].shapes[0].it[1] is not a trim"); return }
        #expect(trim.start.keyframes.map(\.time) == [76, 79, 83])
        #expect(trim.start.keyframes.map(\.value) == [[87], [50.633], [0]])
        #expect(trim.end.keyframes.map(\.value) == [[100], [75.856], [0]])
        // Per-dimension easing arrays of one entry: one point.
        #expect(trim.start.keyframes[0].outEase == [CGPoint(x: 0.167, y: 0.167)])
        #expect(trim.start.keyframes[0].inEase == [CGPoint(x: 0.833, y: 0.833)])
        #expect(trim.start.keyframes[2].outEase.isEmpty)
    }
}

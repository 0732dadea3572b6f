import Testing
import Foundation
import FlipbookPixels
@testable import FlipbookLottie

/// Masks (`masksProperties`), track mattes (`tt`) and blend modes (`bm`), in pixels.
@Suite struct LayerMaskTests {
    /// A rectangle path x0…x1 × 0…40.
    static func rect(_ x0: Double, _ x1: Double) -> LottieAnimated<LottieBezier> {
        LottieAnimated(LottieBezier(closed: true, vertices: [CGPoint(x: x0, y: 0), CGPoint(x: x1, y: 0), CGPoint(x: x1, y: 40), CGPoint(x: x0, y: 40)],
                                    inTangents: Array(repeating: .zero, count: 4), outTangents: Array(repeating: .zero, count: 4)))
    }

    static func mask(_ mode: String, _ x0: Double, _ x1: Double, inverted: Bool = false, opacity: Double = 100, expansion: Double = 0) -> LottieMask {
        var m = LottieMask(mode: mode, path: rect(x0, x1))
        m.inverted = inverted
        m.opacity = LottieAnimated([opacity])
        m.expansion = LottieAnimated([expansion])
        return m
    }

    /// The alpha of a red 40 × 40 solid with `masks` at x = 5, 15, 25, 35 (y = 20).
    static func alphas(_ masks: [LottieMask]) throws -> [Int] {
        var l = LT.solid(w: 40, h: 40)
        l.masks = masks
        let px = try MappedScene(LT.composition(w: 40, h: 40, [l])).render(atFrame: 0)
        return [5, 15, 25, 35].map { px.rgba($0, 20)[3] }
    }

    /// Left half (0…20) and middle (10…30) combined by each mode.
    @Test func maskModes() throws {
        #expect(try Self.alphas([Self.mask("a", 0, 20)]) == [255, 255, 0, 0])
        #expect(try Self.alphas([Self.mask("a", 0, 20), Self.mask("a", 10, 30)]) == [255, 255, 255, 0])
        #expect(try Self.alphas([Self.mask("a", 0, 20), Self.mask("s", 10, 30)]) == [255, 0, 0, 0])
        #expect(try Self.alphas([Self.mask("a", 0, 20), Self.mask("i", 10, 30)]) == [0, 255, 0, 0])
        #expect(try Self.alphas([Self.mask("a", 0, 20), Self.mask("d", 10, 30)]) == [0, 255, 0, 0])
        #expect(try Self.alphas([Self.mask("a", 0, 20), Self.mask("f", 10, 30)]) == [255, 0, 255, 0])
        // Difference with partial opacities: the exclusive or, a + m − 2am (ThorVG's), not |a − m|.
        let difference = try Self.alphas([Self.mask("a", 0, 20, opacity: 70), Self.mask("f", 10, 30, opacity: 80)])
        #expect(abs(difference[0] - 179) <= 1 && abs(difference[1] - 97) <= 1 && abs(difference[2] - 204) <= 1 && difference[3] == 0,
                "\(difference)")
        let lighten = try Self.alphas([Self.mask("a", 0, 20), Self.mask("l", 10, 30, opacity: 50)])
        #expect(lighten[0] == 255 && lighten[1] == 255 && abs(lighten[2] - 128) <= 1 && lighten[3] == 0)
        // A mode `n` mask does nothing; a first subtract mask cuts a full layer.
        #expect(try Self.alphas([Self.mask("n", 0, 20)]) == [255, 255, 255, 255])
        #expect(try Self.alphas([Self.mask("s", 0, 20)]) == [0, 0, 255, 255])
    }

    /// Inverted masks, mask opacity, expansion.
    @Test func invertedOpacityAndExpansion() throws {
        #expect(try Self.alphas([Self.mask("a", 0, 20, inverted: true)]) == [0, 0, 255, 255])
        #expect(try Self.alphas([Self.mask("a", 0, 30), Self.mask("s", 10, 20, inverted: true)]) == [0, 255, 0, 0])
        let half = try Self.alphas([Self.mask("a", 0, 20, opacity: 50)])
        #expect(abs(half[0] - 128) <= 1 && half[2] == 0)
        let invertedHalf = try Self.alphas([Self.mask("a", 0, 20, inverted: true, opacity: 50)])
        #expect(invertedHalf[0] == 0 && abs(invertedHalf[2] - 128) <= 1)
        // Expanded by 7: 0…27; contracted by 7: 0…20 becomes 7…13, 0…30 becomes 7…23.
        #expect(try Self.alphas([Self.mask("a", 0, 20, expansion: 7)]) == [255, 255, 255, 0])
        #expect(try Self.alphas([Self.mask("a", 0, 20, expansion: -7)]) == [0, 0, 0, 0])
        #expect(try Self.alphas([Self.mask("a", 0, 30, expansion: -7)]) == [0, 255, 0, 0])
    }

    /// An animated mask path: its keyframes are a `path` animation.
    @Test func animatedMaskPath() throws {
        var l = LT.solid(w: 40, h: 40)
        var m = LottieMask(mode: "a", path: Self.rect(0, 10))
        m.path = LottieAnimated(keyframes: [LottieKeyframe(time: 0, value: Self.rect(0, 10).initialValue),
                                            LottieKeyframe(time: 10, value: Self.rect(0, 30).initialValue)])
        l.masks = [m]
        let scene = MappedScene(LT.composition(w: 40, h: 40, [l]))
        #expect(try scene.render(atFrame: 0).rgba(15, 20)[3] == 0)
        #expect(try scene.render(atFrame: 5).rgba(15, 20)[3] == 255)
        #expect(try scene.render(atFrame: 5).rgba(25, 20)[3] == 0)
        #expect(try scene.render(atFrame: 10).rgba(25, 20)[3] == 255)
    }

    /// A red 40 × 40 solid matted (`tt` = mode) by the layer above it: `matte`, drawn over
    /// x 0…20 in `color`. Returns the red layer's alpha at x = 5 and 25.
    static func matted(_ mode: Int, color: String = "#ffffff", matteOpacity: Double = 100) throws -> [Int] {
        var matte = LT.solid(color, w: 20, h: 40, transform: LT.transform(opacity: matteOpacity))
        matte.isMatteSource = true
        var content = LT.solid(w: 40, h: 40)
        content.matteMode = mode
        let px = try MappedScene(LT.composition(w: 40, h: 40, [matte, content])).render(atFrame: 0)
        #expect(px.rgba(5, 20)[1] == 0 && px.rgba(5, 20)[2] == 0)   // never the matte's own colour
        return [px.rgba(5, 20)[3], px.rgba(25, 20)[3]]
    }

    @Test func trackMattes() throws {
        #expect(try Self.matted(1) == [255, 0])
        #expect(try Self.matted(2) == [0, 255])
        let alphaHalf = try Self.matted(1, matteOpacity: 50)
        #expect(abs(alphaHalf[0] - 128) <= 1 && alphaHalf[1] == 0)
        // Luma: a mid-grey matte shows the layer at half; inverted, the rest fully.
        let luma = try Self.matted(3, color: "#808080")
        #expect(abs(luma[0] - 128) <= 1 && luma[1] == 0)
        let lumaInverted = try Self.matted(4, color: "#808080")
        #expect(abs(lumaInverted[0] - 127) <= 1 && lumaInverted[1] == 255)
        // A pure red matte has luminance 0.2125: alpha 54.
        #expect(abs(try Self.matted(3, color: "#ff0000")[0] - 54) <= 1)
    }

    /// The matte named by `tp` (not the layer above), and a matte out of its in/out range:
    /// alpha mattes then hide everything, inverted ones nothing.
    @Test func matteByIndexAndEmptyMatte() throws {
        var matte = LT.solid("#ffffff", w: 20, h: 40, ind: 7)
        matte.isMatteSource = true
        var other = LT.solid("#00ff00", w: 40, h: 40, ind: 8, ip: 90, op: 95)   // not visible at frame 0
        other.isMatteSource = false
        var content = LT.solid(w: 40, h: 40)
        content.matteMode = 1
        content.matteParent = 7
        let px = try MappedScene(LT.composition(w: 40, h: 40, [matte, other, content])).render(atFrame: 0)
        #expect(px.rgba(5, 20) == [255, 0, 0, 255] && px.rgba(25, 20)[3] == 0)

        var late = LT.solid("#ffffff", w: 20, h: 40, ip: 50, op: 60)
        late.isMatteSource = true
        for (mode, want) in [(1, [0, 0]), (2, [255, 255])] {
            var c = LT.solid(w: 40, h: 40)
            c.matteMode = mode
            let scene = MappedScene(LT.composition(w: 40, h: 40, [late, c]))
            let f0 = try scene.render(atFrame: 0)
            #expect([f0.rgba(5, 20)[3], f0.rgba(25, 20)[3]] == want)
            let f55 = try scene.render(atFrame: 55)
            let visible: [Int] = mode == 1 ? [255, 0] : [0, 255]
            #expect([f55.rgba(5, 20)[3], f55.rgba(25, 20)[3]] == visible)
        }
    }

    /// Blend mode screen: red over mid grey → (255, 128, 128).
    @Test func blendModeScreen() throws {
        var top = LT.solid("#ff0000", w: 40, h: 40)
        top.blendMode = 2
        let bottom = LT.solid("#808080", w: 40, h: 40)
        let px = try MappedScene(LT.composition(w: 40, h: 40, [top, bottom])).render(atFrame: 0)
        let p = px.rgba(20, 20)
        #expect(p[0] == 255 && abs(p[1] - 128) <= 1 && abs(p[2] - 128) <= 1 && p[3] == 255)
        // Multiply: (128, 0, 0).
        top.blendMode = 1
        let m = try MappedScene(LT.composition(w: 40, h: 40, [top, bottom])).render(atFrame: 0).rgba(20, 20)
        #expect(abs(m[0] - 128) <= 1 && m[1] == 0 && m[2] == 0)
    }
}

/// Mask feather (approximated by a blur).
@Suite struct LayerMaskFeatherTests {
    /// A feathered left-half mask: opaque well inside, clear well outside, half at the edge
    /// (pixels 19 and 20 either side of it add up to one), and between them the ramp of a
    /// Gaussian of σ = 0.38 × 6 = 2.28 (pixel 17, centre 2.5 inside: Φ(2.5 / 2.28) ≈ 0.86).
    @Test func featherSoftensTheEdge() throws {
        var l = LT.solid(w: 40, h: 40)
        var m = LayerMaskTests.mask("a", -20, 20)
        m.feather = LottieAnimated([6, 6])
        l.masks = [m]
        let scene = MappedScene(LT.composition(w: 40, h: 40, [l]))
        let px = try scene.render(atFrame: 0)
        let a = (0..<40).map { px.rgba($0, 20)[3] }
        #expect(a[5] >= 250 && a[35] <= 5)
        #expect(abs(a[19] + a[20] - 255) <= 6 && a[19] > 128 && a[20] < 128, "\(a[19]) \(a[20])")
        #expect(abs(a[17] - 220) <= 10, "\(a[17])")
        #expect(a[17] > a[20] && a[20] > a[23] && a[23] > 0 && a[17] < 255)
        #expect(scene.context.warnings.contains { $0.feature == "mask feather" })
    }
}

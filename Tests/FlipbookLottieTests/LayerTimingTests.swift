import Testing
import Foundation
import FlipbookPixels
import FlipbookPNG
@testable import FlipbookLottie

/// In and out points, precompositions (start time, stretch, time remapping), solid and image
/// layers.
@Suite struct LayerTimingTests {
    static func named(_ l: LottieLayer, _ name: String) -> LottieLayer { var l = l; l.name = name; return l }

    /// A layer is drawn for ip ≤ frame < op: hidden at 9 and at 30, drawn at 10 and 29.
    @Test func inAndOutPointsHideTheLayerOutside() throws {
        let scene = MappedScene(LT.composition(w: 20, h: 20, [LT.solid(w: 20, h: 20, ip: 10, op: 30)]))
        #expect(try scene.render(atFrame: 9).rgba(5, 5) == [0, 0, 0, 0])
        #expect(try scene.render(atFrame: 9.99).rgba(5, 5) == [0, 0, 0, 0])
        #expect(try scene.render(atFrame: 10).rgba(5, 5) == [255, 0, 0, 255])
        #expect(try scene.render(atFrame: 29).rgba(5, 5) == [255, 0, 0, 255])
        #expect(try scene.render(atFrame: 30).rgba(5, 5) == [0, 0, 0, 0])
        // A layer never visible on the timeline is not built at all.
        let never = MappedScene(LT.composition(w: 20, h: 20, [LT.solid(ip: 200, op: 300)]))
        #expect(never.root.sublayers?.isEmpty ?? true)
    }

    /// Hidden layers (`hd`) and matte sources (`td`) are not drawn; layers are stacked with the
    /// file's first layer on top.
    @Test func stackingHiddenAndMatteSources() throws {
        var hidden = LT.solid("#0000ff", w: 20, h: 20)
        hidden.hidden = true
        var source = LT.solid("#00ff00", w: 20, h: 20)
        source.isMatteSource = true
        let top = LT.solid("#ff0000", w: 10, h: 20)
        let bottom = LT.solid("#ffffff", w: 20, h: 20)
        let scene = MappedScene(LT.composition(w: 20, h: 20, [hidden, source, top, bottom]))
        let px = try scene.render(atFrame: 0)
        #expect(px.rgba(5, 5) == [255, 0, 0, 255])
        #expect(px.rgba(15, 5) == [255, 255, 255, 255])
    }

    /// A precomposition layer with start time 5 and stretch 2: its keyframe at precomposition
    /// frame 10 shows at frame 5 + 10 × 2 = 25, and its inner layer's in point (frame 10) too.
    @Test func precompositionStartTimeAndStretch() throws {
        var inner = LT.transform()
        inner.position = .combined(LT.animated(LT.kf(0, [0, 0], hold: true), LT.kf(10, [50, 0])))
        let innerLayer = Self.named(LT.solid(w: 10, h: 10, ip: 10, op: 100, transform: inner), "inner")
        let asset = LottieAsset(id: "pre", kind: .precomposition(layers: [innerLayer], frameRate: nil))
        var pre = LottieLayer(kind: .precomposition(refId: "pre", width: 100, height: 100), inPoint: 0, outPoint: 100, transform: LT.transform())
        pre.startTime = 5
        pre.timeStretch = 2
        let scene = MappedScene(LT.composition([pre], assets: [asset]))
        #expect(try scene.render(atFrame: 24).rgba(55, 5) == [0, 0, 0, 0])
        #expect(try scene.render(atFrame: 24).rgba(5, 5) == [0, 0, 0, 0])     // before its in point
        #expect(try scene.render(atFrame: 25).rgba(55, 5) == [255, 0, 0, 255])
        #expect(close(scene.point(.zero, inLayer: "inner", atFrame: 24.9), CGPoint(x: 0, y: 0)))
        #expect(close(scene.point(.zero, inLayer: "inner", atFrame: 25), CGPoint(x: 50, y: 0), 1e-4))
    }

    /// Time remapping: `tm` (seconds of the precomposition) 0 → 1 s over frames 0 → 20 at 10 fps
    /// shows precomposition frame f / 2 at frame f; a linear move 0 → 100 over precomposition
    /// frames 0 → 10 is at 40 at frame 8.
    @Test func timeRemapShowsTheRemappedFrame() {
        var inner = LT.transform()
        inner.position = .combined(LT.animated(LT.kf(0, [0, 0]), LT.kf(10, [100, 0])))
        let asset = LottieAsset(id: "pre", kind: .precomposition(layers: [Self.named(LT.solid(transform: inner), "inner")], frameRate: nil))
        var pre = LottieLayer(kind: .precomposition(refId: "pre", width: 200, height: 100), inPoint: 0, outPoint: 100, transform: LT.transform())
        pre.timeRemap = LT.animated(LT.kf(0, [0]), LT.kf(20, [1]))
        pre.startTime = 7   // ignored under time remapping (as ThorVG and lottie-web)
        let scene = MappedScene(LT.composition(w: 200, h: 100, [pre], assets: [asset]))
        #expect(close(scene.point(.zero, inLayer: "inner", atFrame: 8), CGPoint(x: 40, y: 0), 1e-6))
        #expect(close(scene.point(.zero, inLayer: "inner", atFrame: 16), CGPoint(x: 80, y: 0), 1e-6))
        #expect(close(scene.point(.zero, inLayer: "inner", atFrame: 40), CGPoint(x: 100, y: 0), 1e-6))
    }

    /// A precomposition clips to its w × h.
    @Test func precompositionClipsToItsSize() throws {
        let asset = LottieAsset(id: "pre", kind: .precomposition(layers: [LT.solid(w: 50, h: 50)], frameRate: nil))
        let pre = LottieLayer(kind: .precomposition(refId: "pre", width: 20, height: 20), inPoint: 0, outPoint: 100, transform: LT.transform())
        let px = try MappedScene(LT.composition([pre], assets: [asset])).render(atFrame: 0)
        #expect(px.rgba(10, 10) == [255, 0, 0, 255])
        #expect(px.rgba(30, 10) == [0, 0, 0, 0])
    }

    /// A precomposition that contains itself draws its content once and warns.
    @Test func precompositionCycleIsCut() throws {
        let inner = LottieLayer(kind: .precomposition(refId: "loop", width: 20, height: 20), inPoint: 0, outPoint: 100, transform: LT.transform())
        let asset = LottieAsset(id: "loop", kind: .precomposition(layers: [inner, LT.solid(w: 20, h: 20)], frameRate: nil))
        let top = LottieLayer(kind: .precomposition(refId: "loop", width: 20, height: 20), inPoint: 0, outPoint: 100, transform: LT.transform())
        let scene = MappedScene(LT.composition([top], assets: [asset]))
        #expect(try scene.render(atFrame: 0).rgba(5, 5) == [255, 0, 0, 255])
        #expect(scene.context.warnings.contains { $0.feature == "precomposition cycle" })
    }

    /// A solid: `sw × sh` of its colour.
    @Test func solidLayerFillsItsSize() throws {
        let px = try MappedScene(LT.composition(w: 20, h: 20, [LT.solid("#3366cc", w: 8, h: 4)])).render(atFrame: 0)
        #expect(px.rgba(7, 3) == [0x33, 0x66, 0xcc, 255])
        #expect(px.rgba(9, 3) == [0, 0, 0, 0])
        #expect(px.rgba(7, 5) == [0, 0, 0, 0])
        #expect((LottieLayerMapper.color(hex: "#ff8000")?.components ?? []).map { Int(($0 * 255).rounded()) } == [255, 128, 0, 255])
    }

    /// An image layer: an embedded PNG drawn over the asset's w × h (here 2 × 1 pixels shown at
    /// 20 × 10 points).
    @Test func imageLayerDrawsTheDecodedPNG() throws {
        var pixels = PixelBuffer(width: 2, height: 1)
        pixels[0, 0] = RGBA8(r: 255, g: 0, b: 0, a: 255)
        pixels[1, 0] = RGBA8(r: 0, g: 0, b: 255, a: 255)
        let png = try PNG.encodedData(pixels)
        let asset = LottieAsset(id: "img", kind: .image(width: 20, height: 10, directory: "", path: "", embedded: true, data: png))
        let layer = LottieLayer(kind: .image(refId: "img"), inPoint: 0, outPoint: 100, transform: LT.transform(position: [5, 5]))
        let scene = MappedScene(LT.composition(w: 40, h: 40, [layer], assets: [asset]))
        let px = try scene.render(atFrame: 0)
        #expect(px.rgba(8, 10) == [255, 0, 0, 255])
        #expect(px.rgba(22, 10) == [0, 0, 255, 255])
        #expect(px.rgba(26, 10) == [0, 0, 0, 0])
        // Bytes that are no image: nothing drawn, a warning.
        let bad = LottieAsset(id: "img", kind: .image(width: 20, height: 10, directory: "", path: "", embedded: true, data: Data([1, 2, 3])))
        let broken = MappedScene(LT.composition(w: 40, h: 40, [layer], assets: [bad]))
        #expect(try broken.render(atFrame: 0).rgba(8, 10) == [0, 0, 0, 0])
        #expect(broken.context.warnings.contains { $0.feature == "image" })
    }

    /// An embedded JPEG (libjpeg-turbo): a 16 × 16 solid (200, 40, 90) shown at 8 × 8.
    @Test func imageLayerDrawsTheDecodedJPEG() throws {
        let jpeg = Data(base64Encoded: Self.solidJPEG)!
        let asset = LottieAsset(id: "j", kind: .image(width: 8, height: 8, directory: "", path: "", embedded: true, data: jpeg))
        let layer = LottieLayer(kind: .image(refId: "j"), inPoint: 0, outPoint: 100, transform: LT.transform())
        let px = try MappedScene(LT.composition(w: 20, h: 20, [layer], assets: [asset])).render(atFrame: 0)
        let p = px.rgba(4, 4)
        #expect(abs(p[0] - 200) <= 2 && abs(p[1] - 40) <= 2 && abs(p[2] - 90) <= 2 && p[3] == 255)
        #expect(px.rgba(9, 4)[3] == 0)
    }

    /// Tests/FlipbookJPEGTests/Fixtures/solid.jpg.
    static let solidJPEG = "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAIBAQEBAQIBAQECAgICAgQDAgICAgUEBAMEBgUGBgYFBgYGBwkIBgcJBwYGCAsICQoKCgoKBggLDAsKDAkKCgr/2wBDAQICAgICAgUDAwUKBwYHCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgr/wAARCAAQABADAREAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwD53rnP9MAoAKACgD//2Q=="

    /// Effects not drawn and unknown layer types are warned once per kind (a drop shadow is drawn).
    @Test func effectsAreWarnedOncePerType() {
        var a = LT.solid()
        a.effects = [LottieEffect(type: 20, name: "Tint", enabled: true), LottieEffect(type: 20, name: "Tint 2", enabled: true),
                     LottieEffect(type: 25, name: "Drop Shadow", enabled: true)]
        var b = LT.solid()
        b.effects = [LottieEffect(type: 29, name: "Gaussian Blur", enabled: true)]
        let camera = LottieLayer(kind: .other(type: 13), inPoint: 0, outPoint: 100, transform: LT.transform())
        let scene = MappedScene(LT.composition([camera, a, b]))
        let effects = scene.context.warnings.filter { $0.feature == "effect" }
        #expect(effects.count == 2)
        #expect(effects.contains { $0.message.contains("Gaussian Blur") })
        #expect(scene.context.warnings.contains { $0.feature == "layer type" && $0.message.contains("camera") })
    }
}

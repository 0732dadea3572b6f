import Flipbook
import FlipbookJPEG
import FlipbookLottie
import FlipbookPixels
import FlipbookPNG
import FlipbookRender
import FlipbookScene
import Foundation

/// The fuzz targets, one copy for the fuzz driver (`Fuzz/Sources/flipbook-fuzz`, which mutates
/// inputs and feeds them here) and for `FuzzReplayTests` (which replays the inputs the driver
/// kept). Each takes arbitrary bytes and must neither crash nor hang; the `precondition`s are
/// the oracles (docs/fuzzing.md).
public enum FuzzTargets {
    /// A scene file: parsed, built and recorded (at most 64 × 64, three frames); the last frame
    /// recorded alone must equal that frame of the run.
    public static func scene(_ bytes: [UInt8], baseDirectory: String) {
        guard let scene = try? SceneParser.parse(bytes, file: "fuzz.json", baseDirectory: baseDirectory),
              let builder = try? SceneBuilder(scene, file: "fuzz.json") else { return }
        var s = scene.recording
        s.width = min(max(s.width, 1), 64); s.height = min(max(s.height, 1), 64); s.scale = 1
        s.frames = s.frames.lowerBound...min(s.frames.upperBound, s.frames.lowerBound + 2)
        let all = MemoryFrameSink()
        _ = try? builder.makeRecorder(settings: s).record(to: all)
        // The last frame recorded alone (its one snapshot and plan built from scratch) must equal
        // that frame of the run, which may have reused the snapshot and plan of the frame before.
        var one = s
        one.frames = s.frames.upperBound...s.frames.upperBound
        let alone = MemoryFrameSink()
        if let fresh = try? SceneBuilder(scene, file: "fuzz.json"), (try? fresh.makeRecorder(settings: one).record(to: alone)) != nil,
           let a = all.image(s.frames.upperBound) {
            precondition(alone.image(s.frames.upperBound) == a, "a frame differs from the same frame recorded alone")
        }
    }

    /// A Lottie file — Bodymovin JSON, or a dotLottie archive when it starts with a zip
    /// signature (`LottieAnimation(data:)` tells them apart): loaded, mapped to layers
    /// (`LottieRendering.scene`, the composition fitted into 64 × 64) and its first, middle and
    /// last frames composited, so the parser, the layer mapping and the renderer all run. The
    /// last frame rendered by a fresh scene alone must equal that frame of the run (the same
    /// bytes for any frame range). `step` is called before each of the six steps (two
    /// mappings, four frames; the driver's hang clock times each). Returns whether the file
    /// loaded.
    @discardableResult
    public static func lottie(_ bytes: [UInt8], step: () -> Void = {}) -> Bool {
        guard let animation = try? LottieAnimation(data: Data(bytes)) else { return false }
        let size = 64
        /// Frames `ks` of a scene built from scratch (nil where the compositor refuses).
        func render(_ ks: [Int]) -> (frameCount: Int, images: [PixelBuffer?]) {
            let loop = VirtualRunLoop()
            return loop.run {
                step()
                let scene = LottieRendering.scene(for: animation, size: .fit(width: Double(size), height: Double(size)), logger: .silent)
                let compositor = Compositor(threadCount: 1)
                let n = scene.frameCount
                let images = ks.map { k -> PixelBuffer? in
                    step()
                    let frame = min(max(k < 0 ? n + k : k, 0), n - 1)
                    return try? compositor.render(scene.root.makeRenderTree(at: scene.time(ofFrame: frame)), width: size, height: size)
                }
                return (n, images)
            }
        }
        let frameCount = max(1, Int((Double(animation.endFrame - animation.startFrame)).rounded(.up)))
        let run = render([0, frameCount / 2, -1])
        precondition(run.frameCount == frameCount, "the scene's frame count is not the file's")
        let alone = render([-1])
        precondition(alone.images[0] == run.images[2], "the last frame differs from the same frame rendered alone")
        return true
    }

    /// The most pixels an image target decodes in full (4 MP, 16 MiB of RGBA8). Decoding is
    /// linear in the pixels the header declares — bounded by the output, up to
    /// `PixelBuffer.maximumPixelCount` — and a 200-byte JPEG may declare 25 MP of corrupt
    /// data that libjpeg-turbo fills in; at the maximum that is seconds of honest work and
    /// 1 GiB, which would read as a timeout or out-of-memory finding under the fuzzers' 5 s /
    /// 1 GiB bounds. Above the budget, header parsing and validation still run on every input
    /// (as libjpeg-turbo's own fuzzers skip images above 1 MP).
    public static let decodePixelBudget = 1 << 22

    /// A PNG file: header, validation and decode (decode within ``decodePixelBudget``).
    public static func png(_ bytes: [UInt8]) {
        let info = try? PNG.info(bytes)
        _ = try? PNG.validate(bytes)
        guard let info, info.width * info.height <= decodePixelBudget else { return }
        _ = try? PNG.decode(bytes)
    }

    /// A JPEG file: header, ⅛-scale validation and decode, and the sniffing loader (decodes
    /// within ``decodePixelBudget``). A decode that succeeds must agree with the header and
    /// with validation.
    public static func jpeg(_ bytes: [UInt8]) {
        let info = try? JPEG.info(bytes)
        let valid = try? JPEG.validate(bytes)
        guard let info, info.width * info.height <= decodePixelBudget else { return }
        guard let image = try? JPEG.decode(bytes) else { return }
        precondition(info.width == image.width && info.height == image.height, "info and decode disagree on the size")
        precondition(valid != nil, "decode accepts what validate refuses")
        precondition(image.isValidPremultiplied, "a decoded JPEG is not opaque")
        precondition((try? ImageDecoder.decode(bytes)) == image, "ImageDecoder decodes a JPEG differently")
    }

    /// A font file handed to `CGFont(_:)` (TrueType, OpenType/CFF, collections; FreeType reads
    /// it, HarfBuzz shapes with it): its names and metrics, every glyph's advance and outline
    /// for the first 256 glyphs, a text layer of mixed scripts shaped, wrapped and composited
    /// at 64 × 32, and glyphs drawn directly at a large size. Nothing it reads may crash.
    public static func font(_ bytes: [UInt8]) {
        guard let font = CGFont(CGDataProvider(data: Data(bytes))) else { return }
        _ = (font.postScriptName, font.fullName, font.description, font.fontBBox, font.italicAngle)
        let count = min(max(font.numberOfGlyphs, 0), 256)
        let glyphs = (0..<count).map { CGGlyph($0) }
        var advances = [Int32](repeating: 0, count: glyphs.count)
        if !glyphs.isEmpty { _ = font.getGlyphAdvances(glyphs: glyphs, count: glyphs.count, advances: &advances) }
        for g in glyphs { _ = font.path(for: g)?.boundingBoxOfPath }
        for scalar in "Aga fi ffl Ω ё ك ग्र 漢 😀\u{301}".unicodeScalars { _ = font.glyph(for: scalar) }
        guard let context = CGContext(data: nil, width: 64, height: 32, bitsPerComponent: 8, bytesPerRow: 0,
                                      space: CGColorSpaceCreateDeviceRGB(),
                                      bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue) else { return }
        let ctFont = CTFontCreateWithGraphicsFont(font, 24, nil, nil)
        _ = (CTFontGetAscent(ctFont), CTFontGetDescent(ctFont), CTFontGetLeading(ctFont), CTFontGetCapHeight(ctFont))
        // Shaped and drawn as a text layer (wrapped, so line breaking runs too). Not through
        // an NSAttributedString: swift-corelibs-foundation's never frees its attributes, which
        // would read as a leak per input.
        // In a run loop of its own, as the other targets: outside one, the implicit transaction
        // the property changes open would never commit and would keep the layer.
        VirtualRunLoop().run {
            let text = CATextLayer()
            text.bounds = CGRect(x: 0, y: 0, width: 64, height: 32)
            text.position = CGPoint(x: 32, y: 16)
            text.font = font
            text.fontSize = 12
            text.isWrapped = true
            text.string = "Aga fi ffl Ω ё كتب ग्र 漢 😀e\u{301} \u{200D}"
            _ = try? Compositor(threadCount: 1).render(text.makeRenderTree(at: 0), width: 64, height: 32)
        }
        context.setFont(font)
        context.setFontSize(200)
        let shown = Array(glyphs.prefix(16))
        context.showGlyphs(shown, at: shown.indices.map { CGPoint(x: CGFloat($0) * 40 - 100, y: -40) })
    }

    /// A random tree from the bytes (as a stream of choices), with extreme values.
    public static func compositor(_ bytes: [UInt8]) {
        var k = 0
        func byte() -> UInt8 { defer { k += 1 }; return bytes.isEmpty ? 0 : bytes[k % bytes.count] }
        func number() -> CGFloat {
            let b = byte()
            switch b % 16 {
            case 0: return .nan
            case 1: return .infinity
            case 2: return -1e19
            case 3: return 1e308
            case 4: return 0
            default: return CGFloat(Int(b) - 64) * CGFloat(byte() % 8 + 1)
            }
        }
        func layer(_ depth: Int) -> RenderLayer {
            let n = depth < 4 ? Int(byte() % 4) : 0
            var t = CATransform3DIdentity
            if byte() % 3 == 0 { t = CATransform3DMakeRotation(number(), number(), number(), 1) }
            if byte() % 5 == 0 { t.m34 = number() / 1000 }
            let img: CGImage? = byte() % 4 == 0 ? CGImage(pixelBuffer: PixelBuffer(width: 1 + Int(byte() % 8), height: 1 + Int(byte() % 8))) : nil
            return RenderLayer(
                bounds: CGRect(x: number(), y: number(), width: number(), height: number()),
                position: CGPoint(x: number(), y: number()), zPosition: number(), transform: t,
                opacity: Float(byte()) / 200, masksToBounds: byte() % 3 == 0,
                backgroundColor: CGColor(red: 1, green: 0, blue: 0, alpha: CGFloat(byte()) / 255),
                cornerRadius: number(), borderWidth: number(), contents: img,
                contentsRect: CGRect(x: number(), y: number(), width: number(), height: number()),
                contentsCenter: byte() % 4 == 0 ? CGRect(x: number(), y: number(), width: number(), height: number()) : CGRect(x: 0, y: 0, width: 1, height: 1),
                shadowOpacity: Float(byte() % 3) / 2, shadowOffset: CGSize(width: number(), height: number()), shadowRadius: number(),
                mask: depth < 4 && byte() % 7 == 0 ? layer(depth + 1) : nil,
                sublayers: (0..<n).map { _ in layer(depth + 1) },
                tint: byte() % 6 == 0 ? RenderTint(red: 0.5, green: 1, blue: 1, alpha: 0.5) : nil,
                cornerCurve: byte() % 2 == 0 ? .continuous : .circular)
        }
        let root = layer(0)
        // Twice with one compositor: the second frame runs the kept plan and must draw the same bytes.
        let compositor = Compositor(threadCount: 1)
        let first = try? compositor.render(root, width: 48, height: 40)
        let second = try? compositor.render(root, width: 48, height: 40)
        precondition(first == second, "the kept plan drew other bytes")
        // The same nodes under a new root that changes nothing: the same bytes as a fresh compositor.
        let wrapper = RenderLayer(bounds: CGRect(x: 0, y: 0, width: 48, height: 40), position: CGPoint(x: 24, y: 20), sublayers: [root])
        let reusing = try? compositor.render(wrapper, width: 48, height: 40)
        let planned = try? Compositor(threadCount: 1).render(wrapper, width: 48, height: 40)
        precondition(reusing == planned, "a wrapped tree drew other bytes")
    }
}

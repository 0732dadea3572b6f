import Foundation
import Testing
import FlipbookTestSupport
@testable import FlipbookCLI

/// `flipbook render` to every output format, each file decoded back with ffmpeg/ffprobe:
/// frame count, size, codec, pixel format, BT.709 tags and conversion, alpha kept end to end.
///
/// The scene: 32×32, 3 frames at 30 fps, a transparent background, an opaque red square moving
/// right (x 4…14 at frame 0) and a blue bar at opacity 0.5 along the bottom (y 24…32).
@Suite struct OutputFormatTests {
    let folder = TemporaryDirectory(prefix: "flipbook-outputs-")
    var tmp: String { folder.path }

    static let sceneText = """
    {"output": {"size": "32x32", "fps": 30, "frames": "0..2", "background": "clear"},
     "layers": [
      {"name": "red", "frame": [4, 8, 10, 12], "backgroundColor": "#ff0000",
       "animations": [{"class": "basic", "keyPath": "position.x", "fromValue": 9, "toValue": 17, "duration": 0.0666666667,
                       "timingFunction": "linear", "fillMode": "forwards", "isRemovedOnCompletion": false}]},
      {"name": "bar", "frame": [0, 24, 32, 8], "backgroundColor": "#0000ff", "opacity": 0.5}]}
    """

    var scene: String {
        let p = tmp + "/scene.json"
        if !FileManager.default.fileExists(atPath: p) { FileManager.default.createFile(atPath: p, contents: Data(Self.sceneText.utf8)) }
        return p
    }

    /// Pixel (x, y) of a decoded 32-wide RGBA frame.
    static func pixel(_ frame: [UInt8], _ x: Int, _ y: Int, width: Int = 32) -> [Int] { (0..<4).map { Int(frame[(y * width + x) * 4 + $0]) } }

    func render(_ args: [String]) throws -> (code: Int32, err: String) {
        try RenderRun.run([scene, "--quiet"] + args)
    }

    /// Only the output (no temporaries) is left in the folder.
    func expectOnly(_ names: [String]) {
        #expect(RenderRun.files(tmp).filter { $0 != "scene.json" } == names.sorted())
    }

    // MARK: Format follows the extension

    @Test(.enabled(if: ffmpegAvailable), arguments: [
        ("mp4", "h264"), ("mov", "prores"), ("webm", "vp9"), ("gif", "gif"), ("apng", "apng"),
    ])
    func formatFollowsTheExtension(ext: String, codec: String) throws {
        let out = tmp + "/film." + ext
        let r = try render(["-o", out])
        #expect(r.code == 0, "\(r.err)")
        expectOnly(["film." + ext])
        let facts = try FFmpegTools.probe(out)
        #expect(facts["codec_name"] == codec, "\(facts)")
        #expect(facts["width"] == "32" && facts["height"] == "32", "\(facts)")
        #expect(facts["nb_read_frames"] == "3", "\(facts)")
    }

    @Test func y4mFolderAndPatternNeedNoFFmpeg() throws {
        #expect(try render(["-o", tmp + "/a.y4m"]).code == 0)
        #expect(RenderRun.bytes(tmp + "/a.y4m").starts(with: Array("YUV4MPEG2 W32 H32 F30:1".utf8)))
        #expect(try render(["-o", tmp + "/frames"]).code == 0)
        #expect(RenderRun.files(tmp + "/frames") == ["frame_00000.png", "frame_00001.png", "frame_00002.png"])
        #expect(try render(["-o", tmp + "/pat/shot-%03d.png"]).code == 0)
        #expect(RenderRun.files(tmp + "/pat") == ["shot-000.png", "shot-001.png", "shot-002.png"])
        // --format wins over the scene; an extension that contradicts --format is an error.
        let clash = try render(["-o", tmp + "/b.mp4", "--format", "webm"])
        #expect(clash.code == 2 && clash.err.contains("-o \(tmp)/b.mp4 looks like a .mp4 file, but --format is webm"), "\(clash.err)")
        // A folder with --format gets <scene>.<ext>.
        #expect(try render(["-o", tmp + "/y", "--format", "y4m"]).code == 0)
        #expect(RenderRun.files(tmp + "/y") == ["scene.y4m"])
    }

    /// -o's extension beats the scene's `format`; a folder falls back to it.
    @Test func extensionBeatsTheSceneFormat() throws {
        let scene = tmp + "/s.json"
        FileManager.default.createFile(atPath: scene, contents: Data(Self.sceneText.replacingOccurrences(
            of: "\"background\": \"clear\"", with: "\"background\": \"clear\", \"format\": \"png\"").utf8))
        #expect(try RenderRun.run([scene, "-o", tmp + "/x.y4m", "--quiet"]).code == 0)
        #expect(RenderRun.bytes(tmp + "/x.y4m").starts(with: Array("YUV4MPEG2 ".utf8)))
        let y4mScene = tmp + "/v.json"
        FileManager.default.createFile(atPath: y4mScene, contents: Data(Self.sceneText.replacingOccurrences(
            of: "\"background\": \"clear\"", with: "\"background\": \"clear\", \"format\": \"y4m\"").utf8))
        #expect(try RenderRun.run([y4mScene, "-o", tmp + "/dir", "--quiet"]).code == 0)
        #expect(RenderRun.files(tmp + "/dir") == ["v.y4m"])
    }

    @Test func unsupportedExtensionsAndOnePNGFileAreUsageErrors() throws {
        let mkv = try render(["-o", tmp + "/a.mkv"])
        #expect(mkv.code == 2 && mkv.err.contains("Flipbook does not write .mkv files"), "\(mkv.err)")
        let png = try render(["-o", tmp + "/a.png"])
        #expect(png.code == 2 && png.err.contains("is one PNG file, but 3 frames would be rendered"), "\(png.err)")
        let pattern = try render(["-o", tmp + "/p/x%d.png", "--pattern", "f_%d.png"])
        #expect(pattern.code == 2 && pattern.err.contains("already a file-name pattern"), "\(pattern.err)")
        expectOnly([])
    }

    /// Odd sizes: subsampled pixel formats are padded to even (transparently when there is
    /// alpha); 4:4:4 and the image formats keep the size.
    @Test(.enabled(if: ffmpegAvailable), arguments: [("mp4", 34, 18), ("webm", 34, 18), ("mov", 33, 17), ("gif", 33, 17), ("apng", 33, 17)])
    func oddSizes(ext: String, width: Int, height: Int) throws {
        let out = tmp + "/odd." + ext
        let r = try render(["-o", out, "--size", "33x17"])
        #expect(r.code == 0, "\(r.err)")
        let facts = try FFmpegTools.probe(out)
        #expect(facts["width"] == "\(width)" && facts["height"] == "\(height)", "\(facts)")
        if ext == "webm" {
            let frame = try #require(FFmpegTools.decode(out, width: 34, height: 18, decoder: "libvpx-vp9").first)
            #expect(Self.pixel(frame, 33, 12, width: 34)[3] <= 2, "the padding is transparent")
        }
    }

    // MARK: Colour

    /// H.264, H.265, VP9 and ProRes are converted with BT.709 and tagged: ffprobe reads the
    /// tags, and the luma of pure red is BT.709's 16 + 219 · 0.2126 ≈ 63 (BT.601 would give 82).
    @Test(.enabled(if: ffmpegAvailable), arguments: [
        ("mp4", [String]()), ("mp4", ["--codec", "h265"]), ("webm", []), ("mov", []), ("mov", ["--codec", "h264"]),
    ])
    func bt709ConversionAndTags(ext: String, extra: [String]) throws {
        let out = tmp + "/c." + ext
        let r = try render(["-o", out] + extra)
        #expect(r.code == 0, "\(r.err)")
        let facts = try FFmpegTools.probe(out)
        #expect(facts["color_space"] == "bt709" && facts["color_primaries"] == "bt709" && facts["color_transfer"] == "bt709", "\(facts)")
        #expect(facts["color_range"] == "tv", "\(facts)")
        let yuv = try FFmpegTools.decode(out, width: 32, height: 32, pixelFormat: "yuv444p")
        try #require(yuv.count == 3)
        let y = Int(yuv[0][12 * 32 + 6])   // the Y plane, inside the red square at frame 0
        #expect((60...66).contains(y), "luma of red is \(y): not BT.709")
        // Decoded back to RGB (ffmpeg honours the tags) red stays red.
        let rgba = try FFmpegTools.decode(out, width: 32, height: 32)
        let red = Self.pixel(rgba[0], 6, 12)
        #expect(red[0] >= 240 && red[1] <= 12 && red[2] <= 12, "\(red)")
    }

    // MARK: Alpha

    /// ProRes 4444 and VP9 keep the scene's transparency: the empty corner decodes with alpha 0,
    /// the half-transparent blue bar with alpha ≈ 128 (straight colour blue), the red square opaque.
    @Test(.enabled(if: ffmpegAvailable), arguments: [("mov", "yuva444p12le"), ("webm", "yuv420p")])
    func transparentVideoKeepsAlpha(ext: String, probedFormat: String) throws {
        let out = tmp + "/alpha." + ext
        let r = try render(["-o", out])
        #expect(r.code == 0, "\(r.err)")
        let facts = try FFmpegTools.probe(out)
        #expect(facts["pix_fmt"] == probedFormat, "\(facts)")
        if ext == "webm" { #expect(facts["TAG:alpha_mode"] == "1", "\(facts)") }   // the alpha plane is a side stream
        // ffmpeg's native VP9 decoder drops the alpha plane; libvpx-vp9 reads it.
        let frames = try FFmpegTools.decode(out, width: 32, height: 32, decoder: ext == "webm" ? "libvpx-vp9" : nil)
        try #require(frames.count == 3)
        let corner = Self.pixel(frames[0], 28, 2), red = Self.pixel(frames[0], 6, 12), bar = Self.pixel(frames[0], 5, 28)
        #expect(corner[3] <= 2, "corner \(corner)")
        #expect(red[3] >= 253 && red[0] >= 240 && red[2] <= 12, "red \(red)")
        #expect(abs(bar[3] - 128) <= 4 && bar[2] >= 240 && bar[0] <= 12, "bar \(bar)")
        #expect(Self.pixel(frames[2], 6, 12)[3] <= 2, "the square moved on; its old place is transparent again")
    }

    /// Without an alpha pixel format (MP4, or WebM with --pixel-format yuv420p) the frames are
    /// flattened onto black: alpha 255 everywhere.
    @Test(.enabled(if: ffmpegAvailable))
    func opaqueFormatsFlatten() throws {
        let out = tmp + "/flat.webm"
        #expect(try render(["-o", out, "--pixel-format", "yuv420p"]).code == 0)
        #expect(try FFmpegTools.probe(out)["TAG:alpha_mode"] == nil)
        let frames = try FFmpegTools.decode(out, width: 32, height: 32, decoder: "libvpx-vp9")
        let corner = Self.pixel(frames[0], 28, 2)
        #expect(corner[3] == 255 && corner[0] <= 4, "\(corner)")
    }

    // MARK: Animated images

    /// GIF: one palette, 1-bit transparency (alpha ≥ 128 is opaque), no trails where the square was.
    @Test(.enabled(if: ffmpegAvailable))
    func gifKeepsTransparencyWithoutTrails() throws {
        let out = tmp + "/a.gif"
        #expect(try render(["-o", out]).code == 0)
        let frames = try FFmpegTools.decode(out, width: 32, height: 32)
        try #require(frames.count == 3)
        #expect(Self.pixel(frames[0], 28, 2)[3] == 0)
        #expect(Self.pixel(frames[0], 6, 12) == [255, 0, 0, 255])
        #expect(Self.pixel(frames[2], 6, 12)[3] == 0, "trail: \(Self.pixel(frames[2], 6, 12))")
        #expect(Self.pixel(frames[2], 16, 12) == [255, 0, 0, 255])
        #expect(Self.pixel(frames[0], 5, 28) == [0, 0, 255, 255])
    }

    /// APNG is lossless: the decoded pixels are the straight-alpha frame exactly.
    @Test(.enabled(if: ffmpegAvailable))
    func apngIsLossless() throws {
        let out = tmp + "/a.apng"
        #expect(try render(["-o", out]).code == 0)
        #expect(try FFmpegTools.probe(out)["pix_fmt"] == "rgba")
        let frames = try FFmpegTools.decode(out, width: 32, height: 32)
        try #require(frames.count == 3)
        #expect(Self.pixel(frames[0], 28, 2) == [0, 0, 0, 0])
        #expect(Self.pixel(frames[0], 5, 28) == [0, 0, 255, 128])
        #expect(Self.pixel(frames[1], 16, 12) == [255, 0, 0, 255])
    }

    /// Animated WebP: this ffmpeg cannot decode animation, so the container is read here
    /// (canvas, flags, 3 frames) and the first frame is decoded as a still.
    @Test(.enabled(if: ffmpegAvailable))
    func animatedWebPHasAlphaAndEveryFrame() throws {
        let out = tmp + "/a.webp"
        #expect(try render(["-o", out]).code == 0)
        let webp = try #require(WebPContainer(RenderRun.bytes(out)))
        #expect(webp.isAnimated && webp.hasAlpha)
        #expect(webp.canvasWidth == 32 && webp.canvasHeight == 32)
        #expect(webp.frames.count == 3)
        let first = tmp + "/first.webp"
        FileManager.default.createFile(atPath: first, contents: Data(webp.still(0)))
        // libwebp may crop a frame to the part that is not transparent: pixels outside its
        // rectangle are the (transparent) canvas.
        let f = webp.frames[0]
        let frame = try #require(FFmpegTools.decode(first, width: f.width, height: f.height).first)
        func at(_ x: Int, _ y: Int) -> [Int] {
            let (fx, fy) = (x - f.x, y - f.y)
            guard fx >= 0, fy >= 0, fx < f.width, fy < f.height else { return [0, 0, 0, 0] }
            return Self.pixel(frame, fx, fy, width: f.width)
        }
        #expect(at(28, 2)[3] <= 2)
        let bar = at(5, 28)
        #expect(abs(bar[3] - 128) <= 4 && bar[2] >= 230, "\(bar)")
        let red = at(6, 12)
        #expect(red[3] == 255 && red[0] >= 230, "\(red)")
    }

    // MARK: Codec options

    @Test(.enabled(if: ffmpegAvailable))
    func codecPixelFormatAndQualityOptions() throws {
        #expect(try render(["-o", tmp + "/a.mp4", "--codec", "h265", "--pixel-format", "yuv444p"]).code == 0)
        let h265 = try FFmpegTools.probe(tmp + "/a.mp4")
        #expect(h265["codec_name"] == "hevc" && h265["pix_fmt"] == "yuv444p", "\(h265)")
        #expect(try render(["-o", tmp + "/hq.mov", "--pixel-format", "yuv422p10le"]).code == 0)
        let hq = try FFmpegTools.probe(tmp + "/hq.mov")
        #expect(hq["codec_name"] == "prores" && hq["pix_fmt"] == "yuv422p10le" && hq["profile"] == "HQ", "\(hq)")
        // A higher CRF is a smaller file; a lower WebP quality too.
        #expect(try render(["-o", tmp + "/lo.mp4", "--crf", "45"]).code == 0)
        #expect(try render(["-o", tmp + "/hi.mp4", "--crf", "5"]).code == 0)
        #expect(RenderRun.bytes(tmp + "/lo.mp4").count < RenderRun.bytes(tmp + "/hi.mp4").count)
        #expect(try render(["-o", tmp + "/lo.webp", "--quality", "5"]).code == 0)
        #expect(try render(["-o", tmp + "/hi.webp", "--quality", "100"]).code == 0)
        #expect(RenderRun.bytes(tmp + "/lo.webp").count < RenderRun.bytes(tmp + "/hi.webp").count)
    }

    /// Each bad value names the option and the value, exits 2 and writes nothing (no ffmpeg needed:
    /// all are found before it would start).
    @Test func badEncoderOptionsAreUsageErrors() throws {
        let cases: [([String], String)] = [
            (["-o", "a.mp4", "--codec", "vp9"], "--codec vp9: codec vp9 cannot go in .mp4; choose h264 or h265"),
            (["-o", "a.webm", "--codec", "prores"], "--codec prores: codec prores cannot go in .webm; choose vp9"),
            (["-o", "a.mp4", "--crf", "52"], "--crf 52 is outside h264's range 0...51"),
            (["-o", "a.webm", "--crf=-1"], "--crf -1 is outside vp9's range 0...63"),
            (["-o", "a.webp", "--quality", "101"], "--quality 101 is outside webp's range 0...100"),
            (["-o", "a.webp", "--crf", "20"], "--crf does not apply to webp; use --quality"),
            (["-o", "a.mp4", "--quality", "20"], "--quality does not apply to h264; use --crf"),
            (["-o", "a.mov", "--crf", "20"], "--crf does not apply to prores (it has no quality setting)"),
            (["-o", "a.gif", "--quality", "20"], "--quality does not apply to gif (it has no quality setting)"),
            (["-o", "a.mp4", "--pixel-format", "rgba"], "--pixel-format rgba: pixel format rgba is not one h264 stores; choose yuv420p, yuv422p, yuv444p"),
            (["-o", "a.mov", "--pixel-format", "yuva420p"], "--pixel-format yuva420p: pixel format yuva420p is not one prores stores"),
            (["-o", "frames", "--codec", "h264"], "--codec works with the video and animated-image formats (mp4, mov, webm, gif, apng, webp), not png"),
            (["-o", "a.y4m", "--crf", "20"], "--crf works with the video and animated-image formats"),
            (["-o", "a.mp4", "--crf", "20", "--quality", "3"], "give --crf or --quality, not both"),
            (["-o", "a.mp4", "--codec", "av1"], "The value 'av1' is invalid for '--codec <codec>'"),
            (["-o", "a.mp4", "--pixel-format", "nv12"], "The value 'nv12' is invalid for '--pixel-format <pixel-format>'"),
        ]
        for (args, message) in cases {
            let args = args.map { $0.hasPrefix("a.") || $0 == "frames" ? tmp + "/" + $0 : $0 }
            let r = try render(args)
            #expect(r.code == 2 && r.err.contains(message), "\(args): \(r.err)")
        }
        expectOnly([])
    }

    /// An interrupted video render leaves neither the file nor a temporary.
    @Test(.enabled(if: ffmpegAvailable), arguments: ["mov", "gif", "webp"])
    func interruptedRenderLeavesNothing(ext: String) throws {
        let r = try RenderRun.run([scene, "-o", tmp + "/i." + ext], stopAfter: 1)
        #expect(r.code == 130, "\(r.err)")
        #expect(r.err.contains("the incomplete \(ext) file was removed"), "\(r.err)")
        expectOnly([])
    }
}

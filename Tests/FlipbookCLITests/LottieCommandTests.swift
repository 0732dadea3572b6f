import Foundation
import Synchronization
import Testing
import FlipbookPixels
import FlipbookPNG
import FlipbookTestSupport
@testable import FlipbookCLI

/// `flipbook render|plan|verify|bundle|info` on Lottie files (issue 38, item 4): recognised by
/// content, fps/size/frames from the file, `--size` fits, `--scale` multiplies, `--fps`
/// resamples, transparent unless `--background` (white where the format has no alpha), warnings
/// once per kind, bad input exit 1 with the JSON path, and a scene hash covering the file, the
/// images beside it and the background.
@Suite struct LottieCommandTests {
    let folder = TemporaryDirectory(prefix: "flipbook-lottie-cli-")
    var tmp: String { folder.path }

    static let samples = RenderRun.repo + "/samples/lottie"
    static let logo = samples + "/LottieLogo1.json"
    static let loader = samples + "/loader.lottie"

    func write(_ name: String, _ text: String) -> String {
        let p = folder.file(name)
        try? FileManager.default.createDirectory(atPath: (p as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: p, contents: Data(text.utf8))
        return p
    }

    func copy(_ from: String, to name: String) throws -> String {
        let p = folder.file(name)
        try FileManager.default.copyItem(atPath: from, toPath: p)
        return p
    }

    /// A one-layer document: a red square on a transparent 40×40 composition, 10 frames at 30 fps.
    static func square(color: String = "[1,0,0,1]", extraLayer: String = "") -> String {
        #"{"v":"5.7.0","fr":30,"ip":0,"op":10,"w":40,"h":40,"layers":[\#(extraLayer)"#
            + #"{"ty":4,"ind":1,"ks":{},"shapes":[{"ty":"rc","p":{"a":0,"k":[20,20]},"s":{"a":0,"k":[20,20]}},"#
            + #"{"ty":"fl","c":{"a":0,"k":\#(color)},"o":{"a":0,"k":100}}]}]}"#
    }

    static func plan(_ args: [String]) throws -> PlanCommand.Output {
        let text = try PlanCommand.parse(args + ["--json"]).execute().get()
        return try JSONDecoder().decode(PlanCommand.Output.self, from: Data(text.utf8))
    }

    static func verify(_ args: [String]) throws -> (code: Int32, text: String) {
        let log = Mutex("")
        var io = RenderIO(out: { s in log.withLock { $0 += s } }, err: { s in log.withLock { $0 += s } }, isTerminal: false)
        io.handlesInterrupt = false
        let code = try VerifyCommand.parse(args).execute(io)
        return (code, log.withLock { $0 })
    }

    // MARK: Pixels

    /// Frames of the logo rendered by the command line at 512×512 (`--size` fits the 375×667
    /// composition, centred) are within the acceptance tolerance of ThorVG's.
    @Test func stillsMatchThorVGReferences() throws {
        let fixture = try #require(try LottieReferences().fixtures.first { $0.name == "LottieLogo1" })
        for frame in fixture.frames where [fixture.frameCount / 2, fixture.frameCount * 3 / 4].contains(frame.k) {
            let out = folder.file("logo-\(frame.k).png")
            let r = try RenderRun.run([fixture.path, "--still", "\(frame.k)", "--size", "512x512", "-o", out, "-q"])
            #expect(r.code == 0, "\(r.err)")
            let result = try frame.compare(try PNG.decode(contentsOf: out))
            #expect(result.passes, "\(result)")
        }
    }

    /// `--size` wider than the composition's aspect: the composition is fitted to the height and
    /// centred; the bars left and right are transparent.
    @Test func sizeFitsAndLetterboxesTransparent() throws {
        let out = folder.file("fit.png")
        let r = try RenderRun.run([Self.logo, "--still", "100", "--size", "400x200", "-o", out, "-q"])
        #expect(r.code == 0, "\(r.err)")
        let image = try PNG.decode(contentsOf: out)
        #expect(image.width == 400 && image.height == 200)
        // scale = min(400/375, 200/667) = 0.29985: 112.4 px wide, x from 143.8 to 256.2.
        for x in [0, 100, 140, 260, 300, 399] { #expect(image[x, 100].a == 0, "x = \(x)") }
        for (x, y) in [(147, 100), (252, 100), (200, 0), (200, 199)] { #expect(image[x, y].a == 255, "(\(x), \(y))") }
    }

    /// `--scale S` multiplies the composition's size: the same picture as `--size` at S × it.
    @Test func scaleMultipliesTheSize() throws {
        let scaled = folder.file("scaled.png"), sized = folder.file("sized.png")
        #expect(try RenderRun.run([Self.logo, "--still", "60", "--scale", "0.5", "-o", scaled, "-q"]).code == 0)
        #expect(try RenderRun.run([Self.logo, "--still", "60", "--size", "187.5x333.5", "-o", sized, "-q"]).code == 0)
        let a = try PNG.decode(contentsOf: scaled), b = try PNG.decode(contentsOf: sized)
        #expect(a.width == 188 && a.height == 334)
        #expect(meanAbsoluteDelta(a, b) < 0.5)
        #expect(a[94, 10].a == 255)   // the teal solid covers the composition
    }

    /// Transparent by default; `--background` fills behind; a format without alpha (Y4M here,
    /// MP4 likewise) flattens a Lottie file onto white, not black.
    @Test func backgroundsTransparentWhiteAndGiven() throws {
        let png = folder.file("t.png"), given = folder.file("g.png")
        #expect(try RenderRun.run([Self.loader, "--still", "0", "-o", png, "-q"]).code == 0)
        #expect(try PNG.decode(contentsOf: png)[0, 0] == .transparent)
        #expect(try RenderRun.run([Self.loader, "--still", "0", "--background", "#336699", "-o", given, "-q"]).code == 0)
        #expect(try PNG.decode(contentsOf: given)[0, 0] == RGBA8(r: 0x33, g: 0x66, b: 0x99, a: 255))
        func firstLuma(_ args: [String]) throws -> UInt8 {
            let out = folder.file("f\(args.count).y4m")
            #expect(try RenderRun.run([Self.loader, "--still", "0", "-o", out, "-q"] + args).code == 0)
            let bytes = RenderRun.bytes(out)
            let frame = try #require(bytes.firstIndex(of: 0x0A)) + 1 + "FRAME\n".utf8.count
            return bytes[frame]
        }
        #expect(try firstLuma([]) > 200)                               // white
        #expect(try firstLuma(["--background", "black"]) < 40)        // black
    }

    // MARK: Time

    /// `--fps` resamples: ⌈duration · fps⌉ frames, frame K at K / fps seconds (the file's frame
    /// ip + K · fr / fps).
    @Test func fpsResamplesTime() throws {
        #expect(try Self.plan([Self.loader, "--shards", "1"]).frames == .init(first: 0, last: 59))
        #expect(try Self.plan([Self.loader, "--shards", "1", "--fps", "24"]).frames == .init(first: 0, last: 47))
        // 179 frames at 30 fps are 5.9666… s: 358 frames at 60 (a product a hair above 358).
        #expect(try Self.plan([Self.logo, "--shards", "1", "--fps", "60"]).frames == .init(first: 0, last: 357))
        // 149.17 frames at 25 fps: 150 (ceil, not round).
        #expect(try Self.plan([Self.logo, "--shards", "1", "--fps", "25"]).frames == .init(first: 0, last: 149))
        // Frame 4 at 24 fps and frame 5 at 30 fps are both 1/6 s.
        let a = folder.file("a.png"), b = folder.file("b.png"), c = folder.file("c.png")
        #expect(try RenderRun.run([Self.loader, "--fps", "24", "--still", "4", "-o", a, "-q"]).code == 0)
        #expect(try RenderRun.run([Self.loader, "--still", "5", "-o", b, "-q"]).code == 0)
        #expect(try RenderRun.run([Self.loader, "--still", "6", "-o", c, "-q"]).code == 0)
        #expect(RenderRun.bytes(a) == RenderRun.bytes(b))
        #expect(RenderRun.bytes(b) != RenderRun.bytes(c))
        // An open range runs to the resampled last frame.
        let out = folder.file("tail")
        #expect(try RenderRun.run([Self.loader, "--fps", "24", "--frames", "40..", "--scale", "0.25", "-o", out, "-q"]).code == 0)
        #expect(RenderRun.files(out) == (40...47).map { String(format: "frame_%05d.png", $0) })
    }

    // MARK: Recognition

    /// The file is recognised by content: Lottie JSON named `.txt`, a dotLottie named `.bin`.
    @Test func recognisedByContentNotName() throws {
        let txt = try copy(Self.logo, to: "anim.txt"), bin = try copy(Self.loader, to: "anim.bin")
        for (file, original) in [(txt, Self.logo), (bin, Self.loader)] {
            let a = folder.file("a.png"), b = folder.file("b.png")
            #expect(try RenderRun.run([file, "--still", "12", "--scale", "0.5", "-o", a, "-q"]).code == 0)
            #expect(try RenderRun.run([original, "--still", "12", "--scale", "0.5", "-o", b, "-q"]).code == 0)
            #expect(RenderRun.bytes(a) == RenderRun.bytes(b) && !RenderRun.bytes(a).isEmpty)
        }
        #expect(InputKind.of(path: txt) == .lottieJSON)
        #expect(InputKind.of(path: bin) == .dotLottie)
        #expect(InputKind.of(path: RenderRun.scene("minimal")) == .scene)
        #expect(try InfoCommand.execute(path: txt).get().contains("format: Lottie (Bodymovin 4.4.26)"))
        #expect(try InfoCommand.execute(path: bin).get().contains("format: dotLottie (Bodymovin 5.7.0)"))
    }

    // MARK: Errors and warnings

    /// Bad input: exit 1, one message naming the file, line and JSON path; nothing written.
    @Test func badInputExits1WithTheJSONPath() throws {
        let out = folder.file("out")
        let cases: [(String, String)] = [
            (#"{"v":"5.7.0","fr":30,"ip":0,"op":10,"w":40,"h":40,"layers":[{"ty":4,"ks":{"o":{"a":0,"k":"x"}},"shapes":[]}]}"#,
             "bad0.json:1: layers[0].ks.o.k: expected a number or an array of numbers, got a string"),
            (#"{"v":"5.7.0","fr":30,"ip":0,"op":10,"w":40,"layers":[]}"#, "bad1.json:1: missing required key \"h\" (the composition height)"),
            (#"{"v":"5.7.0","fr":30,"ip":10,"op":10,"w":40,"h":40,"layers":[]}"#, "bad2.json:1: op: expected an out point after the in point"),
            // Recognised as Lottie by its keys even without "layers": the Lottie parser's message.
            (#"{"v":"5.7.0","fr":30,"ip":0,"op":10,"w":40,"h":40}"#, "bad3.json:1: missing required key \"layers\""),
        ]
        for (i, (text, message)) in cases.enumerated() {
            let r = try RenderRun.run([write("bad\(i).json", text), "-o", out])
            #expect(r.code == 1 && r.err.contains(message), "\(r.err)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
        // A zip that is no dotLottie.
        _ = FileManager.default.createFile(atPath: folder.file("z.bin"), contents: Data([0x50, 0x4B, 0x03, 0x04, 1, 2, 3]))
        let z = try RenderRun.run([folder.file("z.bin"), "-o", out])
        #expect(z.code == 1 && z.err.contains("z.bin: not a readable zip archive"), "\(z.err)")
        guard case .failure(let f) = InfoCommand.execute(path: folder.file("bad0.json")) else { Issue.record("no failure"); return }
        #expect(f.exitCode == 1 && f.message.contains("layers[0].ks.o.k"))
        // Options that do not fit: usage (exit 2).
        let scene = try RenderRun.run([RenderRun.scene("minimal"), "--background", "white", "-o", out])
        #expect(scene.code == 2 && scene.err.contains("--background applies to Lottie files"), "\(scene.err)")
        let color = try RenderRun.run([Self.loader, "--background", "teal", "-o", out])
        #expect(color.code == 2 && color.err.contains("--background must be"), "\(color.err)")
    }

    /// One line per kind of warning, however many frames and threads; `--quiet` drops them.
    @Test func warningsOncePerKind() throws {
        let file = write("warn.json", #"{"v":"5.7.0","fr":30,"ip":0,"op":10,"w":40,"h":40,"layers":[{"ty":4,"ind":1,"#
            + #""ks":{"o":{"a":0,"k":100,"x":"wiggle(1,2)"},"r":{"a":0,"k":0,"x":"time*10"}},"ef":[{"ty":5,"nm":"Glow","en":1}],"#
            + #""shapes":[{"ty":"rc","p":{"a":0,"k":[20,20]},"s":{"a":0,"k":[20,20]}},{"ty":"fl","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":100}}]}]}"#)
        let r = try RenderRun.run([file, "-o", folder.file("out"), "--threads", "2", "--progress", "none"])
        #expect(r.code == 0)
        let warnings = r.err.split(separator: "\n").filter { $0.hasPrefix("warning: ") }
        #expect(warnings == [
            "warning: layers[0].ks.r: expression: expression not evaluated; its static value is used (and 1 more expression warning; flipbook info \(file) lists them)",
            "warning: layers[0].ef[0]: effect: the effect \"Glow\" (type 5) is not drawn",
        ])
        let quiet = try RenderRun.run([file, "-o", folder.file("q"), "-q"])
        #expect(quiet.code == 0 && quiet.err.isEmpty, "\(quiet.err)")
        // info marks the same features.
        let lines = try InfoCommand.execute(path: file).get()
        #expect(lines.contains("features: 4, 2 not drawn exactly (!)"))
        #expect(lines.contains("  ! effect ×1 (layers[0].ef[0]): the effect \"Glow\" (type 5) is not drawn"))
        #expect(lines.contains("  rectangle ×1"))
    }

    // MARK: info

    @Test func infoJSON() throws {
        let line = try InfoJSON.report(path: Self.logo).get()
        let o = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(o["format"] as? String == "lottie" && o["version"] as? String == "4.4.26")
        #expect(o["width"] as? Double == 375 && o["height"] as? Double == 667 && o["fps"] as? Double == 30)
        #expect(o["ip"] as? Double == 0 && o["op"] as? Double == 179 && o["frameCount"] as? Int == 179)
        #expect(abs((o["duration"] as? Double ?? 0) - 179.0 / 30) < 1e-12)
        #expect(o["layers"] as? [String: Int] == ["shape": 45, "solid": 3] && o["layerCount"] as? Int == 48)
        let features = try #require(o["features"] as? [[String: Any]])
        let trim = try #require(features.first { $0["name"] as? String == "trim path" })
        #expect(trim["count"] as? Int == 40 && trim["exact"] as? Bool == true && trim["path"] as? String == "layers[1].shapes[0].it[1]")
        #expect((o["warnings"] as? [Any])?.isEmpty == true)

        let dot = try #require(try JSONSerialization.jsonObject(with: Data(try InfoJSON.report(path: Self.loader).get().utf8)) as? [String: Any])
        #expect(dot["format"] as? String == "dotlottie" && dot["name"] as? String == "loader")
        let markers = try #require(dot["markers"] as? [[String: Any]])
        #expect(markers.map { $0["name"] as? String } == ["grow", "shrink"])
        #expect(markers.map { $0["frame"] as? Double } == [0, 30] && markers.map { $0["duration"] as? Double } == [30, 30])
    }

    // MARK: Scale-out: hashes, manifests, bundles

    /// The scene hash covers the file's bytes and `--background`: a resumed shard refuses frames
    /// of a changed file, and `verify --sample` re-renders a Lottie file (with its background)
    /// byte for byte, and refuses a changed one.
    @Test func resumeAndVerifyFollowTheFile() throws {
        let file = write("sq.json", Self.square())
        let out = folder.file("out")
        let common = ["-o", out, "--shard", "0/1", "--background", "#ffffff80", "-q"]
        #expect(try RenderRun.run([file] + common).code == 0)
        let v = try Self.verify([out, "--sample", "3"])
        #expect(v.code == 0 && v.text.contains("3 frames re-rendered here") && v.text.contains("byte-identical"), "\(v.text)")
        let manifest = try String(contentsOfFile: out + "/flipbook-manifest-0-9.json", encoding: .utf8)
        #expect(manifest.contains("\"#ffffff80\""))
        // The same file and options resume; another background or a changed file do not.
        #expect(try RenderRun.run([file, "--resume"] + common).code == 0)
        let other = try RenderRun.run([file, "--resume", "-o", out, "--shard", "0/1", "-q"])
        #expect(other.code == 1 && other.err.contains("holds frames from another scene"), "\(other.err)")
        _ = write("sq.json", Self.square(color: "[0,0,1,1]"))
        let changed = try RenderRun.run([file, "--resume"] + common)
        #expect(changed.code == 1 && changed.err.contains("holds frames from another scene"), "\(changed.err)")
        let v2 = try Self.verify([out, "--sample", "1"])
        #expect(v2.code == 1 && v2.text.contains("is not the manifests'"), "\(v2.text)")
    }

    /// Shards of a Lottie render add up and verify.
    @Test func shardsVerify() throws {
        let out = folder.file("sh")
        for i in 0..<3 {
            #expect(try RenderRun.run([Self.loader, "-o", out, "--shard", "\(i)/3", "--scale", "0.2", "-q"]).code == 0)
        }
        let v = try Self.verify([out, "--sample", "2"])
        #expect(v.code == 0 && v.text.contains("verified: frames 0..59 (60) each once in 3 manifests"), "\(v.text)")
        // A frame rendered alone, on one thread, is the sharded render's.
        let still = folder.file("still.png")
        #expect(try RenderRun.run([Self.loader, "--still", "37", "--scale", "0.2", "--threads", "1", "-o", still, "-q"]).code == 0)
        #expect(RenderRun.bytes(still) == RenderRun.bytes(out + "/frame_00037.png"))
    }

    /// Images beside a JSON document are in its hash and its bundle; the bundle renders the
    /// same bytes with the same hash.
    @Test func imagesBesideTheFileAreHashedAndBundled() throws {
        var red = PixelBuffer(width: 4, height: 4)
        red.fill(RGBA8(r: 255, g: 0, b: 0, a: 255))
        try FileManager.default.createDirectory(atPath: folder.file("src/images"), withIntermediateDirectories: true)
        try PNG.write(red, to: folder.file("src/images/img_0.png"))
        let file = write("src/anim.json", #"{"v":"5.7.0","fr":30,"ip":0,"op":5,"w":8,"h":8,"#
            + #""assets":[{"id":"image_0","w":4,"h":4,"u":"images/","p":"img_0.png","e":0}],"#
            + #""layers":[{"ty":2,"refId":"image_0","ks":{"s":{"a":0,"k":[200,200]}}}]}"#)
        let before = try Self.plan([file, "--shards", "1"])
        #expect(before.images.map(\.path) == ["images/img_0.png"])
        let direct = folder.file("direct.png")
        #expect(try RenderRun.run([file, "--still", "2", "-o", direct, "-q"]).code == 0)
        #expect(try PNG.decode(contentsOf: direct)[4, 4] == RGBA8(r: 255, g: 0, b: 0, a: 255))
        // The bundle, with the file's folder gone.
        let fbk = folder.file("anim.fbk")
        _ = try BundleCommand.parse([file, "-o", fbk]).execute().get()
        try FileManager.default.moveItem(atPath: folder.file("src"), toPath: folder.file("gone"))
        let bundled = folder.file("bundled.png")
        #expect(try RenderRun.run([fbk, "--still", "2", "-o", bundled, "-q"]).code == 0)
        #expect(RenderRun.bytes(bundled) == RenderRun.bytes(direct))
        #expect(try Self.plan([fbk, "--shards", "1"]).scene_hash == before.scene_hash)
        // A changed image changes the hash; so does a background.
        try FileManager.default.moveItem(atPath: folder.file("gone"), toPath: folder.file("src"))
        red.fill(RGBA8(r: 0, g: 0, b: 255, a: 255))
        try PNG.write(red, to: folder.file("src/images/img_0.png"))
        #expect(try Self.plan([file, "--shards", "1"]).scene_hash != before.scene_hash)
        try FileManager.default.removeItem(atPath: folder.file("src/images/img_0.png"))
        #expect(try Self.plan([file, "--shards", "1"]).scene_hash != before.scene_hash)
        let logo = try Self.plan([Self.logo, "--shards", "1"]).scene_hash
        #expect(try Self.plan([Self.logo, "--shards", "1", "--background", "white"]).scene_hash != logo)
        #expect(try Self.plan([Self.logo, "--shards", "1", "--background", "#FFFFFF"]).scene_hash
                == Self.plan([Self.logo, "--shards", "1", "--background", "white"]).scene_hash)
        #expect(try Self.plan([Self.logo, "--shards", "1", "--background", "#ff000000"]).scene_hash == logo)
    }

    /// The README's command: the sample to MP4 (white behind, as the format has no alpha).
    @Test(.enabled(if: ffmpegAvailable)) func sampleToMP4() throws {
        let out = folder.file("loader.mp4")
        let r = try RenderRun.run([Self.loader, "-o", out, "-q", "--scale", "0.5"])
        #expect(r.code == 0, "\(r.err)")
        let frames = try FFmpegTools.decode(out, width: 120, height: 120)
        #expect(frames.count == 60)
        // The corner is transparent in the file: white here (within the codec's error).
        #expect(frames.first.map { Array($0.prefix(3)).allSatisfy { $0 >= 250 } } == true)
        // An odd size (75×133) is padded by a row and a column of white too, not black.
        let odd = folder.file("odd.mp4")
        #expect(try RenderRun.run([Self.loader, "--still", "0", "--size", "75x133", "-o", odd, "-q"]).code == 0)
        let frame = try #require(try FFmpegTools.decode(odd, width: 76, height: 134).first)
        let lastRow = frame[(133 * 76 * 4)...]
        #expect(lastRow.enumerated().allSatisfy { $0.offset % 4 == 3 || $0.element >= 250 })
    }
}

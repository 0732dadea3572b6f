import Foundation
import Synchronization
import Testing
import FlipbookPNG
import FlipbookPixels
import FlipbookTestSupport
@testable import FlipbookCLI

/// `render`'s frame selection (`--frames N`, `A..`, `..B`), `--still` and `--progress json`.
/// No ffmpeg needed: PNG output.
@Suite struct RenderOptionsTests {
    let folder = TemporaryDirectory(prefix: "flipbook-options-")
    var tmp: String { folder.path }

    /// The moving-square scene of ``OutputFormatTests`` (3 frames; the square's left edge moves
    /// from x 4 at t = 0 to x 12 at t = 1/15 s, linearly).
    var scene: String {
        let p = tmp + "/scene.json"
        if !FileManager.default.fileExists(atPath: p) {
            FileManager.default.createFile(atPath: p, contents: Data(OutputFormatTests.sceneText.utf8))
        }
        return p
    }

    @Test func frameSelections() throws {
        let cases: [(String, [Int])] = [("1", [1]), ("1..", [1, 2]), ("..1", [0, 1]), ("0..2", [0, 1, 2]), ("2...2", [2]), ("5", [5])]
        for (i, (text, frames)) in cases.enumerated() {
            let out = tmp + "/f\(i)"
            let r = try RenderRun.run([scene, "-o", out, "--frames", text, "--quiet"])
            #expect(r.code == 0, "\(text): \(r.err)")
            #expect(RenderRun.files(out) == frames.map { String(format: "frame_%05d.png", $0) }, "\(text)")
        }
        // A single frame equals the same frame of a full render, byte for byte.
        #expect(RenderRun.bytes(tmp + "/f0/frame_00001.png") == RenderRun.bytes(tmp + "/f3/frame_00001.png"))
    }

    @Test func badFrameSelections() throws {
        for text in ["..", "a", "3..1", "1..2..3", "-1", "1..x", "..-2"] {
            let r = try RenderRun.run([scene, "-o", tmp + "/o", "--frames=\(text)", "--quiet"])
            #expect(r.code == 2 && r.err.contains("--frames must be A..B, A.., ..B or N"), "\(text): \(r.err)")
        }
        let past = try RenderRun.run([scene, "-o", tmp + "/o", "--frames", "7..", "--quiet"])
        #expect(past.code == 2 && past.err.contains("--frames 7.. is empty: the scene's frames are 0..2"), "\(past.err)")
        #expect(!FileManager.default.fileExists(atPath: tmp + "/o"))
    }

    /// `--still 0.05s` shows the scene at exactly 0.05 s — between frames 1 and 2 — so the
    /// square's left edge is at x 10 (frame 1 has it at 8, frame 2 at 12).
    @Test func stillAtATimeIsThatTimeExactly() throws {
        let out = tmp + "/poster.png"
        let r = try RenderRun.run([scene, "--still", "0.05s", "-o", out, "--quiet"])
        #expect(r.code == 0, "\(r.err)")
        #expect(RenderRun.files(tmp) == ["poster.png", "scene.json"])
        let image = try PNG.decode(contentsOf: out)
        #expect(image.width == 32 && image.height == 32)
        #expect(image[9, 12].a == 0 && image[10, 12] == RGBA8(r: 255, g: 0, b: 0, a: 255))
        #expect(image[19, 12].a == 255 && image[20, 12].a == 0)
        // 50ms is the same time.
        #expect(try RenderRun.run([scene, "--still", "50ms", "-o", tmp + "/ms.png", "--quiet"]).code == 0)
        #expect(RenderRun.bytes(tmp + "/ms.png") == RenderRun.bytes(out))
    }

    /// `--still N` is frame N, identical to that frame of a folder render.
    @Test func stillAtAFrameNumber() throws {
        #expect(try RenderRun.run([scene, "--still", "2", "-o", tmp + "/two.png", "--quiet"]).code == 0)
        #expect(try RenderRun.run([scene, "-o", tmp + "/all", "--quiet"]).code == 0)
        #expect(RenderRun.bytes(tmp + "/two.png") == RenderRun.bytes(tmp + "/all/frame_00002.png"))
        #expect(!RenderRun.bytes(tmp + "/two.png").isEmpty)
    }

    /// An interrupted still leaves no file and no temporary.
    @Test func interruptedStillLeavesNothing() throws {
        let r = try RenderRun.run([scene, "--still", "1", "-o", tmp + "/s.png"], stopAfter: 0)
        #expect(r.code == 130 && r.err.contains("the incomplete png file was removed"), "\(r.err)")
        #expect(RenderRun.files(tmp) == ["scene.json"])
    }

    @Test func badStills() throws {
        let cases: [([String], String)] = [
            (["--still", "soon"], "--still must be a time like 1.5s or 250ms, or a frame number like 45, got 'soon'"),
            (["--still=-1s"], "--still must be a time"),
            (["--still", "nans"], "--still must be a time"),
            (["--still", "1s", "--frames", "2"], "--still renders one frame; give it without --frames or --duration"),
            (["--still", "1s", "--resume"], "--resume has nothing to resume"),
        ]
        for (args, message) in cases {
            let r = try RenderRun.run([scene, "-o", tmp + "/s.png", "--quiet"] + args)
            #expect(r.code == 2 && r.err.contains(message), "\(args): \(r.err)")
        }
        #expect(RenderRun.files(tmp) == ["scene.json"])
    }

    /// `--progress json`: every stdout line is one JSON object with frame, total, fps, eta; the
    /// last one has frame == total. stderr keeps the summary.
    @Test func progressJSONLines() throws {
        let out = Mutex(""), err = Mutex("")
        var io = RenderIO(out: { s in out.withLock { $0 += s } }, err: { s in err.withLock { $0 += s } }, isTerminal: false)
        io.handlesInterrupt = false
        let command = try RenderCommand.parse([scene, "-o", tmp + "/p", "--progress", "json", "--threads", "1"])
        #expect(command.execute(io) == 0)
        let lines = out.withLock { $0 }.split(separator: "\n")
        try #require(!lines.isEmpty)
        var last: [String: Any] = [:]
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            #expect(Set(object.keys) == ["frame", "total", "fps", "eta", "index"], "\(line)")
            #expect(object["total"] as? Int == 3)
            last = object
        }
        #expect(last["frame"] as? Int == 3 && last["eta"] as? Double == 0)
        #expect(err.withLock { $0 }.contains("rendered 3 frames"))
        // Standard output is the video with -o -: the two cannot share it.
        let clash = try RenderRun.run([scene, "-o", "-", "--format", "y4m", "--progress", "json"])
        #expect(clash.code == 2 && clash.err.contains("--progress json writes to standard output"), "\(clash.err)")
        let bad = try RenderRun.run([scene, "-o", tmp + "/b", "--progress", "xml"])
        #expect(bad.code == 2 && bad.err.contains("The value 'xml' is invalid for '--progress <progress>'"), "\(bad.err)")
        // none: no progress, the summary stays.
        let quiet = try RenderRun.run([scene, "-o", tmp + "/q", "--progress", "none"])
        #expect(quiet.code == 0 && !quiet.err.contains("%)") && quiet.err.contains("rendered 3 frames"), "\(quiet.err)")
    }
}

/// `flipbook info FILE --json`: one JSON object with the facts of the text report.
@Suite struct InfoJSONTests {
    let folder = TemporaryDirectory(prefix: "flipbook-infojson-")

    @Test func pngAndSceneAsJSON() throws {
        let png = folder.file("p.png")
        if case .failure(let f) = PatternCommand.execute(output: png, size: "30x20", preset: .fast) { Issue.record("\(f)") }
        #expect((try FlipbookCommand.parseAsRoot(["info", "--json", png]) as? InfoCommand)?.json == true)
        let line = try InfoJSON.report(path: png).get()
        #expect(!line.contains("\n"))
        let p = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(p["format"] as? String == "png" && p["width"] as? Int == 30 && p["height"] as? Int == 20)
        #expect(p["colorType"] as? String == "RGBA" && p["bitDepth"] as? Int == 8 && p["alpha"] as? String == "channel")
        #expect((p["text"] as? [String: String])?["flipbook:pattern"] == "P(30, 20, 16)")

        let scene = RenderRun.scene("demo")
        let s = try #require(try JSONSerialization.jsonObject(with: Data(InfoJSON.report(path: scene).get().utf8)) as? [String: Any])
        #expect(s["format"] as? String == "scene" && s["fps"] as? Double == 30)
        #expect(s["frames"] as? [Int] == [0, 89] && s["frameCount"] as? Int == 90)
        #expect(s["pixelWidth"] as? Int == 1280 && s["pixelHeight"] as? Int == 720)
        // The same counts as the text report.
        let lines = try InfoCommand.execute(path: scene).get()
        func count(_ key: String) -> Int? { lines.first { $0.hasPrefix(key + ": ") }.flatMap { Int($0.dropFirst(key.count + 2)) } }
        #expect(s["layers"] as? Int == count("layers") && s["animations"] as? Int == count("animations"))
        #expect(s["events"] as? Int == count("events") && (s["images"] as? [String])?.count == count("images"))

        // Errors stay one line on stderr with exit 1, as for the text report.
        guard case .failure(let missing) = InfoJSON.report(path: folder.file("none.png")) else { Issue.record("no failure"); return }
        #expect(missing.exitCode == 1 && missing.message.contains("no such file"))
    }
}

/// `--still` times are measured from the scene's `output.start`, like frame numbers.
@Suite struct StillTimeTests {
    let folder = TemporaryDirectory(prefix: "flipbook-still-")

    @Test func stillTimeAndFrameNumberAgree() throws {
        let scene = folder.file("s.json")
        let text = OutputFormatTests.sceneText.replacingOccurrences(of: "\"fps\": 30,", with: "\"fps\": 30, \"start\": 0.5,")
            .replacingOccurrences(of: "\"duration\": 0.0666666667,", with: "\"duration\": 0.0666666667, \"beginTime\": 0.5,")
        FileManager.default.createFile(atPath: scene, contents: Data(text.utf8))
        #expect(try RenderRun.run([scene, "--still", "2", "-o", folder.file("f.png"), "--quiet"]).code == 0)
        #expect(try RenderRun.run([scene, "--still", "0.0666666666667s", "-o", folder.file("t.png"), "--quiet"]).code == 0)
        let f = RenderRun.bytes(folder.file("f.png")), t = RenderRun.bytes(folder.file("t.png"))
        #expect(!f.isEmpty && f == t)
    }
}

import Foundation
import Glibc
import Synchronization
import Testing
import FlipbookPNG
import FlipbookTestSupport
@testable import FlipbookCLI

/// Runs `flipbook render` in-process; collects stderr.
struct RenderRun {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static func scene(_ name: String) -> String { "\(repo)/samples/scenes/\(name).json" }

    static func run(_ args: [String], searchPath: String? = nil, stopAfter: Int? = nil) throws -> (code: Int32, err: String) {
        let log = Mutex("")
        var io = RenderIO(out: { s in log.withLock { $0 += s } }, err: { s in log.withLock { $0 += s } }, isTerminal: false)
        io.handlesInterrupt = false
        io.searchPath = searchPath
        io.stopAfter = stopAfter
        let command: RenderCommand
        do { command = try RenderCommand.parse(args) } catch {
            // What the `flipbook` executable does with a parse error: the message, exit 2.
            #expect(RenderCommand.exitCode(for: error) == .validationFailure)
            return (2, RenderCommand.message(for: error))
        }
        let code = command.execute(io)
        return (code, log.withLock { $0 })
    }

    static func files(_ dir: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted()
    }

    static func bytes(_ path: String) -> [UInt8] { Array(FileManager.default.contents(atPath: path) ?? Data()) }
}

@Suite struct RenderCommandTests {
    /// A fresh empty folder for each test (one suite instance per test), removed after it.
    let folder = TemporaryDirectory(prefix: "flipbook-render-")
    var tmp: String { folder.path }

    func writeScene(_ name: String, _ text: String) -> String {
        let p = "\(tmp)/\(name)"
        FileManager.default.createFile(atPath: p, contents: Data(text.utf8))
        return p
    }

    @Test func sceneErrorsGiveTheirMessageAndExit1AndWriteNothing() throws {
        FileManager.default.createFile(atPath: "\(tmp)/bad.png", contents: Data("not a png".utf8))
        let out = "\(tmp)/out"
        let cases: [(String, String)] = [
            ("{\"output\": {\"size\": \"10x10\", \"duration\": 1}, \"layers\": [{\"opactiy\": 1}]}",
             "layers[0]: unknown key \"opactiy\""),
            ("{\"output\": {\"size\": \"10x10\", \"duration\": 1},\n \"layers\": [{\"transform\": [1,2,3]}]}",
             ":2: layers[0].transform: expected 16 numbers"),
            ("{\"output\": {\"size\": \"10x10\" \"duration\": 1}}", "line 1, column"),
            ("{\"output\": {\"size\": \"10x10\", \"duration\": 1}, \"layers\": [{\"contents\": \"missing.png\"}]}",
             "\(tmp)/missing.png"),
            ("{\"output\": {\"size\": \"10x10\", \"duration\": 1}, \"layers\": [{\"contents\": \"bad.png\"}]}",
             "image \"bad.png\" (\(tmp)/bad.png) cannot be used"),
        ]
        for (i, (text, message)) in cases.enumerated() {
            let scene = writeScene("s\(i).json", text)
            let r = try RenderRun.run([scene, "-o", out])
            #expect(r.code == 1, "\(message)")
            #expect(r.err.contains(message), "\(r.err)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
        let missing = try RenderRun.run(["\(tmp)/nope.json", "-o", out])
        #expect(missing.code == 1 && missing.err.contains("no such file: \(tmp)/nope.json"))
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func usageErrorsExit2AndWriteNothing() throws {
        let out = "\(tmp)/out", scene = RenderRun.scene("minimal")
        let cases: [([String], String)] = [
            (["--size", "12"], "--size must be WIDTHxHEIGHT"),
            (["--frames", "5..2"], "--frames must be A..B"),
            (["--format", "avi"], "The value 'avi' is invalid for '--format <format>'"),
            (["--png-compression", "max"], "The value 'max' is invalid for '--png-compression <png-compression>'. Please provide one of 'fast', 'fastZlib', 'default' or 'small'."),
            (["--pattern", "frame.png"], "--pattern: invalid file-name pattern"),
            (["--frames", "0..2", "--duration", "1"], "give --frames or --duration, not both"),
            (["--threads", "0"], "--threads must be 1...256"),
            (["--format", "y4m", "--resume"], "--resume works with --format png only"),
        ]
        for (args, message) in cases {
            let r = try RenderRun.run([scene, "-o", out] + args)
            #expect(r.code == 2 && r.err.contains(message), "\(args): \(r.err)")
        }
        #expect(try RenderRun.run([scene]).err.contains("-o/--output is required"))
        #expect(RenderRun.files(out).isEmpty)
    }

    @Test func identicalFilesWithOneAndTwoThreads() throws {
        let a = "\(tmp)/a", b = "\(tmp)/b", scene = RenderRun.scene("overshoot")
        #expect(try RenderRun.run([scene, "-o", a, "--frames", "10..14", "--threads", "1", "--quiet"]).code == 0)
        #expect(try RenderRun.run([scene, "-o", b, "--frames", "10..14", "--threads", "2", "--quiet"]).code == 0)
        #expect(RenderRun.files(a) == (10...14).map { String(format: "frame_%05d.png", $0) })
        for f in RenderRun.files(a) { #expect(RenderRun.bytes("\(a)/\(f)") == RenderRun.bytes("\(b)/\(f)")) }
    }

    @Test func resumeRendersExactlyTheMissingAndBrokenFrames() throws {
        let out = "\(tmp)/out", scene = RenderRun.scene("push-transition")
        let args = [scene, "-o", out, "--frames", "0..7", "--size", "80x50"]
        #expect(try RenderRun.run(args).code == 0)
        let original = (0...7).map { RenderRun.bytes("\(out)/frame_0000\($0).png") }
        try FileManager.default.removeItem(atPath: "\(out)/frame_00002.png")
        let truncated = Array(original[5].prefix(original[5].count / 2))
        FileManager.default.createFile(atPath: "\(out)/frame_00005.png", contents: Data(truncated))
        let r = try RenderRun.run(args + ["--resume"])
        #expect(r.code == 0)
        #expect(r.err.contains("rendered 2 frames (0..7, 6 already complete)"), "\(r.err)")
        #expect((0...7).map { RenderRun.bytes("\(out)/frame_0000\($0).png") } == original)
    }

    @Test func interruptedRunLeavesCompleteFramesAndResumeFinishes() throws {
        let out = "\(tmp)/out", full = "\(tmp)/full", scene = RenderRun.scene("overshoot")
        let args = [scene, "--frames", "0..9", "--size", "100x25", "--threads", "2"]
        let stopped = try RenderRun.run(args + ["-o", out], stopAfter: 4)
        // Frames 0…3 were submitted; those still being encoded at the stop are abandoned, so
        // any of them may be missing — but every file present is whole, no temporary is left,
        // and the message counts exactly the files.
        let kept = RenderRun.files(out)
        #expect(Set(kept).isSubset(of: (0...3).map { "frame_0000\($0).png" }), "\(kept)")    // no temporaries
        #expect(stopped.code == 130 && stopped.err.contains("interrupted after \(kept.count) frames"), "\(stopped.err)")
        for f in kept { #expect((try? PNG.decode(contentsOf: "\(out)/\(f)")) != nil) }
        let resumed = try RenderRun.run(args + ["-o", out, "--resume"]).err
        let expected = kept.isEmpty ? "rendered 10 frames (0..9) " : "rendered \(10 - kept.count) frames (0..9, \(kept.count) already complete)"
        #expect(resumed.contains(expected), "\(kept) \(resumed)")
        #expect(try RenderRun.run(args + ["-o", full]).code == 0)
        for n in 0...9 { #expect(RenderRun.bytes("\(out)/frame_0000\(n).png") == RenderRun.bytes("\(full)/frame_0000\(n).png")) }
    }

    @Test func y4mHeaderAndFrameSizes() throws {
        let file = "\(tmp)/v.y4m"
        let r = try RenderRun.run([RenderRun.scene("overshoot"), "-o", file, "--format", "y4m", "--size", "10x6", "--frames", "0..2", "--fps", "25"])
        #expect(r.code == 0)
        let data = RenderRun.bytes(file)
        let header = "YUV4MPEG2 W10 H6 F25:1 Ip A1:1 C420jpeg XCOLORRANGE=LIMITED\n"
        #expect(Array(data.prefix(header.utf8.count)) == Array(header.utf8))
        let frame = "FRAME\n".utf8.count + 10 * 6 + 2 * (5 * 3)
        #expect(data.count == header.utf8.count + 3 * frame)
    }

    @Test func missingFFmpegIsAClearOutputError() throws {
        let out = "\(tmp)/video"
        let r = try RenderRun.run([RenderRun.scene("overshoot"), "-o", out, "--format", "mp4", "--frames", "0..1"],
                                  searchPath: "\(tmp)/no-bin")
        #expect(r.code == 3)
        #expect(r.err.contains("ffmpeg was not found on PATH (searched \(tmp)/no-bin); install ffmpeg or choose another format"), "\(r.err)")
        #expect(!FileManager.default.fileExists(atPath: "\(out)/overshoot.mp4"))
    }

    @Test func unwritableOutputExits3() throws {
        let file = writeScene("file", "x")
        let r = try RenderRun.run([RenderRun.scene("minimal"), "-o", "\(file)/sub"])
        #expect(r.code == 3 && r.err.contains("cannot create the output folder"))
    }

    @Test func nullPrintsRenderTimes() throws {
        let r = try RenderRun.run([RenderRun.scene("minimal"), "--format", "null", "--frames", "0..3"])
        #expect(r.code == 0)
        #expect(r.err.contains("rendered 4 frames (0..3)") && r.err.contains("render time per frame: min "))
        #expect(r.err.contains("4/4 frames (100%)"))
    }
}

/// Animated images cannot be joined from parts: sharding one is refused before rendering.
@Suite struct ShardFormatTests {
    let folder = TemporaryDirectory(prefix: "flipbook-shardfmt-")

    @Test(arguments: ["gif", "apng", "webp"])
    func animatedImagesAreNotSharded(_ ext: String) throws {
        let r = try RenderRun.run([RenderRun.scene("minimal"), "-o", folder.path + "/x.\(ext)", "--shard", "0/2", "--size", "32x18"])
        #expect(r.code == 2 && r.err.contains("--shard with .\(ext)"), "\(r.err)")
        #expect(RenderRun.files(folder.path).isEmpty)
    }
}

import Foundation
import Synchronization
import Testing
@testable import FlipbookCLI

/// `flipbook bench SCENE.json`, run in-process on a sample scene.
@Suite struct BenchCommandTests {
    static func run(_ args: [String]) throws -> (code: Int32, out: String, err: String) {
        let out = Mutex(""), err = Mutex("")
        var io = RenderIO(out: { s in out.withLock { $0 += s } }, err: { s in err.withLock { $0 += s } }, isTerminal: false)
        io.handlesInterrupt = false
        let code = try BenchCommand.parse(args).execute(io)
        return (code, out.withLock { $0 }, err.withLock { $0 })
    }

    @Test func jsonHasFramesPerSecondAndEveryStage() throws {
        let (code, out, err) = try Self.run([RenderRun.scene("push-transition"), "--frames", "2..4", "--threads", "1", "--json"])
        #expect(code == 0, "\(err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        let frames = try #require(object["frames"] as? [String: Int])
        #expect(frames == ["first": 2, "last": 4, "written": 3])
        #expect((object["frames_per_s"] as? Double ?? 0) > 0)
        #expect(object["threads"] as? Int == 1 && object["format"] as? String == "png fast")
        let stages = try #require(object["stages"] as? [String: [String: Double]])
        #expect(Set(stages.keys) == ["advance", "snapshot", "composite", "encode"])
        for (name, s) in stages {
            #expect(s["frames"] == 3, "\(name)")
            #expect((s["median_ms"] ?? -1) >= 0 && (s["max_ms"] ?? -1) >= (s["median_ms"] ?? 0), "\(name)")
        }
        #expect((stages["composite"]?["median_ms"] ?? 0) > 0)
    }

    @Test func tableNamesTheStagesAndNullWritesNothing() throws {
        let (code, out, _) = try Self.run([RenderRun.scene("minimal"), "--frames", "0..1", "--format", "null"])
        #expect(code == 0)
        #expect(out.contains("2 frames (0..1)") && out.contains("frames/s"))
        for stage in ["advance", "snapshot", "composite", "encode"] { #expect(out.contains(stage)) }
    }

    @Test func usageAndSceneErrors() throws {
        let scene = RenderRun.scene("minimal")
        #expect(try Self.run([scene, "--frames", "3..1"]).code == RenderExit.usage)
        #expect(try Self.run([scene, "--threads", "0"]).code == RenderExit.usage)
        #expect(throws: (any Error).self) { try FlipbookCommand.parseAsRoot(["bench", scene, "--png-compression", "tiny"]) }
        #expect(throws: (any Error).self) { try FlipbookCommand.parseAsRoot(["bench", scene, "--format", "gif"]) }
        let missing = try Self.run(["/nonexistent/scene.json"])
        #expect(missing.code == RenderExit.invalidInput && missing.err.hasPrefix("flipbook bench: "))
        #expect(try FlipbookCommand.parseAsRoot(["bench", scene, "--json"]) is BenchCommand)
    }
}

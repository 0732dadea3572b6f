import Foundation
import Testing
import FlipbookPNG
@testable import FlipbookCLI
import FlipbookPixels
import FlipbookTestSupport

/// Issue 17's hostile inputs, exactly as reported: each gives a clear message and a documented
/// exit code (or renders), never a trap. Floating-point values that would overflow an integer
/// conversion are checked at the boundary (the parser, the command line) and the renderer is
/// total (a value it cannot draw is skipped or bounded by the output).
@Suite struct HostileInputTests {
    let folder = TemporaryDirectory(prefix: "flipbook-hostile-")

    func scene(size: String, layers: String = "") throws -> String {
        let path = folder.file("s.json")
        try Data(#"{"output": {"size": \#(size), "duration": 0.1}, "layers": [\#(layers)]}"#.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func render(_ args: [String]) throws -> (code: Int32, err: String) {
        try RenderRun.run(args + ["-o", folder.file("out"), "--quiet"])
    }

    @Test func commandLineNumbersThatOverflow() throws {
        let s = RenderRun.scene("minimal")
        let size = try render([s, "--size", "1e19x64"])
        #expect(size.code == 1 && size.err.contains("the frame size would be 1e+19×64 pixels (size × scale); each side must be 1...16384"), "\(size.err)")
        let d = try render([s, "--duration", "1e300"])
        #expect(d.code == 1 && d.err.contains("would be 3e+301 frames; the limit is 10000000"), "\(d.err)")
        let f = try render([s, "--fps", "1000", "--duration", "1e16"])
        #expect(f.code == 1 && f.err.contains("the limit is 10000000"))
        let r = try render([s, "--frames", "0..99999999"])
        #expect(r.code == 2 && r.err.contains("--frames 0..99999999 goes past the last frame allowed, 9999999"), "\(r.err)")
    }

    @Test func sceneSizesThatOverflow() throws {
        let a = try render([try scene(size: #""1e19x2""#)])
        #expect(a.code == 1 && a.err.contains("output.size: the frame would be 1e+19×2 pixels (size × scale), above the limit of 16384×16384"), "\(a.err)")
        let b = try render([try scene(size: "[1e308, 1e308]")])
        #expect(b.code == 1 && b.err.contains("the frame would be 1e+308×1e+308 pixels"), "\(b.err)")
    }

    /// Values the renderer cannot draw: skipped or bounded, the frame is written.
    @Test(arguments: [
        ##"{"frame": [0,0,10,10], "backgroundColor": "#ff0000", "contentsRect": [1e19, -1e19, 1e19, 1e19], "contents": "IMG"}"##,
        ##"{"frame": [0,0,10,10], "backgroundColor": "#ff0000", "contentsCenter": [1e308, 0, 1e308, 1], "contents": "IMG"}"##,
        ##"{"frame": [0,0,10,10], "backgroundColor": "#ff0000", "shadowOpacity": 1, "shadowRadius": 1e19}"##,
        ##"{"frame": [0,0,10,10], "backgroundColor": "#ff0000", "shadowOpacity": 1, "shadowRadius": 100000}"##,
        ##"{"frame": [0,0,10,10], "backgroundColor": "#ff0000", "cornerRadius": 1e308, "borderWidth": 1e308}"##,
        ##"{"frame": [0,0,1e308,1e308], "backgroundColor": "#ff0000"}"##,
    ])
    func rendererIsTotal(_ layer: String) throws {
        let img = RenderRun.scene("minimal").replacingOccurrences(of: "minimal.json", with: "images/checker.png")
        let r = try render([try scene(size: #""64x64""#, layers: layer.replacingOccurrences(of: "IMG", with: img))])
        #expect(r.code == 0, "\(r.err)")
        #expect(RenderRun.files(folder.file("out")).count == 3)
    }
}

/// Issue 17's misleading messages, each now naming the actual problem.
@Suite struct RenderMessageTests {
    let folder = TemporaryDirectory(prefix: "flipbook-messages-")

    @Test func outputPathsThatCannotWork() throws {
        let s = RenderRun.scene("minimal")
        let file = folder.file("afile")
        FileManager.default.createFile(atPath: file, contents: Data())
        let a = try RenderRun.run([s, "-o", file + "/sub", "--quiet"])
        #expect(a.code == 3 && a.err.contains("cannot create the output folder: \(file) is a file, not a folder"), "\(a.err)")
        let b = try RenderRun.run([s, "-o", folder.file("x.png"), "--format", "y4m", "--quiet"])
        #expect(b.code == 2 && b.err.contains("looks like a .png file, but --format is y4m"), "\(b.err)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("x.png")))
        let c = try RenderRun.run([s, "-o", "-", "--format", "png", "--quiet"])
        #expect(c.code == 2 && c.err.contains("-o - (standard output) works with --format y4m only, not png"), "\(c.err)")
        #expect(!FileManager.default.fileExists(atPath: "-"))
    }

    /// A negative frame number reaches our parser (it is not taken for an option).
    @Test func negativeFrames() throws {
        let r = try RenderRun.run([RenderRun.scene("minimal"), "-o", folder.file("o"), "--frames", "-1..2", "--quiet"])
        #expect(r.code == 2 && r.err.contains("--frames must be A..B, A.., ..B or N with 0 <= A <= B, e.g. 0..59 or 10, got '-1..2'"), "\(r.err)")
    }

    /// The format follows the output's extension when neither --format nor the scene gives one.
    @Test func formatFromTheExtension() throws {
        let out = folder.file("film.y4m")
        let r = try RenderRun.run([RenderRun.scene("minimal"), "-o", out, "--quiet"])
        #expect(r.code == 0, "\(r.err)")
        let head = try Data(contentsOf: URL(fileURLWithPath: out)).prefix(9)
        #expect(String(decoding: head, as: UTF8.self) == "YUV4MPEG2")
    }

    /// An ffmpeg that exists but cannot be executed is named as such, not "not found".
    @Test func ffmpegThatIsNotExecutable() throws {
        let bin = folder.file("bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: bin + "/ffmpeg", contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o644])
        let r = try RenderRun.run([RenderRun.scene("minimal"), "-o", folder.file("m.mp4"), "--quiet"], searchPath: bin)
        #expect(r.code == 3 && r.err.contains("ffmpeg was found at \(bin)/ffmpeg but it is not executable"), "\(r.err)")
    }
}

/// Decompression bombs: the scene's images are sized from their headers before any is decoded.
@Suite struct ImagePixelBudgetTests {
    let folder = TemporaryDirectory(prefix: "flipbook-budget-")

    @Test func scenesAreRefusedBeforeDecoding() throws {
        for name in ["a.png", "b.png"] { try Data(PNGBytes.headerOnlyGiant()).write(to: URL(fileURLWithPath: folder.file(name))) }
        let scene = folder.file("s.json")
        try Data(#"{"output": {"size": "64x64", "duration": 0.1}, "layers": [{"contents": "a.png"}, {"contents": "b.png"}]}"#.utf8)
            .write(to: URL(fileURLWithPath: scene))
        let r = try RenderRun.run([scene, "-o", folder.file("out"), "--quiet"])
        #expect(r.code == 1 && r.err.contains("image \"b.png\" brings the scene's images to 536870912 pixels, above the budget of 268435456"), "\(r.err)")
        #expect(r.err.contains("s.json:1: layers[1].contents"))
    }
}

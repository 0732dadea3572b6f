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

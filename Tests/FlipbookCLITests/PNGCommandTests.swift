import Foundation
import Testing
import ArgumentParser
@testable import FlipbookCLI
import FlipbookPNG
import FlipbookPixels
import FlipbookTestSupport

/// `flipbook info` / `pattern`, driven through their command types (parse +
/// execute, output captured as values), each test in its own temporary folder.
@Suite struct PNGCommandTests {
    /// A fresh empty folder for each test (one suite instance per test), removed after it.
    let folder = TemporaryDirectory(prefix: "flipbook-cli-")

    @Test func patternThenInfo() throws {
        let out = folder.file("p.png")
        let command = try FlipbookCommand.parseAsRoot(["pattern", "-o", out, "--size", "300x200", "--preset", "fast"])
        #expect(command is PatternCommand)
        if case .failure(let f) = PatternCommand.execute(output: out, size: "300x200", preset: .fast) { Issue.record("\(f)") }

        let image = try PNG.decode(contentsOf: out)
        #expect(image.width == 300 && image.height == 200)
        // P(w, h, 16) at (0, 0): straight (0, 0, 64, 255); at (40, 0): odd checker cell → blue 255,
        // alpha 255 − (40 >> 2) = 245, premultiplied (40·245+127)/255 = 38.
        #expect(image[0, 0] == RGBA8(r: 0, g: 0, b: 64, a: 255))
        #expect(image[40, 0] == RGBA8(straightR: 40, g: 0, b: 255, a: 245))
        // Deterministic: a second run writes the same bytes.
        let again = folder.file("q.png")
        _ = PatternCommand.execute(output: again, size: "300x200", preset: .fast)
        #expect(FileManager.default.contents(atPath: out) == FileManager.default.contents(atPath: again))

        #expect(try FlipbookCommand.parseAsRoot(["info", out]) is InfoCommand)
        let lines = try InfoCommand.execute(path: out).get()
        #expect(lines == [
            "file: \(out)", "format: PNG", "size: 300x200", "color type: RGBA (6)", "bit depth: 8",
            "interlace: none", "alpha: yes (alpha channel)",
            "text: flipbook:pattern = P(300, 200, 16)", "text: Software = flipbook \(FlipbookVersion.string)",
        ])
    }

    @Test func infoOnACorruptFileIsOneLineAndExitCode1() throws {
        let path = folder.file("bad.png")
        _ = PatternCommand.execute(output: path, size: "64x64", preset: .default)
        let whole = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        // Cut in half: the header is intact, the image data is not.
        try Data(whole.prefix(whole.count / 2)).write(to: URL(fileURLWithPath: path))
        guard case .failure(let cut) = InfoCommand.execute(path: path) else {
            Issue.record("expected a failure for a truncated file"); return
        }
        #expect(cut.exitCode == 1)
        // Found by the chunk walk (no pixel is decoded): the IDAT that runs past the end.
        #expect(cut.stderrLine.hasPrefix("flipbook: \(path): truncated PNG: chunk \"IDAT\" at byte "), "\(cut.stderrLine)")
        #expect(cut.stderrLine.contains(" bytes, but only ") && cut.stderrLine.hasSuffix(" remain\n"))

        // A broken header CRC.
        var bytes = whole
        bytes[29] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        guard case .failure(let failure) = InfoCommand.execute(path: path) else {
            Issue.record("expected a failure"); return
        }
        #expect(failure.exitCode == 1)
        #expect(failure.stderrLine == "flipbook: \(path): IHDR: CRC error\n")
        #expect(failure.stderrLine.filter { $0 == "\n" }.count == 1)
        // Through the command itself: the exit code ArgumentParser will use.
        let command = try InfoCommand.parse([path])
        #expect(throws: ExitCode(1)) { try command.run() }

        guard case .failure(let missing) = InfoCommand.execute(path: folder.file("none.png")) else {
            Issue.record("expected a failure"); return
        }
        #expect(missing.stderrLine == "flipbook: \(folder.file("none.png")): no such file\n")
        #expect(missing.exitCode == 1)
    }

    @Test func patternRejectsBadArguments() {
        #expect(throws: (any Error).self) { try FlipbookCommand.parseAsRoot(["pattern", "-o", "x.png", "--size", "0x10"]) }
        #expect(throws: (any Error).self) { try FlipbookCommand.parseAsRoot(["pattern", "-o", "x.png", "--preset", "tiny"]) }
        #expect(PatternCommand.parseSize("1920x1080")! == (1920, 1080))
        #expect(PatternCommand.parseSize("16385x2") == nil)
        // Writing into a missing folder is a one-line failure, and nothing is created.
        guard case .failure(let f) = PatternCommand.execute(output: folder.file("no/p.png"), size: "8x8", preset: .fast) else {
            Issue.record("expected a failure"); return
        }
        #expect(f.message.contains("does not exist"))
        #expect((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) == [])
    }
}

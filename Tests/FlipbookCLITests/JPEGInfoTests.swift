import Foundation
import Testing
@testable import FlipbookCLI
import FlipbookTestSupport

/// `flipbook info` on JPEG files (FlipbookJPEGTests' fixtures): told from PNG by content.
@Suite struct JPEGInfoTests {
    let folder = TemporaryDirectory(prefix: "flipbook-jpeg-info-")

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("FlipbookJPEGTests/Fixtures").path

    @Test func describesAJPEG() throws {
        let path = Self.fixtures + "/progressive.jpg"
        #expect(try InfoCommand.execute(path: path).get() == [
            "file: \(path)", "format: JPEG", "size: 37x23", "color space: YCbCr", "subsampling: 4:2:0",
            "progressive: yes", "entropy coding: Huffman", "alpha: no",
        ])
        let gray = Self.fixtures + "/gray.jpg"
        #expect(try InfoCommand.execute(path: gray).get().contains("color space: gray"))
        let line = try InfoJSON.report(path: Self.fixtures + "/baseline444.jpg").get()
        #expect(line == #"{"alpha":"none","arithmetic":false,"colorSpace":"YCbCr","file":"\#(Self.fixtures)/baseline444.jpg","format":"jpeg","height":23,"progressive":false,"subsampling":"4:4:4","width":37}"#)
    }

    /// The name does not decide: a JPEG called `.png` is described as a JPEG.
    @Test func aJPEGNamedPNGIsAJPEG() throws {
        let path = folder.file("photo.png")
        try Data(contentsOf: URL(fileURLWithPath: Self.fixtures + "/solid.jpg")).write(to: URL(fileURLWithPath: path))
        #expect(try InfoCommand.execute(path: path).get().contains("format: JPEG"))
    }

    /// A JPEG cut in its scans is found (the ⅛-scale decode reads every scan), one line, exit 1.
    @Test func aTruncatedJPEGFails() throws {
        let path = folder.file("cut.jpg")
        let whole = try Data(contentsOf: URL(fileURLWithPath: Self.fixtures + "/baseline.jpg"))
        try whole.prefix(whole.count - 100).write(to: URL(fileURLWithPath: path))
        guard case .failure(let cut) = InfoCommand.execute(path: path) else { Issue.record("no failure"); return }
        #expect(cut.stderrLine == "flipbook: \(path): truncated JPEG: Premature end of JPEG file\n")
        #expect(cut.exitCode == 1)
        guard case .failure(let cmyk) = InfoJSON.report(path: Self.fixtures + "/cmyk.jpg") else { Issue.record("no failure"); return }
        #expect(cmyk.message.hasSuffix("cmyk.jpg: unsupported JPEG: CMYK colour is not decoded (it needs the file's ICC profile); save the image as RGB"))
    }

    @Test func neitherFormatSaysSo() throws {
        let path = folder.file("a.gif")
        try Data("GIF89a".utf8).write(to: URL(fileURLWithPath: path))
        guard case .failure(let f) = InfoCommand.execute(path: path) else { Issue.record("no failure"); return }
        #expect(f.message == "\(path): not a PNG or JPEG image (it starts 47 49 46 38 39 61)")
    }
}

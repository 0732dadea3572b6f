import Glibc
import Testing
import FlipbookPNG
import FlipbookCompare
@testable import FlipbookCLI
import FlipbookPixels
import FlipbookTestSupport
import Foundation

@Suite struct CompareCommandTests {
    /// A fresh empty folder for each test (one suite instance per test), removed after it.
    let folder = TemporaryDirectory(prefix: "flipbook-compare-")
    var root: String { folder.path }

    static func image(width: Int = 4, height: Int = 4, change: (x: Int, y: Int, delta: Int)? = nil) -> PixelBuffer {
        var p = PixelBuffer(width: width, height: height)
        for y in 0..<height { for x in 0..<width { p[x, y] = RGBA8(r: UInt8(40 * x), g: UInt8(40 * y), b: 90, a: 255) } }
        if let c = change { p[c.x, c.y].r = UInt8(Int(p[c.x, c.y].r) + c.delta) }
        return p
    }

    func write(_ image: PixelBuffer, _ name: String) throws -> String {
        let path = "\(root)/\(name)"
        try SnapshotFileSystem.makeDirectories(SnapshotFileSystem.directory(of: path))
        try PNG.write(image, to: path)
        return path
    }

    func run(_ args: [String]) throws -> Result<CompareReport, CLIFailure> {
        try CompareCommand.parse(args).execute()
    }

    @Test func identicalFilesExitZero() throws {
        let e = try write(Self.image(), "e.png"), a = try write(Self.image(), "a.png")
        let report = try run([e, a]).get()
        #expect(report.exitCode == 0)
        #expect(report.table.contains("a.png  same        0  0 (0%)           ∞         -"))
        #expect(report.table.hasSuffix("summary: 1 frame, 1 within tolerance, 0 different, 0 missing, 0 bad input (tolerance: exact)"))
    }

    @Test func slightlyDifferentPassesWithinToleranceOnly() throws {
        let e = try write(Self.image(), "e.png"), a = try write(Self.image(change: (1, 1, 3)), "a.png")
        #expect(try run([e, a]).get().exitCode == 1)
        #expect(try run([e, a, "--max-channel-delta", "3"]).get().exitCode == 0)
        #expect(try run([e, a, "--max-channel-delta", "2"]).get().exitCode == 1)
        #expect(try run([e, a, "--max-differing-pixels", "1"]).get().exitCode == 0)
        #expect(try run([e, a, "--max-differing-pixels", "6.25%"]).get().exitCode == 0)   // 1 of 16
        #expect(try run([e, a, "--max-differing-pixels", "6.24%"]).get().exitCode == 1)
        #expect(try run([e, a, "--perceptual", "2"]).get().exitCode == 0)
    }

    @Test func differentWritesDiffAndJSON() throws {
        let e = try write(Self.image(), "e.png"), a = try write(Self.image(change: (2, 3, 100)), "a.png")
        let report = try run([e, a, "--diff", "\(root)/diffs", "--json"]).get()
        #expect(report.exitCode == 1)
        let diff = try PNG.decode(contentsOf: "\(root)/diffs/a.diff.png")
        #expect(diff[2, 3] == RGBA8(r: 255, g: 0, b: UInt8(255 - 255 * 99 / 254), a: 255))
        #expect(report.json.hasPrefix("{\"exitCode\":1,\"tolerance\":{\"maxChannelDelta\":0,\"maxDeltaE\":null,\"maxDifferingPixels\":\"0 pixels\"},"
                                      + "\"summary\":{\"frames\":1,\"same\":0,\"different\":1,\"missing\":0,\"badInput\":0},"
                                      + "\"frames\":[{\"name\":\"a.png\",\"status\":\"different\",\"width\":4,\"height\":4,\"maxChannelDelta\":100,"))
        #expect(report.json.hasSuffix("\"diff\":\"\(root)/diffs/a.diff.png\"}]}"))
    }

    @Test func foldersWithAMissingFrameExitOne() throws {
        for n in ["0001.png", "0002.png", "0003.png"] { _ = try write(Self.image(), "exp/\(n)") }
        for n in ["0001.png", "0002.png", "0004.png"] { _ = try write(Self.image(), "act/\(n)") }
        let report = try run(["\(root)/exp", "\(root)/act"]).get()
        #expect(report.exitCode == 1)
        #expect(report.entries.map(\.name) == ["0001.png", "0002.png", "0003.png", "0004.png"])
        #expect(report.entries.map(\.status) == [.same, .same, .missingActual, .missingExpected])
        #expect(report.table.contains("0003.png: only in \(root)/exp"))
    }

    @Test func mismatchedSizesAndUnreadableFilesAreBadInput() throws {
        let e = try write(Self.image(), "e.png"), a = try write(Self.image(width: 5), "a.png")
        let report = try run([e, a]).get()
        #expect(report.exitCode == 2)
        #expect(report.entries[0].detail!.hasPrefix("size mismatch: expected 4×4, actual 5×4"))
        let bogus = "\(root)/bogus.png"
        let fd = open(bogus, O_WRONLY | O_CREAT, 0o644); _ = Glibc.write(fd, "hello", 5); close(fd)
        let bad = try run([e, bogus]).get()
        #expect(bad.exitCode == 2 && bad.entries[0].status == .unreadable)
        #expect(bad.entries[0].detail!.contains(bogus))
    }

    /// Sizes come from the headers, before anything is decoded: a 4×4 reference against a
    /// file whose header says 16384×16384 (and whose pixel data could never decode) is a size
    /// mismatch, found without inflating — not a gigabyte allocation, not "unreadable".
    @Test func sizesAreComparedBeforeDecoding() throws {
        let e = try write(Self.image(), "e.png")
        let big = PNGBytes.headerOnlyGiant()
        let a = "\(root)/big.png"
        try Data(big).write(to: URL(fileURLWithPath: a))
        let report = try run([e, a]).get()
        #expect(report.entries[0].status == .sizeMismatch)
        #expect(report.entries[0].detail!.hasPrefix("size mismatch: expected 4×4, actual 16384×16384"))
    }

    @Test func unpairablePathsFailWithExitTwo() throws {
        let e = try write(Self.image(), "e.png")
        #expect(try run([e, "\(root)/nope.png"]) == .failure(CLIFailure(message: "\(root)/nope.png: no such file or folder", exitCode: 2)))
        guard case .failure(let f) = try run([e, root]) else { Issue.record("expected failure"); return }
        #expect(f.exitCode == 2 && f.message.contains("both be PNG files or both be folders"))
    }

    @Test func badOptionsAreUsageErrors() {
        #expect(throws: (any Error).self) { try CompareCommand.parse(["a", "b", "--max-differing-pixels", "lots"]) }
        #expect(throws: (any Error).self) { try CompareCommand.parse(["a", "b", "--max-channel-delta", "256"]) }
    }
}

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

    // MARK: --report (the review page; the page itself is tested in ReviewPageBrowserTests)

    /// The entries of the page `--report` wrote, as the page's JSON blob.
    func pageData(_ dir: String) throws -> [[String: Any]] {
        let html = try String(contentsOfFile: "\(dir)/index.html", encoding: .utf8)
        let start = try #require(html.range(of: "id=\"flipbook-report\">")).upperBound
        let end = try #require(html.range(of: "</script>", range: start..<html.endIndex)).lowerBound
        return try #require(try JSONSerialization.jsonObject(with: Data(html[start..<end].utf8)) as? [[String: Any]])
    }

    @Test func reportListsEveryFrameWithCopiedImagesAndCpToAccept() throws {
        _ = try write(Self.image(), "exp/0001.png"); _ = try write(Self.image(), "act/0001.png")
        _ = try write(Self.image(), "exp/0002.png"); _ = try write(Self.image(change: (1, 2, 50)), "act/0002.png")
        _ = try write(Self.image(), "exp/0003.png")
        _ = try write(Self.image(), "act/new frame.png")
        let report = try run(["\(root)/exp", "\(root)/act", "--report", "\(root)/review"]).get()
        #expect(report.exitCode == 1 && report.reportPath == "\(root)/review/index.html")
        #expect(report.table.contains("review page: \(root)/review/index.html"))
        #expect(report.json.hasSuffix(",\"report\":\"\(root)/review/index.html\"}"))
        let data = try pageData("\(root)/review")
        let byName = Dictionary(uniqueKeysWithValues: data.map { ($0["name"] as! String, $0) })
        #expect(byName.keys.sorted() == ["0001.png", "0002.png", "0003.png", "new frame.png"])
        #expect(byName["0001.png"]?["status"] as? String == "same" && byName["0001.png"]?["heat"] is NSNull)
        #expect(byName["0001.png"]?["actual"] as? String == byName["0001.png"]?["expected"] as? String)
        let diff = try #require(byName["0002.png"])
        #expect(diff["status"] as? String == "different" && diff["maxDelta"] as? Int == 50 && diff["differing"] as? Int == 1)
        #expect(diff["accept"] as? [String] == ["cp \(root)/act/0002.png \(root)/exp/0002.png"])
        // The files are copied as they are; the heat map is drawn from both.
        let actualCopy = "\(root)/review/" + (diff["actual"] as! String)
        #expect(try Data(contentsOf: URL(fileURLWithPath: actualCopy)) == Data(contentsOf: URL(fileURLWithPath: "\(root)/act/0002.png")))
        #expect(try PNG.decode(contentsOf: "\(root)/review/" + (diff["heat"] as! String))
                == HeatMapImage.make(actual: Self.image(change: (1, 2, 50)), expected: Self.image()))
        #expect(byName["0003.png"]?["status"] as? String == "missing-actual")
        #expect(byName["0003.png"]?["accept"] as? [String] == ["rm \(root)/exp/0003.png"])
        #expect(byName["new frame.png"]?["status"] as? String == "missing-expected")
        #expect(byName["new frame.png"]?["accept"] as? [String] == ["cp '\(root)/act/new frame.png' '\(root)/exp/new frame.png'"])
        #expect(byName["new frame.png"]?["expected"] is NSNull && byName["new frame.png"]?["actual"] is String)
    }

    @Test func reportOfSizeMismatchAndUnreadableFrames() throws {
        let e = try write(Self.image(), "e.png"), a = try write(Self.image(width: 6), "a.png")
        _ = try run([e, a, "--report", "\(root)/r"]).get()
        let d = try #require(try pageData("\(root)/r").first)
        #expect(d["status"] as? String == "size-mismatch" && d["expectedSize"] as? [Int] == [4, 4] && d["actualSize"] as? [Int] == [6, 4])
        #expect((d["message"] as? String)?.hasPrefix("size mismatch: expected 4×4, actual 6×4") == true)
        #expect(d["accept"] as? [String] == ["cp \(a) \(e)"])
        let bogus = "\(root)/bogus.png"
        try Data("hello".utf8).write(to: URL(fileURLWithPath: bogus))
        _ = try run([e, bogus, "--report", "\(root)/r"]).get()
        let u = try #require(try pageData("\(root)/r").first)
        #expect(u["status"] as? String == "unreadable" && u["expected"] is NSNull && u["actual"] is NSNull)
        #expect((u["accept"] as? [String])?.isEmpty == true && (u["message"] as? String)?.contains(bogus) == true)
    }

    /// A frame on one side only that is no PNG is named on the page, not shown, and the rest
    /// of the report is written.
    @Test func reportOfABrokenOneSidedFrame() throws {
        _ = try write(Self.image(), "exp/a.png"); _ = try write(Self.image(), "act/a.png")
        try SnapshotFileSystem.makeDirectories("\(root)/act")
        try Data("not a png".utf8).write(to: URL(fileURLWithPath: "\(root)/act/b.png"))
        let report = try run(["\(root)/exp", "\(root)/act", "--report", "\(root)/r"]).get()
        #expect(report.exitCode == 1)
        let b = try #require(try pageData("\(root)/r").first { $0["name"] as? String == "b.png" })
        #expect(b["status"] as? String == "missing-expected" && b["actual"] is NSNull)
        #expect((b["message"] as? String)?.contains("cannot read") == true && (b["message"] as? String)?.contains("\(root)/act/b.png") == true)
        #expect(try pageData("\(root)/r").count == 2)
    }

    /// A report folder holds one run: running again replaces the earlier entries.
    @Test func reportIsReplacedByTheNextRun() throws {
        let e = try write(Self.image(), "e.png"), a = try write(Self.image(), "a.png"), b = try write(Self.image(), "b.png")
        _ = try run([e, a, "--report", "\(root)/r"]).get()
        _ = try run([e, b, "--report", "\(root)/r"]).get()
        #expect(try pageData("\(root)/r").map { $0["name"] as? String } == ["b.png"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(root)/r/images").count == 1)
    }

    @Test func unwritableReportFolderIsBadInput() throws {
        let e = try write(Self.image(), "e.png"), a = try write(Self.image(), "a.png")
        guard case .failure(let f) = try run([e, a, "--report", "\(e)/r"]) else { Issue.record("expected failure"); return }
        #expect(f.exitCode == 2 && f.message.hasPrefix("--report \(e)/r: cannot create folder \(e)"))
    }
}

import Dispatch
import Foundation
import Testing
import FlipbookPNG
@testable import FlipbookCompare
import FlipbookPixels
import FlipbookTestSupport

/// The review-page writer: its files, its JSON, its safety inside HTML, concurrent adds, and the
/// entries the snapshot verifier makes. (The page itself is tested in a browser:
/// FlipbookCLITests/ReviewPageBrowserTests.)
@Suite struct ReviewReportTests {
    let folder = TemporaryDirectory(prefix: "flipbook-review-")
    var report: ReviewReport { ReviewReport(directory: folder.file("report")) }

    /// Every name in a folder, hidden ones too (temporary files start with a dot).
    func names(_ path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    func entryJSON(_ key: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: folder.file("report/entries/\(key).json")))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// The JSON array embedded in index.html, parsed.
    func pageData() throws -> [[String: Any]] {
        let html = try String(contentsOfFile: report.indexPath, encoding: .utf8)
        let open = "<script type=\"application/json\" id=\"flipbook-report\">"
        let start = try #require(html.range(of: open)).upperBound
        let end = try #require(html.range(of: "</script>", range: start..<html.endIndex)).lowerBound
        return try #require(try JSONSerialization.jsonObject(with: Data(html[start..<end].utf8)) as? [[String: Any]])
    }

    @Test func differentEntryWritesImagesHeatMapJSONAndPage() throws {
        let expected = TestImages.gradient(), actual = TestImages.nudged(expected, x: 2, y: 3, red: 40)
        let c = try ImageComparison.compare(actual, to: expected)
        let entry = ReviewReport.Entry(name: "frame 7.png", group: "CardTests", status: .different, comparison: c,
                                       expected: .pixels(expected), actual: .pixels(actual),
                                       message: "1 pixel differs", accept: ["cp a b"])
        try report.add(entry)
        let key = entry.key
        #expect(try PNG.decode(contentsOf: folder.file("report/images/\(key).expected.png")) == expected)
        #expect(try PNG.decode(contentsOf: folder.file("report/images/\(key).actual.png")) == actual)
        let heat = try PNG.decode(contentsOf: folder.file("report/images/\(key).heat.png"))
        #expect(heat == (try HeatMapImage.make(actual: actual, expected: expected)))
        let j = try entryJSON(key)
        #expect(j["name"] as? String == "frame 7.png" && j["group"] as? String == "CardTests")
        #expect(j["status"] as? String == "different" && j["passed"] as? Bool == false)
        #expect(j["differing"] as? Int == 1 && j["maxDelta"] as? Int == 40 && j["pixels"] as? Int == 64)
        #expect(j["bounds"] as? [Int] == [2, 3, 1, 1] && j["tolerance"] as? String == "exact")
        #expect(abs((j["psnr"] as? Double ?? 0) - c.psnr) < 1e-9)
        #expect(j["expected"] as? String == "images/\(key).expected.png" && j["heat"] as? String == "images/\(key).heat.png")
        #expect(j["expectedSize"] as? [Int] == [8, 8] && j["accept"] as? [String] == ["cp a b"])
        #expect(try pageData().map { $0["key"] as? String } == [key])
        // Another comparer states its own rule.
        var other = entry
        other.toleranceDescription = "precision 0.99"
        try report.add(other)
        #expect(try entryJSON(key)["tolerance"] as? String == "precision 0.99")
    }

    @Test func identicalImagesAreStoredOnceWithoutHeatMap() throws {
        let image = TestImages.gradient()
        let c = try ImageComparison.compare(image, to: image)
        let entry = ReviewReport.Entry(name: "same", status: .same, comparison: c, expected: .pixels(image), actual: .pixels(image))
        try report.add(entry)
        let j = try entryJSON(entry.key)
        #expect(j["actual"] as? String == j["expected"] as? String)
        #expect(j["heat"] is NSNull && j["psnr"] is NSNull && j["passed"] as? Bool == true)
        #expect(names(folder.file("report/images")).sorted() == ["\(entry.key).expected.png"])
    }

    @Test func addingTheSameKeyReplacesTheEntryAndItsStaleImages() throws {
        let e = TestImages.gradient(), a = TestImages.nudged(e, x: 0, y: 0, red: 9)
        var entry = ReviewReport.Entry(name: "n", group: "g", status: .different, comparison: try ImageComparison.compare(a, to: e),
                                       expected: .pixels(e), actual: .pixels(a))
        try report.add(entry)
        entry.status = .same
        entry.comparison = try ImageComparison.compare(e, to: e)
        entry.actual = .pixels(e)
        try report.add(entry)
        #expect(names(folder.file("report/entries")) == ["\(entry.key).json"])
        #expect(names(folder.file("report/images")) == ["\(entry.key).expected.png"])
        #expect(try pageData().map { $0["status"] as? String } == ["same"])
    }

    @Test func filesAreCopiedByteForByte() throws {
        let path = folder.file("in.png")
        let bytes = try PNG.encode(TestImages.gradient(width: 5, height: 3), options: .small)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let entry = ReviewReport.Entry(name: "x", status: .missingExpected, actual: .file(path))
        try report.add(entry)
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder.file("report/images/\(entry.key).actual.png")))) == bytes)
        #expect(try entryJSON(entry.key)["actualSize"] as? [Int] == [5, 3])
        // An unreadable file is an error naming it, not a crash or a half-written entry.
        let bad = ReviewReport.Entry(name: "bad", status: .different, actual: .file(folder.file("nope.png")))
        #expect(throws: SnapshotError.self) { try report.add(bad) }
        #expect(!names(folder.file("report/entries")).contains("\(bad.key).json"))
    }

    /// Names and messages are data: nothing in them can end the JSON's <script> element or
    /// start markup.
    @Test func hostileTextCannotBreakOutOfTheDataScript() throws {
        let name = "</script><script>alert(1)</script><!-- & \u{2028}\"quoted\"\\"
        try report.add(ReviewReport.Entry(name: name, group: "<b>", status: .error, message: "</SCRIPT>\nline 2",
                                          accept: ["echo '<x>'"]))
        let html = try String(contentsOfFile: report.indexPath, encoding: .utf8)
        #expect(html.components(separatedBy: "</script>").count - 1 == 2)   // the page's own two
        #expect(!html.contains("alert(1)</") && !html.lowercased().contains("</script><script>alert"))
        let data = try pageData()
        #expect(data.count == 1 && data[0]["name"] as? String == name && data[0]["message"] as? String == "</SCRIPT>\nline 2")
        #expect(data[0]["group"] as? String == "<b>")
    }

    /// Parallel tests add to one report: every entry ends up in the page, and no temporary
    /// file is left behind.
    @Test func concurrentAddsAllReachThePage() throws {
        let image = TestImages.gradient(width: 4, height: 4)
        let report = self.report
        let failures = Counter(0)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for i in 0..<25 {
                let a = TestImages.nudged(image, x: i % 4, y: thread % 4, red: 1 + i)
                let entry = ReviewReport.Entry(name: "t\(thread).f\(i)", group: "Concurrent", status: .different,
                                               comparison: try? ImageComparison.compare(a, to: image),
                                               expected: .pixels(image), actual: .pixels(a))
                do { try report.add(entry) } catch { failures.add(1) }
            }
        }
        #expect(failures.value == 0)
        #expect(names(folder.file("report/entries")).count == 200)
        let listed = Set(try pageData().compactMap { $0["name"] as? String })
        #expect(listed.count == 200 && listed.contains("t7.f24") && listed.contains("t0.f0"))
        let leftovers = (names(folder.file("report/entries"))
            + names(folder.file("report/images"))
            + names(folder.file("report"))).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty)
    }

    @Test func removeAllDeletesOnlyTheReportsFiles() throws {
        let image = TestImages.gradient()
        try report.add(ReviewReport.Entry(name: "a", status: .same, comparison: try ImageComparison.compare(image, to: image),
                                          expected: .pixels(image), actual: .pixels(image)))
        try "keep".write(toFile: folder.file("report/notes.txt"), atomically: true, encoding: .utf8)
        try report.removeAll()
        #expect(names(folder.file("report/entries")).isEmpty)
        #expect(names(folder.file("report/images")).isEmpty)
        #expect(SnapshotFileSystem.kind(of: report.indexPath) == .missing)
        #expect(SnapshotFileSystem.kind(of: folder.file("report/notes.txt")) == .file)
        try report.writeIndex()
        #expect(try pageData().isEmpty)
    }

    @Test func environmentAndKeys() {
        #expect(ReviewReport.fromEnvironment { $0 == "FLIPBOOK_REPORT" ? "/tmp/r" : nil }?.directory == "/tmp/r")
        #expect(ReviewReport.fromEnvironment { $0 == "FLIPBOOK_REPORT" ? "" : nil } == nil)
        #expect(ReviewReport.fromEnvironment { _ in nil } == nil)
        let a = ReviewReport.Entry(name: "x.png", group: "G", status: .same)
        let b = ReviewReport.Entry(name: "x.png", group: "H", status: .same)
        let c = ReviewReport.Entry(name: "G.x.png", status: .same)
        #expect(a.key.hasPrefix("G.x.png-") && a.key.count == "G.x.png-".count + 16)
        #expect(a.key != b.key && a.key != c.key && a.key == ReviewReport.Entry(name: "x.png", group: "G", status: .different).key)
        #expect(ReviewReport.Entry(name: "a/b c", status: .same).key.hasPrefix("a-b-c-"))
    }

    @Test func shellQuoting() {
        #expect(ReviewReport.shellQuote("expected/frame_001.png") == "expected/frame_001.png")
        #expect(ReviewReport.shellQuote("my frames/a.png") == "'my frames/a.png'")
        #expect(ReviewReport.shellQuote("it's") == "'it'\\''s'")
        #expect(ReviewReport.shellQuote("$(rm -rf ~)") == "'$(rm -rf ~)'")
        #expect(ReviewReport.shellQuote("") == "''")
    }

    @Test func heatMapColours() throws {
        #expect(HeatMapImage.color(forDelta: 1) == RGBA8(r: 40, g: 40, b: 255, a: 255))
        #expect(HeatMapImage.color(forDelta: 4) == RGBA8(r: 0, g: 200, b: 255, a: 255))
        #expect(HeatMapImage.color(forDelta: 16) == RGBA8(r: 0, g: 220, b: 0, a: 255))
        #expect(HeatMapImage.color(forDelta: 64) == RGBA8(r: 255, g: 230, b: 0, a: 255))
        #expect(HeatMapImage.color(forDelta: 255) == RGBA8(r: 255, g: 0, b: 0, a: 255))
        #expect(HeatMapImage.color(forDelta: 2) == RGBA8(r: 20, g: 120, b: 255, a: 255))  // halfway 1 → 4 in log₂
        let e = TestImages.gradient()
        var a = TestImages.nudged(e, x: 1, y: 1, red: 4)
        a = TestImages.nudged(a, x: 5, y: 6, red: 64)
        let heat = try HeatMapImage.make(actual: a, expected: e, tolerance: .perChannel(10))
        #expect(heat[0, 0] == DiffImage.dimmedGray(e[0, 0]))
        #expect(heat[5, 6] == RGBA8(r: 255, g: 230, b: 0, a: 255))           // beyond tolerance: bright
        let g = DiffImage.dimmedGray(e[1, 1])                                 // within: averaged with gray
        #expect(heat[1, 1] == RGBA8(r: UInt8((0 + Int(g.r)) / 2), g: UInt8((200 + Int(g.g)) / 2), b: UInt8((255 + Int(g.b)) / 2), a: 255))
        #expect(throws: ImageComparison.SizeMismatch.self) {
            try HeatMapImage.make(actual: TestImages.gradient(width: 4), expected: e)
        }
    }

    // MARK: The verifier's entries (what FLIPBOOK_REPORT adds for each assertion)

    var location: SnapshotLocation {
        SnapshotLocation.forTest(filePath: folder.file("Pkg/Tests/AppTests/ButtonTests.swift"), testName: "pressed()",
                                 name: "highlight", failuresRoot: folder.file("failures"))
    }

    @Test func verifierAddsEveryComparisonWithItsAcceptCommand() throws {
        try SnapshotFileSystem.makeDirectories(folder.file("Pkg"))
        try "// swift-tools-version:6.1".write(toFile: folder.file("Pkg/Package.swift"), atomically: true, encoding: .utf8)
        let image = TestImages.gradient()
        _ = SnapshotVerifier(recordMode: .missing).verify(image, at: location)       // record, no report
        let verifier = SnapshotVerifier(recordMode: .never, report: report)
        let changed = TestImages.nudged(image, x: 3, y: 5, red: 7)
        guard case .different = verifier.verify(changed, at: location) else { Issue.record("expected different"); return }
        var data = try pageData()
        #expect(data.count == 1)
        let d = data[0]
        #expect(d["group"] as? String == "ButtonTests" && d["name"] as? String == "pressed.highlight")
        #expect(d["status"] as? String == "different" && d["differing"] as? Int == 1)
        let accept = d["accept"] as? [String] ?? []
        #expect(accept.first == "FLIPBOOK_RECORD=all swift test --filter pressed")
        let key = try #require(d["key"] as? String)
        #expect(accept.count == 2 && accept[1] == "# or copy the actual image over the reference: cp "
                + "\(folder.file("report/images/\(key).actual.png")) Tests/AppTests/__Snapshots__/ButtonTests/pressed.highlight.png")
        #expect(try PNG.decode(contentsOf: folder.file("report/images/\(key).expected.png")) == image)
        #expect(try PNG.decode(contentsOf: folder.file("report/images/\(key).actual.png")) == changed)
        // Passing again replaces the entry: the page shows the latest result.
        guard case .matched = verifier.verify(image, at: location) else { Issue.record("expected a match"); return }
        data = try pageData()
        #expect(data.count == 1 && data[0]["status"] as? String == "same" && (data[0]["accept"] as? [String])?.isEmpty == true)
        // A missing reference in never mode: only the actual image.
        let other = SnapshotLocation.forTest(filePath: location.referencePath, testName: "other()", name: "x",
                                             failuresRoot: folder.file("failures"))
        _ = verifier.verify(image, at: other)
        let missing = try #require(try pageData().first { $0["name"] as? String == "other.x" })
        #expect(missing["status"] as? String == "missing-expected" && missing["expected"] is NSNull && missing["actual"] is String)
        #expect(missing["accept"] as? [String] == ["FLIPBOOK_RECORD=all swift test --filter other"])
    }

    @Test func recordedReferenceIsAcceptedByCommittingIt() throws {
        let verifier = SnapshotVerifier(recordMode: .missing, report: report)
        _ = verifier.verify(TestImages.gradient(), at: location)
        let d = try #require(try pageData().first)
        #expect(d["status"] as? String == "recorded" && d["passed"] as? Bool == false)
        // No Package.swift above the test file here: the path stays absolute.
        #expect(d["accept"] as? [String] == ["git add \(location.referencePath)"])
    }

    @Test func unwritableReportNeverChangesTheOutcome() throws {
        try "a file".write(toFile: folder.file("blocked"), atomically: true, encoding: .utf8)
        let verifier = SnapshotVerifier(recordMode: .missing, report: ReviewReport(directory: folder.file("blocked/report")))
        let outcome = verifier.verify(TestImages.gradient(), at: location)
        guard case .recorded = outcome else { Issue.record("got \(outcome)"); return }
    }
}

/// A tiny thread-safe counter for the concurrency test.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var _value: Int
    init(_ v: Int) { _value = v }
    var value: Int { lock.withLock { _value } }
    func add(_ n: Int) { lock.withLock { _value += n } }
}

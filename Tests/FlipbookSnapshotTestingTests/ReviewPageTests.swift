import FlipbookCompare
import FlipbookPixels
@testable import FlipbookSnapshotTesting
import Foundation
import Testing

/// With `FLIPBOOK_REPORT` set, every comparison of the strategies lands on the review page:
/// passes and failures, named after the running test, with the command that re-records.
@Suite struct ReviewPageTests {
    @Test func comparisonsAreAddedToTheReviewPage() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flipbook-snapshot-review-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let report = ReviewReport(directory: dir)
        let reference = SnapshotImage(pixelBuffer: ComparisonTests.reference)
        let changed = SnapshotImage(pixelBuffer: ComparisonTests.patched(RGBA8(r: 255, g: 0, b: 0, a: 255)))
        for (snapshot, precision) in [(reference, Float(1)), (changed, Float(1))] {
            let c = ImageSnapshotComparison.compare(reference: reference, snapshot: snapshot, precision: precision, perceptualPrecision: 1)
            SnapshotReview.record(reference: reference, snapshot: snapshot, comparison: c, precision: precision,
                                  perceptualPrecision: 1, report: report)
        }
        let entries = try FileManager.default.contentsOfDirectory(atPath: "\(dir)/entries").filter { $0.hasSuffix(".json") }.sorted()
        #expect(entries.count == 2)
        let texts = try entries.map { try String(contentsOfFile: "\(dir)/entries/\($0)", encoding: .utf8) }
        #expect(texts.contains { $0.contains("comparisonsAreAddedToTheReviewPage.1") && $0.contains("\"same\"") })
        #expect(texts.contains { $0.contains("comparisonsAreAddedToTheReviewPage.2") && $0.contains("\"different\"")
            && $0.contains("SNAPSHOT_TESTING_RECORD=failed swift test --filter comparisonsAreAddedToTheReviewPage") })
        let page = try String(contentsOfFile: "\(dir)/index.html", encoding: .utf8)
        #expect(page.contains("comparisonsAreAddedToTheReviewPage.2"))
    }
}

import FlipbookCompare
import Foundation
import Testing

/// Adds each image comparison of this module to the review page when `FLIPBOOK_REPORT=DIR` is
/// set (``ReviewReport``, `docs/visual-testing.md`): passes and failures, with the reference,
/// the new snapshot and the numbers, and the command that records the new snapshot.
///
/// The entry is named after the running Swift Testing test (`testName.1`, `.2`, … for its
/// comparisons in order) and grouped by its file; under XCTest, where no test is current, it is
/// `snapshot.N`. A report that cannot be written is said on standard error; the test's verdict
/// is unchanged.
enum SnapshotReview {
    private static let counter = Counter()

    static func record(reference: SnapshotImage, snapshot: SnapshotImage, comparison: ImageSnapshotComparison,
                       precision: Float, perceptualPrecision: Float, report: ReviewReport? = ReviewReport.fromEnvironment()) {
        guard let report else { return }
        let test = Test.current
        let testName = test.map { String($0.name.prefix { $0 != "(" }) } ?? "snapshot"
        let group = test.map { URL(fileURLWithPath: $0.sourceLocation.fileID).deletingPathExtension().lastPathComponent }
        let name = "\(testName).\(counter.next("\(group ?? "").\(testName)"))"
        let ref = comparison.reference ?? reference.pixelBuffer, snap = comparison.snapshot ?? snapshot.pixelBuffer
        let status: ReviewReport.Entry.Status
        if comparison.passes { status = .same }
        else if let ref, let snap, ref.width != snap.width || ref.height != snap.height { status = .sizeMismatch }
        else if ref == nil || snap == nil { status = .unreadable }
        else { status = .different }
        let numbers: ImageComparison? = { guard let ref, let snap else { return nil }; return try? ImageComparison.compare(snap, to: ref) }()
        var entry = ReviewReport.Entry(
            name: name, group: group, status: status, comparison: numbers,
            expected: ref.map { .pixels($0) }, actual: snap.map { .pixels($0) }, message: comparison.message,
            accept: comparison.passes ? [] : ["SNAPSHOT_TESTING_RECORD=failed swift test --filter \(ReviewReport.shellQuote(testName))"])
        entry.toleranceDescription = "precision \(precision), perceptual precision \(perceptualPrecision)"
        do { try report.add(entry) } catch {
            FileHandle.standardError.write(Data("FlipbookSnapshotTesting: review page not written: \(error)\n".utf8))
        }
    }

    /// The next comparison number of a test, from 1.
    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var counts: [String: Int] = [:]
        func next(_ key: String) -> Int {
            lock.lock(); defer { lock.unlock() }
            counts[key, default: 0] += 1
            return counts[key]!
        }
    }
}

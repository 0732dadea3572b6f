import FlipbookPixels
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
/// Compares images with their references on disk and says what happened, without reporting
/// anything: the core under the assertions, and what their tests call to check failure paths.
///
/// ## Algorithm (one snapshot)
/// 1. No reference: with mode `missing` or `all`, write it → ``SnapshotOutcome/recorded(referencePath:previous:)``;
///    with `never` → ``SnapshotOutcome/missingReference(referencePath:mode:)``.
/// 2. Mode `all` and the pixels differ at all (or the size): rewrite → `recorded`.
/// 3. Compare with the tolerance: pass → `matched`; size differs → `sizeMismatch` (actual
///    written); beyond tolerance → `different` with `actual`, `diff` and `expected` written to
///    ``SnapshotLocation/failureDirectory``.
///
/// A passing snapshot deletes stale artifacts of an earlier failure with the same name, so the
/// failures folder only ever shows current failures.
public struct SnapshotVerifier: Sendable {
    public var recordMode: SnapshotRecordMode
    public var io: SnapshotImageIO
    /// When set, every verified image is added to this review page
    /// (``reviewEntry(for:image:reference:location:report:)``);
    /// the assertions set it from `FLIPBOOK_REPORT`. A report that cannot be written never changes
    /// the outcome: the problem is printed to standard error.
    public var report: ReviewReport?

    public init(recordMode: SnapshotRecordMode, io: SnapshotImageIO = .png, report: ReviewReport? = nil) {
        self.recordMode = recordMode
        self.io = io
        self.report = report
    }

    /// Verifies one image against the reference at `location`.
    public func verify(_ image: PixelBuffer, at location: SnapshotLocation,
                       tolerance: Tolerance = .exact) -> SnapshotOutcome {
        var reference: PixelBuffer?
        let outcome: SnapshotOutcome
        do throws(SnapshotError) {
            outcome = try _verify(image, at: location, tolerance: tolerance, reference: &reference)
        } catch {
            outcome = .error(error)
        }
        if let report {
            do throws(SnapshotError) {
                try report.add(Self.reviewEntry(for: outcome, image: image, reference: reference, location: location,
                                                       report: report))
            } catch {
                let line = "flipbook: \(ReviewReport.environmentVariable)=\(report.directory): cannot add \(location.baseName): \(error)\n"
                _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
            }
        }
        return outcome
    }

    /// Verifies several frames; the result keeps the order of `frames`.
    public func verify(frames: [(name: String, image: PixelBuffer)],
                       location: (String) -> SnapshotLocation,
                       tolerance: Tolerance = .exact) -> [(name: String, outcome: SnapshotOutcome)] {
        frames.map { ($0.name, verify($0.image, at: location($0.name), tolerance: tolerance)) }
    }

    func _verify(_ image: PixelBuffer, at location: SnapshotLocation,
                 tolerance: Tolerance, reference old: inout PixelBuffer?) throws(SnapshotError) -> SnapshotOutcome {
        let path = location.referencePath
        guard io.exists(path) else {
            guard recordMode != .never else { return .missingReference(referencePath: path, mode: recordMode) }
            try io.write(image, path, true)
            return .recorded(referencePath: path, previous: nil)
        }
        let reference = try io.read(path)
        old = reference
        let comparison: ImageComparison
        do {
            comparison = try ImageComparison.compare(image, to: reference, tolerance: tolerance)
        } catch {
            if recordMode == .all {
                try io.write(image, path, true)
                return .recorded(referencePath: path, previous: nil)
            }
            let actual = location.artifactPath("actual")
            try io.write(image, actual, false)
            return .sizeMismatch(error, referencePath: path, artifacts: [actual])
        }
        if recordMode == .all && !comparison.isIdentical {
            try io.write(image, path, true)
            return .recorded(referencePath: path, previous: comparison)
        }
        if comparison.passes {
            for kind in ["actual", "diff", "expected"] where io.exists(location.artifactPath(kind)) {
                SnapshotFileSystem.removeFile(location.artifactPath(kind))
            }
            return .matched(comparison)
        }
        let diff: PixelBuffer
        do { diff = try DiffImage.make(actual: image, expected: reference, tolerance: tolerance) } catch {
            throw .io("internal: \(error)")  // sizes were checked above
        }
        let paths = ["actual", "diff", "expected"].map(location.artifactPath)
        try io.write(image, paths[0], false)
        try io.write(diff, paths[1], false)
        try io.write(reference, paths[2], false)
        return .different(comparison, referencePath: path, artifacts: paths)
    }
}

import FlipbookPixels
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

    public init(recordMode: SnapshotRecordMode, io: SnapshotImageIO = .png) {
        self.recordMode = recordMode
        self.io = io
    }

    /// Verifies one image against the reference at `location`.
    public func verify(_ image: PixelBuffer, at location: SnapshotLocation,
                       tolerance: Tolerance = .exact) -> SnapshotOutcome {
        do throws(SnapshotError) {
            return try _verify(image, at: location, tolerance: tolerance)
        } catch {
            return .error(error)
        }
    }

    /// Verifies several frames; the result keeps the order of `frames`.
    public func verify(frames: [(name: String, image: PixelBuffer)],
                       location: (String) -> SnapshotLocation,
                       tolerance: Tolerance = .exact) -> [(name: String, outcome: SnapshotOutcome)] {
        frames.map { ($0.name, verify($0.image, at: location($0.name), tolerance: tolerance)) }
    }

    func _verify(_ image: PixelBuffer, at location: SnapshotLocation,
                 tolerance: Tolerance) throws(SnapshotError) -> SnapshotOutcome {
        let path = location.referencePath
        guard io.exists(path) else {
            guard recordMode != .never else { return .missingReference(referencePath: path, mode: recordMode) }
            try io.write(image, path, true)
            return .recorded(referencePath: path, previous: nil)
        }
        let reference = try io.read(path)
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

import FlipbookPixels
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension SnapshotVerifier {
    /// The review-page entry for one verified snapshot.
    ///
    /// - Group: the test file (`ButtonTests`); name: `<test>.<name>` (the reference's base name).
    /// - Images: the reference as it was before this verification (for a re-recorded one, the
    ///   old reference) and the actual image.
    /// - Accept: `FLIPBOOK_RECORD=all swift test --filter <test>` (the record mode that
    ///   rewrites references that changed), then, as a shell comment, the `cp` of the report's
    ///   copy of the actual image over the reference (relative to the package root when the
    ///   reference lies in a package). A `recorded` snapshot is accepted by committing it:
    ///   `git add <reference>`.
    public static func reviewEntry(for outcome: SnapshotOutcome, image: PixelBuffer, reference: PixelBuffer?,
                                   location: SnapshotLocation, report: ReviewReport? = nil) -> ReviewReport.Entry {
        let group = SnapshotFileSystem.lastComponent(of: location.failureDirectory)
        var entry = ReviewReport.Entry(name: location.baseName, group: group, status: .error,
                                       comparison: outcome.comparison, message: outcome.message)
        let test = String(location.baseName.prefix { $0 != "." })
        let q = ReviewReport.shellQuote
        let referencePath = _packageRelative(location.referencePath)
        var record = ["FLIPBOOK_RECORD=all swift test --filter \(q(test))"]
        if let report {
            let copy = SnapshotFileSystem.join(_absolute(report.directory), "images/\(entry.key).actual.png")
            record.append("# or copy the actual image over the reference: cp \(q(copy)) \(q(referencePath))")
        }
        switch outcome {
        case .matched(let c):
            entry.status = .same
            entry.expected = .pixels(reference ?? image)
            entry.actual = c.isIdentical ? entry.expected : .pixels(image)
        case .different:
            entry.status = .different
            entry.expected = reference.map { .pixels($0) }
            entry.actual = .pixels(image)
            entry.accept = record
        case .sizeMismatch:
            entry.status = .sizeMismatch
            entry.expected = reference.map { .pixels($0) }
            entry.actual = .pixels(image)
            entry.accept = record
        case .missingReference:
            entry.status = .missingExpected
            entry.actual = .pixels(image)
            entry.accept = [record[0]]
        case .recorded(let path, _):
            entry.status = .recorded
            entry.expected = reference.map { .pixels($0) }
            entry.actual = .pixels(image)
            entry.accept = ["git add \(q(_packageRelative(path)))"]
        case .error:
            entry.status = .error
        }
        return entry
    }

    /// `path` relative to the nearest folder above it holding a `Package.swift`, else unchanged.
    static func _packageRelative(_ path: String) -> String {
        var dir = SnapshotFileSystem.directory(of: path)
        while dir != "/" && dir != "." && !dir.isEmpty {
            if SnapshotFileSystem.kind(of: SnapshotFileSystem.join(dir, "Package.swift")) == .file {
                return String(path.dropFirst(dir.count + 1))
            }
            dir = SnapshotFileSystem.directory(of: dir)
        }
        return path
    }

    /// `path` made absolute against the working directory.
    static func _absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        guard let cwd = getcwd(nil, 0) else { return path }
        defer { free(cwd) }
        return SnapshotFileSystem.join(String(cString: cwd), path)
    }
}

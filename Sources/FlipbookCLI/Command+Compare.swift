import ArgumentParser
import FlipbookPNG
import FlipbookCompare
import FlipbookPixels

/// `flipbook compare EXPECTED ACTUAL`: compare two PNGs, or two folders of PNG frames matched
/// by file name, with the same tolerances as the `FlipbookTesting` assertions.
///
/// `--report DIR` also writes a review page of every frame (``ReviewReport``).
///
/// Exit codes: 0 every frame within tolerance; 1 a frame differs or exists on one side only;
/// 2 bad input (a path missing or of the wrong kind, an unreadable PNG, sizes that differ).
/// Option errors are usage errors (ArgumentParser's 64).
struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare two PNGs or two folders of PNG frames; exit 0 same, 1 different, 2 bad input."
    )

    @Argument(help: "The reference PNG, or a folder of reference frames.")
    var expected: String
    @Argument(help: "The PNG to check, or a folder of frames (matched to EXPECTED by file name).")
    var actual: String

    @Option(help: "Largest accepted difference of any channel of a pixel (0-255).")
    var maxChannelDelta: Int = 0
    @Option(help: ArgumentHelp("How many pixels may differ: a count (10) or a share of the image (0.5%).",
                               valueName: "N|P%"))
    var maxDifferingPixels: String?
    @Option(help: ArgumentHelp("A pixel also matches when its CIEDE2000 ΔE (over black and white) is at most this.",
                               valueName: "DELTAE"))
    var perceptual: Double?
    @Option(help: ArgumentHelp("Write a diff image for each differing frame into this folder.", valueName: "DIR"))
    var diff: String?
    @Option(help: ArgumentHelp("Write a review page of every frame to DIR/index.html (replacing an earlier report there).",
                               valueName: "DIR"))
    var report: String?
    @Flag(help: "Print a JSON report instead of the table.")
    var json = false

    func validate() throws {
        guard (0...255).contains(maxChannelDelta) else {
            throw ValidationError("--max-channel-delta must be 0...255, got \(maxChannelDelta)")
        }
        if let p = perceptual, !(p.isFinite && p >= 0) {
            throw ValidationError("--perceptual must be a finite ΔE ≥ 0, got \(p)")
        }
        _ = try pixelAllowance()
    }

    /// `--max-differing-pixels` parsed: `12` → `.count(12)`, `0.5%` → `.fraction(0.005)`.
    func pixelAllowance() throws -> Tolerance.PixelAllowance {
        guard let raw = maxDifferingPixels else { return .count(0) }
        if raw.hasSuffix("%"), let p = Double(raw.dropLast()), p.isFinite, (0...100).contains(p) {
            return .fraction(p / 100)
        }
        if let n = Int(raw), n >= 0 { return .count(n) }
        throw ValidationError("--max-differing-pixels must be a count (10) or a percentage (0.5%), got '\(raw)'")
    }

    var tolerance: Tolerance {
        Tolerance(maxChannelDelta: maxChannelDelta, maxDeltaE: perceptual,
                  maxDifferingPixels: (try? pixelAllowance()) ?? .count(0))
    }

    func run() throws {
        let result = execute()
        switch result {
        case .success(let report):
            print(json ? report.json : report.table)
            if report.exitCode != 0 { throw ExitCode(report.exitCode) }
        case .failure(let failure):
            throw failure.report()
        }
    }

    /// The report, or a bad-input failure (exit 2) when the paths cannot be paired. No printing.
    func execute() -> Result<CompareReport, CLIFailure> {
        let kinds = (SnapshotFileSystem.kind(of: expected), SnapshotFileSystem.kind(of: actual))
        for (path, kind) in [(expected, kinds.0), (actual, kinds.1)] where kind == .missing || kind == .other {
            return .failure(CLIFailure(message: "\(path): \(kind == .missing ? "no such file or folder" : "not a file or folder")", exitCode: 2))
        }
        var pairs: [(name: String, expected: String?, actual: String?)] = []
        switch kinds {
        case (.file, .file):
            pairs = [(SnapshotFileSystem.lastComponent(of: actual), expected, actual)]
        case (.directory, .directory):
            let e: [String], a: [String]
            do { e = try SnapshotFileSystem.fileNames(in: expected, suffix: ".png")
                 a = try SnapshotFileSystem.fileNames(in: actual, suffix: ".png") } catch {
                return .failure(CLIFailure(message: error.description, exitCode: 2))
            }
            let names = Set(e).union(a).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            pairs = names.map { n in
                (n, e.contains(n) ? SnapshotFileSystem.join(expected, n) : nil,
                 a.contains(n) ? SnapshotFileSystem.join(actual, n) : nil)
            }
        default:
            return .failure(CLIFailure(message: "EXPECTED and ACTUAL must both be PNG files or both be folders "
                                       + "(\(expected) is a \(kinds.0 == .file ? "file" : "folder"), "
                                       + "\(actual) is a \(kinds.1 == .file ? "file" : "folder"))", exitCode: 2))
        }
        if let diff, !pairs.isEmpty {
            do { try SnapshotFileSystem.makeDirectories(diff) } catch {
                return .failure(CLIFailure(message: error.description, exitCode: 2))
            }
        }
        let review = report.map(ReviewReport.init(directory:))
        if let review {
            do { try review.removeAll() } catch {
                return .failure(CLIFailure(message: "--report \(review.directory): \(error)", exitCode: 2))
            }
        }
        let tolerance = self.tolerance
        var entries: [CompareReport.Entry] = []
        for pair in pairs {
            let (entry, reviewEntry) = compareOne(pair, tolerance: tolerance)
            entries.append(entry)
            if let review, let reviewEntry {
                do { try review.add(reviewEntry, updatingIndex: false) } catch {
                    return .failure(CLIFailure(message: "--report \(review.directory): \(error)", exitCode: 2))
                }
            }
        }
        var result = CompareReport(tolerance: tolerance, entries: entries)
        if let review {
            do { try review.writeIndex() } catch {
                return .failure(CLIFailure(message: "--report \(review.directory): \(error)", exitCode: 2))
            }
            result.reportPath = review.indexPath
        }
        return .success(result)
    }

    /// One frame's entry (reads both files, compares, writes the diff when asked and different),
    /// and with `--report` its entry for the review page.
    func compareOne(_ pair: (name: String, expected: String?, actual: String?),
                    tolerance: Tolerance) -> (CompareReport.Entry, ReviewReport.Entry?) {
        let entry = _compareOne(pair, tolerance: tolerance)
        return (entry.0, report == nil ? nil : reviewEntry(entry.0, pair: pair, pixels: entry.1))
    }

    /// The review page's entry for a frame: the files copied as they are, the accept command a
    /// `cp` of the actual file over the expected one (an `rm` of the expected file when the
    /// frame exists only there).
    func reviewEntry(_ e: CompareReport.Entry, pair: (name: String, expected: String?, actual: String?),
                     pixels: (expected: PixelBuffer, actual: PixelBuffer)?) -> ReviewReport.Entry {
        let q = ReviewReport.shellQuote
        let status: ReviewReport.Entry.Status
        switch e.status {
        case .same: status = .same
        case .different: status = .different
        case .missingExpected: status = .missingExpected
        case .missingActual: status = .missingActual
        case .sizeMismatch: status = .sizeMismatch
        case .unreadable: status = .unreadable
        }
        var r = ReviewReport.Entry(name: e.name, status: status, comparison: e.comparison, message: e.detail)
        if e.status != .unreadable {
            // A frame on one side only was never read: a file that is no PNG is named in the
            // message instead of being shown.
            func image(_ path: String?, _ decoded: PixelBuffer?) -> ReviewReport.Entry.Image? {
                guard let path else { return nil }
                if decoded == nil {
                    do { _ = try PNG.info(contentsOf: path) } catch {
                        r.message = (r.message.map { $0 + "\n" } ?? "") + "cannot read \(error)"
                        return nil
                    }
                }
                return .file(path, pixels: decoded)
            }
            r.expected = image(pair.expected, pixels?.expected)
            r.actual = image(pair.actual, pixels?.actual)
        }
        switch e.status {
        case .different, .sizeMismatch:
            r.accept = ["cp \(q(pair.actual!)) \(q(pair.expected!))"]
        case .missingExpected:
            r.accept = ["cp \(q(pair.actual!)) \(q(SnapshotFileSystem.join(expected, pair.name)))"]
        case .missingActual:
            r.accept = ["rm \(q(pair.expected!))"]
        case .same, .unreadable:
            break
        }
        return r
    }

    func _compareOne(_ pair: (name: String, expected: String?, actual: String?),
                     tolerance: Tolerance) -> (CompareReport.Entry, (expected: PixelBuffer, actual: PixelBuffer)?) {
        guard let ePath = pair.expected else { return (.init(name: pair.name, status: .missingExpected, detail: "only in \(actual)"), nil) }
        guard let aPath = pair.actual else { return (.init(name: pair.name, status: .missingActual, detail: "only in \(expected)"), nil) }
        // Headers first: images of different sizes are reported without decoding either (a 4×4
        // reference against a 16384² frame must not cost a gigabyte).
        do {
            let ei = try PNG.info(contentsOf: ePath), ai = try PNG.info(contentsOf: aPath)
            if ei.width != ai.width || ei.height != ai.height {
                return (.init(name: pair.name, status: .sizeMismatch,
                              detail: "size mismatch: expected \(ei.width)×\(ei.height), actual \(ai.width)×\(ai.height) (\(ePath) vs \(aPath))"), nil)
            }
        } catch {
            return (.init(name: pair.name, status: .unreadable, detail: "cannot read \(error)"), nil)
        }
        let e: PixelBuffer, a: PixelBuffer
        do { e = try PNG.decode(contentsOf: ePath); a = try PNG.decode(contentsOf: aPath) } catch {
            return (.init(name: pair.name, status: .unreadable, detail: "cannot read \(error)"), nil)
        }
        let c: ImageComparison
        do { c = try ImageComparison.compare(a, to: e, tolerance: tolerance) } catch {
            return (.init(name: pair.name, status: .sizeMismatch, detail: "\(error) (\(ePath) vs \(aPath))"), nil)
        }
        var entry = CompareReport.Entry(name: pair.name, status: c.passes ? .same : .different, comparison: c)
        if let diff, !c.passes, let image = try? DiffImage.make(actual: a, expected: e, tolerance: tolerance) {
            var base = pair.name
            if base.hasSuffix(".png") { base.removeLast(4) }
            let path = SnapshotFileSystem.join(diff, base + ".diff.png")
            do { try PNG.write(image, to: path, options: .fast); entry.diffPath = path } catch {
                entry.detail = "cannot write diff: \(error)"
            }
        }
        return (entry, report == nil ? nil : (e, a))
    }
}

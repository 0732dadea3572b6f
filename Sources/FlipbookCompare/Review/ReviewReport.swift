import FlipbookPNG
import FlipbookPixels
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A folder holding a review page of image comparisons: `DIR/index.html`, one self-contained
/// static page (no network) listing every compared image with its verdict and numbers,
/// failures first, with side by side, heat map, swipe and onion-skin views, pixel zoom,
/// keyboard navigation, a failures-only filter and the command that accepts each change.
///
/// Written by `flipbook compare EXPECTED ACTUAL --report DIR` and by the `FlipbookTesting`
/// assertions when `FLIPBOOK_REPORT=DIR` is set; any other comparer can
/// ``add(_:updatingIndex:)`` entries too.
///
/// ## Layout
/// ```
/// DIR/index.html                          the page; its data is one JSON array inside it
/// DIR/entries/<key>.json                  one file per compared image (see Entry/key)
/// DIR/images/<key>.expected.png           the reference (also the actual when identical)
/// DIR/images/<key>.actual.png             the actual image, when it differs from the reference
/// DIR/images/<key>.heat.png               HeatMapImage of the two, when pixels changed
/// DIR/.lock                               serializes the rewrites of index.html
/// ```
///
/// ## Concurrency
/// Tests run in parallel, in threads and in processes, and all may add to one report. Each
/// entry is its own file, written to a temporary name and renamed into place, so entries never
/// collide and are never seen half-written. `index.html` is then rebuilt from *every* entry
/// file under an exclusive `flock` of `DIR/.lock` (taken on a fresh open file description,
/// so threads of one process exclude each other too) and renamed into place: whichever add
/// finishes last rebuilds the page from all entries, and a reader only ever sees a complete page.
/// Rebuilding reads all entry files, so adding `n` entries one at a time costs `O(n²)` small
/// reads (about 10 ms per add at 1,000 entries); `add(_:updatingIndex: false)` then
/// ``writeIndex()`` rebuilds once.
public struct ReviewReport: Sendable {
    /// The report folder.
    public let directory: String

    /// A report in `directory` (created on the first add).
    public init(directory: String) {
        self.directory = directory
    }

    /// `FLIPBOOK_REPORT`: the variable that makes `FlipbookTesting`'s assertions write a report.
    public static let environmentVariable = "FLIPBOOK_REPORT"

    /// The report named by `FLIPBOOK_REPORT`, or `nil` when it is unset or empty.
    public static func fromEnvironment(_ lookup: (String) -> String? = SnapshotFileSystem.environment) -> ReviewReport? {
        guard let dir = lookup(environmentVariable), !dir.isEmpty else { return nil }
        return ReviewReport(directory: dir)
    }

    /// `DIR/index.html`.
    public var indexPath: String { SnapshotFileSystem.join(directory, "index.html") }
    var entriesDirectory: String { SnapshotFileSystem.join(directory, "entries") }
    var imagesDirectory: String { SnapshotFileSystem.join(directory, "images") }

    /// Adds one entry (replacing an earlier one with the same ``Entry/key``) and, unless
    /// `updatingIndex` is false, rewrites the page.
    ///
    /// To add many entries at once without holding all their pixels, add each with
    /// `updatingIndex: false` and call ``writeIndex()`` at the end (as `flipbook compare` does).
    public func add(_ entry: Entry, updatingIndex: Bool = true) throws(SnapshotError) {
        try SnapshotFileSystem.makeDirectories(entriesDirectory)
        try SnapshotFileSystem.makeDirectories(imagesDirectory)
        try _write(entry)
        if updatingIndex { try writeIndex() }
    }

    /// Deletes the report's own files (`index.html`, `entries/*.json`, `images/*.png`), so the
    /// next add starts a fresh report; anything else in the folder is left alone.
    public func removeAll() throws(SnapshotError) {
        for (folder, suffix) in [(entriesDirectory, ".json"), (imagesDirectory, ".png")]
        where SnapshotFileSystem.kind(of: folder) == .directory {
            for name in try SnapshotFileSystem.fileNames(in: folder, suffix: suffix) {
                SnapshotFileSystem.removeFile(SnapshotFileSystem.join(folder, name))
            }
        }
        SnapshotFileSystem.removeFile(indexPath)
    }

    /// Rebuilds `index.html` from every entry file, under the lock.
    public func writeIndex() throws(SnapshotError) {
        try SnapshotFileSystem.makeDirectories(directory)
        let lockPath = SnapshotFileSystem.join(directory, ".lock")
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .io("cannot open \(lockPath): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw .io("cannot lock \(lockPath): \(String(cString: strerror(errno)))") }
        }
        var items: [String] = []
        if SnapshotFileSystem.kind(of: entriesDirectory) == .directory {
            for name in try SnapshotFileSystem.fileNames(in: entriesDirectory, suffix: ".json") {
                guard let bytes = try? PNG._readFile(SnapshotFileSystem.join(entriesDirectory, name), what: "an entry") else { continue }
                // Only our own objects; `<` cannot occur outside a JSON string, and inside one
                // `\u003c` means the same, so the array can never close the <script> element.
                guard bytes.first == UInt8(ascii: "{"), bytes.last == UInt8(ascii: "}") else { continue }
                items.append(String(decoding: bytes, as: UTF8.self).replacing("<", with: "\\u003c"))
            }
        }
        let html = ReviewPage.html(json: "[" + items.joined(separator: ",\n") + "]")
        try ReviewReport._writeAtomically(Array(html.utf8), to: indexPath)
    }

    /// Writes an entry's images and its JSON file.
    func _write(_ entry: Entry) throws(SnapshotError) {
        let key = entry.key
        func imagePath(_ kind: String) -> String { SnapshotFileSystem.join(imagesDirectory, "\(key).\(kind).png") }
        func relative(_ kind: String) -> String { "images/\(key).\(kind).png" }

        var expectedRef: String?, actualRef: String?, heatRef: String?
        var expectedSize: (Int, Int)?, actualSize: (Int, Int)?
        var written: Set<String> = []
        if let e = entry.expected {
            expectedSize = try _store(e, at: imagePath("expected"))
            expectedRef = relative("expected"); written.insert("expected")
        }
        let identical = entry.comparison?.isIdentical == true && entry.expected != nil
        if let a = entry.actual {
            if identical {
                actualRef = expectedRef; actualSize = expectedSize
            } else {
                actualSize = try _store(a, at: imagePath("actual"))
                actualRef = relative("actual"); written.insert("actual")
            }
        }
        if let c = entry.comparison, c.changedPixelCount > 0, let e = entry.expected, let a = entry.actual,
           let ep = try? _pixels(e), let ap = try? _pixels(a),
           let heat = try? HeatMapImage.make(actual: ap, expected: ep, tolerance: c.tolerance) {
            try _store(.pixels(heat), at: imagePath("heat"))
            heatRef = relative("heat"); written.insert("heat")
        }
        // An earlier entry with this key may have left images this one does not have.
        for kind in ["expected", "actual", "heat"] where !written.contains(kind) {
            SnapshotFileSystem.removeFile(imagePath(kind))
        }

        func string(_ s: String?) -> String { s.map(_reviewJSONString) ?? "null" }
        func size(_ s: (Int, Int)?) -> String { s.map { "[\($0.0),\($0.1)]" } ?? "null" }
        var f = ["\"key\":\(_reviewJSONString(key))", "\"name\":\(_reviewJSONString(entry.name))",
                 "\"group\":\(string(entry.group))", "\"status\":\"\(entry.status.rawValue)\"",
                 "\"passed\":\(entry.status.passed)"]
        if let c = entry.comparison {
            f += ["\"width\":\(c.width)", "\"height\":\(c.height)", "\"pixels\":\(c.pixelCount)",
                  "\"changed\":\(c.changedPixelCount)", "\"differing\":\(c.differingPixelCount)",
                  "\"allowed\":\(c.allowedDifferingPixels)", "\"maxDelta\":\(c.maxChannelDelta)",
                  "\"psnr\":\(_reviewJSONNumber(c.psnr))",
                  "\"maxDeltaE\":\(c.maxDeltaE.map(_reviewJSONNumber) ?? "null")",
                  "\"bounds\":\(c.differenceBounds.map { "[\($0.x),\($0.y),\($0.width),\($0.height)]" } ?? "null")",
                  "\"tolerance\":\(_reviewJSONString(entry.toleranceDescription ?? c.tolerance.description))"]
        }
        f += ["\"expected\":\(string(expectedRef))", "\"expectedSize\":\(size(expectedSize))",
              "\"actual\":\(string(actualRef))", "\"actualSize\":\(size(actualSize))",
              "\"heat\":\(string(heatRef))", "\"message\":\(string(entry.message))",
              "\"accept\":[\(entry.accept.map(_reviewJSONString).joined(separator: ","))]"]
        let json = "{" + f.joined(separator: ",") + "}"
        try ReviewReport._writeAtomically(Array(json.utf8), to: SnapshotFileSystem.join(entriesDirectory, "\(key).json"))
    }

    /// Writes an image into the report; returns its size.
    @discardableResult
    func _store(_ image: Entry.Image, at path: String) throws(SnapshotError) -> (Int, Int) {
        if let file = image.file {
            let bytes: [UInt8], info: PNGInfo
            do {
                bytes = try PNG._readFile(file)
                info = try PNG.info(bytes)
            } catch {
                throw .png("cannot read \(error)")
            }
            try ReviewReport._writeAtomically(bytes, to: path)
            return (info.width, info.height)
        }
        guard let pixels = image.pixels else { throw .io("an image of a review entry has neither pixels nor a file") }
        let bytes: [UInt8]
        do { bytes = try PNG.encode(pixels, options: .fast) } catch { throw .png("cannot encode \(path): \(error)") }
        try ReviewReport._writeAtomically(bytes, to: path)
        return (pixels.width, pixels.height)
    }

    /// An image's pixels (decoding its file when needed).
    func _pixels(_ image: Entry.Image) throws -> PixelBuffer {
        if let p = image.pixels { return p }
        return try PNG.decode(contentsOf: image.file ?? "")
    }

    /// Writes `bytes` to a temporary file beside `path` and renames it into place, so readers
    /// see the old file or the whole new one. No fsync: a report is rebuilt by the next run.
    static func _writeAtomically(_ bytes: [UInt8], to path: String) throws(SnapshotError) {
        let n = _tempCounter.add(1, ordering: .relaxed).newValue
        let temp = SnapshotFileSystem.join(SnapshotFileSystem.directory(of: path),
                                           ".\(SnapshotFileSystem.lastComponent(of: path)).tmp-\(getpid())-\(n)")
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .io("cannot create \(temp): \(String(cString: strerror(errno)))") }
        var offset = 0
        while offset < bytes.count {
            let w = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if w < 0 {
                if errno == EINTR { continue }
                let e = errno
                close(fd); unlink(temp)
                throw .io("cannot write \(path): \(String(cString: strerror(e)))")
            }
            offset += w
        }
        guard close(fd) == 0, rename(temp, path) == 0 else {
            let e = errno
            unlink(temp)
            throw .io("cannot write \(path): \(String(cString: strerror(e)))")
        }
    }

    /// Distinguishes temporary names of concurrent writes within one process.
    static let _tempCounter = Atomic<Int>(0)
}

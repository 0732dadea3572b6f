/// Where one snapshot's reference lives and where its failure artifacts go.
///
/// ## Layout
/// - Reference: `<folder of the test file>/__Snapshots__/<TestFile>/<test>.<name>.png`, e.g.
///   `Tests/AppTests/__Snapshots__/ButtonTests/pressedState.highlight.png` for
///   `@Test func pressedState()` in `ButtonTests.swift` with `named: "highlight"`.
/// - Failures: `<failures root>/<TestFile>/<test>.<name>.{actual,diff,expected}.png`, where the
///   root is `FLIPBOOK_FAILURES_DIR` when set, else `.build/flipbook-failures` in the package
///   holding the test file (the nearest folder above it with a `Package.swift`), else
///   `/tmp/flipbook-failures`. `.build` is already ignored by git and easy to upload from CI.
///
/// Test names drop their argument list (`pressedState()` → `pressedState`); names keep
/// `A–Z a–z 0–9 . _ -` and turn anything else into `-`, so a name is always one safe file name.
public struct SnapshotLocation: Sendable, Hashable {
    /// The reference PNG.
    public var referencePath: String
    /// Folder for the actual/diff/expected PNGs written on failure.
    public var failureDirectory: String
    /// `<test>.<name>`: the base file name shared by the reference and the artifacts.
    public var baseName: String

    public init(referencePath: String, failureDirectory: String, baseName: String) {
        self.referencePath = referencePath
        self.failureDirectory = failureDirectory
        self.baseName = baseName
    }

    /// The location for snapshot `name` of test `testName` (usually `#function`) in the test
    /// file at `filePath` (usually `#filePath`).
    public static func forTest(filePath: String, testName: String, name: String,
                               failuresRoot: String? = nil) -> SnapshotLocation {
        let folder = SnapshotFileSystem.directory(of: filePath)
        var file = SnapshotFileSystem.lastComponent(of: filePath)
        if file.hasSuffix(".swift") { file.removeLast(6) }
        let test = sanitize(String(testName.prefix { $0 != "(" }))
        let base = "\(test).\(sanitize(name))"
        let reference = SnapshotFileSystem.join(folder, "__Snapshots__/\(file)/\(base).png")
        let root = failuresRoot ?? defaultFailuresRoot(near: folder)
        return SnapshotLocation(referencePath: reference,
                                failureDirectory: SnapshotFileSystem.join(root, file), baseName: base)
    }

    /// Path of a failure artifact: `kind` is `actual`, `diff` or `expected`.
    public func artifactPath(_ kind: String) -> String {
        SnapshotFileSystem.join(failureDirectory, "\(baseName).\(kind).png")
    }

    /// `FLIPBOOK_FAILURES_DIR`, else `<package>/.build/flipbook-failures`, else `/tmp/flipbook-failures`.
    public static func defaultFailuresRoot(near folder: String) -> String {
        if let env = SnapshotFileSystem.environment("FLIPBOOK_FAILURES_DIR"), !env.isEmpty { return env }
        var dir = folder
        while !dir.isEmpty {
            if SnapshotFileSystem.kind(of: SnapshotFileSystem.join(dir, "Package.swift")) == .file {
                return SnapshotFileSystem.join(dir, ".build/flipbook-failures")
            }
            let parent = SnapshotFileSystem.directory(of: dir)
            if parent == dir || parent == "." { break }
            dir = parent
        }
        let tmp = SnapshotFileSystem.environment("TMPDIR").flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        return SnapshotFileSystem.join(tmp, "flipbook-failures")
    }

    /// Keeps `A–Z a–z 0–9 . _ -`; anything else becomes `-`. Empty becomes `_`.
    public static func sanitize(_ s: String) -> String {
        let out = String(s.unicodeScalars.map { c -> Character in
            switch c {
            case "A"..."Z", "a"..."z", "0"..."9", ".", "_", "-": return Character(c)
            default: return "-"
            }
        })
        return out.isEmpty ? "_" : out
    }
}

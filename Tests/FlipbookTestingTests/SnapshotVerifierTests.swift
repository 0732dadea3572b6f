import Glibc
import Testing
import FlipbookPNG
@testable import FlipbookTesting
@testable import FlipbookCompare
import FlipbookPixels
import FlipbookTestSupport

@Suite struct SnapshotVerifierTests {
    /// A fresh empty folder for each test (one suite instance per test), removed after it.
    let folder = TemporaryDirectory(prefix: "flipbook-testing-")
    var root: String { folder.path }
    var location: SnapshotLocation {
        SnapshotLocation.forTest(filePath: "\(root)/Tests/AppTests/ButtonTests.swift", testName: "pressed()",
                                 name: "highlight", failuresRoot: "\(root)/failures")
    }

    @Test func locationLayout() {
        #expect(location.referencePath == "\(root)/Tests/AppTests/__Snapshots__/ButtonTests/pressed.highlight.png")
        #expect(location.artifactPath("diff") == "\(root)/failures/ButtonTests/pressed.highlight.diff.png")
        #expect(SnapshotLocation.sanitize("a/b c:d") == "a-b-c-d")
    }

    @Test func missingModeRecordsThenMatches() throws {
        let image = TestImages.gradient()
        let first = SnapshotVerifier(recordMode: .missing).verify(image, at: location)
        guard case .recorded(let path, nil) = first else { Issue.record("expected recorded, got \(first)"); return }
        #expect(first.isFailure)
        #expect(first.message!.contains("Recorded a new reference: \(path)"))
        #expect(try PNG.decode(contentsOf: path) == image)
        let second = SnapshotVerifier(recordMode: .missing).verify(image, at: location)
        #expect(!second.isFailure && second.message == nil)
    }

    @Test func neverModeFailsOnMissingReferenceAndWritesNothing() {
        let outcome = SnapshotVerifier(recordMode: .never).verify(TestImages.gradient(), at: location)
        guard case .missingReference(_, .never) = outcome else { Issue.record("got \(outcome)"); return }
        #expect(SnapshotFileSystem.kind(of: location.referencePath) == .missing)
        #expect(outcome.message!.contains("No reference image at \(location.referencePath)"))
    }

    @Test func allModeRewritesOnlyChangedReferences() throws {
        let image = TestImages.gradient()
        _ = SnapshotVerifier(recordMode: .missing).verify(image, at: location)
        let same = SnapshotVerifier(recordMode: .all).verify(image, at: location)
        #expect(!same.isFailure)
        let changed = TestImages.nudged(image, x: 1, y: 1, red: 1)
        let outcome = SnapshotVerifier(recordMode: .all).verify(changed, at: location, tolerance: .perChannel(5))
        guard case .recorded(_, let previous?) = outcome else { Issue.record("got \(outcome)"); return }
        #expect(previous.maxChannelDelta == 1)
        #expect(try PNG.decode(contentsOf: location.referencePath) == changed)
    }

    @Test func onePixelChangeFailsWithNumbersAndWritesArtifacts() throws {
        let image = TestImages.gradient()
        _ = SnapshotVerifier(recordMode: .missing).verify(image, at: location)
        let actual = TestImages.nudged(image, x: 3, y: 5, red: 7)
        let outcome = SnapshotVerifier(recordMode: .never).verify(actual, at: location)
        guard case .different(let c, _, let artifacts) = outcome else { Issue.record("got \(outcome)"); return }
        #expect(c.maxChannelDelta == 7 && c.differingPixelCount == 1)
        let message = try #require(outcome.message)
        #expect(message.contains("max channel Δ 7, 1 of 64 pixels differ (1.563%; allowed 0), PSNR 55.31 dB"))
        #expect(message.contains("diff: \(location.artifactPath("diff"))"))
        #expect(artifacts.count == 3)
        #expect(try PNG.decode(contentsOf: location.artifactPath("actual")) == actual)
        #expect(try PNG.decode(contentsOf: location.artifactPath("expected")) == image)
        let diff = try PNG.decode(contentsOf: location.artifactPath("diff"))
        #expect(diff[3, 5] == RGBA8(r: 255, g: 0, b: UInt8(255 - 255 * 6 / 254), a: 255))
        // Within tolerance now: passes, and the stale artifacts are removed.
        #expect(!SnapshotVerifier(recordMode: .never).verify(actual, at: location, tolerance: .perChannel(7)).isFailure)
        #expect(SnapshotFileSystem.kind(of: location.artifactPath("diff")) == .missing)
    }

    @Test func sizeMismatchIsNamed() {
        _ = SnapshotVerifier(recordMode: .missing).verify(TestImages.gradient(), at: location)
        let outcome = SnapshotVerifier(recordMode: .never).verify(TestImages.gradient(width: 9), at: location)
        #expect(outcome.message!.contains("size mismatch: expected 8×8, actual 9×8"))
    }

    @Test func corruptReferenceIsAnError() throws {
        try SnapshotFileSystem.makeDirectories(SnapshotFileSystem.directory(of: location.referencePath))
        let fd = open(location.referencePath, O_WRONLY | O_CREAT, 0o644); close(fd)
        let outcome = SnapshotVerifier(recordMode: .never).verify(TestImages.gradient(), at: location)
        guard case .error = outcome else { Issue.record("got \(outcome)"); return }
        #expect(outcome.message!.contains(location.referencePath))
    }

    @Test func sequenceReportsEveryDifferingFrameInOneMessage() {
        let a = TestImages.gradient(), b = TestImages.nudged(a, x: 0, y: 0, red: 3)
        let root = self.root
        let loc: (String) -> SnapshotLocation = { name in
            SnapshotLocation.forTest(filePath: "\(root)/T.swift", testName: "anim()", name: name, failuresRoot: "\(root)/f")
        }
        let verifier = SnapshotVerifier(recordMode: .missing)
        _ = verifier.verify(frames: [("t0", a), ("t1", a), ("t2", a)], location: loc)
        let results = SnapshotVerifier(recordMode: .never).verify(frames: [("t0", a), ("t1", b), ("t2", b)], location: loc)
        let message = SnapshotOutcome.combinedMessage(results)!
        #expect(message.hasPrefix("2 of 3 frames differ: t1, t2\n"))
        #expect(message.contains("• t1:") && message.contains("• t2:") && !message.contains("• t0:"))
        #expect(SnapshotOutcome.combinedMessage(Array(results.prefix(1))) == nil)
    }

    @Test func recordModeFromEnvironment() throws {
        func mode(_ env: [String: String]) throws -> SnapshotRecordMode {
            try SnapshotRecordMode.fromEnvironment { env[$0] }
        }
        #expect(try mode([:]) == .missing)
        #expect(try mode(["CI": "true"]) == .never)
        #expect(try mode(["CI": "false"]) == .missing)
        #expect(try mode(["CI": "true", "FLIPBOOK_RECORD": "ALL"]) == .all)
        #expect(try mode(["FLIPBOOK_RECORD": "never"]) == .never)
        #expect(throws: SnapshotError.badRecordMode("yes")) { try mode(["FLIPBOOK_RECORD": "yes"]) }
    }

    /// `fileNames(in:)` of a folder of 2,000 short names (the C library's `readdir` buffer full
    /// several times): every `.png` listed, in byte order. Copying each entry's 256-byte
    /// `d_name` read past that buffer — a heap-buffer-overflow under `make test-asan`.
    @Test func fileNamesOfAFolderThatFillsTheReadBuffer() throws {
        let names = (0..<2000).map { "f\($0).png" }
        for n in names { close(open("\(root)/\(n)", O_WRONLY | O_CREAT, 0o644)) }
        close(open("\(root)/notes.txt", O_WRONLY | O_CREAT, 0o644))
        #expect(try SnapshotFileSystem.fileNames(in: root, suffix: ".png") == names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    }
}

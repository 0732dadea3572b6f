#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import FlipbookTestSupport

@Suite struct TemporaryDirectoryTests {
    static func exists(_ path: String) -> Bool {
        var st = stat()
        return lstat(path, &st) == 0
    }

    static func touch(_ path: String) { close(open(path, O_WRONLY | O_CREAT, 0o644)) }

    @Test func isNewEmptyPrivateAndRemovedWithItsContents() throws {
        var path = ""
        do {
            let dir = TemporaryDirectory(prefix: "flipbook-support-")
            path = dir.path
            #expect(path.hasPrefix("/") && path.split(separator: "/").last!.hasPrefix("flipbook-support-"))
            #expect(dir.entries == [])
            var st = stat()
            #expect(stat(path, &st) == 0 && st.st_mode & 0o777 == 0o700)
            #expect(mkdir(dir.file("sub"), 0o755) == 0)
            Self.touch(dir.file("sub/f.png"))
            Self.touch(dir.file(".hidden"))
            #expect(dir.entries == [".hidden", "sub"])
            #expect(TemporaryDirectory(prefix: "flipbook-support-").path != path)  // a fresh one each time
            withExtendedLifetime(dir) {}
        }
        #expect(!Self.exists(path))
    }

    @Test func withTemporaryDirectoryRemovesItAfterTheBody() throws {
        struct Failure: Error {}
        let path = withTemporaryDirectory { dir in
            Self.touch(dir.file("a"))
            return dir.path
        }
        #expect(!Self.exists(path))
        var thrownPath = ""
        #expect(throws: Failure.self) {
            try withTemporaryDirectory { dir in thrownPath = dir.path; throw Failure() }
        }
        #expect(!thrownPath.isEmpty && !Self.exists(thrownPath))
    }

    /// A folder of 2,000 short names fills the C library's `readdir` buffer (32 KiB) several
    /// times, so some entries are the last, short records of a full buffer. Reading each name
    /// by copying the 256-byte `d_name` field read past that buffer: a heap-buffer-overflow
    /// under `make test-asan` (docs/sanitizers.md). Every name must be listed, and nothing else.
    @Test func listsAFolderThatFillsTheReadBufferExactly() throws {
        let dir = TemporaryDirectory(prefix: "flipbook-support-")
        let names = (0..<2000).map { "f\($0)" }
        for n in names { Self.touch(dir.file(n)) }
        #expect(dir.entries == names.sorted())
        let path = dir.path
        TemporaryDirectory.removeTree(path)
        #expect(!Self.exists(path))
    }

    // Moved with `removeTree` from FlipbookCompare (it was `SnapshotFileSystem.removeTree`).
    @Test func removeTreeDeletesNestedFoldersButNotSymlinkTargets() throws {
        let root = TemporaryDirectory(prefix: "flipbook-testing-")
        let outside = root.file("outside.txt"), tree = root.file("tree")
        #expect(mkdir(tree, 0o755) == 0 && mkdir("\(tree)/a", 0o755) == 0 && mkdir("\(tree)/a/b", 0o755) == 0)
        Self.touch(outside)
        Self.touch("\(tree)/a/b/f.png")
        #expect(symlink(outside, "\(tree)/a/link") == 0)
        TemporaryDirectory.removeTree(tree)
        #expect(!Self.exists(tree))
        #expect(Self.exists(outside))
        TemporaryDirectory.removeTree(root.file("does-not-exist"))   // fine
        #expect(root.path.split(separator: "/").last!.hasPrefix("flipbook-testing-"))
    }
}

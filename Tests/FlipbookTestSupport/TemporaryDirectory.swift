#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A new empty folder for one test, `$TMPDIR/<prefix>XXXXXX` (or under `/tmp`), made with
/// `mkdtemp` (mode 0700, a name no other process can take) and removed with everything in it
/// when the last reference goes away.
///
/// Keep it alive for as long as the folder is used: as a stored property of the suite (Swift
/// Testing makes one suite instance per test, so each test gets its own folder), or through
/// ``withTemporaryDirectory(prefix:_:)``. A local `let dir = TemporaryDirectory()` whose last use
/// is `dir.path` may be released — and the folder removed — right after that use.
public final class TemporaryDirectory: Sendable {
    /// The folder's absolute path, without a trailing slash.
    public let path: String

    /// Makes the folder; stops the test process when `mkdtemp` fails (a broken machine, not a
    /// test failure).
    public init(prefix: String = "flipbook-test-") {
        let tmp = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        let template = (tmp.hasSuffix("/") ? tmp : tmp + "/") + prefix + "XXXXXX"
        var bytes = Array(template.utf8CString)
        guard let made = bytes.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            preconditionFailure("cannot create a temporary folder \(template): \(String(cString: strerror(errno)))")
        }
        path = String(cString: made)
    }

    deinit { Self.removeTree(path) }

    /// The path of `name` inside the folder (`name` may contain `/`).
    public func file(_ name: String) -> String { path + "/" + name }

    /// The names of the folder's entries (hidden ones too), sorted: the check that nothing leaked.
    public var entries: [String] { Self.names(in: path).sorted() }

    /// `rm -rf path`: deletes a file, or a folder and everything under it. Symbolic links are
    /// removed, never followed. A missing path is fine; entries that cannot be removed are left
    /// (this is cleanup, it never fails).
    public static func removeTree(_ path: String) {
        var st = stat()
        guard lstat(path, &st) == 0 else { return }
        guard st.st_mode & S_IFMT == S_IFDIR else { unlink(path); return }
        for name in names(in: path) { removeTree(path + "/" + name) }
        rmdir(path)
    }

    /// The entries of a folder, without `.` and `..`; empty when it cannot be read.
    static func names(in path: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = direntName(entry)
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The name of a `readdir` entry, read in place up to its zero (copying the 256-byte
    /// `d_name` reads past the end of the C library's buffer for its last short records: an
    /// AddressSanitizer heap-buffer-overflow, docs/sanitizers.md).
    static func direntName(_ entry: UnsafeMutablePointer<dirent>) -> String {
        let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        return String(cString: (UnsafeRawPointer(entry) + offset).assumingMemoryBound(to: CChar.self))
    }
}

/// Runs `body` with a fresh ``TemporaryDirectory`` that is removed when `body` returns or throws.
public func withTemporaryDirectory<Result>(
    prefix: String = "flipbook-test-", _ body: (TemporaryDirectory) throws -> Result
) rethrows -> Result {
    let directory = TemporaryDirectory(prefix: prefix)
    return try withExtendedLifetime(directory) { try body(directory) }
}

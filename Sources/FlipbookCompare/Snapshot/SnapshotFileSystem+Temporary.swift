#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Temporary folders for tests of snapshot code and `flipbook compare`: made with `mkdtemp`,
/// removed with ``SnapshotFileSystem/removeTree(_:)`` when the test ends.
extension SnapshotFileSystem {
    /// A new empty folder `$TMPDIR/<prefix>XXXXXX` (or under `/tmp`), mode 0700.
    ///
    /// - Throws: ``SnapshotError/io(_:)`` naming the template when `mkdtemp` fails.
    public static func makeTemporaryDirectory(prefix: String) throws(SnapshotError) -> String {
        let tmp = environment("TMPDIR").flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        let path = join(tmp, "\(prefix)XXXXXX")
        var template = Array(path.utf8CString)
        guard let p = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw .io("cannot create a temporary folder \(path): \(String(cString: strerror(errno)))")
        }
        return String(cString: p)
    }

    /// `rm -rf path`: deletes a file, or a folder and everything under it. Symbolic links are
    /// removed, never followed. A missing path is fine; entries that cannot be removed are left
    /// (this is cleanup, it never throws).
    public static func removeTree(_ path: String) {
        var st = stat()
        guard lstat(path, &st) == 0 else { return }
        guard st.st_mode & S_IFMT == S_IFDIR else { unlink(path); return }
        if let dir = opendir(path) {
            var names: [String] = []
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name != "." && name != ".." { names.append(name) }
            }
            closedir(dir)
            for name in names { removeTree(join(path, name)) }
        }
        rmdir(path)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The few file-system operations snapshots and `flipbook compare` need, without Foundation.
public enum SnapshotFileSystem {
    /// What is at a path.
    public enum Kind: Sendable, Equatable { case missing, file, directory, other }

    /// What is at `path` (following symbolic links).
    public static func kind(of path: String) -> Kind {
        var st = stat()
        guard stat(path, &st) == 0 else { return .missing }
        switch st.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .directory
        default: return .other
        }
    }

    /// `mkdir -p`: creates `path` and its missing parents (mode 0755). Concurrent creation of
    /// the same folder by parallel tests is fine (an existing folder is success).
    public static func makeDirectories(_ path: String) throws(SnapshotError) {
        if kind(of: path) == .directory { return }
        var prefix = path.hasPrefix("/") ? "/" : ""
        for part in path.split(separator: "/") {
            prefix += part
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
                throw .io("cannot create folder \(prefix): \(String(cString: strerror(errno)))")
            }
            prefix += "/"
        }
        guard kind(of: path) == .directory else { throw .io("\(path) exists and is not a folder") }
    }

    /// The names of the regular files in folder `path` ending in `suffix`, sorted by byte order.
    public static func fileNames(in path: String, suffix: String = "") throws(SnapshotError) -> [String] {
        guard let dir = opendir(path) else {
            throw .io("cannot read folder \(path): \(String(cString: strerror(errno)))")
        }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = direntName(entry)
            if name.hasPrefix(".") || !name.hasSuffix(suffix) { continue }
            if kind(of: join(path, name)) == .file { names.append(name) }
        }
        return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// Deletes a file if it exists.
    public static func removeFile(_ path: String) { unlink(path) }

    /// `a/b` from `a` and `b` (no doubled slash).
    public static func join(_ a: String, _ b: String) -> String {
        a.isEmpty ? b : (a.hasSuffix("/") ? a + b : a + "/" + b)
    }

    /// The folder part of a path (`"."` for a bare name).
    public static func directory(of path: String) -> String {
        guard let i = path.lastIndex(of: "/") else { return "." }
        return i == path.startIndex ? "/" : String(path[..<i])
    }

    /// The last component of a path.
    public static func lastComponent(of path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// An environment variable, or `nil`.
    public static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}

/// Why a snapshot could not be verified (as opposed to: it was verified and differs).
public enum SnapshotError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A file or folder operation failed.
    case io(String)
    /// A PNG could not be read or written.
    case png(String)
    /// `FLIPBOOK_RECORD` holds an unknown value.
    case badRecordMode(String)
    /// Rendering the layer failed.
    case render(String)

    public var description: String {
        switch self {
        case .io(let m), .png(let m), .render(let m): return m
        case .badRecordMode(let v):
            return "FLIPBOOK_RECORD=\(v) is not a record mode; use missing, all or never"
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// File input and the atomic file output of ``PNG``.
extension PNG {
    /// The largest PNG file read (1 GiB): far above any image within `PixelBuffer.maximumDimension`
    /// that a PNG encoder produces, and a bound on the memory one file can take before decoding.
    public static let maximumFileSize = 1 << 30

    /// Distinguishes temporary names of concurrent writes within one process.
    static let _tempCounter = Atomic<Int>(0)

    /// The whole file at `path`.
    ///
    /// Only regular files are read. The file is opened with `O_NONBLOCK` and checked before
    /// any read, so a FIFO, a socket or a device (`/dev/zero`) is refused at once instead of
    /// blocking until a writer appears or reading forever. FlipbookRender's `ImageDecoder`
    /// reads PNG and JPEG files through it (`what` names the kind of file in messages).
    package static func _readFile(_ path: String, what: String = "a PNG") throws(PNGError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            let code = errno
            throw PNGError(kind: code == ENOENT ? .fileNotFound : .readFailed,
                           message: code == ENOENT ? "no such file" : "cannot open: \(_strerror(code))", path: path)
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw PNGError(kind: .readFailed, message: "cannot stat: \(_strerror(errno))", path: path) }
        guard (st.st_mode & S_IFMT) == S_IFREG else {
            throw PNGError(kind: .readFailed, message: "not a regular file (\(_fileKind(st.st_mode)))", path: path)
        }
        guard st.st_size <= maximumFileSize else {
            throw PNGError(kind: .tooLarge, message: "the file is \(st.st_size) bytes, above the limit of \(maximumFileSize) bytes (1 GiB) for \(what)", path: path)
        }
        // Regular files never block; reads proceed normally without the flag.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: max(1 << 16, min(Int(st.st_size) + 1, 1 << 26)))
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw PNGError(kind: .readFailed, message: "read error: \(_strerror(errno))", path: path)
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return bytes
    }

    /// What a non-regular file is, for messages.
    static func _fileKind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO"
        case S_IFSOCK: return "a socket"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        default: return "not a file"
        }
    }

    /// Writes `bytes` to `path` through a temporary file in the same folder:
    /// `open(O_EXCL)` → write all → `fsync` → `close` → `rename` → `fsync(folder)`.
    /// Any failure before the rename unlinks the temporary, so `path` is either the old file,
    /// absent, or the complete new file: never a truncated one.
    static func _writeFileAtomically(_ bytes: [UInt8], to path: String) throws(PNGError) {
        guard !path.isEmpty, !path.hasSuffix("/") else {
            throw PNGError(kind: .writeFailed, message: "not a file path", path: path)
        }
        let (folder, name) = _split(path)
        let n = _tempCounter.add(1, ordering: .relaxed).newValue
        let temp = (folder.map { $0 + "/" } ?? "") + ".\(name).tmp-\(getpid())-\(n)"

        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            let code = errno
            let why = code == ENOENT ? "the folder \(folder ?? ".") does not exist" : "cannot create a file in \(folder ?? "."): \(_strerror(code))"
            throw PNGError(kind: .writeFailed, message: why, path: path)
        }
        func fail(_ what: String, _ code: Int32, closing: Bool) -> PNGError {
            if closing { close(fd) }
            unlink(temp)
            return PNGError(kind: .writeFailed, message: "\(what): \(_strerror(code))", path: path)
        }
        var offset = 0
        while offset < bytes.count {
            let w = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if w < 0 {
                if errno == EINTR { continue }
                throw fail("write error", errno, closing: true)
            }
            offset += w
        }
        guard fsync(fd) == 0 else { throw fail("fsync failed", errno, closing: true) }
        guard close(fd) == 0 else { throw fail("close failed", errno, closing: false) }
        guard rename(temp, path) == 0 else { throw fail("cannot rename into place", errno, closing: false) }
        // Make the rename itself durable (best effort: some file systems refuse fsync on folders).
        let dfd = open(folder ?? ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dfd >= 0 { _ = fsync(dfd); close(dfd) }
    }

    /// `("a/b", "c.png")` for `"a/b/c.png"`, `(nil, "c.png")` for `"c.png"`, `("", "x")` for `"/x"`.
    static func _split(_ path: String) -> (folder: String?, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (nil, path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }

    static func _strerror(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}

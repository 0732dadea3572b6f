#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization
import Foundation

/// An output file written through a temporary in the same folder and renamed into place on
/// ``commit()``: readers never see a partial file, and ``discard()`` leaves nothing behind.
/// Also wraps a plain descriptor (stdout) with the same `write` error handling.
/// `@unchecked Sendable`: a file has one owner at a time (a sink keeps it behind its lock).
final class _SinkFile: @unchecked Sendable {
    /// Distinguishes temporaries of one process.
    static let counter = Atomic<Int>(0)

    let path: String
    let temp: String?
    private(set) var fd: Int32
    private var closed = false

    /// Creates `.<name>.partial-<machine>-<pid>-<n>` next to `path` (`<machine>`: ``machineTag``).
    init(atomicPath path: String) throws(FrameSinkError) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) }
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard !name.isEmpty else { throw .cannotCreate(path: path, reason: "not a file path") }
        let n = Self.counter.add(1, ordering: .relaxed).newValue
        let temp = (folder.map { ($0.isEmpty ? "" : $0) + "/" } ?? "") + ".\(name).partial-\(Self.machineTag)-\(getpid())-\(n)"
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            let code = errno
            let why = code == ENOENT ? "the folder \(folder ?? ".") does not exist" : Self.reason(code)
            throw .cannotCreate(path: path, reason: why)
        }
        self.path = path; self.temp = temp; self.fd = fd
    }

    /// Wraps an open descriptor (not closed by ``commit()``; `path` names it in errors).
    init(descriptor: Int32, name: String) {
        path = name; temp = nil; fd = descriptor
    }

    static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// This machine and PID namespace, as 8 hex digits (FNV-1a of the host name and the inode
    /// of `/proc/self/ns/pid`): a PID means something only where it was taken, so temporaries
    /// of other machines or containers sharing the folder are never judged by `kill(pid, 0)`.
    static let machineTag: String = {
        var name = [CChar](repeating: 0, count: 256)
        _ = gethostname(&name, name.count)
        var st = stat()
        let ns = stat("/proc/self/ns/pid", &st) == 0 ? UInt64(st.st_ino) : 0
        var h: UInt32 = 2_166_136_261
        for b in name.prefix(while: { $0 != 0 }).map({ UInt8(bitPattern: $0) }) + Array("#\(ns)".utf8) {
            h = (h ^ UInt32(b)) &* 16_777_619
        }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }()

    /// Temporaries of another machine (or container) are removed only when this old: no frame
    /// takes an hour to write, so such a file belongs to a worker that died.
    static let foreignStaleAge: TimeInterval = 3600

    /// Removes the temporaries of `path` that a process which no longer exists left next to it:
    /// entries named `.<name>.partial-<machine>-<pid>-<n>` of this machine whose `<pid>` is not
    /// a live process (`kill(pid, 0)` fails with `ESRCH`), and those of another machine or
    /// container (a shared volume: Kubernetes, AWS Batch on EFS, Slurm) once they are an hour
    /// old. A run killed by SIGKILL (or a power cut) leaves them; temporaries of a live process
    /// — another shard writing into the same folder — are kept. Names without `<machine>`
    /// (older versions) count as this machine's. Returns how many were removed.
    @discardableResult
    static func removeStalePartials(of path: String) -> Int {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        return removeStalePartials(in: folder.isEmpty ? "/" : folder, only: name)
    }

    /// See ``removeStalePartials(of:)``: every stale temporary in `folder` (or of `only`).
    @discardableResult
    static func removeStalePartials(in folder: String, only name: String? = nil) -> Int {
        guard let dir = opendir(folder.isEmpty ? "." : folder) else { return 0 }
        defer { closedir(dir) }
        var removed = 0
        while let entry = readdir(dir) {
            let file = direntName(entry)
            guard file.hasPrefix("."), let mark = file.range(of: ".partial-", options: .backwards) else { continue }
            if let name, file[file.index(after: file.startIndex)..<mark.lowerBound] != name { continue }
            let tail = file[mark.upperBound...].split(separator: "-")
            let full = (folder.isEmpty ? "" : folder + "/") + file
            let machine = tail.count == 3 ? String(tail[0]) : machineTag
            guard tail.count == 2 || tail.count == 3, let pid = Int32(tail[tail.count - 2]), pid > 0,
                  UInt64(tail[tail.count - 1]) != nil else { continue }
            if machine != machineTag {
                var st = stat()
                guard stat(full, &st) == 0, Date().timeIntervalSince1970 - Double(st.st_mtim.tv_sec) > foreignStaleAge else { continue }
            } else {
                guard pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            }
            if unlink(full) == 0 { removed += 1 }
        }
        return removed
    }

    func error(_ code: Int32) -> FrameSinkError {
        code == ENOSPC || code == EDQUOT ? .diskFull(path: path) : .writeFailed(path: path, reason: Self.reason(code))
    }

    /// Writes every byte (retrying short writes and `EINTR`).
    func write(_ raw: UnsafeRawBufferPointer) throws(FrameSinkError) {
        var offset = 0
        while offset < raw.count {
            let w = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
            if w < 0 {
                if errno == EINTR { continue }
                throw error(errno)
            }
            offset += w
        }
    }

    func write(_ bytes: [UInt8]) throws(FrameSinkError) {
        let r: Result<Void, FrameSinkError> = bytes.withUnsafeBytes { raw in
            do throws(FrameSinkError) { try write(raw); return .success(()) } catch { return .failure(error) }
        }
        try r.get()
    }

    /// (fsync when `sync`), close, rename into place (temporary files); nothing for a wrapped
    /// descriptor. Without `sync` the rename still guarantees that no process ever sees a partial
    /// file; only a power loss could leave an empty or short one, which resume checks catch.
    func commit(sync: Bool = true) throws(FrameSinkError) {
        guard let temp, !closed else { return }
        closed = true
        if sync, fsync(fd) != 0, errno != EINVAL { let e = errno; close(fd); unlink(temp); throw error(e) }
        if close(fd) != 0 { let e = errno; unlink(temp); throw error(e) }
        if rename(temp, path) != 0 { let e = errno; unlink(temp); throw .writeFailed(path: path, reason: "cannot rename into place: \(Self.reason(e))") }
    }

    /// Closes and deletes the temporary (no-op after ``commit()``).
    func discard() {
        guard let temp, !closed else { return }
        closed = true
        close(fd)
        unlink(temp)
    }
}

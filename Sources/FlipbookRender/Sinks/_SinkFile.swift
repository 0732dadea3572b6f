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

    /// Creates `.<name>.partial-<pid>-<n>` next to `path`.
    init(atomicPath path: String) throws(FrameSinkError) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) }
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard !name.isEmpty else { throw .cannotCreate(path: path, reason: "not a file path") }
        let n = Self.counter.add(1, ordering: .relaxed).newValue
        let temp = (folder.map { ($0.isEmpty ? "" : $0) + "/" } ?? "") + ".\(name).partial-\(getpid())-\(n)"
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

    /// Removes the temporaries of `path` that a process which no longer exists left next to it:
    /// entries named `.<name>.partial-<pid>-<n>` whose `<pid>` is not a
    /// live process (`kill(pid, 0)` fails with `ESRCH`). A run killed by SIGKILL (or a power
    /// cut) leaves them; temporaries of a live process — another shard writing into the same
    /// folder — are kept. Returns how many were removed.
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
            let file = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            guard file.hasPrefix("."), let mark = file.range(of: ".partial-", options: .backwards) else { continue }
            if let name, file[file.index(after: file.startIndex)..<mark.lowerBound] != name { continue }
            let tail = file[mark.upperBound...].split(separator: "-")
            guard tail.count == 2, let pid = Int32(tail[0]), pid > 0, UInt64(tail[1]) != nil,
                  pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            if unlink((folder.isEmpty ? "" : folder + "/") + file) == 0 { removed += 1 }
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

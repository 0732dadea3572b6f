#if canImport(Glibc)
import Glibc
#endif
import Foundation
import CFlipbookSystem

/// A child process whose standard input is a pipe we write to and whose standard output and
/// error go to a temporary file we read back on failure (a file, not a pipe: a chatty child can
/// never block on a full stderr pipe, and no reader thread is needed).
/// `@unchecked Sendable`: owned by one sink, used under its lock.
final class _Subprocess: @unchecked Sendable {
    let name: String
    let pid: pid_t
    private(set) var stdinFD: Int32
    private let logPath: String
    private var reaped: Int32?

    /// The first executable file called `name` in the colon-separated `searchPath`.
    static func find(_ name: String, in searchPath: String) -> String? {
        for dir in searchPath.split(separator: ":", omittingEmptySubsequences: true) {
            let candidate = "\(dir)/\(name)"
            var st = stat()
            if stat(candidate, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// The first regular file called `name` in `searchPath` that is not executable (for the
    /// message when no executable one exists).
    static func findNonExecutable(_ name: String, in searchPath: String) -> String? {
        for dir in searchPath.split(separator: ":", omittingEmptySubsequences: true) {
            let candidate = "\(dir)/\(name)"
            var st = stat()
            if stat(candidate, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, access(candidate, X_OK) != 0 { return candidate }
        }
        return nil
    }

    /// Starts `executable` with `arguments` (argv[0] is `name`).
    init(name: String, executable: String, arguments: [String]) throws(FrameSinkError) {
        self.name = name
        var template = Array("/tmp/flipbook-\(name)-XXXXXX.log".utf8CString)
        let logFD = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 4) }
        // Close-on-exec: the log must not leak into programs other threads start at the same time
        // (the child gets it through the dup2 actions below, which clear the flag).
        if logFD >= 0 { _ = fcntl(logFD, F_SETFD, FD_CLOEXEC) }
        guard logFD >= 0 else { throw .programFailed(name: name, status: "cannot create a log file: \(_SinkFile.reason(errno))", stderr: "") }
        logPath = String(cString: template)
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0, fcntl(fds[0], F_SETFD, FD_CLOEXEC) == 0, fcntl(fds[1], F_SETFD, FD_CLOEXEC) == 0 else {
            close(logFD); unlink(template)
            throw .programFailed(name: name, status: "cannot create a pipe: \(_SinkFile.reason(errno))", stderr: "")
        }
        let argv = ([name] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        // fork + exec through the C shim, so the child dies with us (PR_SET_PDEATHSIG): a
        // render killed by SIGKILL leaves no ffmpeg running on.
        // ETXTBSY: the executable is still open for writing somewhere — typically a file descriptor
        // inherited by a child that another thread forked while the file was being written. It
        // clears as soon as that child execs, so retry briefly (as Go's os/exec does).
        var err: Int32 = 0
        var child = fbk_spawn_tied(executable, argv, environ, fds[0], logFD, &err)
        var retries = 0
        while child < 0 && err == ETXTBSY && retries < 100 {
            usleep(10_000)
            retries += 1
            child = fbk_spawn_tied(executable, argv, environ, fds[0], logFD, &err)
        }
        let rc: Int32 = child < 0 ? err : 0
        close(fds[0]); close(logFD)
        guard rc == 0, child > 0 else {
            close(fds[1]); unlink(logPath)
            throw .programFailed(name: name, status: "cannot start \(executable): \(_SinkFile.reason(rc))", stderr: "")
        }
        pid = child
        stdinFD = fds[1]
    }

    /// Closes the child's stdin (end of input) and waits for it; returns the exit description
    /// (`nil` for exit status 0).
    func wait() -> String? {
        closeInput()
        if reaped == nil {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            reaped = status
        }
        let s = reaped!
        let termSig = s & 0x7F
        if termSig == 0 { let code = (s >> 8) & 0xFF; return code == 0 ? nil : "exit status \(code)" }
        return "killed by signal \(termSig)"
    }

    func closeInput() {
        if stdinFD >= 0 { close(stdinFD); stdinFD = -1 }
    }

    /// Stops the child at once (SIGKILL: its output is being thrown away, so it need not flush
    /// — SIGTERM let ffmpeg finish encoding what it had, seconds after a Ctrl-C) and reaps it.
    func terminate() {
        closeInput()
        if reaped == nil { kill(pid, SIGKILL); _ = wait() }
    }

    /// The last `limit` bytes the child printed (stdout and stderr), trimmed.
    func output(limit: Int = 4000) -> String {
        guard let f = fopen(logPath, "r") else { return "" }
        defer { fclose(f) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&chunk, 1, chunk.count, f)
            if n <= 0 { break }
            bytes += chunk[0..<n]
            if bytes.count > 4 * limit { bytes.removeFirst(bytes.count - limit) }
        }
        let text = String(decoding: bytes.suffix(limit), as: UTF8.self)
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Removes the log file.
    func cleanUp() { unlink(logPath) }
}

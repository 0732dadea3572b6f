#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writing diagnostics and progress to the standard streams without ever dying of it.
///
/// `FileHandle.write(_:)` traps when the write fails, so a full disk behind `2>/dev/full`, a
/// closed descriptor (`2>&-`) or a reader that went away (`| head -1`) would kill a render in
/// the middle of a frame. These writes go through `write(2)` and report failure instead: a
/// diagnostic that cannot be delivered is dropped, never fatal. (A closed pipe raises SIGPIPE,
/// which kills a process by default: the command-line tool ignores SIGPIPE at startup, so the
/// write returns `EPIPE` here instead.)
package enum StandardStreams {
    /// Writes all of `text` to descriptor `fd` (retrying on `EINTR` and short writes); returns
    /// false, having written what it could, when the descriptor refuses (closed, full, `EPIPE`).
    @discardableResult
    package static func write(_ text: String, to fd: Int32) -> Bool {
        var text = text
        return text.withUTF8 { buf in
            guard var p = buf.baseAddress else { return true }
            var left = buf.count
            while left > 0 {
                let n = Glibc.write(fd, p, left)
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                p += n
                left -= n
            }
            return true
        }
    }

    /// A diagnostic on standard error (dropped if it cannot be written).
    package static func error(_ text: String) { write(text, to: 2) }
}

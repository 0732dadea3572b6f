#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The name of a `readdir` entry, read in place up to its terminating zero.
///
/// Never copy `entry.pointee` or its `d_name` field: the C library packs a folder's entries into
/// one buffer, each record only as long as its name (glibc rounds `d_reclen` to 8 bytes), so the
/// 256 bytes of `d_name` run past the end of the buffer for a record near its end — a heap
/// over-read that AddressSanitizer reports (`make test-asan`, docs/sanitizers.md) and that a
/// folder of a few thousand short names provokes.
func direntName(_ entry: UnsafeMutablePointer<dirent>) -> String {
    let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
    return String(cString: (UnsafeRawPointer(entry) + offset).assumingMemoryBound(to: CChar.self))
}

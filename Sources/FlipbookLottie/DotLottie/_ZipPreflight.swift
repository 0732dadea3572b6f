import Foundation

/// Checks a zip archive held in memory before ZIPFoundation reads it: every record it will
/// seek to must lie inside the bytes.
///
/// ZIPFoundation's in-memory archives (`Archive(data:accessMode:)`) trap when a seek goes past
/// the end of the data (its memory file computes a negative length), and a damaged or hostile
/// archive's offsets point anywhere — the `lottie` fuzz target found it with a central
/// directory offset past the end. So the structure is walked here first, as ZIPFoundation
/// will walk it, and refused with the first record that does not fit:
///
/// - the end-of-central-directory record: the last `PK\5\6` signature with its 22 bytes and
///   its comment inside the data (ZIPFoundation scans backwards from the end the same way);
/// - no ZIP64 (a dotLottie is far below 4 GiB; a ZIP64 locator or a 0xFFFF/0xFFFFFFFF field
///   is refused rather than followed);
/// - the central directory (offset + size) before the end record, each of its entries — at
///   most `maximumEntries` are walked — inside it with its signature, name, extra and comment;
/// - each entry's local header (30 bytes + name + extra), its data (compressed size) and,
///   when flagged, its 16-byte data descriptor, inside the data.
///
/// Archives read from a file do not need it (seeking past a file's end is harmless there).
enum _ZipPreflight {
    /// The first problem, as a phrase naming the record and its byte offset, or nil when every
    /// record lies inside `data`.
    static func problem(in data: Data, maximumEntries: Int) -> String? {
        data.withUnsafeBytes { raw -> String? in
            let b = raw.bindMemory(to: UInt8.self)
            let n = UInt64(b.count)
            func u16(_ at: UInt64) -> UInt64 { UInt64(b[Int(at)]) | UInt64(b[Int(at) + 1]) << 8 }
            func u32(_ at: UInt64) -> UInt64 { u16(at) | u16(at + 2) << 16 }
            guard n >= 22 else { return "the archive is shorter than a zip end record (22 bytes)" }
            // The end record: the last signature from the end with room for its 22 bytes.
            var eocd: UInt64? = nil
            var p = n - 22
            while true {
                if u32(p) == 0x0605_4B50 { eocd = p; break }
                if p == 0 { break }
                p -= 1
            }
            guard let end = eocd else { return "no zip end-of-central-directory record" }
            // Its comment must fit too: ZIPFoundation reads it, and a failing read there leaves
            // its memory file open (and leaked) when the archive refuses to open.
            guard end + 22 + u16(end + 20) <= n else {
                return "the end record's comment (\(u16(end + 20)) bytes at byte \(end + 22)) runs past the end of the archive"
            }
            if end >= 20, u32(end - 20) == 0x0706_4B50 { return "a ZIP64 archive (not used by dotLottie files)" }
            let count = u16(end + 10), size = u32(end + 12), start = u32(end + 16)
            if count == 0xFFFF || size == 0xFFFF_FFFF || start == 0xFFFF_FFFF {
                return "a ZIP64 archive (not used by dotLottie files)"
            }
            guard start + size <= end else {
                return "the central directory (\(size) bytes at byte \(start)) does not end before the end record at byte \(end)"
            }
            var at = start
            for i in 0..<min(count, UInt64(maximumEntries) + 1) {
                guard at + 46 <= start + size, u32(at) == 0x0201_4B50 else {
                    return "central directory entry \(i + 1) at byte \(at) is not inside the directory"
                }
                let flags = u16(at + 8), method = u16(at + 10), compressed = u32(at + 20), uncompressed = u32(at + 24)
                let name = u16(at + 28), extra = u16(at + 30), comment = u16(at + 32), local = u32(at + 42)
                // (An uncompressed size of 0xFFFFFFFF is left to the size bounds, which refuse it.)
                if compressed == 0xFFFF_FFFF || local == 0xFFFF_FFFF {
                    return "central directory entry \(i + 1) is a ZIP64 entry (not used by dotLottie files)"
                }
                guard at + 46 + name + extra + comment <= start + size else {
                    return "central directory entry \(i + 1) at byte \(at) runs past the directory"
                }
                guard local + 30 <= n, u32(local) == 0x0403_4B50 else {
                    return "the local header of entry \(i + 1) (byte \(local)) is not inside the archive"
                }
                // The data, and the data descriptor where flagged: ZIPFoundation seeks to it past
                // the compressed size, or past the uncompressed size of a stored entry.
                let data = local + 30 + u16(local + 26) + u16(local + 28)
                let descriptor = flags & 8 != 0 ? data + (method != 0 ? compressed : uncompressed) + 16 : 0
                guard data + compressed <= n, descriptor <= n else {
                    return "the data of entry \(i + 1) (from byte \(local)) runs past the end of the archive"
                }
                at += 46 + name + extra + comment
            }
            return nil
        }
    }
}

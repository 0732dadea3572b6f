import Foundation
import ZIPFoundation

/// A dotLottie's zip archive, read entry by entry within the size bounds (zip bombs):
/// an entry's uncompressed size, as declared in the archive and as actually inflated, may not
/// pass ``LottieLimits/maximumEntryBytes`` (extraction stops at the bound), and the entries
/// read from one archive may not pass ``LottieLimits/maximumArchiveBytes`` in total; an
/// archive may have at most ``LottieLimits/maximumArchiveEntries`` entries.
final class _DotLottieArchive {
    let file: String
    let limits: LottieLimits
    private let archive: Archive
    /// Entries by path, without a leading `./` or `/`.
    private var entries: [String: Entry] = [:]
    /// Uncompressed bytes read so far.
    private(set) var bytesRead = 0

    /// Lists the archive's files: at most ``LottieLimits/maximumArchiveEntries`` entries (of
    /// any type) are looked at; an archive with more is refused (the central directory is
    /// read lazily, so nothing past the bound is read).
    init(archive: Archive, file: String, limits: LottieLimits) throws(LottieError) {
        self.archive = archive; self.file = file; self.limits = limits
        var count = 0
        for e in archive {
            count += 1
            guard count <= limits.maximumArchiveEntries else {
                throw LottieError(kind: .tooLarge, file: file, line: nil, path: "",
                                  message: "the archive has more than \(limits.maximumArchiveEntries) entries; the limit is \(limits.maximumArchiveEntries)")
            }
            guard e.type == .file else { continue }
            let key = _DotLottieArchive.normalized(e.path)
            if entries[key] == nil { entries[key] = e }
        }
    }

    static func normalized(_ path: String) -> String {
        var p = Substring(path)
        while p.hasPrefix("./") || p.hasPrefix("/") { p = p.hasPrefix("/") ? p.dropFirst() : p.dropFirst(2) }
        return String(p)
    }

    func contains(_ path: String) -> Bool { entries[_DotLottieArchive.normalized(path)] != nil }

    /// The paths of the archive's files.
    var paths: [String] { entries.keys.sorted() }

    /// The bytes of the entry `path`, or nil when the archive has no such file. `json`: the
    /// entry is a JSON document (manifest, animation), bounded by ``LottieLimits/maximumJSONBytes``.
    func data(_ path: String, json: Bool = false) throws(LottieError) -> Data? {
        guard let entry = entries[_DotLottieArchive.normalized(path)] else { return nil }
        let name = entry.path
        let entryLimit = json ? min(limits.maximumJSONBytes, limits.maximumEntryBytes) : limits.maximumEntryBytes
        let totalLimit = limits.maximumArchiveBytes
        let declared = entry.uncompressedSize
        guard declared <= UInt64(entryLimit) else {
            throw tooLarge(name, "the entry is \(Self.size(declared)) uncompressed; the limit is \(Self.size(UInt64(entryLimit)))")
        }
        guard UInt64(bytesRead) + declared <= UInt64(totalLimit) else {
            throw tooLarge(name, "reading the entry (\(Self.size(declared))) would bring the archive's uncompressed entries past \(Self.size(UInt64(totalLimit)))")
        }
        struct Overflow: Error {}
        var data = Data()
        data.reserveCapacity(Int(declared))
        let budget = min(entryLimit, totalLimit - bytesRead)
        let checksum: CRC32
        do {
            checksum = try archive.extract(entry) { chunk in
                guard data.count + chunk.count <= budget else { throw Overflow() }
                data.append(chunk)
            }
        } catch is Overflow {
            throw tooLarge(name, "the entry inflates past \(Self.size(UInt64(budget))) (it declares \(Self.size(declared))); extraction stopped there")
        } catch {
            throw LottieError(kind: .unreadable, file: file, line: nil, path: name, message: "cannot extract the entry: \(error)")
        }
        bytesRead += data.count
        guard checksum == entry.checksum else {
            throw LottieError(kind: .unreadable, file: file, line: nil, path: name, message: "the entry is corrupt (CRC-32 mismatch)")
        }
        return data
    }

    /// The first of `candidates` the archive has, read.
    func imageData(candidates: [String]) throws(LottieError) -> Data? {
        for c in candidates where contains(c) { return try data(c) }
        return nil
    }

    private func tooLarge(_ entry: String, _ message: String) -> LottieError {
        LottieError(kind: .tooLarge, file: file, line: nil, path: entry, message: message)
    }

    /// `300 MiB`, `1.5 MiB`, `4096 bytes`.
    static func size(_ bytes: UInt64) -> String {
        guard bytes >= 1 << 20 else { return "\(bytes) bytes" }
        let m = Double(bytes) / 1_048_576
        return m >= 10 || m.rounded() == m ? "\(Int(m.rounded())) MiB" : String(format: "%.1f MiB", m)
    }
}

import Foundation

/// Joining YUV4MPEG2 segments (`flipbook merge` of `.y4m` parts): a stream is one header line
/// and frames (`FRAME…\n` + the planes), with no frame count anywhere, so the merged stream is the
/// first segment's header followed by every segment's frames — byte-identical to a Y4M rendered
/// by one process. No ffmpeg involved (its concat demuxer cannot copy raw video into Y4M).
enum Y4MJoin {
    struct Failure: Error, CustomStringConvertible { var description: String }

    /// The header line (newline included) and the byte size of one frame's planes.
    static func header(_ bytes: [UInt8]) -> Result<(line: [UInt8], frameBytes: Int), Failure> {
        guard bytes.starts(with: Array("YUV4MPEG2 ".utf8)), let nl = bytes.prefix(1024).firstIndex(of: 0x0A) else {
            return .failure(Failure(description: "not a YUV4MPEG2 stream (no YUV4MPEG2 header line)"))
        }
        let line = Array(bytes[...nl])
        var w = 0, h = 0, chroma = "420jpeg"
        for token in String(decoding: bytes[..<nl], as: UTF8.self).split(separator: " ").dropFirst() {
            switch token.first {
            case "W": w = Int(token.dropFirst()) ?? 0
            case "H": h = Int(token.dropFirst()) ?? 0
            case "C": chroma = String(token.dropFirst())
            default: break
            }
        }
        guard w > 0, h > 0, w <= 1 << 20, h <= 1 << 20 else { return .failure(Failure(description: "the header has no valid W and H")) }
        let planes: Int
        switch chroma {
        case "444": planes = 3 * w * h
        case let c where c.hasPrefix("420"): planes = w * h + 2 * ((w + 1) / 2) * ((h + 1) / 2)
        default: return .failure(Failure(description: "chroma C\(chroma) is not one Flipbook writes (C420jpeg, C444)"))
        }
        return .success((line, planes))
    }

    /// Reads a file in chunks (1 MiB): a merge holds one chunk, not the segments (a 10-minute
    /// 1080p Y4M is ~56 GB).
    struct Reader {
        let handle: FileHandle
        var buffer: [UInt8] = []
        var at = 0
        var eof = false

        /// Makes at least `n` bytes available after `at` if the file has them.
        mutating func fill(_ n: Int) throws {
            while buffer.count - at < n, !eof {
                if at > 0 { buffer.removeFirst(at); at = 0 }
                let chunk = try handle.read(upToCount: max(1 << 20, n)) ?? Data()
                if chunk.isEmpty { eof = true } else { buffer.append(contentsOf: chunk) }
            }
        }

        var available: Int { buffer.count - at }

        /// The next line (newline included) if one starts here within `limit` bytes.
        mutating func line(limit: Int) throws -> [UInt8]? {
            try fill(limit)
            guard let nl = buffer[at..<min(buffer.count, at + limit)].firstIndex(of: 0x0A) else { return nil }
            defer { at = nl + 1 }
            return Array(buffer[at...nl])
        }

        /// Copies the next `n` bytes to `out` (false: the file ends first).
        mutating func copy(_ n: Int, to out: FileHandle) throws -> Bool {
            var left = n
            while left > 0 {
                try fill(1)
                guard available > 0 else { return false }
                let k = min(left, available)
                try out.write(contentsOf: buffer[at..<(at + k)])
                at += k; left -= k
            }
            return true
        }
    }

    /// Joins `segments` (in order) into `output` atomically, streaming (memory does not grow
    /// with the segments); returns the frame count. Each segment is checked as it is copied:
    /// the same header line as the first, then whole frames to its end — a damaged or truncated
    /// one fails the merge and the temporary is removed.
    static func join(_ segments: [String], into output: String) -> Result<Int, CLIFailure> {
        let folder = output.lastIndex(of: "/").map { String(output[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
        let name = output.split(separator: "/").last.map(String.init) ?? output
        let temp = folder + "/.\(name).partial-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        guard FileManager.default.createFile(atPath: temp, contents: nil), let out = FileHandle(forWritingAtPath: temp) else {
            return .failure(CLIFailure(message: "\(output): cannot write in \(folder)", exitCode: 3))
        }
        func fail(_ f: CLIFailure) -> Result<Int, CLIFailure> { try? out.close(); unlink(temp); return .failure(f) }
        var header: [UInt8]?
        var total = 0
        for s in segments {
            guard let handle = FileHandle(forReadingAtPath: s) else { return fail(CLIFailure(message: "\(s): cannot read", exitCode: 1)) }
            defer { try? handle.close() }
            var r = Reader(handle: handle)
            do {
                try r.fill(1024)
                let head = Array(r.buffer[r.at..<min(r.buffer.count, r.at + 1024)])
                let h: (line: [UInt8], frameBytes: Int)
                switch self.header(head) {
                case .failure(let f): return fail(CLIFailure(message: "\(s): \(f)", exitCode: 1))
                case .success(let v): h = v
                }
                if let header, header != h.line {
                    return fail(CLIFailure(message: "\(s): its header (\(String(decoding: h.line.dropLast(), as: UTF8.self))) differs from the first segment's "
                                           + "(\(String(decoding: header.dropLast(), as: UTF8.self))): not parts of one recording", exitCode: 1))
                }
                if header == nil { try out.write(contentsOf: h.line) }
                header = h.line
                r.at += h.line.count
                var n = 0
                while true {
                    try r.fill(1)
                    if r.available == 0 { break }
                    guard let frameLine = try r.line(limit: 1024), frameLine.starts(with: Array("FRAME".utf8)) else {
                        return fail(CLIFailure(message: "\(s): damaged stream: no FRAME marker after frame \(n)", exitCode: 1))
                    }
                    try out.write(contentsOf: frameLine)
                    guard try r.copy(h.frameBytes, to: out) else {
                        return fail(CLIFailure(message: "\(s): truncated: frame \(n) ends past the end of the file", exitCode: 1))
                    }
                    n += 1
                }
                total += n
            } catch {
                return fail(CLIFailure(message: "\(s) → \(output): \((error as NSError).localizedDescription)", exitCode: 3))
            }
        }
        do { try out.close() } catch {
            unlink(temp)
            return .failure(CLIFailure(message: "\(output): cannot write (\((error as NSError).localizedDescription))", exitCode: 3))
        }
        guard rename(temp, output) == 0 else {
            let m = String(cString: strerror(errno)); unlink(temp)
            return .failure(CLIFailure(message: "\(output): cannot write (\(m))", exitCode: 3))
        }
        return .success(total)
    }
}

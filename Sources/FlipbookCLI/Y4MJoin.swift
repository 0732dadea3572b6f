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

    /// The frames of a stream: each one's byte range (from `FRAME` to the end of its planes).
    /// A stream that does not end exactly after a frame is damaged (truncated).
    static func frames(_ bytes: [UInt8], headerLength: Int, frameBytes: Int) -> Result<[Range<Int>], Failure> {
        var out: [Range<Int>] = []
        var at = headerLength
        let marker = Array("FRAME".utf8)
        while at < bytes.count {
            guard bytes[at...].starts(with: marker), let nl = bytes[at...].prefix(1024).firstIndex(of: 0x0A) else {
                return .failure(Failure(description: "damaged stream: no FRAME marker at byte \(at)"))
            }
            let end = nl + 1 + frameBytes
            guard end <= bytes.count else { return .failure(Failure(description: "truncated: frame \(out.count) ends past the end of the file")) }
            out.append(at..<end)
            at = end
        }
        return .success(out)
    }

    /// Joins `segments` (in order) into `output` atomically; returns the frame count.
    static func join(_ segments: [String], into output: String) -> Result<Int, CLIFailure> {
        var header: [UInt8]?
        var payload: [[UInt8]] = []
        var total = 0
        for s in segments {
            guard let data = FileManager.default.contents(atPath: s) else { return .failure(CLIFailure(message: "\(s): cannot read", exitCode: 1)) }
            let bytes = [UInt8](data)
            let h: (line: [UInt8], frameBytes: Int)
            switch self.header(bytes) {
            case .failure(let f): return .failure(CLIFailure(message: "\(s): \(f)", exitCode: 1))
            case .success(let v): h = v
            }
            if let header, header != h.line {
                return .failure(CLIFailure(message: "\(s): its header (\(String(decoding: h.line.dropLast(), as: UTF8.self))) differs from the first segment's "
                                           + "(\(String(decoding: header.dropLast(), as: UTF8.self))): not parts of one recording", exitCode: 1))
            }
            header = h.line
            switch frames(bytes, headerLength: h.line.count, frameBytes: h.frameBytes) {
            case .failure(let f): return .failure(CLIFailure(message: "\(s): \(f)", exitCode: 1))
            case .success(let r): total += r.count
            }
            payload.append(Array(bytes[h.line.count...]))
        }
        let folder = output.lastIndex(of: "/").map { String(output[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
        let name = output.split(separator: "/").last.map(String.init) ?? output
        let temp = folder + "/.\(name).partial-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        guard FileManager.default.createFile(atPath: temp, contents: nil), let handle = FileHandle(forWritingAtPath: temp) else {
            return .failure(CLIFailure(message: "\(output): cannot write in \(folder)", exitCode: 3))
        }
        do {
            try handle.write(contentsOf: header ?? [])
            for p in payload { try handle.write(contentsOf: p) }
            try handle.close()
        } catch {
            try? handle.close(); unlink(temp)
            return .failure(CLIFailure(message: "\(output): cannot write (\((error as NSError).localizedDescription))", exitCode: 3))
        }
        guard rename(temp, output) == 0 else {
            let m = String(cString: strerror(errno)); unlink(temp)
            return .failure(CLIFailure(message: "\(output): cannot write (\(m))", exitCode: 3))
        }
        return .success(total)
    }
}

import ArgumentParser
import Foundation

/// `flipbook merge SEGMENTS… -o OUT`: joins the video segments of a sharded render into one
/// file **without re-encoding**, with ffmpeg's concat demuxer (`-f concat -c copy`).
///
/// Each segment of `render --shard I/N -o film.mp4` (`film.part-000I-of-000N.mp4`) is a separate
/// encode, so it starts with a keyframe (an IDR frame for H.264/H.265; x264 and x265 make
/// closed GOPs by default) and needs nothing from the segment before it: the streams can be
/// concatenated packet for packet. The frame count is checked with ffprobe: the merged file
/// must have exactly the sum of the segments' frames, else it is removed and the merge fails.
///
/// - Segments named `NAME.part-I-of-N.EXT` are put in index order, and all N must be there once;
///   other names are joined in the order given.
/// - All segments and the output have one container: `.mp4`, `.mov` or `.webm` — or `.y4m`,
///   joined without ffmpeg (``Y4MJoin``: the first header, then every segment's frames).
/// - The output is written to a temporary name and renamed when the count is right.
///
/// Exit codes: 0 merged; 1 bad input (a segment missing, unreadable or of another kind, parts
/// missing or twice); 2 usage; 3 output failed (ffmpeg/ffprobe missing, ffmpeg failed, wrong
/// frame count, cannot write).
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Join the video segments of a sharded render (.mp4, .mov, .webm, .y4m) without re-encoding.",
        discussion: """
          flipbook render scene.json -o film.mp4 --shard 0/4      (… one per shard: film.part-0000-of-0004.mp4 …)
          flipbook merge film.part-*.mp4 -o film.mp4
        Exit codes: 0 merged, 1 bad input, 2 usage, 3 output failed.
        """
    )

    @Argument(help: "The segments (NAME.part-I-of-N.EXT are ordered by I).")
    var segments: [String]

    @Option(name: .shortAndLong, help: "The merged file (.mp4, .mov, .webm or .y4m: the segments' container).")
    var output: String

    func run() throws {
        let code = execute(RenderIO.standard)
        if code != 0 { throw ExitCode(code) }
    }

    static let containers: Set<String> = ["mp4", "mov", "webm", "y4m"]

    /// `(index, count)` of a `NAME.part-I-of-N.EXT` file name, else `nil`.
    static func partNumber(_ path: String) -> (index: Int, count: Int)? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let r = name.range(of: ".part-", options: .backwards) else { return nil }
        let rest = name[r.upperBound...]
        let fields = rest.split(separator: ".", maxSplits: 1)
        let nums = fields.first?.components(separatedBy: "-of-") ?? []
        // A part index within 0..<N and N ≤ 100,000 (a crafted name such as `x.part-0-of--1.mp4`
        // is not a part name, and cannot make the merge loop over billions of parts).
        guard nums.count == 2, let i = Int(nums[0]), let n = Int(nums[1]), n >= 1, n <= 100_000, i >= 0, i < n else { return nil }
        return (i, n)
    }

    /// Runs the merge; returns the exit code. All printing goes through `io`.
    func execute(_ io: RenderIO) -> Int32 {
        func fail(_ code: Int32, _ m: String) -> Int32 { io.err("flipbook merge: " + m + "\n"); return code }
        guard !segments.isEmpty else { return fail(2, "give the segments to join") }
        guard let ext = RenderFormat.fileExtension(of: output), Self.containers.contains(ext) else {
            return fail(2, "-o \(output): the merged file must be .mp4, .mov, .webm or .y4m")
        }
        for s in segments {
            guard RenderFormat.fileExtension(of: s) == ext else {
                return fail(2, "\(s): every segment must be a .\(ext) file like -o (concat without re-encoding keeps the container)")
            }
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: s, isDirectory: &isDir), !isDir.boolValue else {
                return fail(1, "\(s): no such segment")
            }
        }
        // Order: by part number when every name has one.
        var ordered = segments
        let parts = segments.map(Self.partNumber)
        if parts.allSatisfy({ $0 != nil }) {
            let counts = Set(parts.map { $0!.count })
            guard counts.count == 1, let n = counts.first else {
                return fail(1, "the segments come from splits into different numbers of parts (\(counts.sorted().map(String.init).joined(separator: ", ")))")
            }
            var byIndex: [Int: String] = [:]
            for (s, p) in zip(segments, parts) {
                if let other = byIndex[p!.index] { return fail(1, "part \(p!.index) of \(n) is given twice: \(other) and \(s)") }
                byIndex[p!.index] = s
            }
            let missing = (0..<n).filter { byIndex[$0] == nil }
            guard missing.isEmpty else {
                return fail(1, "\(missing.count) of \(n) parts are missing: \(missing.prefix(10).map(String.init).joined(separator: ", "))\(missing.count > 10 ? ", …" : "") (a shard has not finished)")
            }
            ordered = (0..<n).map { byIndex[$0]! }
        }
        // Y4M: headers and frames, joined here (byte-identical to one process's stream).
        if ext == "y4m" {
            switch Y4MJoin.join(ordered, into: output) {
            case .failure(let f): return fail(f.exitCode, f.message)
            case .success(let total):
                io.err("merged \(ordered.count) segment\(ordered.count == 1 ? "" : "s"), \(total) frames → \(output)\n")
                return 0
            }
        }
                guard let ffmpeg = Self.find("ffmpeg", io: io), let ffprobe = Self.find("ffprobe", io: io) else {
            return fail(3, "ffmpeg and ffprobe are needed on PATH to merge video; install ffmpeg")
        }
        // Frames per segment.
        var total = 0
        for s in ordered {
            switch Self.countFrames(s, ffprobe: ffprobe) {
            case .failure(let m): return fail(1, "\(s): \(m)")
            case .success(let n): total += n
            }
        }
        // The concat list (absolute paths, quoted for the demuxer).
        let folder = output.lastIndex(of: "/").map { String(output[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
        let name = output.split(separator: "/").last.map(String.init) ?? output
        let tag = "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let temp = folder + "/.\(name).partial-\(tag).\(ext)"
        let list = FileManager.default.temporaryDirectory.appendingPathComponent("flipbook-merge-\(tag).txt").path
        defer { unlink(list); unlink(temp) }
        let cwd = FileManager.default.currentDirectoryPath
        let lines = ordered.map { s -> String in
            let abs = s.hasPrefix("/") ? s : cwd + "/" + s
            return "file '" + abs.replacingOccurrences(of: "'", with: "'\\''") + "'\n"
        }
        do { try lines.joined().write(toFile: list, atomically: true, encoding: .utf8) } catch {
            return fail(3, "cannot write the concat list \(list)")
        }
        var args = ["-hide_banner", "-loglevel", "error", "-y", "-f", "concat", "-safe", "0", "-i", list,
                    "-map", "0:v", "-c", "copy"]
        if ext != "webm" { args += ["-movflags", "+faststart"] }
        args.append(temp)
        let r = Self.runProgram(ffmpeg, args)
        guard r.status == 0 else { return fail(3, "ffmpeg failed (exit \(r.status)) joining into \(output): \(r.stderr.prefix(2000))") }
        switch Self.countFrames(temp, ffprobe: ffprobe) {
        case .failure(let m): return fail(3, "the merged file cannot be read back: \(m)")
        case .success(let n):
            guard n == total else { return fail(3, "the merged file has \(n) frames, the segments \(total); nothing written") }
        }
        guard rename(temp, output) == 0 else { return fail(3, "\(output): cannot write (\(String(cString: strerror(errno))))") }
        io.err("merged \(ordered.count) segment\(ordered.count == 1 ? "" : "s"), \(total) frames → \(output)\n")
        return 0
    }

    /// The video stream's packets (one per frame for these codecs), by ffprobe.
    static func countFrames(_ path: String, ffprobe: String) -> Result<Int, MergeError> {
        let r = runProgram(ffprobe, ["-v", "error", "-select_streams", "v:0", "-count_packets",
                                     "-show_entries", "stream=nb_read_packets", "-of", "csv=p=0", path])
        let text = r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        guard r.status == 0, let n = Int(text.split(separator: "\n").first.map(String.init) ?? "") else {
            return .failure(MergeError(description: "not a video ffprobe can read\(r.stderr.isEmpty ? "" : ": " + r.stderr.prefix(500))"))
        }
        return .success(n)
    }

    struct MergeError: Error, CustomStringConvertible { var description: String }

    /// `name` on `io.searchPath` (else `PATH`), executable.
    static func find(_ name: String, io: RenderIO) -> String? {
        let search = io.searchPath ?? io.environment["PATH"] ?? ""
        for dir in search.split(separator: ":") {
            let p = dir + "/" + name
            if access(p, X_OK) == 0 { return String(p) }
        }
        return nil
    }

    /// Runs a program to the end; its output is collected (small: ffmpeg runs with -loglevel error).
    static func runProgram(_ exe: String, _ args: [String]) -> (status: Int32, stdout: String, stderr: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = args
        let out = Pipe(), err = Pipe()
        p.standardOutput = out; p.standardError = err
        p.standardInput = FileHandle.nullDevice
        do { try p.run() } catch { return (127, "", "cannot run \(exe): \(error)") }
        // Read both pipes to the end before waiting, so a full pipe cannot block the child.
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        group.enter()
        DispatchQueue.global().async { errData = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }
}

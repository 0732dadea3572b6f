import Testing
import Foundation
@testable import FlipbookCLI
import FlipbookTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Issue 19: one recording split across workers. The pieces in-process (SHA-256, shard specs,
/// ranges, names), then the acceptance tests with the built `flipbook` as N processes, each
/// with the variable its job system sets.
@Suite struct ScaleOutUnitTests {
    @Test func sha256KnownVectors() {
        #expect(SHA256.hash([UInt8]()).hex == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hash(Array("abc".utf8)).hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let two = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        #expect(SHA256.hash(two).hex == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        // Fed in uneven pieces: the same digest.
        var bytes: [UInt8] = []
        for i in 0..<1000 { bytes.append(UInt8(truncatingIfNeeded: i &* 7)) }
        var h = SHA256()
        var i = 0
        for step in [1, 63, 64, 65, 200, 7] { h.update(bytes[i..<min(bytes.count, i + step)]); i += step }
        h.update(bytes[i...])
        #expect(h.finalize() == SHA256.hash(bytes))
    }

    @Test func shardSpecs() throws {
        let none: [String: String] = [:]
        #expect(try ShardSpec.parse("2/8", shards: nil, environment: none).get() == ShardSpec(index: 2, count: 8, source: "--shard 2/8"))
        #expect(try ShardSpec.parse(nil, shards: nil, environment: none).get() == nil)
        for v in ShardSpec.indexVariables {
            let s = try ShardSpec.parse("auto", shards: 4, environment: [v: "3"]).get()
            #expect(s?.index == 3 && s?.count == 4)
        }
        // Slurm arrays may start at 1 (--array=1-4): SLURM_ARRAY_TASK_MIN is subtracted.
        #expect(try ShardSpec.parse("auto", shards: 4, environment: ["SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_MIN": "1"]).get()?.index == 3)
        func message(_ t: String?, _ n: Int?, _ env: [String: String] = [:]) -> String {
            if case .failure(let e) = ShardSpec.parse(t, shards: n, environment: env) { return e.description }
            return "(no error)"
        }
        #expect(message("auto", 4).contains("none of JOB_COMPLETION_INDEX, AWS_BATCH_JOB_ARRAY_INDEX, SLURM_ARRAY_TASK_ID is set"))
        #expect(message("auto", nil, ["JOB_COMPLETION_INDEX": "1"]).contains("--shard auto needs --shards N"))
        #expect(message("auto", 4, ["AWS_BATCH_JOB_ARRAY_INDEX": "-1"]).contains("AWS_BATCH_JOB_ARRAY_INDEX='-1' is not a task index"))
        #expect(message("auto", 4, ["JOB_COMPLETION_INDEX": "4"]).contains("gives shard 4, but --shards is 4"))
        #expect(message("4/4", nil).contains("the index must be 0...3"))
        #expect(message("1/0", nil).contains("the count must be"))
        #expect(message("a/b", nil).contains("--shard must be I/N"))
        #expect(message("1/4", 4).contains("--shards goes with --shard auto"))
        #expect(message(nil, 4).contains("--shards N goes with --shard auto"))
    }

    /// Contiguous, in order, covering every frame once, lengths within one frame of each other.
    @Test(arguments: [(0...9, 3), (5...5, 1), (0...99_999, 7), (10...12, 3), (0...1000, 1000)])
    func rangesPartitionTheFrames(_ frames: ClosedRange<Int>, _ n: Int) {
        let r = ShardSpec.ranges(of: frames, count: n)
        #expect(r.count == n)
        #expect(r.first?.lowerBound == frames.lowerBound && r.last?.upperBound == frames.upperBound)
        for (a, b) in zip(r, r.dropFirst()) { #expect(a.upperBound + 1 == b.lowerBound) }
        let lengths = r.map(\.count)
        #expect(lengths.max()! - lengths.min()! <= 1 && lengths.min()! >= 1)
    }

    /// Cost-balanced cuts: a cheap first half and an expensive second half give the first shard
    /// more frames; every shard keeps at least one frame; the ranges partition the recording.
    @Test func balancedRangesFollowTheCost() {
        let samples = (0..<100).map { (frame: $0, cost: $0 < 50 ? 1.0 : 3.0) }
        let r = ShardBalance.ranges(of: 0...99, count: 2, samples: samples)
        #expect(r == [0...66, 67...99])     // 50·1 + 17·3 = 101 ≈ half of 200
        // Every frame in one expensive spot: still N non-empty contiguous ranges.
        let spike = [(frame: 0, cost: 1.0), (frame: 5, cost: 1e9), (frame: 6, cost: 1.0)]
        let s = ShardBalance.ranges(of: 0...9, count: 4, samples: spike)
        #expect(s.count == 4 && s.first?.lowerBound == 0 && s.last?.upperBound == 9)
        for (a, b) in zip(s, s.dropFirst()) { #expect(a.upperBound + 1 == b.lowerBound && a.count >= 1 && b.count >= 1) }
        #expect(ShardBalance.sampleFrames(0...9) == Array(0...9))
        #expect(ShardBalance.sampleFrames(0...99_999).count == ShardBalance.maximumSamples)
    }

    @Test func segmentNames() {
        let s = ShardSpec(index: 3, count: 12, source: "")
        #expect(s.segmentPath("out/film.mp4") == "out/film.part-0003-of-0012.mp4")
        #expect(s.segmentPath("a.b/film") == "a.b/film.part-0003-of-0012")
        #expect(MergeCommand.partNumber("out/film.part-0003-of-0012.mp4")! == (3, 12))
        #expect(MergeCommand.partNumber("film.mp4") == nil)
        // Crafted names are not parts (no trap on a negative count, no loop over billions).
        #expect(MergeCommand.partNumber("x.part-0-of--1.mp4") == nil)
        #expect(MergeCommand.partNumber("x.part-5-of-3.mp4") == nil)
        #expect(MergeCommand.partNumber("x.part-0-of-99999999999.mp4") == nil)
        #expect(VerifyCommand.sampleFrames(first: 0, last: 99, k: 3) == [0, 49, 99])
        #expect(VerifyCommand.sampleFrames(first: 5, last: 7, k: 10) == [5, 6, 7])
        #expect(VerifyCommand.sampleFrames(first: 5, last: 7, k: 1) == [5])
    }
}

/// The acceptance tests of issue 19, with real processes.
@Suite(.serialized) struct ScaleOutProcessTests {
    let folder = TemporaryDirectory(prefix: "flipbook-scaleout-")
    static var executable: String { ProcessRobustnessTests.executable }
    static var demo: String { ProcessRobustnessTests.demo }

    /// Runs `flipbook args…` to the end with `environment` added to a minimal one (PATH kept,
    /// and the sanitizers' options of `make test-asan` / `make test-tsan`, so the child reads the
    /// same suppressions): exit status and standard error.
    @discardableResult
    static func run(_ args: [String], environment: [String: String] = [:]) throws -> (status: Int32, out: String, err: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = args
        let parent = ProcessInfo.processInfo.environment
        var env = ["PATH": parent["PATH"] ?? "/usr/bin:/bin"]
        for k in ["ASAN_OPTIONS", "LSAN_OPTIONS", "UBSAN_OPTIONS", "TSAN_OPTIONS"] { env[k] = parent[k] }
        for (k, v) in environment { env[k] = v }
        p.environment = env
        let errPath = NSTemporaryDirectory() + "/flipbook-scaleout-\(UUID().uuidString).log"
        FileManager.default.createFile(atPath: errPath, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: errPath) }
        let errFile = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        let out = Pipe()
        p.standardOutput = out; p.standardError = errFile; p.standardInput = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        try? errFile.close()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self), (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "")
    }

    func pngs(_ dir: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasSuffix(".png") }.sorted()
    }

    /// The shared options of every worker: a small, quick recording of the demo scene.
    static let recording = ["--size", "96x54", "--frames", "0..14", "--threads", "1", "-q"]

    /// A shard resumed after its scene changed refuses to keep the old scene's frames (they
    /// decode at the right size, so the resume check alone would certify them).
    @Test func resumeRefusesFramesOfAnotherScene() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.executable), "not built: \(Self.executable)")
        let scene = folder.file("s.json"), out = folder.file("out")
        func write(_ color: String) throws {
            try Data(#"{"output": {"size": "32x32", "duration": 0.1}, "layers": [{"frame": [4, 4, 16, 16], "backgroundColor": "\#(color)"}]}"#.utf8)
                .write(to: URL(fileURLWithPath: scene))
        }
        try write("#ff0000")
        #expect(try Self.run(["render", scene, "-o", out, "--shard", "0/1", "-q"]).status == 0)
        try write("#00ff00")
        let again = try Self.run(["render", scene, "-o", out, "--shard", "0/1", "--resume", "-q"])
        #expect(again.status == 1 && again.err.contains("holds frames from another scene"), "\(again.err)")
        // The same scene resumes (nothing to do).
        try write("#ff0000")
        #expect(try Self.run(["render", scene, "-o", out, "--shard", "0/1", "--resume", "-q"]).status == 0)
    }

    /// N = 3 workers as 3 processes, each with its task index in the variable its job system
    /// sets; then `verify --sample` and a byte comparison with one single-process render.
    @Test(arguments: ["JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX", "SLURM_ARRAY_TASK_ID"])
    func workersOfAJobArrayMatchOneProcess(_ variable: String) throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.executable), "not built: \(Self.executable)")
        let shards = folder.file("shards"), single = folder.file("single")
        // Slurm: an array numbered from 1 (--array=1-3), as many scripts do.
        let base = variable == "SLURM_ARRAY_TASK_ID" ? 1 : 0
        for task in 0..<3 {
            var env = [variable: String(task + base)]
            if base == 1 { env["SLURM_ARRAY_TASK_MIN"] = "1" }
            // The middle worker is a machine without AVX2: the portable kernels give the same bytes.
            if task == 1 { env["FLIPBOOK_SIMD"] = "portable" }
            let r = try Self.run(["render", Self.demo, "-o", shards, "--shard", "auto", "--shards", "3", "--resume"] + Self.recording, environment: env)
            #expect(r.status == 0, "\(r.err)")
        }
        let manifests = try FileManager.default.contentsOfDirectory(atPath: shards).filter(ShardManifest.isManifestName).sorted()
        #expect(manifests == ["flipbook-manifest-0-4.json", "flipbook-manifest-10-14.json", "flipbook-manifest-5-9.json"])
        let v = try Self.run(["verify", shards, "--sample", "2", "--scene", Self.demo])
        #expect(v.status == 0, "\(v.err)")
        #expect(v.out.contains("verified: frames 0..14 (15) each once in 3 manifests"), "\(v.out)")
        #expect(v.out.contains("2 frames re-rendered here"), "\(v.out)")

        let r = try Self.run(["render", Self.demo, "-o", single] + Self.recording)
        #expect(r.status == 0, "\(r.err)")
        #expect(pngs(shards) == pngs(single) && pngs(single).count == 15)
        for name in pngs(single) {
            #expect(FileManager.default.contents(atPath: shards + "/" + name) == FileManager.default.contents(atPath: single + "/" + name), "\(name)")
        }

        // The plan a driver would print agrees with what the workers did.
        let plan = try Self.run(["plan", Self.demo, "--shards", "3", "--json", "--size", "96x54", "--frames", "0..14"])
        #expect(plan.status == 0, "\(plan.err)")
        let decoded = try JSONDecoder().decode(PlanCommand.Output.self, from: Data(plan.out.utf8))
        #expect(decoded.shards.map { [$0.first, $0.last] } == [[0, 4], [5, 9], [10, 14]])
        let m = try ShardManifest.read(shards + "/flipbook-manifest-5-9.json").get()
        #expect(m.scene_hash == decoded.scene_hash && m.version == decoded.flipbook_version)
        #expect(m.shard == .init(index: 1, count: 3) && m.frames.map(\.frame) == Array(5...9))
        #expect(m.simd == "portable")
    }

    /// A worker killed mid-shard (SIGKILL: no clean-up at all) and run again, as a retry policy
    /// would: the set is complete, nothing lost, nothing twice, no temporaries, bytes as one process.
    @Test func killedWorkerRerunCompletesTheSet() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.executable), "not built: \(Self.executable)")
        let out = folder.file("frames")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let options = ["--size", "320x180", "--frames", "0..59", "--threads", "1", "-q"]
        func worker(_ i: Int) -> [String] { ["render", Self.demo, "-o", out, "--shard", "auto", "--shards", "2", "--resume"] + options }
        #expect(try Self.run(worker(0), environment: ["JOB_COMPLETION_INDEX": "0"]).status == 0)
        // Worker 1 starts; once its first frame is on disk it is killed outright.
        let pid = try ProcessRobustnessTests.spawn(worker(1), environment: [
            "JOB_COMPLETION_INDEX": "1", "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"])
        let deadline = Date().addingTimeInterval(60)
        while !pngs(out).contains(where: { ($0 >= "frame_00030.png") }) && Date() < deadline { usleep(5_000) }
        kill(pid, SIGKILL)
        #expect(ProcessRobustnessTests.wait(pid) == 1000 + SIGKILL)
        let afterKill = try FileManager.default.contentsOfDirectory(atPath: out)
        #expect(!afterKill.contains("flipbook-manifest-30-59.json"), "the worker finished before it was killed: \(afterKill.sorted())")
        // The set is incomplete, and verify says so (exit 1).
        let v1 = try Self.run(["verify", out])
        #expect(v1.status == 1 && v1.err.contains("have no manifest: 30..59"), "\(v1.err)")
        // The retry: the same command.
        let again = try Self.run(worker(1), environment: ["JOB_COMPLETION_INDEX": "1"])
        #expect(again.status == 0, "\(again.err)")
        let v2 = try Self.run(["verify", out, "--sample", "1", "--scene", Self.demo])
        #expect(v2.status == 0, "\(v2.err)")
        let names = try FileManager.default.contentsOfDirectory(atPath: out)
        #expect(!names.contains { $0.contains("partial") }, "\(names.sorted())")
        #expect(pngs(out).count == 60)
        // Byte-identical to one process (three frames around the kill and the ends).
        let single = folder.file("single")
        #expect(try Self.run(["render", Self.demo, "-o", single] + options).status == 0)
        for n in [0, 29, 30, 31, 45, 59] {
            let name = String(format: "frame_%05d.png", n)
            #expect(FileManager.default.contents(atPath: out + "/" + name) == FileManager.default.contents(atPath: single + "/" + name), "\(name)")
        }
    }

    /// Video: each worker writes a segment, `merge` joins them without re-encoding; the merged
    /// MP4 has exactly the recording's frames (ffprobe counts them).
    @Test(.enabled(if: ffmpegAvailable), arguments: ["mp4", "mov"])
    func mergedSegmentsHaveTheExactFrameCount(_ ext: String) throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.executable), "not built: \(Self.executable)")
        let dir = folder.file("video")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for task in 0..<3 {
            let r = try Self.run(["render", Self.demo, "-o", dir + "/film.\(ext)", "--shard", "auto", "--shards", "3",
                                  "--size", "96x54", "--frames", "0..22", "--threads", "1", "-q"],
                                 environment: ["AWS_BATCH_JOB_ARRAY_INDEX": String(task)])
            #expect(r.status == 0, "\(r.err)")
        }
        let parts = (0..<3).map { dir + "/film.part-000\($0)-of-0003.\(ext)" }
        for p in parts { #expect(FileManager.default.fileExists(atPath: p), "\(p)") }
        // A missing part is refused (exit 1), nothing written.
        let short = try Self.run(["merge", parts[0], parts[2], "-o", dir + "/short.\(ext)"])
        #expect(short.status == 1 && short.err.contains("1 of 3 parts are missing: 1"), "\(short.err)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/short.\(ext)"))
        // Given out of order: put back in order by part number.
        let r = try Self.run(["merge", parts[2], parts[0], parts[1], "-o", dir + "/film.\(ext)"])
        #expect(r.status == 0, "\(r.err)")
        let facts = try FFmpegTools.probe(dir + "/film.\(ext)")
        #expect(facts["nb_read_frames"] == "23", "\(facts)")
        #expect(facts["codec_name"] == (ext == "mp4" ? "h264" : "prores"))
        // Every segment starts with a keyframe (so the copy needs nothing from the one before).
        for p in parts {
            let k = try FFmpegTools.run(FFmpegTools.ffprobe!, ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                              "packet=flags", "-of", "csv=p=0", "-read_intervals", "%+#1", p])
            #expect(String(decoding: k.out, as: UTF8.self).hasPrefix("K"), "\(p)")
        }
    }

    /// Y4M segments join without ffmpeg into the very bytes one process writes; a truncated
    /// segment is refused.
    @Test func y4mSegmentsJoinByteForByte() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.executable), "not built: \(Self.executable)")
        let dir = folder.file("y4m")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let options = ["--size", "33x19", "--frames", "0..10", "--threads", "1", "-q"]   // odd: partial chroma blocks
        for i in 0..<3 { #expect(try Self.run(["render", Self.demo, "-o", dir + "/f.y4m", "--shard", "\(i)/3"] + options).status == 0) }
        #expect(try Self.run(["render", Self.demo, "-o", dir + "/single.y4m"] + options).status == 0)
        let parts = (0..<3).map { dir + "/f.part-000\($0)-of-0003.y4m" }
        let r = try Self.run(["merge"] + parts + ["-o", dir + "/f.y4m"])
        #expect(r.status == 0 && r.err.contains("11 frames"), "\(r.err)")
        #expect(FileManager.default.contents(atPath: dir + "/f.y4m") == FileManager.default.contents(atPath: dir + "/single.y4m"))
        var cut = try #require(FileManager.default.contents(atPath: parts[1]))
        cut.removeLast(7)
        try cut.write(to: URL(fileURLWithPath: parts[1]))
        let bad = try Self.run(["merge"] + parts + ["-o", dir + "/g.y4m"])
        #expect(bad.status == 1 && bad.err.contains("truncated"), "\(bad.err)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/g.y4m"))
    }

    /// Errors a job system acts on: usage (2), bad scene (1: do not retry), output (3: retry).
    @Test func exitCodesForRetryPolicies() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.executable), "not built: \(Self.executable)")
        let out = folder.file("o")
        let noIndex = try Self.run(["render", Self.demo, "-o", out, "--shard", "auto", "--shards", "4"])
        #expect(noIndex.status == 2 && noIndex.err.contains("none of JOB_COMPLETION_INDEX"), "\(noIndex.err)")
        let badIndex = try Self.run(["render", Self.demo, "-o", out, "--shard", "auto", "--shards", "4"], environment: ["JOB_COMPLETION_INDEX": "9"])
        #expect(badIndex.status == 2 && badIndex.err.contains("gives shard 9, but --shards is 4"), "\(badIndex.err)")
        let tooMany = try Self.run(["render", Self.demo, "-o", out, "--frames", "0..2", "--shard", "1/4"])
        #expect(tooMany.status == 2 && tooMany.err.contains("4 shards but only 3 frames"), "\(tooMany.err)")
        let bad = folder.file("bad.json")
        try Data("{\"output\": {\"size\": \"32x32\"}, \"layers\": [{\"name\": 3}]}".utf8).write(to: URL(fileURLWithPath: bad))
        #expect(try Self.run(["render", bad, "-o", out, "--shard", "0/2"]).status == 1)
        #expect(try Self.run(["plan", bad, "--shards", "2"]).status == 1)
        // The output folder is a file: exit 3.
        FileManager.default.createFile(atPath: folder.file("file"), contents: Data([1]))
        #expect(try Self.run(["render", Self.demo, "-o", folder.file("file") + "/x", "--shard", "0/2", "--frames", "0..3"]).status == 3)
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// verify catches a changed file, a manifest of another scene, and finds nothing to check.
    @Test func verifyFindsProblems() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.executable), "not built: \(Self.executable)")
        let out = folder.file("v")
        for i in 0..<2 {
            #expect(try Self.run(["render", Self.demo, "-o", out, "--shard", "\(i)/2", "--size", "32x18", "--frames", "0..5", "-q"]).status == 0)
        }
        #expect(try Self.run(["verify", out]).status == 0)
        // A frame changed after it was written.
        let f = out + "/frame_00004.png"
        var bytes = try #require(FileManager.default.contents(atPath: f))
        bytes[bytes.count - 20] ^= 1
        try bytes.write(to: URL(fileURLWithPath: f))
        let v = try Self.run(["verify", out])
        #expect(v.status == 1 && v.err.contains("frame_00004.png (frame 4): SHA-256"), "\(v.err)")
        // Nothing to verify.
        let empty = folder.file("empty")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let e = try Self.run(["verify", empty])
        #expect(e.status == 2 && e.err.contains("no manifest"), "\(e.err)")
        // Another scene's shard in the same set: two scene hashes, and frames 0..2 twice.
        let minimal = ProcessRobustnessTests.minimal
        #expect(try Self.run(["render", minimal, "-o", folder.file("w"), "--shard", "0/2", "--size", "32x18", "--frames", "0..5", "-q"]).status == 0)
        let mixed = try Self.run(["verify", out, folder.file("w")])
        #expect(mixed.status == 1 && mixed.err.contains("scene hash") && mixed.err.contains("frame 0 is in"), "\(mixed.err)")
    }

    /// A bundle holds the scene, its images (reached through `../`) and a font file; render reads
    /// it directly with the same bytes and the same scene hash as the folder it came from; a
    /// damaged bundle is an error (exit 1), not a frame.
    @Test func bundlesRenderLikeTheirFolder() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.executable), "not built: \(Self.executable)")
        let src = folder.file("src")
        try FileManager.default.createDirectory(atPath: src + "/scenes/fonts", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: src + "/images", withIntermediateDirectories: true)
        let repo = URL(fileURLWithPath: Self.demo).deletingLastPathComponent().path
        try FileManager.default.copyItem(atPath: repo + "/images/card-a.png", toPath: src + "/images/a.png")
        let fontFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path + "/Sources/CFlipbookText/fonts/DejaVuSans.ttf"
        try FileManager.default.copyItem(atPath: fontFile, toPath: src + "/scenes/fonts/Mine.ttf")
        let scene = src + "/scenes/s.json"
        try Data("""
        {"output": {"size": "64x36", "frames": [0, 5]},
         "layers": [{"name": "a", "frame": [0, 0, 32, 18], "contents": "../images/a.png"},
                    {"name": "b", "frame": [32, 18, 32, 18], "contents": "../images/a.png"},
                    {"name": "t", "class": "text", "frame": [0, 18, 64, 18], "string": "Hi", "fontSize": 12,
                     "font": {"file": "fonts/Mine.ttf"}, "foregroundColor": "#ffffff"}],
         "timeline": [{"at": 0.05, "do": [{"layer": "a", "set": {"opacity": 0.3}}]}]}
        """.utf8).write(to: URL(fileURLWithPath: scene))
        let fbk = folder.file("s.fbk")
        let b = try Self.run(["bundle", scene, "-o", fbk])
        #expect(b.status == 0, "\(b.err)")
        #expect(b.err.contains("and 2 files (3 distinct contents"), "\(b.err)")
        // The hash covers the font: plan prints the same for the folder and the bundle.
        let p1 = try JSONDecoder().decode(PlanCommand.Output.self, from: Data(try Self.run(["plan", scene, "--shards", "2", "--json"]).out.utf8))
        let p2 = try JSONDecoder().decode(PlanCommand.Output.self, from: Data(try Self.run(["plan", fbk, "--shards", "2", "--json"]).out.utf8))
        #expect(p1.scene_hash == p2.scene_hash)
        // Frames from the bundle (the source folder moved away) equal frames from the folder.
        #expect(try Self.run(["render", scene, "-o", folder.file("ref"), "-q"]).status == 0)
        try FileManager.default.moveItem(atPath: src, toPath: folder.file("gone"))
        for i in 0..<2 { #expect(try Self.run(["render", fbk, "-o", folder.file("out"), "--shard", "\(i)/2", "-q"]).status == 0) }
        for n in 0...5 {
            let name = String(format: "frame_%05d.png", n)
            #expect(FileManager.default.contents(atPath: folder.file("out/" + name)) == FileManager.default.contents(atPath: folder.file("ref/" + name)), "\(name)")
        }
        let v = try Self.run(["verify", folder.file("out"), "--sample", "2"])   // the manifests name the bundle
        #expect(v.status == 0, "\(v.err)")
        // One flipped byte in a blob: refused, exit 1, nothing rendered.
        var bytes = try #require(FileManager.default.contents(atPath: fbk))
        bytes[bytes.count - 100] ^= 0x40
        try bytes.write(to: URL(fileURLWithPath: fbk))
        let bad = try Self.run(["render", fbk, "-o", folder.file("bad"), "-q"])
        #expect(bad.status == 1 && bad.err.contains("does not match its SHA-256"), "\(bad.err)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("bad")))
        // An absolute image path cannot be bundled.
        let abs = folder.file("abs.json")
        try Data(#"{"output": {"size": "8x8", "duration": 0.1}, "layers": [{"contents": "\#(repo)/images/card-a.png"}]}"#.utf8).write(to: URL(fileURLWithPath: abs))
        let a = try Self.run(["bundle", abs, "-o", folder.file("abs.fbk")])
        #expect(a.status == 1 && a.err.contains("is an absolute path"), "\(a.err)")
    }

    @Test func bundleClimbLevels() {
        #expect(SceneBundle.climb("a/b.png") == 0)
        #expect(SceneBundle.climb("../../x/y.png") == 2)
        #expect(SceneBundle.climb("a/../../b.png") == 1)
        #expect(SceneBundle.climb("/abs.png") == nil)
    }

    /// `plan --balance area` on a scene whose second half is heavy: more frames for the first
    /// shard; workers given the plan (`render --plan`) render exactly those ranges, the set
    /// verifies and equals one process; a plan for other options or another scene is refused.
    @Test func balancedPlanDrivesTheWorkers() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.executable), "not built: \(Self.executable)")
        let scene = folder.file("vary.json")
        try Data("""
        {"output": {"size": "64x36", "frames": [0, 29]},
         "layers": [{"name": "dot", "frame": [1, 1, 2, 2], "backgroundColor": "#ffffff"}],
         "timeline": [{"at": 0.5, "do": [{"add": {"name": "big", "frame": [0, 0, 64, 36], "backgroundColor": "#3366cc",
            "sublayers": [{"frame": [0, 0, 64, 36], "backgroundColor": "#cc3333", "opacity": 0.5},
                          {"frame": [0, 0, 64, 36], "backgroundColor": "#33cc33", "opacity": 0.5}]}, "to": "root"}]}]}
        """.utf8).write(to: URL(fileURLWithPath: scene))
        let p = try Self.run(["plan", scene, "--shards", "2", "--balance", "area", "--json"])
        #expect(p.status == 0, "\(p.err)")
        let planFile = folder.file("plan.json")
        try Data(p.out.utf8).write(to: URL(fileURLWithPath: planFile))
        let plan = try JSONDecoder().decode(PlanCommand.Output.self, from: Data(p.out.utf8))
        #expect(plan.balance == "area" && plan.sampled_frames == 30)
        let first = try #require(plan.shards.first), second = try #require(plan.shards.last)
        #expect(first.first == 0 && second.last == 29 && first.last + 1 == second.first)
        #expect(first.frames >= second.frames + 5, "\(plan.shards)")   // 15 light frames + a few heavy ones
        let out = folder.file("out")
        for i in 0..<2 {
            let r = try Self.run(["render", scene, "-o", out, "--shard", "auto", "--shards", "2", "--plan", planFile, "-q"],
                                 environment: ["JOB_COMPLETION_INDEX": String(i)])
            #expect(r.status == 0, "\(r.err)")
        }
        #expect(FileManager.default.fileExists(atPath: out + "/flipbook-manifest-0-\(first.last).json"))
        #expect(try Self.run(["verify", out, "--sample", "2", "--scene", scene]).status == 0)
        #expect(try Self.run(["render", scene, "-o", folder.file("single"), "-q"]).status == 0)
        for n in [0, first.last, second.first, 29] {
            let name = String(format: "frame_%05d.png", n)
            #expect(FileManager.default.contents(atPath: out + "/" + name) == FileManager.default.contents(atPath: folder.file("single/" + name)))
        }
        let wrongCount = try Self.run(["render", scene, "-o", out, "--shard", "0/3", "--plan", planFile])
        #expect(wrongCount.status == 2 && wrongCount.err.contains("the plan has 2 shards, the command line says 3"), "\(wrongCount.err)")
        let otherScene = try Self.run(["render", Self.demo, "-o", out, "--shard", "0/2", "--plan", planFile])
        #expect(otherScene.status == 1 && otherScene.err.contains("the plan is for another scene"), "\(otherScene.err)")
        let noShard = try Self.run(["render", scene, "-o", out, "--plan", planFile])
        #expect(noShard.status == 2, "\(noShard.err)")
    }
}

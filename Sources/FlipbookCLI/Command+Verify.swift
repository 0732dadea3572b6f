import ArgumentParser
import Foundation
import FlipbookPNG
import FlipbookRender
import FlipbookScene

/// `flipbook verify DIR… [--sample K]`: checks that the shards of a recording add up.
///
/// Reads every shard manifest (`flipbook-manifest-*.json`, ``ShardManifest``) in the folders
/// and checks:
/// 1. all manifests name one scene hash and the same settings and recording range;
/// 2. every frame of the recording is in exactly one manifest (none missing, none twice);
/// 3. every file's SHA-256 is the one its manifest recorded (nothing changed or truncated since);
/// 4. with `--sample K`: K frames spread over the recording (the first and last included) are
///    rendered again **on this machine** from the scene (`--scene`, else the path the manifest
///    recorded), whose hash must match, and must be byte-identical to the files — a check that
///    the machines that rendered the shards compute what this one does (docs/scale-out.md).
///
/// Exit codes: 0 verified; 1 a check failed (each problem is printed); 2 cannot verify
/// (usage, no manifest found, an unreadable manifest, the scene missing for `--sample`).
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check shard manifests: every frame present once, hashes match, one scene; re-render a sample.",
        discussion: """
          flipbook verify out --sample 3
          flipbook verify node1/out node2/out --scene scene.json --sample 5
        Exit codes: 0 verified, 1 a check failed, 2 cannot verify (usage, no manifests, scene missing).
        """
    )

    @Argument(help: "Folders holding frames and their manifests (flipbook-manifest-A-B.json).")
    var directories: [String]

    @Option(help: "Re-render this many frames (spread over the recording) here and compare bytes (0: none).")
    var sample: Int = 0

    @Option(help: "The scene to re-render from (default: the path in the manifests).")
    var scene: String?

    @Option(help: "Worker threads for the re-render (default: the number of cores).")
    var threads: Int?

    func run() throws {
        let io = RenderIO.standard
        let code = execute(io)
        if code != 0 { throw ExitCode(code) }
    }

    /// Runs the checks; returns the exit code. All printing goes through `io`.
    func execute(_ io: RenderIO) -> Int32 {
        func cannot(_ m: String) -> Int32 { io.err("flipbook verify: " + m + "\n"); return 2 }
        guard !directories.isEmpty else { return cannot("give at least one folder") }
        guard sample >= 0 else { return cannot("--sample must be 0 or more, got \(sample)") }
        if let t = threads, !(1...256).contains(t) { return cannot("--threads must be 1...256, got \(t)") }

        // Manifests, each with its folder.
        var manifests: [(dir: String, path: String, m: ShardManifest)] = []
        for dir in directories {
            let names: [String]
            do { names = try FileManager.default.contentsOfDirectory(atPath: dir) } catch {
                return cannot("\(dir): cannot list the folder (\((error as NSError).localizedDescription))")
            }
            for name in names.sorted() where ShardManifest.isManifestName(name) {
                switch ShardManifest.read(dir + "/" + name) {
                case .failure(let f): return cannot(f.message)
                case .success(let m): manifests.append((dir, dir + "/" + name, m))
                }
            }
        }
        guard let reference = manifests.first else {
            return cannot("no manifest (flipbook-manifest-*.json) in \(directories.joined(separator: ", ")); render with --shard or --manifest")
        }

        var problems: [String] = []
        func problem(_ s: String) { problems.append(s) }

        // 1. One scene, one set of settings, one recording.
        for (_, path, m) in manifests.dropFirst() {
            if m.scene_hash != reference.m.scene_hash {
                problem("\(path): scene hash \(m.scene_hash.prefix(12))… differs from \(reference.path)'s \(reference.m.scene_hash.prefix(12))… (a different scene or images)")
            }
            if m.settings != reference.m.settings { problem("\(path): settings \(m.settings) differ from \(reference.path)'s \(reference.m.settings)") }
            if m.recording != reference.m.recording {
                problem("\(path): recording \(m.recording.first)..\(m.recording.last) differs from \(reference.path)'s \(reference.m.recording.first)..\(reference.m.recording.last)")
            }
        }
        let versions = Set(manifests.map(\.m.version)), backends = Set(manifests.map(\.m.simd))
        let platforms = Set(manifests.compactMap(\.m.platform))

        // 2. Every frame once.
        let rec = reference.m.recording
        var owner: [Int: (dir: String, frame: ShardManifest.Frame, manifest: String)] = [:]
        var duplicates: [Int] = [], outside: [Int] = []
        for (dir, path, m) in manifests {
            for f in m.frames {
                if f.frame < rec.first || f.frame > rec.last { outside.append(f.frame) }
                if let other = owner[f.frame] {
                    duplicates.append(f.frame)
                    if duplicates.count <= 10 { problem("frame \(f.frame) is in \(other.manifest) and in \(path)") }
                } else {
                    owner[f.frame] = (dir, f, path)
                }
            }
        }
        if duplicates.count > 10 { problem("… \(duplicates.count) frames are in more than one manifest") }
        if !outside.isEmpty { problem("\(outside.count) frames lie outside the recording \(rec.first)..\(rec.last) (first: \(outside.min()!))") }
        var missing: [ClosedRange<Int>] = []
        if rec.first <= rec.last {
            var n = rec.first
            while n <= rec.last {
                if owner[n] == nil {
                    let a = n
                    while n + 1 <= rec.last && owner[n + 1] == nil { n += 1 }
                    missing.append(a...n)
                }
                n += 1
            }
        }
        if !missing.isEmpty {
            let count = missing.reduce(0) { $0 + $1.count }
            let list = missing.prefix(10).map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)..\($0.upperBound)" }.joined(separator: ", ")
            problem("\(count) frames have no manifest: \(list)\(missing.count > 10 ? ", …" : "") (a shard has not finished: rerun it with --resume)")
        }

        // 3. Files match their hashes.
        var badFiles = 0
        for n in owner.keys.sorted() {
            let (dir, f, _) = owner[n]!
            let path = dir + "/" + f.file
            guard let d = SHA256.hash(fileAtPath: path) else {
                badFiles += 1
                if badFiles <= 10 { problem("\(path) (frame \(n)): missing or unreadable") }
                continue
            }
            if d.hex != f.sha256 {
                badFiles += 1
                if badFiles <= 10 { problem("\(path) (frame \(n)): SHA-256 \(d.hex.prefix(12))… is not the manifest's \(f.sha256.prefix(12))… (changed since it was rendered)") }
            }
        }
        if badFiles > 10 { problem("… \(badFiles) files in all do not match their manifests") }

        // 4. A sample rendered again here.
        var sampled = 0
        if sample > 0 && problems.isEmpty {
            switch resample(reference.m, owner: owner.mapValues { ($0.dir, $0.frame) }, io: io) {
            case .failure(let f): return cannot(f.message)
            case .success(let (count, differences)): sampled = count; problems += differences
            }
        }

        if !problems.isEmpty {
            for p in problems { io.err("flipbook verify: \(p)\n") }
            io.err("flipbook verify: FAILED (\(problems.count) problem\(problems.count == 1 ? "" : "s")) in \(manifests.count) manifest\(manifests.count == 1 ? "" : "s")\n")
            return 1
        }
        var line = "verified: frames \(rec.first)..\(rec.last) (\(rec.last - rec.first + 1)) each once in \(manifests.count) manifest\(manifests.count == 1 ? "" : "s")"
        line += ", every SHA-256 matches, scene \(reference.m.scene_hash.prefix(12))…"
        line += ", Flipbook \(versions.sorted().joined(separator: " + ")), SIMD \(backends.sorted().joined(separator: " + "))"
        if !platforms.isEmpty { line += ", \(platforms.sorted().joined(separator: " + "))" }
        if sampled > 0 {
            line += "; \(sampled) frame\(sampled == 1 ? "" : "s") re-rendered here (SIMD \(ShardManifest.simdDescription), "
                + "\(ShardManifest.platformDescription)) byte-identical"
        }
        io.out(line + "\n")
        return 0
    }

    /// The frames `--sample` picks: `k` frames evenly spread over `first…last`, both ends included.
    static func sampleFrames(first: Int, last: Int, k: Int) -> [Int] {
        let c = last - first + 1
        guard k > 0, c > 0 else { return [] }
        if k >= c { return Array(first...last) }
        if k == 1 { return [first] }
        return Array(Set((0..<k).map { first + $0 * (c - 1) / (k - 1) })).sorted()
    }

    /// Renders the sample frames into a temporary folder and compares them with the files.
    /// Success: how many frames were compared and the differences found (as problems).
    private func resample(_ m: ShardManifest, owner: [Int: (String, ShardManifest.Frame)], io: RenderIO) -> Result<(Int, [String]), CLIFailure> {
        let scenePath = scene ?? m.scene
        let source: SceneSource
        do throws(CLIFailure) { source = try SceneSource.open(scenePath) } catch {
            return .failure(CLIFailure(message: "--sample: " + error.message, exitCode: 2))
        }
        defer { withExtendedLifetime(source) {} }
        let input: SceneInput
        do throws(CLIFailure) {
            input = try source.parse()
            try input.checkImages()
        } catch {
            return .failure(CLIFailure(message: "--sample: \(error.message)" + (scene == nil ? " (give the scene with --scene)" : ""), exitCode: 2))
        }
        // A Lottie file's `--background` is in the manifests (`none`: transparent).
        var background: BackgroundColor?
        if input.isLottie, let b = m.settings.background, b != "none" {
            guard let color = BackgroundColor(b) else {
                return .failure(CLIFailure(message: "the manifests name an unknown background '\(b)'", exitCode: 2))
            }
            background = color
        }
        let hash: SceneHash
        do throws(CLIFailure) { hash = try input.hash(background: background) } catch {
            return .failure(CLIFailure(message: "--sample: " + error.message, exitCode: 2))
        }
        if hash.hex != m.scene_hash {
            return .success((0, ["\(scenePath): its hash \(hash.hex.prefix(12))… is not the manifests' \(m.scene_hash.prefix(12))…: not the scene (or images) that was rendered"]))
        }
        guard let preset = PNGPreset(rawValue: m.settings.png) else {
            return .failure(CLIFailure(message: "the manifests name an unknown PNG preset '\(m.settings.png)'", exitCode: 2))
        }
        let pattern: FramePattern
        do throws(FrameSinkError) { pattern = try FramePattern(m.pattern) } catch {
            return .failure(CLIFailure(message: "the manifests' pattern '\(m.pattern)': \(error.description)", exitCode: 2))
        }
        let frames = Self.sampleFrames(first: m.recording.first, last: m.recording.last, k: sample)
        guard let lo = frames.first, let hi = frames.last else { return .success((0, [])) }
        var settings = input.description.recording
        settings.width = m.settings.point_width; settings.height = m.settings.point_height
        settings.scale = m.settings.scale; settings.fps = m.settings.fps; settings.start = m.settings.start
        settings.frames = lo...hi
        if input.isLottie { settings.background = background?.cgColor }
        let builder: SceneBuilder
        do throws(CLIFailure) { builder = try input.makeBuilder(settings: settings).builder } catch {
            return .failure(CLIFailure(message: "--sample: " + error.message, exitCode: 2))
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flipbook-verify-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        do { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) } catch {
            return .failure(CLIFailure(message: "cannot create a temporary folder \(dir)", exitCode: 2))
        }
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let wanted = Set(frames)
        let sink = PNGSequenceSink(directory: dir, pattern: pattern, options: preset.options)
        let options = RecordingOptions(threads: threads ?? ProcessInfo.processInfo.activeProcessorCount, skip: { !wanted.contains($0) })
        do { try builder.makeRecorder(settings: settings).record(to: sink, options: options) } catch {
            return .failure(CLIFailure(message: "--sample: re-rendering failed: \(error.description)", exitCode: 2))
        }
        var differences: [String] = []
        for n in frames {
            guard let (_, f) = owner[n] else { continue }
            let here = SHA256.hash(fileAtPath: sink.path(forFrame: n))?.hex ?? "(none)"
            if here != f.sha256 {
                differences.append("frame \(n): re-rendered here (SIMD \(ShardManifest.simdDescription), \(ShardManifest.platformDescription), Flipbook \(FlipbookVersion.string)) "
                                   + "SHA-256 \(here.prefix(12))…, the file's is \(f.sha256.prefix(12))…: this machine renders it differently (docs/scale-out.md)")
            }
        }
        return .success((frames.count, differences))
    }
}

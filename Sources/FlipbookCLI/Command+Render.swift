import ArgumentParser
import Dispatch
import Flipbook
import FlipbookPNG
import FlipbookRender
import Foundation
import FlipbookPixels
import Synchronization
#if canImport(Glibc)
import Glibc
#endif
import FlipbookScene

/// `flipbook render SCENE.json -o OUT`: records a scene file to PNG frames (or one PNG), Y4M,
/// video (MP4, MOV, WebM), animated images (GIF, APNG, WebP) or nowhere (`null`, for timing).
/// The format follows `-o`'s extension unless `--format` names it (``RenderFormat``).
///
/// Order of work — nothing is written until everything that can be checked is checked:
/// options (usage, exit 2) → scene file and every image decoded (exit 1) → output folder/file
/// and programs (exit 3) → frames. Exit codes: 0 done, 1 invalid scene or inputs, 2 usage,
/// 3 output failed, 130/143/129 interrupted by SIGINT/SIGTERM/SIGHUP (frames written so far
/// are complete; `--resume` continues).
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a scene file to PNG frames, Y4M, MP4, MOV, WebM, GIF, APNG or WebP.",
        discussion: """
        Frame n shows the scene at time start + n/fps and depends only on the scene and n, so a
        long render can be split into frame ranges run anywhere (see docs/recording.md):
          flipbook render scene.json -o out --frames 0..499
          flipbook render scene.json -o out --frames 500..999
        The format follows the output's extension (out.mp4, .mov, .webm, .gif, .apng, .webp, .y4m);
        a folder or a pattern (out/f_%04d.png) means PNG frames; --format overrides.
          flipbook render scene.json -o film.mov          (ProRes 4444 with alpha)
          flipbook render scene.json --still 1.5s -o poster.png
        On a job array each task renders its shard and a manifest (docs/scale-out.md):
          flipbook render scene.json -o out --shard auto --shards 8 --resume
        Lottie files (Bodymovin JSON, .lottie) render the same way; size, fps and frames come from
        the file, --size fits it, --scale multiplies it, --fps resamples it (docs/lottie-cli.md):
          flipbook render anim.json -o anim.mp4
          flipbook render anim.lottie --still 0 --size 512x512 -o thumb.png
        Exit codes: 0 ok, 1 invalid scene or inputs (do not retry), 2 usage, 3 output failed
        (retry), 130/143/129 interrupted by SIGINT/SIGTERM/SIGHUP.
        """
    )

    @Argument(help: "The scene file (.json, see docs/scene-format.md), a Lottie file (Bodymovin JSON or .lottie, told apart by content; docs/lottie-cli.md) or a bundle (.fbk).")
    var scene: String

    @Option(name: .shortAndLong, help: "Output: a file whose extension names the format (.mp4 .mov .webm .gif .apng .webp .y4m; .png for one frame), a folder for PNG frames (created), a pattern (out/f_%04d.png), or '-' (stdout, y4m).")
    var output: String?

    /// --fps, --size, --scale, --frames, --duration (shared with `plan`).
    @OptionGroup var range: RecordingRangeOptions

    @Option(help: "Render one frame: a time in seconds ('1.5s', '250ms') or a frame number ('45'). With -o x.png, one file.")
    var still: String?

    @Option(help: "Output format (default: -o's extension, else the scene's, else png).")
    var format: RenderFormat?

    @Option(help: "Codec: mp4 h264 (default) or h265; mov prores (default), h264 or h265; the other formats have one.")
    var codec: FFmpegEncoding.Codec?

    @Option(help: "Constant rate factor for h264/h265 (0-51, defaults 18/23) and vp9 (0-63, default 32); lower is better and bigger.")
    var crf: Int?

    @Option(help: "WebP quality 0-100 (default 80); higher is better and bigger.")
    var quality: Int?

    @Option(name: .customLong("pixel-format"), help: "Pixel format stored (default and choices per codec: docs/sinks.md).")
    var pixelFormat: FFmpegEncoding.PixelFormat?

    @Option(help: "Progress on the terminal: text (default; a bar or periodic lines on stderr), json (one object per line on stdout: frame, total, fps, eta) or none.")
    var progress: ProgressStyle = .text

    @Option(help: "Worker threads per stage (default: the number of cores).")
    var threads: Int?

    @Option(name: .customLong("png-compression"), help: "PNG preset: fast (default; ISA-L or Flipbook's own deflate, chosen per frame), fastZlib (zlib level 1), default (libdeflate level 4) or small (libdeflate level 12, for golden files); docs/png.md.")
    var pngCompression: PNGPreset = .fast

    @Option(help: "PNG file-name pattern with one %d conversion (default frame_%05d.png).")
    var pattern: String?

    @Flag(help: "Skip frames already complete on disk (png).")
    var resume = false

    @Option(help: ArgumentHelp("Render only shard I of N (0-based) of the frames: a contiguous range (see flipbook plan). 'auto' takes I from JOB_COMPLETION_INDEX, AWS_BATCH_JOB_ARRAY_INDEX or SLURM_ARRAY_TASK_ID and N from --shards.", valueName: "I/N|auto"))
    var shard: String?

    @Option(help: "The number of shards, with --shard auto.")
    var shards: Int?

    @Option(name: .customLong("plan"), help: ArgumentHelp("With --shard: take the shard's range from this plan (flipbook plan --json, e.g. --balance area); it must be for this scene and these options.", valueName: "FILE"))
    var planFile: String?

    @Flag(help: "Write a manifest of the frames (flipbook-manifest-A-B.json: SHA-256 per file, scene hash, version), as --shard always does (png).")
    var manifest = false

    @Flag(name: .shortAndLong, help: "No progress and no summary (errors only).")
    var quiet = false

    func run() throws {
        let code = execute(RenderIO.standard)
        if code != 0 { throw ExitCode(code) }
    }
}

/// Where `render` prints, and knobs tests set.
struct RenderIO: Sendable {
    var out: @Sendable (String) -> Void
    var err: @Sendable (String) -> Void
    /// Progress as a redrawn bar (stderr is a terminal) or as plain periodic lines.
    var isTerminal: Bool
    /// Where to look for ffmpeg (`nil`: `PATH`).
    var searchPath: String? = nil
    /// Installs a Ctrl-C handler for the run.
    var handlesInterrupt = true
    /// Polled before each frame (tests simulate an interrupt).
    var stopAfter: Int? = nil
    /// The environment `--shard auto` reads the task index from.
    var environment: [String: String] = ProcessInfo.processInfo.environment

    static let standard = RenderIO(
        // Never fatal: a closed or full stdout/stderr drops the text (StandardStreams).
        out: { s in StandardStreams.write(s, to: 1) },
        err: { s in StandardStreams.write(s, to: 2) },
        isTerminal: isatty(2) == 1)
}

/// Exit codes of `render`.
enum RenderExit {
    static let ok: Int32 = 0, invalidInput: Int32 = 1, usage: Int32 = 2, outputFailed: Int32 = 3, interrupted: Int32 = 130
}

extension RenderCommand {
    /// Runs the command; returns the exit code. All printing goes through `io`.
    func execute(_ io: RenderIO) -> Int32 {
        func fail(_ code: Int32, _ message: String) -> Int32 {
            io.err("flipbook render: " + message + "\n")
            return code
        }
        // 1. Usage.
        let plan: RenderPlan
        switch RenderPlan.make(self, environment: io.environment) {
        case .failure(let m): return fail(RenderExit.usage, m.description + "\n(see flipbook render --help)")
        case .success(let p): plan = p
        }
        // 2. Scene (or Lottie file) and images.
        // A bundle (`flipbook bundle`) is unpacked into a private folder kept for the whole run.
        let source: SceneSource
        do throws(CLIFailure) { source = try SceneSource.open(scene) } catch { return fail(error.exitCode, error.message) }
        defer { withExtendedLifetime(source) {} }
        let input: SceneInput
        do throws(CLIFailure) {
            input = try source.parse()
            try input.checkImages()
        } catch { return fail(error.exitCode, error.message) }
        let description = input.description
        var settings: RecordingSettings
        switch plan.settings(for: input) {
        case .failure(let m): return fail(m.isUsage ? RenderExit.usage : RenderExit.invalidInput, m.description)
        case .success(let s): settings = s
        }
        // The tree, once the size is known (a Lottie composition is fitted into it).
        let builder: SceneBuilder
        do throws(CLIFailure) {
            let made = try input.makeBuilder(settings: settings)
            builder = made.builder
            if !quiet { for line in LottieWarningReport.lines(made.warnings, file: scene) { io.err(line) } }
        } catch { return fail(error.exitCode, error.message) }
        // The scene hash (shards and manifests record it; a plan file must match it), computed
        // before rendering: a file that changes during the run must not be recorded as rendered.
        var hash: SceneHash?
        if plan.shard != nil || manifest {
            do throws(CLIFailure) { hash = try input.hash(background: plan.lottieBackground) } catch {
                return fail(error.exitCode, error.message)
            }
        }
        // The whole recording's frames; a shard renders its part of them.
        let recording = settings.frames
        if let shard = plan.shard {
            if let file = plan.planFile, let hash {
                switch ShardPlanFile.range(file: file, shard: shard, settings: settings, sceneHash: hash.hex) {
                case .failure(let f): return fail(f.exitCode, f.message)
                case .success(let r): settings.frames = r
                }
            } else {
                switch shard.range(of: recording) {
                case .failure(let m): return fail(RenderExit.usage, m.description)
                case .success(let r): settings.frames = r
                }
            }
        }
        // 3. Output. --format, else -o's extension (-o film.mp4), else the scene's, else png.
        let inferred = output.flatMap(RenderFormat.inferred(from:))
        let format = plan.format ?? inferred ?? description.format.map(RenderFormat.init) ?? .png
        let target: RenderTarget
        // Formats without alpha flatten transparent pixels onto the sink's colour: black for a
        // scene (whose background is normally opaque anyway), white for a Lottie file (as
        // players show one on a page).
        switch RenderTarget.make(format: format, output: output, scene: scene, plan: plan, frameCount: settings.frames.count, io: io,
                                 opaqueBackground: input.isLottie ? .white : .black) {
        case .failure(let f): return fail(f.code, f.message + (f.code == RenderExit.usage ? "\n(see flipbook render --help)" : ""))
        case .success(let t): target = t
        }
        if resume && format != .png { return fail(RenderExit.usage, "--resume works with --format png only") }
        let png = target.sink as? PNGSequenceSink
        if manifest && png == nil {
            return fail(RenderExit.usage, "--manifest works with PNG frames in a folder, not \(format == .png ? "one PNG file" : format.rawValue)")
        }
        // A resumed shard must not keep frames another scene (or other settings) drew.
        if resume, let png, let hash,
           let m = ShardManifest.conflict(in: png.directory, frames: settings.frames, sceneHash: hash.hex,
                                          width: settings.pixelWidth, height: settings.pixelHeight, fps: settings.fps,
                                          scale: settings.scale, start: settings.start) {
            return fail(RenderExit.invalidInput, m)
        }
        // 4. Frames.
        let code = RenderSession(target: target, settings: settings, builder: builder, plan: plan,
                                 resume: resume, quiet: quiet, io: io).run()
        guard code == RenderExit.ok, let png, let hash else { return code }
        // 5. The manifest, once every frame of the range is on disk.
        let frames: [ShardManifest.Frame]
        switch ShardManifest.hashFrames(settings.frames, sink: png) {
        case .failure(let f): return fail(f.exitCode, f.message)
        case .success(let f): frames = f
        }
        let m = ShardManifest(
            version: FlipbookVersion.string, simd: ShardManifest.simdDescription,
            platform: ShardManifest.platformDescription, scene: scene, scene_hash: hash.hex,
            settings: .init(width: settings.pixelWidth, height: settings.pixelHeight, point_width: settings.width,
                            point_height: settings.height, fps: settings.fps, scale: settings.scale,
                            start: settings.start, png: pngCompression.rawValue,
                            background: input.isLottie ? plan.lottieBackground?.hex ?? "none" : nil),
            recording: .init(first: recording.lowerBound, last: recording.upperBound),
            shard: plan.shard.map { .init(index: $0.index, count: $0.count) }, pattern: png.pattern.pattern, frames: frames)
        do throws(CLIFailure) {
            let path = try m.write(into: png.directory)
            if !quiet { io.err("manifest: \(path)\n") }
        } catch { return fail(error.exitCode, error.message) }
        return RenderExit.ok
    }
}

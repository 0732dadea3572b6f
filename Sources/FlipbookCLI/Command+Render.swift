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

/// `flipbook render SCENE.json -o DIR`: records a scene file to PNG frames, Y4M, MP4/WebM or
/// nowhere (`null`, for timing).
///
/// Order of work — nothing is written until everything that can be checked is checked:
/// options (usage, exit 2) → scene file and every image decoded (exit 1) → output folder/file
/// and programs (exit 3) → frames. Exit codes: 0 done, 1 invalid scene or inputs, 2 usage,
/// 3 output failed, 130/143/129 interrupted by SIGINT/SIGTERM/SIGHUP (frames written so far
/// are complete; `--resume` continues).
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a scene file to PNG frames, Y4M, MP4 or WebM.",
        discussion: """
        Frame n shows the scene at time start + n/fps and depends only on the scene and n, so a
        long render can be split into frame ranges run anywhere (see docs/recording.md):
          flipbook render scene.json -o out --frames 0..499
          flipbook render scene.json -o out --frames 500..999
        Exit codes: 0 ok, 1 invalid scene or inputs, 2 usage, 3 output failed,
        130/143/129 interrupted by SIGINT/SIGTERM/SIGHUP.
        """
    )

    @Argument(help: "The scene file (.json, see docs/scene-format.md).")
    var scene: String

    @Option(name: .shortAndLong, help: "Output: a folder for png (created); a file or folder for y4m/mp4/webm ('-' = stdout for y4m).")
    var output: String?

    @Option(help: "Frames per second (overrides the scene).")
    var fps: Double?

    @Option(help: "Size in points, WIDTHxHEIGHT (overrides the scene).")
    var size: String?

    @Option(help: "Device pixels per point (overrides the scene).")
    var scale: Double?

    @Option(parsing: .unconditional, help: "Frames to render, A..B inclusive (overrides the scene's range).")
    var frames: String?

    @Option(help: "Seconds to render from frame 0 (overrides the scene's range).")
    var duration: Double?

    @Option(help: "png, y4m, mp4, webm or null (default: the scene's, else png).")
    var format: OutputFormat?

    @Option(help: "Worker threads per stage (default: the number of cores).")
    var threads: Int?

    @Option(name: .customLong("png-compression"), help: "PNG preset: fast (default; Flipbook's own deflate), fastZlib (zlib level 1), default (zlib level 6) or small (level 9, for golden files).")
    var pngCompression: PNGPreset = .fast

    @Option(help: "PNG file-name pattern with one %d conversion.")
    var pattern: String = "frame_%05d.png"

    @Flag(help: "Skip frames already complete on disk (png).")
    var resume = false

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
        switch RenderPlan.make(self) {
        case .failure(let m): return fail(RenderExit.usage, m.description + "\n(see flipbook render --help)")
        case .success(let p): plan = p
        }
        // 2. Scene and images.
        let description: SceneDescription
        let builder: SceneBuilder
        do {
            description = try SceneParser.parse(contentsOf: scene)
            builder = try SceneBuilder(description, file: scene)
        } catch { return fail(RenderExit.invalidInput, error.description) }
        let settings: RecordingSettings
        switch plan.settings(for: description) {
        case .failure(let m): return fail(RenderExit.invalidInput, m.description)
        case .success(let s): settings = s
        }
        // 3. Output.
        // Without --format or a scene format, the output's extension says it (-o film.mp4).
        let inferred = output.flatMap { o in [OutputFormat.y4m, .mp4, .webm].first { o.lowercased().hasSuffix("." + $0.rawValue) } }
        let format = plan.format ?? description.format ?? inferred ?? .png
        let target: RenderTarget
        switch RenderTarget.make(format: format, output: output, scene: scene, plan: plan, io: io) {
        case .failure(let f): return fail(f.code, f.message)
        case .success(let t): target = t
        }
        if resume && format != .png { return fail(RenderExit.usage, "--resume works with --format png only") }
        // 4. Frames.
        return RenderSession(target: target, settings: settings, builder: builder, plan: plan,
                             resume: resume, quiet: quiet, io: io).run()
    }
}

import ArgumentParser
import Foundation
import FlipbookPixels
import FlipbookRender
import FlipbookScene

/// The recording options `plan` shares with `render` (same names, same meaning): which frames,
/// at what rate and size. A driver passes the same ones to `plan` and to every worker.
struct RecordingRangeOptions: ParsableArguments {
    @Option(help: "Frames per second (overrides the scene).")
    var fps: Double?
    @Option(help: "Size in points, WIDTHxHEIGHT (overrides the scene).")
    var size: String?
    @Option(help: "Device pixels per point (overrides the scene).")
    var scale: Double?
    @Option(parsing: .unconditional, help: "Frames (overrides the scene's range): A..B, A.., ..B or N.")
    var frames: String?
    @Option(help: "Seconds to render from frame 0 (overrides the scene's range).")
    var duration: Double?

    /// A `render` command with these options, so `plan` checks and resolves them exactly as
    /// `render` does (``RenderPlan``).
    func renderCommand(scene: String) throws -> RenderCommand {
        var args = [scene]
        if let fps { args += ["--fps", String(fps)] }
        if let size { args += ["--size", size] }
        if let scale { args += ["--scale", String(scale)] }
        if let frames { args += ["--frames", frames] }
        if let duration { args += ["--duration", String(duration)] }
        return try RenderCommand.parse(args)
    }
}

/// `flipbook plan SCENE --shards N [--json]`: how `render --shard I/N` splits the recording,
/// the scene's content hash and the Flipbook version — what a driver checks before (and
/// after) fanning a render out to a job array.
///
/// The ranges are contiguous and of equal length ± 1 frame (``ShardSpec/ranges(of:count:)``):
/// computed from the settings alone, so the plan and every worker agree on any machine. They
/// are not weighted by the scene's cost (a frame's covered area varies; docs/scale-out.md says
/// why equal ranges were chosen).
///
/// Exit codes: 0, 1 invalid scene or images, 2 usage (also more shards than frames).
struct PlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Print the frame ranges of N shards, the scene's content hash and the Flipbook version.",
        discussion: """
        Give the same recording options as to the workers' `flipbook render … --shard I/N`:
          flipbook plan scene.json --shards 8 --json
        """
    )

    @Argument(help: "The scene file (.json).")
    var scene: String

    @Option(help: "The number of shards (1 or more; at most the number of frames).")
    var shards: Int

    @OptionGroup var recording: RecordingRangeOptions

    @Flag(help: "Print one JSON object (keys sorted) instead of a table.")
    var json = false

    func run() throws {
        switch execute() {
        case .failure(let f): throw f.report()
        case .success(let text): StandardStreams.write(text, to: 1)
        }
    }

    /// The JSON `--json` prints.
    struct Output: Codable, Equatable {
        struct ShardRange: Codable, Equatable { var index: Int, first: Int, last: Int, frames: Int }
        struct Image: Codable, Equatable { var path: String, sha256: String }
        var flipbook_version: String
        var scene: String
        var scene_hash: String
        var scene_file_sha256: String
        var images: [Image]
        var width: Int, height: Int, fps: Double
        var frames: ShardManifest.Range
        /// How the ranges were chosen: `equal` (contiguous, equal lengths ± 1).
        var balance: String
        var shards: [ShardRange]
    }

    /// The text to print, or the failure (exit code and message). No printing.
    func execute() -> Result<String, CLIFailure> {
        guard (1...ShardSpec.maximumCount).contains(shards) else {
            return .failure(CLIFailure(message: "plan: --shards must be 1...\(ShardSpec.maximumCount), got \(shards)", exitCode: 2))
        }
        let command: RenderCommand
        do { command = try recording.renderCommand(scene: scene) } catch {
            return .failure(CLIFailure(message: "plan: " + RenderCommand.message(for: error), exitCode: 2))
        }
        let plan: RenderPlan
        switch RenderPlan.make(command) {
        case .failure(let m): return .failure(CLIFailure(message: "plan: " + m.description, exitCode: 2))
        case .success(let p): plan = p
        }
        let source: SceneSource
        do throws(CLIFailure) { source = try SceneSource.open(scene) } catch { return .failure(error) }
        defer { withExtendedLifetime(source) {} }
        let description: SceneDescription
        do {
            description = try source.parse()
            _ = try SceneBuilder.loadImages(description, file: source.displayName)
        } catch { return .failure(CLIFailure(message: error.description, exitCode: 1)) }
        let s: RecordingSettings
        switch plan.settings(for: description) {
        case .failure(let m): return .failure(CLIFailure(message: "plan: " + m.description, exitCode: m.isUsage ? 2 : 1))
        case .success(let v): s = v
        }
        guard shards <= s.frames.count else {
            return .failure(CLIFailure(message: "plan: \(shards) shards but only \(s.frames.count) frames (\(s.frames.lowerBound)..\(s.frames.upperBound)); use at most \(s.frames.count) shards", exitCode: 2))
        }
        let hash: SceneHash
        do throws(CLIFailure) { hash = try SceneHash.compute(scenePath: source.path, scene: description) } catch { return .failure(error) }
        let ranges = ShardSpec.ranges(of: s.frames, count: shards)
        let out = Output(
            flipbook_version: FlipbookVersion.string, scene: scene, scene_hash: hash.hex, scene_file_sha256: hash.sceneFile,
            images: hash.images.map { Output.Image(path: $0.path, sha256: $0.sha256) },
            width: s.pixelWidth, height: s.pixelHeight, fps: s.fps,
            frames: .init(first: s.frames.lowerBound, last: s.frames.upperBound), balance: "equal",
            shards: ranges.enumerated().map { Output.ShardRange(index: $0.offset, first: $0.element.lowerBound, last: $0.element.upperBound, frames: $0.element.count) })
        if json {
            let e = JSONEncoder()
            e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return .success(String(decoding: (try? e.encode(out)) ?? Data(), as: UTF8.self) + "\n")
        }
        var text = "scene: \(scene)\nscene hash: \(hash.hex)\nflipbook: \(FlipbookVersion.string)\n"
        text += "frames: \(s.frames.lowerBound)..\(s.frames.upperBound) (\(s.frames.count)), \(s.pixelWidth)×\(s.pixelHeight) at \(s.fps) fps\n"
        text += "shards: \(shards), contiguous, equal lengths\n"
        for (i, r) in ranges.enumerated() { text += "  \(i)/\(shards): \(r.lowerBound)..\(r.upperBound) (\(r.count) frames)\n" }
        return .success(text)
    }
}

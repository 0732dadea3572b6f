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
    @Option(parsing: .unconditional, help: "Frames to render (overrides the scene's range): A..B inclusive, A.. (to the scene's last), ..B (from its first), or N (one frame).")
    var frames: String?
    @Option(help: "Seconds to render from frame 0 (overrides the scene's range).")
    var duration: Double?
    @Option(help: ArgumentHelp("Lottie files: draw the frames over this colour (#rrggbb, #rrggbbaa, white, black, clear; default transparent, and white for outputs without alpha).", valueName: "COLOR"))
    var background: String?

    /// A `render` command with these options, so `plan` checks and resolves them exactly as
    /// `render` does (``RenderPlan``).
    func renderCommand(scene: String) throws -> RenderCommand {
        var command = try RenderCommand.parse([scene])
        command.range = self
        return command
    }
}

/// `flipbook plan SCENE --shards N [--json]`: how `render --shard I/N` splits the recording,
/// the scene's content hash and the Flipbook version — what a driver checks before (and
/// after) fanning a render out to a job array.
///
/// The ranges are contiguous. By default they have equal length ± 1 frame
/// (``ShardSpec/ranges(of:count:)``): computed from the settings alone, so the plan and every
/// worker agree on any machine. `--balance area` weights them by an estimated cost
/// (``ShardBalance``: covered area sampled per frame); such a plan is saved as JSON and given
/// to the workers (`render --plan plan.json`), which then take their range from it.
///
/// Exit codes: 0, 1 invalid scene or images, 2 usage (also more shards than frames).
struct PlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Print the frame ranges of N shards, the scene's content hash and the Flipbook version.",
        discussion: """
        Give the same recording options as to the workers' `flipbook render … --shard I/N`:
          flipbook plan scene.json --shards 8 --json
          flipbook plan scene.json --shards 8 --balance area --json > plan.json
          flipbook render scene.json -o out --shard auto --shards 8 --plan plan.json --resume
        """
    )

    @Argument(help: "The scene file (.json), a Lottie file (JSON or .lottie) or a bundle (.fbk).")
    var scene: String

    @Option(help: "The number of shards (1 or more; at most the number of frames).")
    var shards: Int

    @OptionGroup var recording: RecordingRangeOptions

    @Option(help: "How ranges are chosen: equal (equal lengths, the default; what render --shard computes by itself) or area (equal estimated cost from the covered area sampled per frame; hand the JSON to workers with render --plan).")
    var balance: Balance = .equal

    @Flag(help: "Print one JSON object (keys sorted) instead of a table.")
    var json = false

    /// `--balance`.
    enum Balance: String, CaseIterable, ExpressibleByArgument {
        /// Equal lengths ± 1 frame: integer arithmetic, what every worker computes alone.
        case equal
        /// Equal estimated cost (``ShardBalance``): computed once here, given to workers as a file.
        case area
    }

    func run() throws {
        switch execute() {
        case .failure(let f): throw f.report()
        case .success(let text): StandardStreams.write(text, to: 1)
        }
    }

    /// The JSON `--json` prints.
    struct Output: Codable, Equatable {
        struct ShardRange: Codable, Equatable {
            var index: Int, first: Int, last: Int, frames: Int
            /// `--balance area`: this shard's share of the estimated cost (0…1).
            var cost_share: Double? = nil
        }
        struct Image: Codable, Equatable { var path: String, sha256: String }
        var flipbook_version: String
        var scene: String
        var scene_hash: String
        var scene_file_sha256: String
        var images: [Image]
        var width: Int, height: Int, fps: Double
        var frames: ShardManifest.Range
        /// How the ranges were chosen: `equal` (contiguous, equal lengths ± 1) or `area`
        /// (contiguous, equal estimated cost; ``ShardBalance``).
        var balance: String
        /// `--balance area`: how many frames were sampled for the estimate.
        var sampled_frames: Int? = nil
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
        let input: SceneInput
        do throws(CLIFailure) {
            input = try source.parse()
            try input.checkImages()
        } catch { return .failure(error) }
        let s: RecordingSettings
        switch plan.settings(for: input) {
        case .failure(let m): return .failure(CLIFailure(message: "plan: " + m.description, exitCode: m.isUsage ? 2 : 1))
        case .success(let v): s = v
        }
        guard shards <= s.frames.count else {
            return .failure(CLIFailure(message: "plan: \(shards) shards but only \(s.frames.count) frames (\(s.frames.lowerBound)..\(s.frames.upperBound)); use at most \(s.frames.count) shards", exitCode: 2))
        }
        let hash: SceneHash
        do throws(CLIFailure) { hash = try input.hash(background: plan.lottieBackground) } catch { return .failure(error) }
        var ranges = ShardSpec.ranges(of: s.frames, count: shards)
        var shares: [Double]?
        var sampled: Int?
        if balance == .area {
            let builder: SceneBuilder
            do throws(CLIFailure) { builder = try input.makeBuilder(settings: s).builder } catch { return .failure(error) }
            var samples: [(frame: Int, cost: Double)] = []
            let frames = ShardBalance.sampleFrames(s.frames)
            do {
                try builder.makeRecorder(settings: s).snapshots(atFrames: frames) { n, tree in
                    samples.append((n, ShardBalance.cost(tree, width: s.pixelWidth, height: s.pixelHeight, scale: s.scale)))
                }
            } catch { return .failure(CLIFailure(message: "plan: \(error.description)", exitCode: 1)) }
            ranges = ShardBalance.ranges(of: s.frames, count: shards, samples: samples)
            sampled = samples.count
            // Each shard's share of the estimate (a block of frames costs its sample's cost).
            func costOf(_ r: ClosedRange<Int>) -> Double {
                var total = 0.0
                for (i, smp) in samples.enumerated() {
                    let last = i + 1 < samples.count ? samples[i + 1].frame - 1 : s.frames.upperBound
                    let a = max(smp.frame, r.lowerBound), b = min(last, r.upperBound)
                    if a <= b { total += Double(b - a + 1) * smp.cost }
                }
                return total
            }
            let costs = ranges.map(costOf), sum = max(costs.reduce(0, +), 1)
            shares = costs.map { ($0 / sum * 10_000).rounded() / 10_000 }
        }
        let out = Output(
            flipbook_version: FlipbookVersion.string, scene: scene, scene_hash: hash.hex, scene_file_sha256: hash.sceneFile,
            images: hash.images.map { Output.Image(path: $0.path, sha256: $0.sha256) },
            width: s.pixelWidth, height: s.pixelHeight, fps: s.fps,
            frames: .init(first: s.frames.lowerBound, last: s.frames.upperBound), balance: balance.rawValue, sampled_frames: sampled,
            shards: ranges.enumerated().map { Output.ShardRange(index: $0.offset, first: $0.element.lowerBound, last: $0.element.upperBound,
                                                                frames: $0.element.count, cost_share: shares?[$0.offset]) })
        if json {
            let e = JSONEncoder()
            e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return .success(String(decoding: (try? e.encode(out)) ?? Data(), as: UTF8.self) + "\n")
        }
        var text = "scene: \(scene)\nscene hash: \(hash.hex)\nflipbook: \(FlipbookVersion.string)\n"
        text += "frames: \(s.frames.lowerBound)..\(s.frames.upperBound) (\(s.frames.count)), \(s.pixelWidth)×\(s.pixelHeight) at \(s.fps) fps\n"
        text += "shards: \(shards), contiguous, " + (balance == .equal ? "equal lengths\n" : "equal estimated cost (covered area at \(sampled ?? 0) sampled frames; give this plan to workers as JSON with render --plan)\n")
        for (i, r) in ranges.enumerated() {
            text += "  \(i)/\(shards): \(r.lowerBound)..\(r.upperBound) (\(r.count) frames"
            if let share = shares?[i] { text += String(format: ", %.1f %% of the cost", share * 100) }
            text += ")\n"
        }
        return .success(text)
    }
}

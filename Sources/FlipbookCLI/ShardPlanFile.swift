import Foundation
import FlipbookRender

/// `render --shard … --plan plan.json`: a shard's range read from the JSON `flipbook plan
/// --json` printed (``PlanCommand/Output``), for ranges a worker must not recompute (the
/// cost-balanced ones, ``ShardBalance``).
///
/// The plan is checked against the render before any frame: the same scene (content hash: a
/// plan for another scene is exit 1, retrying cannot help), the same recording (frames, size,
/// fps) and the same number of shards (exit 2, the command line disagrees with the plan), and
/// its ranges must be contiguous and cover the recording.
enum ShardPlanFile {
    static func range(file: String, shard: ShardSpec, settings: RecordingSettings, sceneHash: String) -> Result<ClosedRange<Int>, CLIFailure> {
        func usage(_ m: String) -> Result<ClosedRange<Int>, CLIFailure> { .failure(CLIFailure(message: "--plan \(file): " + m, exitCode: 2)) }
        guard let data = FileManager.default.contents(atPath: file) else { return usage("cannot read the file") }
        let p: PlanCommand.Output
        do { p = try JSONDecoder().decode(PlanCommand.Output.self, from: data) } catch {
            return usage("not the JSON of flipbook plan --json (\(error))")
        }
        guard p.scene_hash == sceneHash else {
            return .failure(CLIFailure(message: "--plan \(file): the plan is for another scene (hash \(p.scene_hash.prefix(12))…, this scene's is \(sceneHash.prefix(12))…)", exitCode: 1))
        }
        let f = settings.frames
        guard p.frames.first == f.lowerBound, p.frames.last == f.upperBound else {
            return usage("the plan covers frames \(p.frames.first)..\(p.frames.last), this render \(f.lowerBound)..\(f.upperBound); give the options the plan was made with")
        }
        guard p.width == settings.pixelWidth, p.height == settings.pixelHeight, p.fps == settings.fps else {
            return usage("the plan is for \(p.width)×\(p.height) at \(p.fps) fps, this render \(settings.pixelWidth)×\(settings.pixelHeight) at \(settings.fps) fps")
        }
        guard p.shards.count == shard.count else {
            return usage("the plan has \(p.shards.count) shards, the command line says \(shard.count)")
        }
        var next = f.lowerBound
        for (i, r) in p.shards.enumerated() {
            guard r.index == i, r.first == next, r.first <= r.last else { return usage("shard \(i)'s range is not contiguous with the one before") }
            next = r.last + 1
        }
        guard next == f.upperBound + 1 else { return usage("the shards do not end at frame \(f.upperBound)") }
        let r = p.shards[shard.index]
        return .success(r.first...r.last)
    }
}

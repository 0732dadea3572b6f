import ArgumentParser
import Foundation

/// `--shard I/N` or `--shard auto`: which part of a recording this process renders.
///
/// A recording of frames `first…last` splits into `N` **contiguous** ranges of (nearly) equal
/// length — shard `i` (0-based) renders `first + ⌊i·C/N⌋ … first + ⌊(i+1)·C/N⌋ − 1` where `C`
/// is the frame count. The split is integer arithmetic on the settings alone (no estimate of
/// the scene's cost), so every worker, on any machine, computes exactly the same ranges.
///
/// `auto` takes the index from the variable the job system sets for each task of an array:
///
/// | system | variable | index |
/// |---|---|---|
/// | Kubernetes Indexed Job | `JOB_COMPLETION_INDEX` | 0 … completions − 1 |
/// | AWS Batch array job | `AWS_BATCH_JOB_ARRAY_INDEX` | 0 … size − 1 |
/// | Slurm job array | `SLURM_ARRAY_TASK_ID` | minus `SLURM_ARRAY_TASK_MIN` when set, so `--array=1-8` works too |
///
/// and the count from `--shards N` (the job systems do not all export it).
struct ShardSpec: Equatable, Sendable {
    /// 0-based index of this shard.
    var index: Int
    /// How many shards the recording is split into.
    var count: Int
    /// Where the index came from (`--shard` or a variable's name), for messages and manifests.
    var source: String

    /// The variables `--shard auto` reads, in the order it tries them.
    static let indexVariables = ["JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX", "SLURM_ARRAY_TASK_ID"]

    /// The most shards one recording may be split into.
    static let maximumCount = 1_000_000

    /// Parses `--shard` (and `--shards`): `I/N`, or `auto` with `--shards N` and the index from
    /// `environment`. The failure is one line naming the option or the variable (a usage error,
    /// exit 2).
    static func parse(_ text: String?, shards: Int?, environment: [String: String]) -> Result<ShardSpec?, RenderUsageError> {
        func bad(_ m: String) -> Result<ShardSpec?, RenderUsageError> { .failure(RenderUsageError(m)) }
        guard let text else {
            if shards != nil { return bad("--shards N goes with --shard auto (or give --shard I/N)") }
            return .success(nil)
        }
        let t = text.trimmingCharacters(in: .whitespaces)
        if t.lowercased() == "auto" {
            guard let n = shards else {
                return bad("--shard auto needs --shards N, the number of tasks of the job array")
            }
            guard (1...maximumCount).contains(n) else { return bad("--shards must be 1...\(maximumCount), got \(n)") }
            guard let name = indexVariables.first(where: { environment[$0] != nil }) else {
                return bad("--shard auto: none of \(indexVariables.joined(separator: ", ")) is set; run it as a task of a job "
                           + "array, or give --shard I/\(n)")
            }
            let raw = environment[name]!.trimmingCharacters(in: .whitespaces)
            guard var i = Int(raw), i >= 0 else {
                return bad("--shard auto: \(name)='\(environment[name]!)' is not a task index (a whole number ≥ 0)")
            }
            var detail = "\(name)=\(raw)"
            if name == "SLURM_ARRAY_TASK_ID", let m = environment["SLURM_ARRAY_TASK_MIN"].flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }), m >= 0, m <= i {
                i -= m
                if m != 0 { detail += " − SLURM_ARRAY_TASK_MIN=\(m)" }
            }
            guard i < n else {
                return bad("--shard auto: \(detail) gives shard \(i), but --shards is \(n) (shards are 0...\(n - 1))")
            }
            return .success(ShardSpec(index: i, count: n, source: detail))
        }
        if shards != nil { return bad("--shards goes with --shard auto; --shard \(t) already names the count") }
        let parts = t.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]) else {
            return bad("--shard must be I/N (e.g. 0/8: the first of 8 shards) or auto, got '\(text)'")
        }
        guard (1...maximumCount).contains(n) else { return bad("--shard \(t): the count must be 1...\(maximumCount)") }
        guard (0..<n).contains(i) else { return bad("--shard \(t): the index must be 0...\(n - 1) (0-based)") }
        return .success(ShardSpec(index: i, count: n, source: "--shard \(t)"))
    }

    /// The contiguous ranges `frames` splits into, shard 0 first (equal lengths ± 1 frame).
    /// `count` must be ≤ the number of frames (each shard gets at least one).
    static func ranges(of frames: ClosedRange<Int>, count: Int) -> [ClosedRange<Int>] {
        let c = frames.count
        precondition(count >= 1 && count <= c)
        return (0..<count).map { i in
            // Int multiplication cannot overflow: c ≤ 10^7 frames, count ≤ 10^6.
            let a = frames.lowerBound + i * c / count, b = frames.lowerBound + (i + 1) * c / count - 1
            return a...b
        }
    }

    /// This shard's frames, or the usage problem when there are fewer frames than shards.
    func range(of frames: ClosedRange<Int>) -> Result<ClosedRange<Int>, RenderUsageError> {
        guard count <= frames.count else {
            return .failure(RenderUsageError("\(count) shards but only \(frames.count) frames (\(frames.lowerBound)..\(frames.upperBound)); "
                                             + "use at most \(frames.count) shards", isUsage: true))
        }
        return .success(Self.ranges(of: frames, count: count)[index])
    }

    /// `.part-0003-of-0008` (zero-padded so that a shell glob lists the parts in order): inserted
    /// before the extension of a video or Y4M output, so the shards of one command line write
    /// different files.
    var fileSuffix: String {
        let width = max(4, String(count).count)
        func pad(_ v: Int) -> String { String(repeating: "0", count: max(0, width - String(v).count)) + String(v) }
        return ".part-\(pad(index))-of-\(pad(count))"
    }

    /// `film.mp4` → `film.part-0003-of-0008.mp4` (the suffix goes before the last extension).
    func segmentPath(_ path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let nameStart = slash.map { path.index(after: $0) } ?? path.startIndex
        if let dot = path[nameStart...].lastIndex(of: "."), dot != nameStart {
            return String(path[..<dot]) + fileSuffix + String(path[dot...])
        }
        return path + fileSuffix
    }
}

import Foundation
import Flipbook
import FlipbookPNG
import FlipbookRender
import FlipbookPixels
import FlipbookScene

/// `render`'s options, checked and parsed (usage errors are found here, before the scene is read).
struct RenderPlan {
    var fps: Double?
    var size: (width: Double, height: Double)?
    var scale: Double?
    var frames: FrameSelection?
    var still: Still?
    var duration: Double?
    var format: RenderFormat?
    var codec: FFmpegEncoding.Codec?
    var crf: Int?
    var quality: Int?
    var pixelFormat: FFmpegEncoding.PixelFormat?
    var progress: ProgressStyle
    var threads: Int
    var png: PNGEncodeOptions
    var pattern: FramePattern
    /// Whether `--pattern` was given (then `-o` must not be a pattern too).
    var patternGiven: Bool
    /// `--shard I/N` or `--shard auto --shards N`, resolved (index from the environment).
    var shard: ShardSpec? = nil
    /// `--plan FILE`: the shard's range comes from this plan.
    var planFile: String? = nil
    /// `--background` (Lottie files only).
    var background: BackgroundColor? = nil

    /// The background a Lottie file is drawn over: `--background`, nil when not given or fully
    /// transparent (`clear` draws what no background draws, so it hashes and records the same).
    var lottieBackground: BackgroundColor? { background.flatMap { $0.a == 0 ? nil : $0 } }

    /// `--frames`: either end may be open (`A..`, `..B`) and is then the scene's.
    struct FrameSelection: Equatable {
        var first: Int?
        var last: Int?
    }

    /// `--still`: a time in seconds or a frame number.
    enum Still: Equatable {
        case time(Double)
        case frame(Int)
    }

    /// Parses the command's options; the failure is one line naming the option.
    static func make(_ c: RenderCommand, environment: [String: String] = ProcessInfo.processInfo.environment) -> Result<RenderPlan, RenderUsageError> {
        if let f = c.range.fps, !(f.isFinite && f > 0 && f <= 1000) { return .failure(RenderUsageError("--fps must be in (0, 1000], got \(f)")) }
        if let s = c.range.scale, !(s.isFinite && s > 0 && s <= 16) { return .failure(RenderUsageError("--scale must be in (0, 16], got \(s)")) }
        if let d = c.range.duration, !(d.isFinite && d > 0) { return .failure(RenderUsageError("--duration must be a positive number of seconds, got \(d)")) }
        if c.range.duration != nil && c.range.frames != nil { return .failure(RenderUsageError("give --frames or --duration, not both")) }
        if let t = c.threads, !(1...256).contains(t) { return .failure(RenderUsageError("--threads must be 1...256, got \(t)")) }
        var background: BackgroundColor?
        if let b = c.range.background {
            guard let color = BackgroundColor(b) else {
                return .failure(RenderUsageError("--background must be #rrggbb, #rrggbbaa, white, black or clear, got '\(b)'"))
            }
            background = color
        }
        var size: (Double, Double)?
        if let s = c.range.size {
            let parts = s.lowercased().split(whereSeparator: { $0 == "x" || $0 == "×" })
            guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]), w > 0, h > 0, w.isFinite, h.isFinite else {
                return .failure(RenderUsageError("--size must be WIDTHxHEIGHT in points, e.g. 1280x720, got '\(s)'"))
            }
            size = (w, h)
        }
        var frames: FrameSelection?
        if let f = c.range.frames {
            guard let r = parseFrames(f) else {
                return .failure(RenderUsageError("--frames must be A..B, A.., ..B or N with 0 <= A <= B, e.g. 0..59 or 10, got '\(f)'"))
            }
            if let last = r.last ?? r.first, last >= RecordingSettings.maximumFrames {
                return .failure(RenderUsageError("--frames \(f) goes past the last frame allowed, \(RecordingSettings.maximumFrames - 1)"))
            }
            frames = r
        }
        var still: Still?
        if let t = c.still {
            guard let s = parseStill(t) else {
                return .failure(RenderUsageError("--still must be a time like 1.5s or 250ms, or a frame number like 45, got '\(t)'"))
            }
            if case .frame(let n) = s, n >= RecordingSettings.maximumFrames {
                return .failure(RenderUsageError("--still \(t) goes past the last frame allowed, \(RecordingSettings.maximumFrames - 1)"))
            }
            if c.range.frames != nil || c.range.duration != nil { return .failure(RenderUsageError("--still renders one frame; give it without --frames or --duration")) }
            if c.resume { return .failure(RenderUsageError("--still renders one frame; --resume has nothing to resume")) }
            still = s
        }
        if c.progress == .json && c.output == "-" {
            return .failure(RenderUsageError("--progress json writes to standard output, which -o - already uses for the video"))
        }
        let shard: ShardSpec?
        switch ShardSpec.parse(c.shard, shards: c.shards, environment: environment) {
        case .failure(let e): return .failure(e)
        case .success(let s): shard = s
        }
        if shard != nil && c.still != nil { return .failure(RenderUsageError("--still renders one frame; it cannot be split into shards")) }
        if c.planFile != nil && shard == nil { return .failure(RenderUsageError("--plan FILE gives the ranges of shards; add --shard I/N or --shard auto --shards N")) }
        let png = c.pngCompression.options
        let pattern: FramePattern
        do throws(FrameSinkError) { pattern = try c.pattern.map { p throws(FrameSinkError) in try FramePattern(p) } ?? .default } catch { return .failure(RenderUsageError("--pattern: \(error.description)")) }
        return .success(RenderPlan(fps: c.range.fps, size: size, scale: c.range.scale, frames: frames, still: still, duration: c.range.duration,
                                   format: c.format, codec: c.codec, crf: c.crf, quality: c.quality, pixelFormat: c.pixelFormat,
                                   progress: c.progress, threads: c.threads ?? ProcessInfo.processInfo.activeProcessorCount,
                                   png: png, pattern: pattern, patternGiven: c.pattern != nil, shard: shard, planFile: c.planFile,
                                   background: background))
    }

    /// `--frames`: `A..B` (also `A...B`, `A-B`) inclusive with `0 <= A <= B`; `A..` and `..B`
    /// leave one end to the scene; `N` is the one frame N.
    static func parseFrames(_ text: String) -> FrameSelection? {
        let t = text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "...", with: "..")
        func number(_ s: String) -> Int? {
            let s = s.trimmingCharacters(in: .whitespaces)
            guard let n = Int(s), n >= 0 else { return nil }
            return n
        }
        if let n = number(t) { return FrameSelection(first: n, last: n) }
        if t.contains("..") {
            let parts = t.components(separatedBy: "..")
            guard parts.count == 2 else { return nil }
            let a = parts[0].trimmingCharacters(in: .whitespaces), b = parts[1].trimmingCharacters(in: .whitespaces)
            if a.isEmpty && b.isEmpty { return nil }
            let first = a.isEmpty ? nil : number(a), last = b.isEmpty ? nil : number(b)
            if !a.isEmpty && first == nil || !b.isEmpty && last == nil { return nil }
            if let first, let last, first > last { return nil }
            return FrameSelection(first: first, last: last)
        }
        guard let r = parseRange(t) else { return nil }
        return FrameSelection(first: r.lowerBound, last: r.upperBound)
    }

    /// `--still`: `1.5s` / `250ms` (a time, finite and >= 0) or `45` (a frame number).
    static func parseStill(_ text: String) -> Still? {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        if let n = Int(t) { return n >= 0 ? .frame(n) : nil }
        let seconds: Double?
        if t.hasSuffix("ms") { seconds = Double(t.dropLast(2)).map { $0 / 1000 } }
        else if t.hasSuffix("s") { seconds = Double(t.dropLast()) }
        else { seconds = nil }
        guard let seconds, seconds.isFinite, seconds >= 0, seconds < 1e9 else { return nil }
        return .time(seconds)
    }

    /// `A..B` (also `A...B`, `A-B`), inclusive, `0 <= A <= B`.
    static func parseRange(_ text: String) -> ClosedRange<Int>? {
        let t = text.replacingOccurrences(of: "...", with: "..")
        let parts = t.contains("..") ? t.components(separatedBy: "..") : t.components(separatedBy: "-")
        guard parts.count == 2, let a = Int(parts[0].trimmingCharacters(in: .whitespaces)),
              let b = Int(parts[1].trimmingCharacters(in: .whitespaces)), a >= 0, a <= b else { return nil }
        return a...b
    }

    /// The input's output settings with the command's overrides (``settings(for:)-(SceneDescription)``);
    /// for a Lottie file also `--background`, and a new `--fps` resamples the file's duration
    /// into `⌈duration · fps⌉` frames (``SceneInput/frameCount(duration:fps:)``). `--background`
    /// on a scene file is a usage error: a scene sets its own (`output.background`).
    func settings(for input: SceneInput) -> Result<RecordingSettings, RenderUsageError> {
        guard input.isLottie else {
            if background != nil {
                return .failure(RenderUsageError("--background applies to Lottie files; a scene file sets its background in output.background", isUsage: true))
            }
            return settings(for: input.description)
        }
        var scene = input.description
        if let lottieBackground { scene.recording.background = lottieBackground.cgColor }
        if let fps, duration == nil, let d = scene.duration {
            // The whole file at the new rate (what `--frames A..` runs to); the generic rule
            // below would round, not cover the file.
            let count = SceneInput.frameCount(duration: d, fps: fps)
            scene.recording.frames = 0...(count - 1)
            scene.duration = nil
        }
        return settings(for: scene)
    }

    /// The scene's output settings with the command's overrides. A new `--fps` keeps a scene
    /// `duration` in seconds (its frame count follows); `--frames`/`--duration` replace the range.
    func settings(for scene: SceneDescription) -> Result<RecordingSettings, RenderUsageError> {
        var s = scene.recording
        if let fps { s.fps = fps }
        if let size { s.width = size.width; s.height = size.height }
        if let scale { s.scale = scale }
        if let still {
            switch still {
            case .frame(let n): s.frames = n...n
            // Measured from the scene's start like frame numbers (frame n shows start + n/fps,
            // so `1.5s` at 30 fps is frame 45); frame 0 of a recording starting there shows
            // exactly that time, on or off the frame grid.
            case .time(let t): s.start += t; s.frames = 0...0
            }
        } else if let frames {
            let scene = s.frames
            let first = frames.first ?? scene.lowerBound, last = frames.last ?? scene.upperBound
            guard first <= last else {
                let text = frames.first.map { "\($0).." } ?? ""
                return .failure(RenderUsageError("--frames \(text)\(frames.last.map { "..\($0)" } ?? "") is empty: the scene's frames are \(scene.lowerBound)..\(scene.upperBound)", isUsage: true))
            }
            s.frames = first...last
        } else if let d = duration ?? (fps != nil ? scene.duration : nil) {
            // Counted in floating point and checked before any conversion to Int (1e300 s).
            let count = (d * s.fps).rounded()
            guard count.isFinite, count <= Double(RecordingSettings.maximumFrames) else {
                return .failure(RenderUsageError("--duration \(d) s at \(s.fps) fps would be \(count) frames; the limit is \(RecordingSettings.maximumFrames)"))
            }
            s.frames = 0...max(0, Int(count) - 1)
        }
        let (w, h) = (s.pixelWidth, s.pixelHeight), m = PixelBuffer.maximumDimension
        guard (1...m).contains(w), (1...m).contains(h) else {
            // Printed from the unrounded product (a clamped pixel count would misstate it).
            func fmt(_ v: Double) -> String { v.rounded() == v && abs(v) < 1e15 ? String(Int(v)) : "\(v)" }
            return .failure(RenderUsageError("the frame size would be \(fmt((s.width * s.scale).rounded()))×\(fmt((s.height * s.scale).rounded())) pixels (size × scale); each side must be 1...\(m)"))
        }
        return .success(s)
    }
}


/// A one-line problem with `render`'s options or the settings they produce.
struct RenderUsageError: Error, CustomStringConvertible {
    var description: String
    /// A usage problem (exit 2) found only once the scene is known; otherwise exit 1.
    var isUsage = false
    init(_ d: String, isUsage: Bool = false) { description = d; self.isUsage = isUsage }
}

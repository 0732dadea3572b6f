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
    var frames: ClosedRange<Int>?
    var duration: Double?
    var format: OutputFormat?
    var threads: Int
    var png: PNGEncodeOptions
    var pattern: FramePattern

    /// Parses the command's options; the failure is one line naming the option.
    static func make(_ c: RenderCommand) -> Result<RenderPlan, RenderUsageError> {
        if let f = c.fps, !(f.isFinite && f > 0 && f <= 1000) { return .failure(RenderUsageError("--fps must be in (0, 1000], got \(f)")) }
        if let s = c.scale, !(s.isFinite && s > 0 && s <= 16) { return .failure(RenderUsageError("--scale must be in (0, 16], got \(s)")) }
        if let d = c.duration, !(d.isFinite && d > 0) { return .failure(RenderUsageError("--duration must be a positive number of seconds, got \(d)")) }
        if c.duration != nil && c.frames != nil { return .failure(RenderUsageError("give --frames or --duration, not both")) }
        if let t = c.threads, !(1...256).contains(t) { return .failure(RenderUsageError("--threads must be 1...256, got \(t)")) }
        var size: (Double, Double)?
        if let s = c.size {
            let parts = s.lowercased().split(whereSeparator: { $0 == "x" || $0 == "×" })
            guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]), w > 0, h > 0, w.isFinite, h.isFinite else {
                return .failure(RenderUsageError("--size must be WIDTHxHEIGHT in points, e.g. 1280x720, got '\(s)'"))
            }
            size = (w, h)
        }
        var frames: ClosedRange<Int>?
        if let f = c.frames {
            guard let r = parseRange(f) else { return .failure(RenderUsageError("--frames must be A..B with 0 <= A <= B, e.g. 0..59, got '\(f)'")) }
            guard r.upperBound < RecordingSettings.maximumFrames else {
                return .failure(RenderUsageError("--frames \(f) goes past the last frame allowed, \(RecordingSettings.maximumFrames - 1)"))
            }
            frames = r
        }
        let png = c.pngCompression.options
        let pattern: FramePattern
        do { pattern = try FramePattern(c.pattern) } catch { return .failure(RenderUsageError("--pattern: \(error.description)")) }
        return .success(RenderPlan(fps: c.fps, size: size, scale: c.scale, frames: frames, duration: c.duration,
                                   format: c.format, threads: c.threads ?? ProcessInfo.processInfo.activeProcessorCount,
                                   png: png, pattern: pattern))
    }

    /// `A..B` (also `A...B`, `A-B`), inclusive, `0 <= A <= B`.
    static func parseRange(_ text: String) -> ClosedRange<Int>? {
        let t = text.replacingOccurrences(of: "...", with: "..")
        let parts = t.contains("..") ? t.components(separatedBy: "..") : t.components(separatedBy: "-")
        guard parts.count == 2, let a = Int(parts[0].trimmingCharacters(in: .whitespaces)),
              let b = Int(parts[1].trimmingCharacters(in: .whitespaces)), a >= 0, a <= b else { return nil }
        return a...b
    }

    /// The scene's output settings with the command's overrides. A new `--fps` keeps a scene
    /// `duration` in seconds (its frame count follows); `--frames`/`--duration` replace the range.
    func settings(for scene: SceneDescription) -> Result<RecordingSettings, RenderUsageError> {
        var s = scene.recording
        if let fps { s.fps = fps }
        if let size { s.width = size.width; s.height = size.height }
        if let scale { s.scale = scale }
        if let frames {
            s.frames = frames
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
    init(_ d: String) { description = d }
}

import Flipbook
import FlipbookRender
import Foundation
import FlipbookScene
import FlipbookPixels

/// The sink `render` writes to and how to describe it.
struct RenderTarget {
    var sink: FrameSink
    /// Where the output goes, for messages (`-` for stdout, empty for null).
    var location: String
    var format: RenderFormat

    struct Failure: Error { var code: Int32; var message: String }

    /// Chooses and prepares the output.
    /// - png: `-o` is a folder (created) that gets `frame_%05d.png` (or `--pattern`); a path
    ///   with a `%d` conversion (`out/f_%04d.png`) is folder + pattern; a `.png` path without
    ///   one is a single file, for a recording of one frame (`--still`, `--frames N`).
    /// - y4m and the ffmpeg formats: `-o` is a file with that extension, or a folder that gets
    ///   `<scene name>.<ext>`; y4m also takes `-` (stdout).
    /// - null needs no `-o`.
    /// `--codec`/`--crf`/`--quality`/`--pixel-format` are checked against the format here
    /// (``FFmpegEncoding/validate()``); each problem names the option and the value (exit 2).
    /// `opaqueBackground` is what formats without alpha (Y4M, MP4, and the others with an
    /// opaque pixel format) flatten translucent pixels onto.
    static func make(format: RenderFormat, output: String?, scene: String, plan: RenderPlan, frameCount: Int, io: RenderIO,
                     opaqueBackground: RGBA8 = .black) -> Result<RenderTarget, Failure> {
        func usage(_ m: String) -> Result<RenderTarget, Failure> { .failure(Failure(code: RenderExit.usage, message: m)) }
        func outputFailed(_ m: String) -> Result<RenderTarget, Failure> { .failure(Failure(code: RenderExit.outputFailed, message: m)) }
        func makeFolder(_ path: String) -> String? {
            // A path component that exists but is not a folder is named (Foundation's own error
            // is "NSCocoaErrorDomain error 512").
            var prefix = path.hasPrefix("/") ? "/" : ""
            for part in path.split(separator: "/") {
                prefix += (prefix.isEmpty || prefix.hasSuffix("/") ? "" : "/") + part
                var isDir: ObjCBool = false
                if FileManager.default.fileExists(atPath: prefix, isDirectory: &isDir), !isDir.boolValue {
                    return "\(path): cannot create the output folder: \(prefix) is a file, not a folder"
                }
            }
            do { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true); return nil } catch {
                return "\(path): cannot create the output folder: \((error as NSError).localizedDescription)"
            }
        }
        // Encoder options: only for the ffmpeg formats, and only values that format takes.
        var encoding: FFmpegEncoding?
        if let container = format.container {
            let e = FFmpegEncoding(container: container, codec: plan.codec, pixelFormat: plan.pixelFormat, quality: plan.crf ?? plan.quality)
            if plan.crf != nil && plan.quality != nil { return usage("give --crf or --quality, not both") }
            switch e.validate() {
            case .codec(let c, _, _)?:
                return usage("--codec \(c.rawValue): \(e.validate()!.description)")
            case .pixelFormat(let p, _, _)?:
                return usage("--pixel-format \(p.rawValue): \(e.validate()!.description)")
            case .noQuality(let c)?:
                return usage("\(plan.crf != nil ? "--crf" : "--quality") does not apply to \(c.rawValue) (it has no quality setting)")
            case .quality(let q, let c, let range)?:
                let option = plan.crf != nil ? "--crf" : "--quality"
                return usage("\(option) \(q) is outside \(c.rawValue)'s range \(range.lowerBound)...\(range.upperBound)")
            case nil:
                break
            }
            // The knob's name must match the codec's: CRF for h264/h265/vp9, quality for webp.
            if plan.crf != nil && !e.codec.qualityIsCRF { return usage("--crf does not apply to \(e.codec.rawValue); use --quality") }
            if plan.quality != nil && e.codec.qualityIsCRF { return usage("--quality does not apply to \(e.codec.rawValue); use --crf") }
            encoding = e
        } else {
            let given = [("--codec", plan.codec != nil), ("--crf", plan.crf != nil), ("--quality", plan.quality != nil),
                         ("--pixel-format", plan.pixelFormat != nil)].filter(\.1).map(\.0)
            if let first = given.first {
                return usage("\(first) works with the video and animated-image formats (mp4, mov, webm, gif, apng, webp), not \(format.rawValue)")
            }
        }
        if format == .null { return .success(RenderTarget(sink: NullFrameSink(), location: "", format: .null)) }
        guard let output, !output.isEmpty else { return usage("-o/--output is required for --format \(format.rawValue)") }
        if output == "-" && format != .y4m {
            return usage("-o - (standard output) works with --format y4m only, not \(format.rawValue)")
        }
        // An output named like another format's file is a mistake, not a folder to create.
        let ext = RenderFormat.fileExtension(of: output)
        if let ext, RenderFormat.unsupportedExtensions.contains(ext) {
            return usage("-o \(output): Flipbook does not write .\(ext) files; use .mp4, .mov, .webm, .gif, .apng, .webp, .y4m or .png (or --format)")
        }
        if let other = RenderFormat.inferred(from: output), other != format {
            return usage("-o \(output) looks like a .\(ext!) file, but --format is \(format.rawValue)"
                         + (format == .png ? " (PNG frames go into a folder)" : ""))
        }
        switch format {
        case .png:
            let slash = output.lastIndex(of: "/")
            let folder = slash.map { String(output[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
            let name = slash.map { String(output[output.index(after: $0)...]) } ?? output
            if name.contains("%") {
                // A pattern: folder + file names.
                if plan.patternGiven { return usage("-o \(output) is already a file-name pattern; drop --pattern") }
                let pattern: FramePattern
                do { pattern = try FramePattern(name) } catch { return usage("-o \(output): \(error.description)") }
                if let m = makeFolder(folder) { return outputFailed(m) }
                return .success(RenderTarget(sink: PNGSequenceSink(directory: folder, pattern: pattern, options: plan.png),
                                             location: folder + "/" + name, format: .png))
            }
            if ext == "png" {
                // One file: a recording of exactly one frame.
                guard frameCount == 1 else {
                    return usage("-o \(output) is one PNG file, but \(frameCount) frames would be rendered; give a folder, a pattern "
                                 + "like out/frame_%05d.png, --frames N or --still")
                }
                if plan.patternGiven { return usage("--pattern names files in a folder; -o \(output) is one file") }
                var isDir: ObjCBool = false
                if FileManager.default.fileExists(atPath: folder, isDirectory: &isDir), !isDir.boolValue {
                    return outputFailed("\(output): cannot create the file: \(folder) is a file, not a folder")
                }
                if let m = makeFolder(folder) { return outputFailed(m) }
                return .success(RenderTarget(sink: PNGFileSink(path: output, options: plan.png), location: output, format: .png))
            }
            if let m = makeFolder(output) { return outputFailed(m) }
            return .success(RenderTarget(sink: PNGSequenceSink(directory: output, pattern: plan.pattern, options: plan.png),
                                         location: output + "/" + plan.pattern.pattern, format: .png))
        case .null:
            fatalError("handled above")
        default:
            if format == .y4m && output == "-" {
                return .success(RenderTarget(sink: Y4MSink(path: nil, background: opaqueBackground), location: "-", format: .y4m))
            }
            var file = output
            if ext != format.rawValue {
                if let m = makeFolder(output) { return outputFailed(m) }
                let name = URL(fileURLWithPath: scene).deletingPathExtension().lastPathComponent
                file = output + "/" + name + "." + format.rawValue
            }
            // The shards of one command line write different segments (merged by `flipbook merge`),
            // which only containers can be joined into without re-encoding.
            if let shard = plan.shard {
                guard [.mp4, .mov, .webm, .y4m].contains(format) else {
                    return usage("--shard with .\(format.rawValue): animated images cannot be joined from parts; shard PNG frames, "
                                 + "MP4, MOV, WebM or Y4M (then `flipbook merge`), or render the \(format.rawValue) in one process")
                }
                file = shard.segmentPath(file)
            }
            let sink: FrameSink = encoding.map { FFmpegSink(path: file, encoding: $0, background: opaqueBackground, searchPath: io.searchPath) }
                ?? Y4MSink(path: file, background: opaqueBackground)
            return .success(RenderTarget(sink: sink, location: file, format: format))
        }
    }

    /// Bytes of output written so far.
    var bytesWritten: Int {
        switch sink {
        case let s as PNGSequenceSink: return s.bytesWritten
        case let s as Y4MSink: return s.bytesWritten
        case let s as PNGFileSink: return s.bytesWritten
        default:
            let size = (try? FileManager.default.attributesOfItem(atPath: location)[.size] as? NSNumber)?.intValue
            return format == .null ? 0 : size ?? 0
        }
    }
}

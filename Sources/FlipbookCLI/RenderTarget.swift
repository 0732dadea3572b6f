import Flipbook
import FlipbookRender
import Foundation
import FlipbookScene

/// The sink `render` writes to and how to describe it.
struct RenderTarget {
    var sink: FrameSink
    /// Where the output goes, for messages (`-` for stdout, empty for null).
    var location: String
    var format: OutputFormat

    struct Failure: Error { var code: Int32; var message: String }

    /// Chooses and prepares the output. PNG: `-o` is a folder (created). Y4M/MP4/WebM: `-o`
    /// is a file with that extension, or a folder that gets `<scene name>.<ext>`; Y4M also takes
    /// `-` (stdout). Null needs no `-o`.
    static func make(format: OutputFormat, output: String?, scene: String, plan: RenderPlan, io: RenderIO) -> Result<RenderTarget, Failure> {
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
        if format == .null { return .success(RenderTarget(sink: NullFrameSink(), location: "", format: .null)) }
        guard let output, !output.isEmpty else { return usage("-o/--output is required for --format \(format.rawValue)") }
        if output == "-" && format != .y4m {
            return usage("-o - (standard output) works with --format y4m only, not \(format.rawValue)")
        }
        // An output named like another format's file is a mistake, not a folder to create.
        let lower = output.lowercased()
        if let other = ["png", "y4m", "mp4", "webm"].first(where: { lower.hasSuffix("." + $0) }), other != format.rawValue {
            return usage("-o \(output) looks like a .\(other) file, but --format is \(format.rawValue)"
                         + (format == .png ? " (PNG frames go into a folder)" : ""))
        }
        switch format {
        case .png:
            if let m = makeFolder(output) { return outputFailed(m) }
            return .success(RenderTarget(sink: PNGSequenceSink(directory: output, pattern: plan.pattern, options: plan.png),
                                         location: output + "/" + plan.pattern.pattern, format: .png))
        case .y4m, .mp4, .webm:
            let ext = format.rawValue
            var file = output
            if format == .y4m && output == "-" {
                return .success(RenderTarget(sink: Y4MSink(path: nil), location: "-", format: .y4m))
            }
            if !output.lowercased().hasSuffix("." + ext) {
                if let m = makeFolder(output) { return outputFailed(m) }
                let name = URL(fileURLWithPath: scene).deletingPathExtension().lastPathComponent
                file = output + "/" + name + "." + ext
            }
            let sink: FrameSink = format == .y4m ? Y4MSink(path: file)
                : FFmpegSink(path: file, container: format == .mp4 ? .mp4 : .webm, searchPath: io.searchPath)
            return .success(RenderTarget(sink: sink, location: file, format: format))
        case .null:
            fatalError("handled above")
        }
    }

    /// Bytes of output written so far.
    var bytesWritten: Int {
        switch sink {
        case let s as PNGSequenceSink: return s.bytesWritten
        case let s as Y4MSink: return s.bytesWritten
        default:
            let size = (try? FileManager.default.attributesOfItem(atPath: location)[.size] as? NSNumber)?.intValue
            return format == .null ? 0 : size ?? 0
        }
    }
}

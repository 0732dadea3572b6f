import ArgumentParser
import FlipbookRender
import FlipbookScene

/// What `flipbook render` writes.
///
/// Chosen in this order: `--format`; else the extension of `-o` (`out.mp4`, `.mov`, `.webm`,
/// `.gif`, `.apng`, `.webp`, `.y4m`, `.png`); else the scene's `output.format`; else `png`
/// (a folder of frames). The scene file's `format` key takes the same names.
enum RenderFormat: String, CaseIterable, Sendable, ExpressibleByArgument {
    case png, y4m, mp4, mov, webm, gif, apng, webp, null

    init(_ scene: OutputFormat) {
        self = RenderFormat(rawValue: scene.rawValue) ?? .png
    }

    /// The ffmpeg container, for the formats ffmpeg writes.
    var container: FFmpegEncoding.Container? { FFmpegEncoding.Container(rawValue: rawValue) }

    /// The extensions that name a format in `-o` (lower case, without the dot).
    static let fileExtensions: [String: RenderFormat] = [
        "png": .png, "y4m": .y4m, "mp4": .mp4, "mov": .mov, "webm": .webm, "gif": .gif, "apng": .apng, "webp": .webp,
    ]

    /// Extensions of files Flipbook does not write: `-o out.mkv` is an error rather than a
    /// folder called `out.mkv`.
    static let unsupportedExtensions: Set<String> = ["mkv", "avi", "m4v", "ogv", "flv", "wmv", "mpg", "mpeg", "jpg", "jpeg", "tif", "tiff", "avif", "heic"]

    /// The lower-case extension of the last path component, if any (`out/film.MP4` → `mp4`).
    static func fileExtension(of path: String) -> String? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let ext = name[name.index(after: dot)...].lowercased()
        return ext.isEmpty ? nil : ext
    }

    /// The format the output path names by its extension, or `nil` (a folder, `-`).
    static func inferred(from output: String) -> RenderFormat? {
        fileExtension(of: output).flatMap { fileExtensions[$0] }
    }
}

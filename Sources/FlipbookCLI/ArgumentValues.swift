import ArgumentParser
import FlipbookPNG
import FlipbookRender

// Closed option sets of the command line, as ArgumentParser values: `--help` lists the choices
// and a wrong value is a usage error (exit 2) naming them.

extension FFmpegEncoding.Codec: ExpressibleByArgument {}
extension FFmpegEncoding.PixelFormat: ExpressibleByArgument {}
extension PNGPreset: ExpressibleByArgument {}

/// How `render` reports progress (`--progress`).
enum ProgressStyle: String, CaseIterable, Sendable, ExpressibleByArgument {
    /// A redrawn bar on a terminal, else a line per 10 % (stderr).
    case text
    /// One JSON object per line on stdout: `{"frame":12,"total":90,"fps":41.3,"eta":1.89}`.
    case json
    /// Nothing (like `--quiet`, which also drops the summary).
    case none
}

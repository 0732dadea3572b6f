import ArgumentParser
import FlipbookPNG
import FlipbookPixels

/// `flipbook pattern -o FILE.png`: a deterministic test image.
///
/// The image is ``PixelBuffer/testPattern(width:height:index:)`` with index 16 (the layer
/// image of the benchmark scenes): red ramps with x, green with y, a 32-px blue checker, and
/// alpha falling from 255 at the top-left of each 256-px tile to 128, premultiplied. Same
/// arguments, same bytes, every run.
struct PatternCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pattern",
        abstract: "Write a deterministic test pattern (colour ramps, a checker and an alpha gradient) to a PNG."
    )

    @Option(name: .shortAndLong, help: "The PNG file to write.")
    var output: String

    @Option(help: "Image size as WIDTHxHEIGHT.")
    var size: String = "512x512"

    @Option(help: "Compression preset: fast (Flipbook's own deflate, ~350 MB/s), fastZlib, default or small.")
    var preset: PNGPreset = .default

    /// Parses `WxH` (also `W×H`), each side 1…``PixelBuffer/maximumDimension``.
    static func parseSize(_ text: String) -> (width: Int, height: Int)? {
        let parts = text.lowercased().split(whereSeparator: { $0 == "x" || $0 == "×" })
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
              (1...PixelBuffer.maximumDimension).contains(w), (1...PixelBuffer.maximumDimension).contains(h)
        else { return nil }
        return (w, h)
    }

    func validate() throws {
        guard Self.parseSize(size) != nil else {
            throw ValidationError("--size must be WIDTHxHEIGHT with each side 1...\(PixelBuffer.maximumDimension), got '\(size)'")
        }
    }

    func run() throws {
        if case .failure(let failure) = Self.execute(output: output, size: size, preset: preset) {
            throw failure.report()
        }
        print("wrote \(output)")
    }

    /// Renders and writes the pattern; no printing (tests call it).
    static func execute(output: String, size: String, preset: PNGPreset) -> Result<Void, CLIFailure> {
        guard let (w, h) = parseSize(size) else {
            return .failure(CLIFailure(message: "invalid --size '\(size)'"))
        }
        let image = PixelBuffer.testPattern(width: w, height: h, index: 16)
        let text = [PNGTextChunk("flipbook:pattern", "P(\(w), \(h), 16)"), PNGTextChunk("Software", "flipbook \(FlipbookVersion.string)")]
        do {
            try PNG.write(image, to: output, options: preset.options.withText(text))
            return .success(())
        } catch {
            return .failure(CLIFailure(message: error.description))
        }
    }
}

import ArgumentParser
import FlipbookJPEG
import FlipbookPNG
import FlipbookRender
#if canImport(Glibc)
import Glibc
#endif

/// `flipbook info FILE`: describe a file without rendering anything.
///
/// The kind of file is chosen by ``InfoCommand/Input/init(path:)``, by content: a Lottie file
/// (Bodymovin JSON or a dotLottie zip, ``InputKind``), else a `.json` name is a scene file,
/// else an image, PNG or JPEG told apart by its first bytes (``ImageFormat``).
/// Output is `key: value` lines on stdout, or with `--json` one JSON object (``InfoJSON``). The
/// whole image is checked — a PNG's every chunk and CRC, a JPEG decoded at ⅛ scale — so a
/// truncated or corrupt file gives one line on stderr and exit code 1.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print what a PNG, a JPEG, a scene or a Lottie file says about itself: size, colour type, bit depth, alpha, text; frames, fps, layers; a Lottie file's assets, markers, fonts and features (marking those not drawn exactly).",
        discussion: "With --json: one JSON object on one line (keys sorted); see docs/sinks.md."
    )

    @Argument(help: "The file to describe: a PNG or JPEG, a Lottie file (JSON or .lottie), told apart by content; or a .json scene.")
    var file: String

    @Flag(help: "Print one JSON object instead of key: value lines.")
    var json = false

    /// What `info` knows how to describe.
    enum Input: Equatable {
        /// A PNG or a JPEG (``ValidatedImage``); anything that is neither gets "not a PNG or JPEG".
        case image
        /// `.json` scene files (``SceneInfo``).
        case scene
        /// Lottie files, Bodymovin JSON or dotLottie, by content whatever their names (``LottieInfo``).
        case lottie

        init(path: String) {
            let kind = InputKind.of(path: path)
            if kind.isLottie { self = .lottie; return }
            self = path.lowercased().hasSuffix(".json") ? .scene : .image
        }
    }

    /// An image file's checked header.
    enum ValidatedImage {
        case png(PNGInfo)
        case jpeg(JPEGInfo)
    }

    /// Reads the file at `path` and checks the whole image without keeping its pixels: a PNG's
    /// chunk walk (lengths, CRCs, IEND; nothing inflated), a JPEG decoded at ⅛ scale (every
    /// scan read; a 10000² image costs no 400 MB). Errors are one line naming the path.
    static func validateImage(path: String) -> Result<ValidatedImage, CLIFailure> {
        let bytes: [UInt8]
        let format: ImageFormat
        do {
            bytes = try ImageDecoder.readFile(path)
            format = try ImageDecoder.format(of: bytes)
        } catch { return .failure(CLIFailure(message: error.at(path).description)) }
        switch format {
        case .jpeg:
            do { return .success(.jpeg(try JPEG.validate(bytes))) } catch {
                return .failure(CLIFailure(message: "\(path): \(error.message)"))
            }
        case .png:
            do { return .success(.png(try PNG.validate(bytes))) } catch {
                return .failure(CLIFailure(message: "\(path): \(error.message)"))
            }
        }
    }

    func run() throws {
        if json {
            switch InfoJSON.report(path: file) {
            case .success(let line): print(line)
            case .failure(let failure): throw failure.report()
            }
            return
        }
        switch Self.execute(path: file) {
        case .success(let lines):
            print(lines.joined(separator: "\n"))
        case .failure(let failure):
            throw failure.report()
        }
    }

    /// The report lines for `path`, or the one-line failure. Pure: no printing (tests call it).
    static func execute(path: String) -> Result<[String], CLIFailure> {
        switch Input(path: path) {
        case .image:
            // The header alone does not prove the file is whole: the whole image is checked
            // (``validateImage(path:)``), so a file cut short or damaged is reported instead of
            // described.
            switch validateImage(path: path) {
            case .success(.png(let info)): return .success(pngReport(info, path: path))
            case .success(.jpeg(let info)): return .success(jpegReport(info, path: path))
            case .failure(let failure): return .failure(failure)
            }
        case .scene:
            return SceneInfo.report(path: path)
        case .lottie:
            return LottieInfo.report(path: path).map(LottieInfo.lines)
        }
    }

    /// `key: value` lines describing a JPEG header.
    static func jpegReport(_ info: JPEGInfo, path: String) -> [String] {
        [
            "file: \(path)",
            "format: JPEG",
            "size: \(info.width)x\(info.height)",
            "color space: \(info.colorSpace)",
            "subsampling: \(info.subsampling ?? "other")",
            "progressive: \(info.isProgressive ? "yes" : "no")",
            "entropy coding: \(info.isArithmeticCoded ? "arithmetic" : "Huffman")",
            "alpha: no",
        ]
    }

    /// `key: value` lines describing a PNG header.
    static func pngReport(_ info: PNGInfo, path: String) -> [String] {
        let alpha: String
        switch (info.colorType, info.hasAlpha) {
        case (.rgba, _), (.grayAlpha, _): alpha = "yes (alpha channel)"
        case (_, true): alpha = "yes (tRNS)"
        default: alpha = "no"
        }
        var lines = [
            "file: \(path)",
            "format: PNG",
            "size: \(info.width)x\(info.height)",
            "color type: \(info.colorType) (\(info.colorType.rawValue))",
            "bit depth: \(info.bitDepth)",
            "interlace: \(info.isInterlaced ? "Adam7" : "none")",
            "alpha: \(alpha)",
        ]
        for chunk in info.text {
            lines.append("text: \(chunk.keyword) = \(chunk.text.replacingNewlines())")
        }
        return lines
    }
}

/// An error the CLI reports as one line on stderr (`flipbook: <message>`) with exit code 1
/// (invalid input). Commands return or throw it instead of printing and exiting themselves.
struct CLIFailure: Error, CustomStringConvertible, Equatable {
    var message: String
    var exitCode: Int32 = 1
    var description: String { message }

    /// The exact stderr line (with its newline).
    var stderrLine: String { "flipbook: " + message.replacingNewlines() + "\n" }

    /// Writes ``stderrLine`` to stderr and returns the `ExitCode` to throw.
    func report() -> ExitCode {
        let bytes = Array(stderrLine.utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
        return ExitCode(exitCode)
    }
}

extension String {
    /// The text on one line (CR/LF become spaces), for one-line messages.
    func replacingNewlines() -> String {
        String(map { $0 == "\n" || $0 == "\r" || $0 == "\r\n" ? " " : $0 })
    }
}

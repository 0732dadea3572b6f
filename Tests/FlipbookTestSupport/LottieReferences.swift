import Foundation
import FlipbookCompare
import FlipbookPixels
import FlipbookPNG

/// The reference frames of the Lottie acceptance tests (issue 38): for each of the four fixtures
/// in `Tests/Fixtures/lottie/fixtures/`, frames 0, N/4, N/2, 3N/4 and N − 1 (N = op − ip, integer
/// division) rendered at 512×512 by ThorVG, with a tolerance per frame derived from how far a
/// second player, rlottie, is from ThorVG on that same frame.
///
/// `scripts/lottie-references.py` wrote every file this reads; `Tests/Fixtures/lottie/README.md`
/// explains the files, the tolerance rule and the observed disagreements. A test renders each
/// frame with Flipbook and compares:
///
/// ```swift
/// @Test(arguments: try LottieReferences().frames)
/// func matchesThorVG(_ reference: LottieReferenceFrame) throws {
///     let frame: PixelBuffer = ... // Flipbook's rendering of reference.fixturePath at
///                                  // reference.seconds, 512×512, fitted and centred
///     let result = try reference.compare(frame)   // writes PNGs to /tmp only on failure
///     #expect(result.passes, "\(result)")
/// }
/// ```
///
/// The files are found relative to this source file (`#filePath`), as the other tests find
/// `Tests/Fixtures`: they are not bundle resources.
public struct LottieReferences: Sendable {
    /// `Tests/Fixtures/lottie`, the folder holding `fixtures/` and `references/`.
    public static let directory: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/lottie").path

    /// `Tests/Fixtures/lottie/features`: the feature files (one small hand-written Lottie file per
    /// feature of issue 38) and, in `references/`, their frames rendered by ThorVG at 200×200,
    /// in the same layout (`LottieReferences(directory: LottieReferences.featuresDirectory)`).
    public static let featuresDirectory: String = directory + "/features"

    /// Where ``LottieReferenceFrame/compare(_:failureDirectory:)`` writes the images of a failed
    /// comparison.
    public static let failureDirectory = "/tmp/flipbook-lottie-failures"

    /// The acceptance rule: a frame passes when Flipbook's mean |Δ| to ThorVG is at most
    /// `max(1.5, 1.5 × d)`, `d` being the mean |Δ| between ThorVG and rlottie on that frame.
    /// Where the two players agree closely, 1.5 levels is the floor; where they disagree, Flipbook
    /// may be as far from ThorVG as rlottie is, and half as far again.
    public static func tolerance(forDisagreement d: Double) -> Double { max(1.5, 1.5 * d) }

    /// Width and height of every reference frame (512×512).
    public let width: Int, height: Int
    /// The players that made the references and the tools around them, e.g.
    /// `"thorvg": "thorvg-python 1.1.3, ThorVG 1.0.4"`, `"rlottie": "rlottie-python 1.3.8"`.
    public let engines: [String: String]
    /// The command that wrote the files.
    public let command: String
    /// The four fixtures, in the order of `references.json`.
    public let fixtures: [LottieReferenceFixture]

    /// All reference frames, fixture by fixture (20: four fixtures × five frames).
    public var frames: [LottieReferenceFrame] { fixtures.flatMap(\.frames) }

    /// Reads `references/references.json` under `directory`. The PNGs are decoded later, by
    /// ``LottieReferenceFrame/image``.
    public init(directory: String = LottieReferences.directory) throws {
        let url = URL(fileURLWithPath: directory + "/references/references.json")
        let manifest = try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: url))
        guard manifest.size.count == 2 else { throw ManifestError(message: "size must be [width, height]") }
        width = manifest.size[0]
        height = manifest.size[1]
        engines = manifest.engines
        command = manifest.command
        fixtures = try manifest.fixtures.map { f in
            let path = directory + "/" + f.file
            let frames = try f.frames.map { r in
                guard let checksum = UInt64(r.fnv1a64, radix: 16) else {
                    throw ManifestError(message: "\(f.name) k=\(r.k): fnv1a64 is not hexadecimal")
                }
                return LottieReferenceFrame(
                    fixture: f.name, k: r.k, frame: r.frame, seconds: Double(r.k) / f.fps,
                    fixturePath: path, referencePath: directory + "/references/" + r.png,
                    width: manifest.size[0], height: manifest.size[1],
                    disagreement: r.disagreement, disagreementWithRlottieClipped: r.disagreementWithRlottieClipped,
                    tolerance: r.tolerance, rlottieDisagreementIgnored: f.rlottieDisagreementIgnored, thorvgChecksum: checksum)
            }
            return LottieReferenceFixture(
                name: f.name, path: path, width: f.width, height: f.height, inPoint: f.ip, outPoint: f.op,
                framesPerSecond: f.fps, frameCount: f.frameCount, frames: frames,
                referenceFile: f.referenceFile.map { directory + "/" + $0 }, rlottieDisagreementIgnored: f.rlottieDisagreementIgnored)
        }
    }

    /// A `references.json` that does not have the expected shape.
    public struct ManifestError: Error, CustomStringConvertible {
        public var message: String
        public var description: String { "references.json: \(message)" }
    }

    // The JSON as the script writes it (only the fields the tests use).
    struct Manifest: Decodable {
        var command: String
        var engines: [String: String]
        var size: [Int]
        var fixtures: [Fixture]
        struct Fixture: Decodable {
            var name, file: String
            var width, height: Int
            var ip, op, fps: Double
            var frameCount: Int
            var frames: [Frame]
            var referenceFile: String?
            var rlottieDisagreementIgnored: String?
        }
        struct Frame: Decodable {
            var k: Int
            var frame: Double
            var png: String
            var disagreement, disagreementWithRlottieClipped, tolerance: Double
            var fnv1a64: String
        }
    }
}

/// One Lottie file of the acceptance tests and its five reference frames.
public struct LottieReferenceFixture: Sendable, CustomStringConvertible {
    /// The file's stem: `LottieLogo1`, `MotionCorpse_Jrcanest`, `issue_2066`, `issue_769`.
    public let name: String
    /// Absolute path of the Lottie JSON (`Tests/Fixtures/lottie/fixtures/<name>.json`).
    public let path: String
    /// The composition's size (`w`, `h`).
    public let width: Int, height: Int
    /// `ip` and `op`: the first frame and the frame after the last (Lottie's `op` is exclusive).
    public let inPoint: Double, outPoint: Double
    /// `fr`.
    public let framesPerSecond: Double
    /// N = op − ip.
    public let frameCount: Int
    /// k = 0, N/4, N/2, 3N/4, N − 1.
    public let frames: [LottieReferenceFrame]
    /// Feature files only: the file ThorVG and rlottie rendered instead of this one (absolute
    /// path), when they do not draw one of its features right: the same picture, drawn with
    /// features they do (`features/equivalents/<name>.json`). Nil: they rendered the file itself.
    public var referenceFile: String? = nil
    /// Feature files only: why rlottie's disagreement is not used for this file's tolerance
    /// (rlottie does not draw it right; the tolerance is then the rule's floor, 1.5).
    public var rlottieDisagreementIgnored: String? = nil

    public var description: String { name }
}

/// One reference frame: ThorVG's rendering of `fixture` at file frame `ip + k`, 512×512, the
/// composition fitted preserving its aspect ratio (scale = min(512/w, 512/h)) and centred, on a
/// transparent background, and the tolerance Flipbook's rendering of the same frame must meet.
public struct LottieReferenceFrame: Sendable, CustomStringConvertible {
    /// The fixture's name (`LottieLogo1` …).
    public let fixture: String
    /// The frame's index from the start, 0 ..< N.
    public let k: Int
    /// The file's frame number, `ip + k`.
    public let frame: Double
    /// The frame's time from the start of the animation, `k / fps` seconds.
    public let seconds: Double
    /// Absolute path of the fixture's Lottie JSON.
    public let fixturePath: String
    /// Absolute path of ThorVG's frame, a straight-alpha PNG.
    public let referencePath: String
    /// The frame's size (512×512).
    public let width: Int, height: Int
    /// Mean |Δ| between ThorVG and rlottie on this frame (premultiplied RGBA8, all pixels, all
    /// four channels, 0–255).
    public let disagreement: Double
    /// The same with rlottie's pixels wholly outside the composition rectangle set to zero:
    /// rlottie does not clip to the composition, ThorVG does. Informational: what the
    /// disagreement is once that one systematic difference is taken out.
    public let disagreementWithRlottieClipped: Double
    /// `max(1.5, 1.5 × disagreement)`: the largest mean |Δ| to ThorVG this frame accepts (1.5
    /// when ``rlottieDisagreementIgnored`` is set).
    public let tolerance: Double
    /// The fixture's ``LottieReferenceFixture/rlottieDisagreementIgnored``.
    public var rlottieDisagreementIgnored: String? = nil
    /// FNV-1a (64-bit) of ThorVG's premultiplied RGBA8 bytes, as rendered: ``image`` must hash to it.
    public let thorvgChecksum: UInt64

    /// ThorVG's frame, premultiplied: the PNG decoded by FlipbookPNG, which premultiplies with
    /// `(c · a + 127) / 255`. That gives back ThorVG's bytes exactly (the script checks every
    /// frame's round trip and records the largest error, 0; the unit tests check
    /// ``thorvgChecksum``). Decoded on each access.
    public var image: PixelBuffer {
        get throws { try PNG.decode(contentsOf: referencePath) }
    }

    /// Compares Flipbook's rendering of this frame with ThorVG's. On failure (mean |Δ| above
    /// ``tolerance``, or a frame of the wrong size) it writes three PNGs to `failureDirectory`:
    /// `<fixture>_<k>_actual.png`, `…_reference.png` and `…_diff.png` (``DiffImage``: pixels off
    /// by more than 16 levels in a channel in magenta to red, smaller differences in teal, equal
    /// pixels in grey), and the result's description names them.
    public func compare(_ actual: PixelBuffer,
                        failureDirectory: String = LottieReferences.failureDirectory) throws -> LottieReferenceComparison {
        let expected = try image
        let delta = meanAbsoluteDelta(actual, expected)
        guard !(delta <= tolerance) else {
            return LottieReferenceComparison(frame: self, delta: delta, passes: true, writtenFiles: [])
        }
        try FileManager.default.createDirectory(atPath: failureDirectory, withIntermediateDirectories: true)
        let stem = failureDirectory + "/\(fixture)_\(k)_"
        var files = [stem + "actual.png", stem + "reference.png"]
        try PNG.write(actual, to: files[0])
        try PNG.write(expected, to: files[1])
        if let diff = try? DiffImage.make(actual: actual, expected: expected, tolerance: .perChannel(16)) {
            files.append(stem + "diff.png")
            try PNG.write(diff, to: files[2])
        }
        return LottieReferenceComparison(frame: self, delta: delta, passes: false, writtenFiles: files)
    }

    public var description: String { "\(fixture) k=\(k)" }
}

/// The outcome of ``LottieReferenceFrame/compare(_:failureDirectory:)``; its description is the
/// message for `#expect(result.passes, "\(result)")`.
public struct LottieReferenceComparison: Sendable, CustomStringConvertible {
    public let frame: LottieReferenceFrame
    /// Flipbook's mean |Δ| to ThorVG (`.infinity` for a frame of the wrong size).
    public let delta: Double
    /// `delta <= frame.tolerance`.
    public let passes: Bool
    /// The PNGs written on failure (actual, reference, diff); empty when it passes.
    public let writtenFiles: [String]

    public var description: String {
        let head = "\(frame): mean |Δ| to ThorVG \(delta.formatted3) " + (passes ? "<=" : ">")
            + " tolerance \(frame.tolerance.formatted3) (ThorVG–rlottie \(frame.disagreement.formatted3))"
        return writtenFiles.isEmpty ? head : head + "; wrote " + writtenFiles.joined(separator: ", ")
    }
}

extension Double {
    fileprivate var formatted3: String { String(format: "%.3f", self) }
}

import FlipbookPixels

/// The bounds a Lottie document must stay within (hostile input: a file may be crafted to
/// exhaust memory or time). The parser enforces each one and throws a ``LottieError`` of kind
/// `.tooLarge` (or `.invalid`) naming the JSON path; the layer mapping relies on them.
///
/// | bound | value | checked at |
/// |---|---|---|
/// | a JSON document (a `.json` file, a dotLottie's manifest or animation entry) | ≤ 64 MiB (parsed, numbers take up to ~18× their text: ≈ 1.2 GiB at worst) | the file or entry |
/// | composition `w`, `h` | > 0 and ≤ 16 384 (`PixelBuffer.maximumDimension`, the scene files' frame limit; so `w·h` ≤ 2²⁸) | `w`, `h` |
/// | frame rate `fr` (also a precomposition asset's `fr`) | > 0 and ≤ 1000 | `fr` |
/// | `ip`, `op` (the composition's) | within ±10⁹ (so whole-frame steps stay exact in `Double`) | `ip`, `op` |
/// | `op` | > `ip` | `op` |
/// | timeline length `op − ip` | ≤ 100 000 frames (55 minutes at 30 fps; the mapping samples some values at every frame, once per property) | `op` |
/// | keyframes per property (also text document keyframes) | ≤ 100 000 | the property's `k` |
/// | gradient colour stops (`g.p`), and opacity stops in each value of `g.k` | ≤ 10 000 each | `g.p`, `g.k` |
/// | layers, precomposition instances expanded | ≤ 100 000 | the layer whose instance passes the bound |
/// | numbers | finite (`1e999` parses as ∞ and is refused) | the number |
/// | nesting of arrays and objects | ≤ 256 (`SceneJSONParser.maximumDepth`) | the JSON text |
/// | a dotLottie entry, uncompressed | ≤ 256 MiB, declared and while extracting | the entry |
/// | a dotLottie archive's entries read, uncompressed | ≤ 512 MiB in total | the entry that passes it |
/// | a dotLottie archive's entries (files and folders) | ≤ 10 000 | the archive |
/// | an image file beside a JSON document | a regular file of ≤ 256 MiB | the asset's `p` (warning: left out) |
///
/// Not bounded here — the layer mapping clamps them, with a warning: repeater copies (1000 per
/// repeater, 10 000 outlines per shape list, 1000 copies built as layers in all:
/// `LottieShapeProgram`), star and polygon points (10 000), the layers of one mapped tree
/// (10 000, replicator instances counted: `LottieMappingContext.maximumLayers`), the images' decoded pixels (2²⁸ per tree).
/// Bezier vertex counts are bounded by the file's size. docs/limits.md lists all of them.
package struct LottieLimits: Sendable, Equatable {
    /// The largest composition width or height in points.
    package var maximumDimension: Double = Double(PixelBuffer.maximumDimension)
    /// The highest frame rate.
    package var maximumFrameRate: Double = 1000
    /// The largest magnitude of the composition's `ip` and `op`.
    package var maximumFrameNumber: Double = 1_000_000_000
    /// The longest timeline, `op − ip`, in frames.
    package var maximumTimelineFrames: Double = 100_000
    /// The most keyframes one animated property may have.
    package var maximumKeyframes: Int = 100_000
    /// The most colour stops (`g.p`) of a gradient, and the most opacity stops in one value.
    package var maximumGradientStops: Int = 10_000
    /// The most layers the animation may have once every precomposition layer is counted
    /// with the layers of its asset (recursively, once per instance).
    package var maximumExpandedLayers: Int = 100_000
    /// The largest JSON document (file, or dotLottie manifest or animation entry), in bytes.
    package var maximumJSONBytes: Int = 64 << 20
    /// The largest uncompressed size of one dotLottie entry (or image file), in bytes.
    package var maximumEntryBytes: Int = 256 << 20
    /// The largest total of uncompressed bytes read from one dotLottie archive.
    package var maximumArchiveBytes: Int = 512 << 20
    /// The most entries a dotLottie archive may have.
    package var maximumArchiveEntries: Int = 10_000

    package init() {}

    /// The limits Flipbook applies.
    package static let standard = LottieLimits()
}

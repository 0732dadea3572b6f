import FlipbookPixels

/// The bounds a Lottie document must stay within (hostile input: a file may be crafted to
/// exhaust memory or time). The parser enforces each one and throws a ``LottieError`` of kind
/// `.tooLarge` (or `.invalid`) naming the JSON path; the layer mapping relies on them.
///
/// | bound | value | checked at |
/// |---|---|---|
/// | composition `w`, `h` | > 0 and ≤ 16 384 (`PixelBuffer.maximumDimension`, the scene files' frame limit; so `w·h` ≤ 2²⁸) | `w`, `h` |
/// | frame rate `fr` (also a precomposition asset's `fr`) | > 0 and ≤ 1000 | `fr` |
/// | `op` | > `ip` | `op` |
/// | keyframes per property (also text document keyframes) | ≤ 100 000 | the property's `k` |
/// | layers, precomposition instances expanded | ≤ 100 000 | the layer whose instance passes the bound |
/// | numbers | finite (`1e999` parses as ∞ and is refused) | the number |
/// | nesting of arrays and objects | ≤ 256 (`SceneJSONParser.maximumDepth`) | the JSON text |
/// | a dotLottie entry, uncompressed | ≤ 256 MiB, declared and while extracting | the entry |
/// | a dotLottie archive's entries read, uncompressed | ≤ 512 MiB in total | the entry that passes it |
/// | an image file beside a JSON document | a regular file of ≤ 256 MiB | the asset's `p` (warning: left out) |
///
/// Not bounded here (the mapping clamps): repeater copies, polystar points, bezier vertex
/// counts (bounded by the file's size).
package struct LottieLimits: Sendable, Equatable {
    /// The largest composition width or height in points.
    package var maximumDimension: Double = Double(PixelBuffer.maximumDimension)
    /// The highest frame rate.
    package var maximumFrameRate: Double = 1000
    /// The most keyframes one animated property may have.
    package var maximumKeyframes: Int = 100_000
    /// The most layers the animation may have once every precomposition layer is counted
    /// with the layers of its asset (recursively, once per instance).
    package var maximumExpandedLayers: Int = 100_000
    /// The largest uncompressed size of one dotLottie entry (or image file), in bytes.
    package var maximumEntryBytes: Int = 256 << 20
    /// The largest total of uncompressed bytes read from one dotLottie archive.
    package var maximumArchiveBytes: Int = 512 << 20

    package init() {}

    /// The limits Flipbook applies.
    package static let standard = LottieLimits()
}

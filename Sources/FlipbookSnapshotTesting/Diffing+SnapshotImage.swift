import FlipbookPNG
import Foundation
import SnapshotTesting

extension Diffing where Value == SnapshotImage {
    /// A pixel-diffing strategy for ``SnapshotImage``s that requires a 100% match.
    public static var image: Diffing { .image() }

    /// A pixel-diffing strategy for ``SnapshotImage``s, as swift-snapshot-testing's `UIImage`
    /// and `NSImage` diffing: references are PNG files (`toData` / `fromData`), and two images
    /// are compared by ``ImageSnapshotComparison/compare(reference:snapshot:precision:perceptualPrecision:)``.
    ///
    /// A failure returns three attachments, named as on Apple platforms: `reference.png`,
    /// `failure.png` (the new snapshot) and `difference.png`
    /// (``ImageSnapshotComparison/differenceImage(reference:snapshot:)``). swift-snapshot-testing
    /// attaches nothing on Linux, so inside a Swift Testing test they are also recorded as
    /// Swift Testing attachments (`swift test --attachments-path DIR` saves them).
    ///
    /// - Parameters:
    ///   - precision: The percentage of pixels that must match.
    ///   - perceptualPrecision: The percentage a pixel must match the source pixel to be
    ///     considered a match: a pixel matches when its CIE94 ΔE is at most
    ///     `(1 − perceptualPrecision) × 100`. 98–99% is about what the eye tells apart.
    public static func image(precision: Float = 1, perceptualPrecision: Float = 1) -> Diffing {
        .diff(
            toData: { $0.pngData() ?? Data() },
            fromData: { SnapshotImage(referenceData: $0) },
            diffV2: { old, new in
                imageDiff(reference: old, snapshot: new, precision: precision, perceptualPrecision: perceptualPrecision)
            }
        )
    }
}

extension Snapshotting where Value == SnapshotImage, Format == SnapshotImage {
    /// A snapshot strategy for comparing images based on pixel equality.
    public static var image: Snapshotting { .image() }

    /// A snapshot strategy for comparing images based on pixel equality.
    ///
    /// - Parameters:
    ///   - precision: The percentage of pixels that must match.
    ///   - perceptualPrecision: The percentage a pixel must match the source pixel to be
    ///     considered a match (see ``Diffing/image(precision:perceptualPrecision:)``).
    public static func image(precision: Float = 1, perceptualPrecision: Float = 1) -> Snapshotting {
        .init(pathExtension: "png", diffing: .image(precision: precision, perceptualPrecision: perceptualPrecision))
    }
}

/// The diffing's comparison step: every image comparison of this module goes through here.
///
/// Compares (``ImageSnapshotComparison``), and on a failure makes the three attachments and
/// records them on the running Swift Testing test. This is also the place where a run with
/// `FLIPBOOK_REPORT` set records each comparison (passes included) for the review page.
func imageDiff(reference: SnapshotImage, snapshot: SnapshotImage,
               precision: Float, perceptualPrecision: Float) -> (String, [DiffAttachment])? {
    let comparison = ImageSnapshotComparison.compare(reference: reference, snapshot: snapshot,
                                                     precision: precision, perceptualPrecision: perceptualPrecision)
    SnapshotReview.record(reference: reference, snapshot: snapshot, comparison: comparison,
                          precision: precision, perceptualPrecision: perceptualPrecision)
    guard let message = comparison.message else { return nil }
    let difference = ImageSnapshotComparison.differenceImage(reference: comparison.reference ?? reference.pixelBuffer,
                                                             snapshot: comparison.snapshot ?? snapshot.pixelBuffer)
    let files: [(name: String, data: Data)] = [
        ("reference.png", reference.pngData() ?? Data()),
        ("failure.png", snapshot.pngData() ?? Data()),
        ("difference.png", difference.flatMap { try? PNG.encodedData($0, options: .fast) } ?? Data()),
    ]
    SnapshotAttachments.record(files)
    return (message, files.map { DiffAttachment.data($0.data, name: $0.name) })
}

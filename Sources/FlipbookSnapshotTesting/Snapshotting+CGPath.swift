import Flipbook
import Foundation
import SnapshotTesting

extension Snapshotting where Value == CGPath, Format == SnapshotImage {
    /// A snapshot strategy for comparing paths based on pixel equality (even-odd fill).
    public static var image: Snapshotting { .image() }

    /// A snapshot strategy for comparing paths based on pixel equality.
    ///
    /// ``` swift
    /// // Match reference perfectly.
    /// assertSnapshot(of: path, as: .image)
    ///
    /// // Allow for a 1% pixel difference.
    /// assertSnapshot(of: path, as: .image(precision: 0.99))
    /// ```
    ///
    /// macOS's strategy: the picture is the path's `boundingBoxOfPath` (sides rounded up to
    /// whole pixels) with the box's origin at the **bottom-left** (y up, as an `NSImage`), the
    /// path drawn with `drawingMode` in a bitmap context's defaults — opaque black fill and
    /// stroke, line width 1 — on transparent. (iOS's strategy draws y down; references
    /// recorded there are upside down here.)
    ///
    /// - Parameters:
    ///   - precision: The percentage of pixels that must match.
    ///   - perceptualPrecision: The percentage a pixel must match the source pixel to be
    ///     considered a match (CIE94 ΔE at most `(1 − perceptualPrecision) × 100`).
    ///   - drawingMode: The drawing mode.
    public static func image(precision: Float = 1, perceptualPrecision: Float = 1,
                             drawingMode: CGPathDrawingMode = .eoFill) -> Snapshotting {
        SimplySnapshotting.image(precision: precision, perceptualPrecision: perceptualPrecision)
            .pullback { (path: CGPath) in LayerSnapshotRenderer.pathImage(of: path, drawingMode: drawingMode) }
    }
}

extension Snapshotting where Value == CGPath, Format == String {
    /// A snapshot strategy for comparing paths based on element descriptions: one line per
    /// element, a blank line before each subpath after the first, points with 1 to 3 decimals.
    ///
    ///     MoveTo (0.0, 0.0)
    ///     LineTo (0.0, 60.0)
    ///     QuadCurveTo (3.75, 86.25) (30.0, 90.0)
    ///     CurveTo (75.0, 60.0) (90.0, 45.0) (90.0, 30.0)
    ///     Close
    ///
    /// The text is swift-snapshot-testing's byte for byte (`Close` is followed by a space, every
    /// line by a newline), so references recorded on Apple platforms compare equal.
    public static var elementsDescription: Snapshotting {
        .elementsDescription(numberFormatter: PathElementsDescription.defaultNumberFormatter())
    }

    /// A snapshot strategy for comparing paths based on element descriptions.
    ///
    /// - Parameter numberFormatter: The number formatter used for formatting points. It is
    ///   honoured as on Apple platforms: Foundation on Linux ignores `maximumFractionDigits`
    ///   once `minimumFractionDigits` is above 0, so such formatters are applied through a copy
    ///   that works around it (``PathElementsDescription/format(_:with:)``).
    public static func elementsDescription(numberFormatter: NumberFormatter) -> Snapshotting {
        SimplySnapshotting.lines.pullback { (path: CGPath) in
            PathElementsDescription.describe(path, numberFormatter: numberFormatter)
        }
    }
}

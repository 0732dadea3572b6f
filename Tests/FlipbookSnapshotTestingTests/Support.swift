import Flipbook
import FlipbookPixels
import FlipbookPNG
import FlipbookSnapshotTesting
import FlipbookTestSupport
import Foundation
import SnapshotTesting

/// Colours and images the suites share.
enum Fixture {
    static let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    static let green = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
    static let blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)

    /// A `width × height` buffer of `color`.
    static func buffer(_ width: Int, _ height: Int, _ color: RGBA8) -> PixelBuffer {
        var p = PixelBuffer(width: width, height: height)
        p.fill(color)
        return p
    }

    /// `base` with the `w × h` rectangle at (`x`, `y`) painted `color`.
    static func painting(_ base: PixelBuffer, x: Int, y: Int, w: Int, h: Int, _ color: RGBA8) -> PixelBuffer {
        var p = base
        for yy in y..<(y + h) { for xx in x..<(x + w) { p[xx, yy] = color } }
        return p
    }
}

/// The value a strategy makes of `value` (its `snapshot` closure, run to completion: every
/// strategy of this module is synchronous).
func take<Value, Format>(_ value: Value, _ strategy: Snapshotting<Value, Format>) -> Format {
    var out: Format?
    strategy.snapshot(value).run { out = $0 }
    return out!
}

/// The pixels of a snapshot that must have them.
func pixels(_ image: SnapshotImage, sourceLocation: String = #function) -> PixelBuffer {
    guard let p = image.pixelBuffer else { fatalError("\(sourceLocation): no pixels in \(image)") }
    return p
}

/// `Diffing<SnapshotImage>.image(…)`'s comparison of two images: the message and attachments.
func diff(_ reference: SnapshotImage, _ snapshot: SnapshotImage,
          precision: Float = 1, perceptualPrecision: Float = 1) -> (message: String, attachments: [DiffAttachment])? {
    Diffing<SnapshotImage>.image(precision: precision, perceptualPrecision: perceptualPrecision)
        .diffV2(reference, snapshot).map { (message: $0.0, attachments: $0.1) }
}

/// `verifySnapshot` against `dir`, with swift-snapshot-testing's own file naming
/// (`<dir>/<testName>.<name>.png`).
func verify<Value>(_ value: @autoclosure () -> Value, as strategy: Snapshotting<Value, SnapshotImage>,
                   named name: String, record: SnapshotTestingConfiguration.Record,
                   in dir: TemporaryDirectory, testName: String = "check") -> String? {
    verifySnapshot(of: value(), as: strategy, named: name, record: record, snapshotDirectory: dir.path, testName: testName)
}

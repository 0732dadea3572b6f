/// swift-snapshot-testing's image strategies for layers and paths, on Linux.
///
/// Point-Free's `SnapshotTesting` builds its `CALayer`, `CGPath` and image strategies only on
/// Apple platforms. This module adds them for Flipbook's `CALayer` and `CGPath`, with the same
/// names and parameters, so a test that says
///
///     assertSnapshot(of: layer, as: .image)
///     assertSnapshot(of: path, as: .elementsDescription)
///
/// compiles and runs here with its import lines changed (`import UIKit` → `import Flipbook`
/// and `import FlipbookSnapshotTesting`). Files, names, record modes
/// (`SNAPSHOT_TESTING_RECORD`, `withSnapshotTesting(record:)`, `.snapshots(record:)`) and
/// failure messages are swift-snapshot-testing's own; this module only supplies the strategies:
///
/// - `Snapshotting<CALayer, SnapshotImage>.image`, `.image(precision:perceptualPrecision:)`
///   and, beyond Apple's, `.image(at:precision:perceptualPrecision:)` (the presentation tree
///   mid-animation);
/// - `Snapshotting<CGPath, SnapshotImage>.image(precision:perceptualPrecision:drawingMode:)`;
/// - `Snapshotting<CGPath, String>.elementsDescription` and `.elementsDescription(numberFormatter:)`;
/// - `Diffing<SnapshotImage>.image(precision:perceptualPrecision:)` and
///   `Snapshotting<SnapshotImage, SnapshotImage>.image`, the image comparison under them
///   (``ImageSnapshotComparison``).
///
/// ``SnapshotImage`` plays the part of `UIImage`/`NSImage`: references are ordinary PNG files.
/// `docs/visual-testing.md` ("Porting swift-snapshot-testing tests") is the user guide.
///
/// `SnapshotTesting`, `Flipbook` and `Foundation` are re-exported (as UIKit re-exports
/// Foundation), so `import FlipbookSnapshotTesting` alone brings `assertSnapshot`, `CALayer`,
/// `CGRect` and the strategies into scope: `import UIKit` becomes that one line.
@_exported import Foundation
@_exported import Flipbook
@_exported import SnapshotTesting

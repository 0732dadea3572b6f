// Ported from iOS: swift-snapshot-testing 1.19.7's own layer tests, `testCALayer` and
// `testCALayerWithGradient` in pointfreeco/swift-snapshot-testing,
// Tests/SnapshotTestingTests/SnapshotTestingTests.swift (XCTest; upstream they run on iOS only).
//
// What changed, and only this: the import lines (`@testable import SnapshotTesting` and
// `import UIKit.UIView` became `import SnapshotTesting`, `import Flipbook` and
// `import FlipbookSnapshotTesting`), the base class (upstream's `BaseTestCase` is that suite's
// own XCTestCase subclass) and the `#if os(iOS)` / `#endif` lines that keep each body off macOS
// and tvOS upstream. `UIColor.red.cgColor` and friends come from this target's
// UIKitColors.swift. The file keeps upstream's name, so the references sit where upstream's do:
// __Snapshots__/SnapshotTestingTests/testCALayer.1.png and testCALayerWithGradient.1.png
// (100 × 100 here: scale 1).
import Foundation
import XCTest

import SnapshotTesting
import Flipbook
import FlipbookSnapshotTesting

final class SnapshotTestingTests: XCTestCase {
  func testCALayer() {
      let layer = CALayer()
      layer.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
      layer.backgroundColor = UIColor.red.cgColor
      layer.borderWidth = 4.0
      layer.borderColor = UIColor.black.cgColor
      assertSnapshot(of: layer, as: .image)
  }

  func testCALayerWithGradient() {
      let baseLayer = CALayer()
      baseLayer.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
      let gradientLayer = CAGradientLayer()
      gradientLayer.colors = [UIColor.red.cgColor, UIColor.yellow.cgColor]
      gradientLayer.frame = baseLayer.frame
      baseLayer.addSublayer(gradientLayer)
      assertSnapshot(of: baseLayer, as: .image)
  }
}

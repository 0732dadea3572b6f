import Flipbook

/// The UIKit colours that the ported iOS tests (SnapshotTestingTests.swift) name.
///
/// UIKit is not part of Flipbook: docs/porting.md maps `UIColor.red.cgColor` to
/// `CGColor(red: 1, green: 0, blue: 0, alpha: 1)`. A test target that keeps such lines as they
/// are declares the few colours it uses, as this one does, so the test files change only in
/// their imports. Values are UIKit's (sRGB).
struct UIColor: Sendable {
    let cgColor: CGColor
    static let red = UIColor(cgColor: CGColor(red: 1, green: 0, blue: 0, alpha: 1))
    static let yellow = UIColor(cgColor: CGColor(red: 1, green: 1, blue: 0, alpha: 1))
    static let black = UIColor(cgColor: CGColor(red: 0, green: 0, blue: 0, alpha: 1))
}

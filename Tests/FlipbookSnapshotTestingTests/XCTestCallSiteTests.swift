import Flipbook
import FlipbookSnapshotTesting
import Foundation
import SnapshotTesting
import XCTest

/// The strategies at XCTest call sites: a match, and a mismatch reported through `XCTFail`
/// (reference: __Snapshots__/XCTestCallSiteTests/testGreenSquare.1.png).
final class XCTestCallSiteTests: XCTestCase {
    private var captured: [String] = []
    private var capturing = false

    /// Catches what `XCTFail` sends (swift-corelibs-xctest routes every failure through here).
    override func recordFailure(withDescription description: String, inFile filePath: String,
                                atLine lineNumber: Int, expected: Bool) {
        if capturing { captured.append(description) } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    static func square(_ color: CGColor) -> CALayer {
        let layer = CALayer()
        layer.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        layer.backgroundColor = color
        let dot = CALayer()
        dot.frame = CGRect(x: 2, y: 2, width: 3, height: 3)
        dot.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        layer.addSublayer(dot)
        return layer
    }

    func testGreenSquare() {
        assertSnapshot(of: Self.square(CGColor(red: 0, green: 0.6, blue: 0.2, alpha: 1)), as: .image)
    }

    func testAMismatchIsReportedThroughXCTFail() {
        let other = Self.square(CGColor(red: 0, green: 0.6, blue: 0.25, alpha: 1))   // 91 pixels change
        capturing = true
        assertSnapshot(of: other, as: .image, named: "1", record: .never, testName: "testGreenSquare()")
        capturing = false
        XCTAssertEqual(captured.count, 1)
        let message = captured.first ?? ""
        XCTAssertTrue(message.contains("Snapshot \"1\" does not match reference."), message)
        XCTAssertTrue(message.hasSuffix("91 of 100 pixels differ"), message)
    }
}

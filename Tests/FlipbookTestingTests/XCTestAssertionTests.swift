import XCTest
import FlipbookTesting
import Flipbook
import Foundation

/// The same assertions from XCTest: they report through `XCTFail` (references are committed
/// under `__Snapshots__/XCTestAssertionTests/`).
final class XCTestAssertionTests: XCTestCase {
    /// Failures recorded while ``capturing`` is set, instead of failing the test.
    private var captured: [(description: String, file: String, line: Int)] = []
    private var capturing = false

    /// Catches what `XCTFail` sends to the running test case (swift-corelibs-xctest routes
    /// every assertion failure through this method), so the failure path can be asserted.
    override func recordFailure(withDescription description: String, inFile filePath: String,
                                atLine lineNumber: Int, expected: Bool) {
        if capturing {
            captured.append((description, filePath, lineNumber))
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    func testAssertionWorksUnderXCTest() {
        let outcome = assertSnapshot(of: TestImages.gradient(), named: "gradient")
        XCTAssertFalse(outcome.isFailure)
    }

    func testFailureIsReportedThroughXCTFail() {
        let changed = TestImages.nudged(TestImages.gradient(), x: 3, y: 5, red: 7)
        capturing = true
        let line = #line + 1
        let outcome = assertSnapshot(of: changed, named: "gradient", record: .never, testName: "testAssertionWorksUnderXCTest()")
        capturing = false
        XCTAssertTrue(outcome.isFailure)
        XCTAssertEqual(captured.count, 1)
        guard let failure = captured.first else { return }
        XCTAssertTrue(failure.description.contains("Snapshot differs from its reference (tolerance: exact)."), failure.description)
        XCTAssertTrue(failure.description.contains("max channel Δ 7, 1 of 64 pixels differ"), failure.description)
        XCTAssertTrue(failure.description.contains("__Snapshots__/XCTestAssertionTests/testAssertionWorksUnderXCTest.gradient.png"))
        XCTAssertEqual(failure.line, line)
        XCTAssertTrue(failure.file.hasSuffix("XCTestAssertionTests.swift"), failure.file)
    }

    func testLayerAssertionWorksUnderXCTest() {
        VirtualRunLoop().run {
            let outcome = assertRendering(of: TestLayers.card(), at: 0, size: CGSize(width: 16, height: 16), named: "card")
            XCTAssertFalse(outcome.isFailure)
        }
    }
}

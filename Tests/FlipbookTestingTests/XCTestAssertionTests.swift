import XCTest
import FlipbookTesting

/// The same assertion from XCTest: reports through `XCTFail` (its reference is committed
/// under `__Snapshots__/XCTestAssertionTests/`).
final class XCTestAssertionTests: XCTestCase {
    func testAssertionWorksUnderXCTest() {
        let outcome = assertSnapshot(of: TestImages.gradient(), named: "gradient")
        XCTAssertFalse(outcome.isFailure)
    }
}

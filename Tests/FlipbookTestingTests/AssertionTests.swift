import Testing
@testable import FlipbookTesting
@testable import FlipbookCompare
import Flipbook

/// End-to-end checks of the assertion wrappers, with references under `__Snapshots__/AssertionTests/`.
@Suite struct AssertionTests {
    /// Dogfooding: a committed reference (recorded with FLIPBOOK_RECORD=missing, reviewed).
    @Test func gradientMatchesCommittedReference() {
        let outcome = assertSnapshot(of: TestImages.gradient(), named: "gradient")
        #expect(!outcome.isFailure)
    }

    @Test func missingReferenceInNeverModeIsReportedAsAnIssue() {
        withKnownIssue {
            assertSnapshot(of: TestImages.gradient(), named: "never-recorded", record: .never)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("__Snapshots__/AssertionTests/missingReferenceInNeverModeIsReportedAsAnIssue.never-recorded.png") }
        }
    }

    @Test func differingFrameIsReportedOnceForASequence() {
        let a = TestImages.gradient()
        withKnownIssue {
            let results = assertSnapshots([("gradient", a), ("nudged", TestImages.nudged(a, x: 2, y: 2, red: 9))],
                                          record: .never, testName: "gradientMatchesCommittedReference()")
            #expect(results.map(\.outcome.isFailure) == [false, true])
        } matching: { issue in
            issue.comments.contains { $0.rawValue.hasPrefix("1 of 2 frames differ: nudged") }
        }
    }

    @Test func renderingUsesTheGivenRenderer() {
        let renderer = LayerRenderer { _, w, h in TestImages.gradient(width: w, height: h) }
        let outcome = assertRendering(of: RenderLayer(), width: 8, height: 8, named: "gradient",
                                      renderer: renderer, record: .never,
                                      testName: "gradientMatchesCommittedReference()")
        #expect(!outcome.isFailure)
    }
}

import Flipbook
import FlipbookSnapshotTesting
import Foundation
import SnapshotTesting
import Testing

/// The strategies at Swift Testing call sites, against references committed in
/// __Snapshots__/SwiftTestingCallSiteTests/ (named `<test>.<n>.png`, `<test>.<name>.png`).
@Suite struct SwiftTestingCallSiteTests {
    static func card() -> CALayer {
        let card = CALayer()
        card.bounds = CGRect(x: 0, y: 0, width: 48, height: 32)
        card.backgroundColor = CGColor(red: 0.95, green: 0.3, blue: 0.2, alpha: 1)
        card.cornerRadius = 8
        card.borderWidth = 2
        card.borderColor = CGColor(red: 0.2, green: 0.1, blue: 0.1, alpha: 1)
        let dot = CALayer()
        dot.frame = CGRect(x: 8, y: 8, width: 12, height: 12)
        dot.cornerRadius = 6
        dot.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 0.8)
        card.addSublayer(dot)
        return card
    }

    @Test func redCard() {
        VirtualRunLoop().run {
            assertSnapshot(of: Self.card(), as: .image)
            assertSnapshot(of: Self.card(), as: .image(precision: 0.99, perceptualPrecision: 0.98))
        }
    }

    @Test func cardHalfWayThroughAFade() {
        VirtualRunLoop().run {
            let card = Self.card()
            _ = take(card, .image(at: 0))
            card.opacity = 0.2
            assertSnapshot(of: card, as: .image(at: 0.125), named: "fading")
        }
    }

    @Test func testCGPath() {
        // swift-snapshot-testing's testCGPath, named as on macOS: its .txt is the bytes of
        // upstream's testCGPath.macOS.txt.
        let path = PathSnapshotTests.heart
        assertSnapshot(of: path, as: .image, named: "macOS")
        assertSnapshot(of: path, as: .elementsDescription, named: "macOS")
    }

    @Test(.snapshots(record: .never)) func aDifferenceIsAnIssueThatSaysHowManyPixelsDiffer() {
        VirtualRunLoop().run {
            let card = Self.card()
            card.backgroundColor = CGColor(red: 0.2, green: 0.3, blue: 0.95, alpha: 1)
            withKnownIssue {
                // The reference is redCard's first.
                assertSnapshot(of: card, as: .image, named: "1", testName: "redCard()")
            } matching: { issue in
                let text = issue.comments.map(\.rawValue).joined(separator: "\n")
                return text.contains("Snapshot \"1\" does not match reference.")
                    && text.range(of: #"\n\d+ of 1536 pixels differ"#, options: .regularExpression) != nil
            }
        }
    }

    @Test func theReferenceTextIsUpstreamsByteForByte() throws {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let file = here.appendingPathComponent("__Snapshots__/SwiftTestingCallSiteTests/testCGPath.macOS.txt")
        #expect(try String(contentsOf: file, encoding: .utf8) == PathSnapshotTests.heartReference)
    }
}

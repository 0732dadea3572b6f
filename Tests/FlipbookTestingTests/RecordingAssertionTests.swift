import Testing
@testable import FlipbookTesting
@testable import FlipbookCompare
import Flipbook
import FlipbookRender
import Foundation

/// `assertRecording`: a recorder's frames against references, one message for all differences.
@Suite struct RecordingAssertionTests {
    /// A 32×16-pt white stage with a blue 8×8 square that an implicit 1 s move (linear) carries
    /// from x = 4 to x = 28, starting at t = 0.1 s; recorded at 10 fps for 1.5 s (frames 0…14).
    static func slide(to target: CGFloat = 28) -> Recorder {
        let loop = VirtualRunLoop()
        let (root, square) = loop.run { () -> (CALayer, CALayer) in
            let root = CALayer()
            root.bounds = CGRect(x: 0, y: 0, width: 32, height: 16)
            root.position = CGPoint(x: 16, y: 8)
            root.backgroundColor = .white
            let square = CALayer()
            square.bounds = CGRect(x: 0, y: 0, width: 8, height: 8)
            square.position = CGPoint(x: 4, y: 8)
            square.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
            root.addSublayer(square)
            return (root, square)
        }
        let recorder = Recorder(root: root, settings: RecordingSettings(width: 32, height: 16, fps: 10, duration: 1.5, background: .white))
        recorder.at(0.1) {
            CATransaction.begin()
            CATransaction.setAnimationDuration(1)
            CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
            square.position.x = target
            CATransaction.commit()
        }
        return recorder
    }

    @Test func recordedFramesMatchTheirReferences() {
        let results = assertRecording(Self.slide(), frames: [0, 6, 14], named: "slide")
        #expect(results.map(\.name) == ["slide.f0", "slide.f6", "slide.f14"])
        #expect(results.allSatisfy { !$0.outcome.isFailure })
    }

    /// Moving to 24 instead of 28: frame 0 (before the move) is unchanged; frames 6 and 14 differ.
    @Test func aChangedAnimationListsExactlyTheDifferingFrames() {
        withKnownIssue {
            let results = assertRecording(Self.slide(to: 24), frames: [0, 6, 14], named: "slide", record: .never,
                                          testName: "recordedFramesMatchTheirReferences()")
            #expect(results.map(\.outcome.isFailure) == [false, true, true])
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.hasPrefix("2 of 3 frames differ: slide.f6, slide.f14\n")
        }
    }

    @Test func aFrameOutsideTheRecordingIsAFailure() {
        withKnownIssue {
            let results = assertRecording(Self.slide(), frames: [99], named: "slide", record: .never)
            #expect(results.count == 1 && results[0].outcome.isFailure)
        } matching: { $0.comments.contains { $0.rawValue.contains("frame 99 is not in the recording") } }
    }
}

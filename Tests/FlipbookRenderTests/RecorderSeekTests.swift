import Testing
@testable import FlipbookRender
import Flipbook
import Foundation

/// A 2 s scene at 10 fps with everything that used to tie a frame to the frames before it:
/// implicit animations, an explicit `CATransition` added between two frames right after a
/// change in the same transaction (its "before" picture is the committed card), an
/// action-driven transition added while the first is still in flight (its before picture
/// holds the first at its progress), a completion block that changes the model, and an
/// infinitely repeating animation. With `probing`, extra events build snapshots of the tree at
/// other times (which must change nothing).
func seekScene(frames: ClosedRange<Int>, probing: Bool = false) -> Recorder {
    let loop = VirtualRunLoop()
    return loop.run {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 48, height: 32)
        root.position = CGPoint(x: 24, y: 16)
        let card = CALayer()
        card.frame = CGRect(x: 4, y: 4, width: 24, height: 16)
        card.contents = TestScene.image(4, 2, .red)
        card.masksToBounds = true
        let dot = CALayer()
        dot.frame = CGRect(x: 2, y: 2, width: 4, height: 4)
        dot.backgroundColor = TestScene.blue
        card.addSublayer(dot)
        root.addSublayer(card)
        let spinner = CALayer()
        spinner.frame = CGRect(x: 34, y: 10, width: 10, height: 10)
        spinner.backgroundColor = TestScene.green
        let spin = CABasicAnimation(keyPath: "transform.rotation.z")
        spin.fromValue = 0; spin.toValue = Double.pi; spin.duration = 0.7; spin.repeatCount = .infinity
        spinner.add(spin, forKey: "spin")
        root.addSublayer(spinner)
        let rec = Recorder(root: root, settings: RecordingSettings(width: 48, height: 32, scale: 1, fps: 10,
                                                                    frames: frames, background: .white))
        rec.at(0.35) { dot.position = CGPoint(x: 20, y: 10) }          // implicit 0.35 … 0.6
        rec.at(0.83) {
            CATransaction.setDisableActions(true)
            card.contents = TestScene.image(4, 2, .green)
            dot.backgroundColor = TestScene.red
            let push = CATransition(); push.type = .push; push.subtype = .fromRight; push.duration = 0.6
            card.add(push, forKey: "swap")
        }
        rec.at(1.07) {
            let t = CATransition(); t.type = .moveIn; t.subtype = .fromTop; t.duration = 0.5
            card.actions = ["contents": t]
            card.contents = TestScene.image(4, 2, .blue)
        }
        rec.at(1.21) {
            CATransaction.setCompletionBlock { dot.position = CGPoint(x: 4, y: 12) }
            spinner.opacity = 0.5
        }
        if probing {
            for time in [0.05, 0.5, 0.83, 0.9, 1.07, 1.15, 1.5] {
                rec.at(time) {
                    _ = root.makeRenderTree()
                    _ = root.makeRenderTree(at: time + 0.3)
                    _ = card.makeRenderTree(at: 0)
                }
            }
        }
        return rec
    }
}

@Suite struct RecorderSeekTests {
    /// Frames N…M recorded alone are byte-identical to the same frames of a 0…M recording,
    /// for starts before, inside and after the transitions.
    @Test func recordingFromFrameNEqualsTheFullRecording() throws {
        let full = MemoryFrameSink()
        try seekScene(frames: 0...19).record(to: full)
        // The scene does change across the transitions.
        let frames = (0...19).compactMap { full.image($0) }
        #expect(frames.count == 20 && Set(frames).count > 10)
        for range in [4...19, 9...19, 11...13, 12...12, 15...19, 19...19] {
            let part = MemoryFrameSink()
            try seekScene(frames: range).record(to: part)
            #expect(part.frames.map(\.index) == Array(range))
            for n in range { #expect(part.image(n) == full.image(n), "frames \(range): frame \(n)") }
        }
    }

    /// Building snapshots at other times, between the frames, changes no frame.
    @Test func snapshotsBetweenFramesChangeNothing() throws {
        let plain = MemoryFrameSink(), probed = MemoryFrameSink()
        try seekScene(frames: 0...19).record(to: plain)
        try seekScene(frames: 0...19, probing: true).record(to: probed)
        #expect(plain.frames == probed.frames)
    }

    /// The recorder snapshots only the frames it composites: none before the range, none for
    /// skipped frames.
    @Test func noSnapshotForFramesBeforeTheRangeOrSkipped() throws {
        let late = seekScene(frames: 15...19)
        try late.record(to: NullFrameSink())
        #expect(late._snapshotsTaken == 5)
        let resumed = seekScene(frames: 0...19)
        let r = try resumed.record(to: NullFrameSink(), options: RecordingOptions(skip: { $0 % 4 != 0 }))
        #expect(r.framesWritten == 5 && resumed._snapshotsTaken == 5)
    }
}

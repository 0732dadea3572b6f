import Testing
@testable import FlipbookRender
import Flipbook
import FlipbookPixels

/// `Recorder.snapshots(atFrames:)` (for `flipbook plan --balance area`): the render tree it
/// hands over at frame n is the picture `record` composites for frame n, whatever the order
/// or repetition of the requested frames.
@Suite struct RecorderSnapshotsTests {
    @Test func snapshotsAreTheRecordedFrames() throws {
        let full = MemoryFrameSink()
        try seekScene(frames: 0...19).record(to: full)
        let recorder = seekScene(frames: 0...19)
        let background = recorder.settings.backgroundPixel
        var seen: [Int] = []
        try recorder.snapshots(atFrames: [17, 3, 12, 3, 0]) { n, tree in
            seen.append(n)
            var buffer = PixelBuffer(width: 48, height: 32)
            try? Compositor(threadCount: 1).render(tree, into: &buffer, background: background)
            #expect(buffer == full.image(n), "frame \(n)")
        }
        #expect(seen == [0, 3, 12, 17])
        // Used once, like `record`.
        #expect(throws: RecorderError.alreadyRecorded) { try recorder.snapshots(atFrames: [1]) { _, _ in } }
    }
}

import Foundation
import Testing
import Flipbook
import FlipbookRender
import FlipbookScene

/// A scene's builder, layers and animations are freed when the caller lets go, even when the
/// recording ends before a transaction's completion block ran: the block once held the builder
/// strongly from inside the completion group the layers' animations keep — a cycle that kept
/// the whole scene alive (found by LeakSanitizer in the scene fuzz target; its input is
/// replayed from Tests/Fixtures/fuzz/scene-leak-2cf6ff…).
@Suite struct SceneBuilderLifetimeTests {
    static let scene = #"""
    {"output": {"size": "240x120", "fps": 2, "duration": 3},
     "layers": [{"name": "box", "frame": [10, 30, 60, 60], "backgroundColor": "#3366cc"}],
     "timeline": [{"at": 0.2, "duration": 2,
                   "do": [{"layer": "box", "set": {"position.x": 200}}],
                   "completion": {"do": [{"layer": "box", "set": {"backgroundColor": "#cc3333"}}]}}]}
    """#

    @Test func aRecordingThatEndsBeforeACompletionFreesTheScene() throws {
        weak var builder: SceneBuilder?
        weak var box: CALayer?
        do {
            let scene = try SceneParser.parse(Array(Self.scene.utf8), file: "s.json", baseDirectory: "/")
            let b = try SceneBuilder(scene, file: "s.json")
            builder = b
            box = b.layer(named: "box")
            var settings = scene.recording
            settings.frames = 0...1           // ends at 0.5 s: the 2 s transaction never completes
            _ = try b.makeRecorder(settings: settings).record(to: MemoryFrameSink())
        }
        #expect(builder == nil)
        #expect(box == nil)
    }

    /// The completion still runs when the recording reaches it.
    @Test func theCompletionStillRuns() throws {
        let scene = try SceneParser.parse(Array(Self.scene.utf8), file: "s.json", baseDirectory: "/")
        let b = try SceneBuilder(scene, file: "s.json")
        let sink = MemoryFrameSink()
        _ = try b.makeRecorder(settings: scene.recording).record(to: sink)
        let last = try #require(sink.frames.last).image
        let p = last[Int(200), Int(60)]
        #expect(p.r > 150 && p.b < 100, "the completion's red background is drawn at the end")
    }
}

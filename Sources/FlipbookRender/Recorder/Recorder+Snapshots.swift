import Flipbook

extension Recorder {
    /// Runs the model to each frame of `frames` (in increasing order) exactly as
    /// ``record(to:options:)`` does — events and callbacks at their own times — and hands `body`
    /// the frame's render-tree snapshot, without compositing anything. For estimates that need
    /// the picture's structure at a few frames (`flipbook plan --balance area` samples the
    /// covered area), at the cost of the events plus one snapshot per requested frame.
    ///
    /// Like `record`, it moves the tree's clock forward: a recorder is used once (either way).
    package func snapshots(atFrames frames: [Int], _ body: (Int, RenderLayer) -> Void) throws(RecorderError) {
        guard !_recorded else { throw .alreadyRecorded }
        _recorded = true
        try settings.validate()
        let s = settings, loop = runLoop, root = self.root, events = _sortedEvents
        _withLiveTree {
            var next = 0
            for n in Array(Set(frames)).sorted() where n >= 0 {
                Self._advance(loop, to: s.time(ofFrame: n), events: events, next: &next)
                body(n, root.makeRenderTree())
            }
        }
    }
}

import Flipbook
import FlipbookPixels
import Foundation

extension Recorder {
    /// Records ``RecordingSettings/frames`` into `sink` and returns what was done.
    ///
    /// Pipelined: this thread simulates and composites (the compositor spreads each frame over
    /// `options.threads` band workers) while writer threads encode and write earlier frames;
    /// at most `writers + 1` frame buffers exist (`writers = threads` for sinks accepting
    /// concurrent writes, else 1), reused from frame to frame. Output is identical for every
    /// thread count. Streams get frames in order from one thread.
    ///
    /// On a sink error the run stops, the sink is cancelled and the error thrown; when
    /// `options.shouldStop` answers true, frames in flight are completed, the sink is cancelled
    /// (complete PNG files stay) and the result has `cancelled == true`.
    @discardableResult
    public func record(to sink: FrameSink, options: RecordingOptions = RecordingOptions()) throws(RecorderError) -> RecordingResult {
        guard !_recorded else { throw .alreadyRecorded }
        _recorded = true
        try settings.validate()
        let s = settings
        let (w, h) = (s.pixelWidth, s.pixelHeight)
        let format = FrameSinkFormat(width: w, height: h, fps: s.fps, frames: s.frames)
        let clockStart = DispatchTime.now().uptimeNanoseconds
        do throws(FrameSinkError) { try sink.begin(format) } catch { throw .sink(error) }

        let threads = max(1, options.threads)
        let writers = sink.acceptsConcurrentWrites ? threads : 1
        let pipeline = _FramePipeline(sink: sink, writers: writers, capacity: writers + 1, width: w, height: h,
                                      total: s.frames.count, progress: options.progress)
        let compositor = Compositor(threadCount: threads)
        let background = s.backgroundPixel
        let loop = runLoop
        let root = self.root
        let events = _sortedEvents
        var renderTimes: [Double] = [], advanceTimes: [Double] = [], snapshotTimes: [Double] = []
        renderTimes.reserveCapacity(min(s.frames.count, 1 << 16))
        advanceTimes.reserveCapacity(min(s.frames.count, 1 << 16))
        snapshotTimes.reserveCapacity(min(s.frames.count, 1 << 16))
        var skipped = 0, cancelled = false
        var failure: RecorderError?

        _withLiveTree {
            var next = 0
            // A tree in which nothing changed and nothing moves with time gives the same
            // snapshot object again, and the compositor reuses its plan (`RenderTreeReuse`).
            var reuse = RenderTreeReuse()
            // Seeking: the first frame's turn runs every event due before it at its own time,
            // so frames before the range cost only their events and callbacks (no snapshot).
            for n in s.frames {
                let t = s.time(ofFrame: n)
                let m0 = DispatchTime.now().uptimeNanoseconds
                Self._advance(loop, to: t, events: events, next: &next)
                let m1 = DispatchTime.now().uptimeNanoseconds
                // Checked before the skip test too: an interrupt during a long `--resume` check of
                // complete frames stops the run (and reports it) like one during rendering.
                if let stop = options.shouldStop, stop() { cancelled = true; break }
                if let skip = options.skip, skip(n) {
                    skipped += 1
                    pipeline.setTotal(s.frames.count - skipped)
                    continue
                }
                let tree = root.makeRenderTree(reusing: &reuse)
                // An animated tree's snapshot is never seen again: its whole plan is not kept
                // either (freed after the frame, as the snapshot is); the runs of its kept
                // subtrees are.
                compositor.keepsPlan = reuse.keepsSnapshot
                let m2 = DispatchTime.now().uptimeNanoseconds
                _snapshotsTaken += 1
                guard var buffer = pipeline.acquire(stop: options.shouldStop) else {
                    if pipeline.failure == nil { cancelled = true }     // interrupted while waiting
                    break
                }
                let t0 = DispatchTime.now().uptimeNanoseconds
                do throws(CompositorError) {
                    try compositor.render(tree, into: &buffer, scale: CGFloat(s.scale), background: background)
                } catch { failure = .compositor(error); break }
                renderTimes.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9)
                advanceTimes.append(Double(m1 - m0) / 1e9)
                snapshotTimes.append(Double(m2 - m1) / 1e9)
                pipeline.submit(n, buffer, time: t)
            }
            _snapshotsReused = reuse.reused
            _plansReused = compositor.plansReused
        }
        if cancelled, failure == nil, sink is _AbandonsWritesInFlight {
            // An interrupt: do not wait for frames being encoded (seconds each for a large
            // `small` PNG); the sink refuses their writes once cancelled.
            pipeline.abandon()
        } else {
            pipeline.close()
        }
        if failure == nil, let e = pipeline.failure { failure = .sink(e) }
        if let failure { sink.cancel(); throw failure }
        if cancelled {
            sink.cancel()
        } else {
            do throws(FrameSinkError) { try sink.finish() } catch { sink.cancel(); throw .sink(error) }
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - clockStart) / 1e9
        return RecordingResult(frames: s.frames, framesWritten: pipeline.framesWritten, framesSkipped: skipped,
                               cancelled: cancelled, elapsed: elapsed, renderTimes: renderTimes,
                               advanceTimes: advanceTimes, snapshotTimes: snapshotTimes)
    }
}

import Foundation
import FlipbookPixels

/// The back half of the recorder: a fixed set of frame buffers and writer threads.
///
/// The recording thread composites frame n into a buffer from ``acquire()`` and hands it to
/// ``submit(_:_:time:)``; a writer thread then calls `sink.write` (PNG encoding happens there)
/// and returns the buffer to the free list. So compositing frame n+1 overlaps encoding frame n.
///
/// Invariants:
/// - at most `capacity` buffers ever exist (memory is bounded whatever the frame count), and
///   they are reused: a returned buffer is uniquely referenced again unless the sink kept it
///   (then copy-on-write gives the next frame fresh storage);
/// - with one writer (sinks without concurrent writes) frames are written in submission
///   order, which is increasing frame order;
/// - after the first write error no further frame is written; ``failure`` holds that error.
final class _FramePipeline: @unchecked Sendable {
    private let cond = NSCondition()
    private var queue: [(index: Int, time: Double, image: PixelBuffer?)] = []
    private var head = 0
    private var free: [PixelBuffer] = []
    private var allocated = 0
    private var closed = false
    /// Set by ``abandon()``: queued frames are dropped and nothing more is counted.
    private var abandoned = false
    private var error: FrameSinkError?
    private var written = 0
    private var total: Int
    private var running = 0

    private let sink: FrameSink
    private let capacity: Int
    private let width: Int, height: Int
    private let progress: (@Sendable (RecordingProgress) -> Void)?
    private let done = DispatchGroup()

    /// `writers` threads (1 for streams), `capacity` buffers of `width × height`.
    init(sink: FrameSink, writers: Int, capacity: Int, width: Int, height: Int, total: Int,
         progress: (@Sendable (RecordingProgress) -> Void)?) {
        self.sink = sink; self.capacity = max(capacity, writers + 1)
        self.width = width; self.height = height; self.total = total; self.progress = progress
        for k in 0..<max(1, writers) {
            done.enter()
            let t = Thread { [self] in self.workerLoop(); self.done.leave() }
            t.name = "flipbook.writer.\(k)"
            t.stackSize = 1 << 20
            t.start()
        }
    }

    /// The first write error, if any.
    var failure: FrameSinkError? { cond.lock(); defer { cond.unlock() }; return error }

    /// Frames written so far.
    var framesWritten: Int { cond.lock(); defer { cond.unlock() }; return written }

    /// Lowers the expected total (frames skipped after the start), for progress reports.
    func setTotal(_ n: Int) { cond.lock(); total = n; cond.unlock() }

    /// A buffer to composite into: a free one, a new one while fewer than `capacity` exist, or
    /// (blocking) the next one a writer returns. `nil` after a write error, or when `stop`
    /// answers true while waiting (polled every 20 ms: an interrupt must not wait for the
    /// writers' encodes to return a buffer).
    func acquire(stop: (() -> Bool)? = nil) -> PixelBuffer? {
        cond.lock(); defer { cond.unlock() }
        while true {
            if error != nil { return nil }
            if let b = free.popLast() { return b }
            if allocated < capacity { allocated += 1; return PixelBuffer(width: width, height: height) }
            if let stop {
                if stop() { return nil }
                _ = cond.wait(until: Date(timeIntervalSinceNow: 0.02))
            } else {
                cond.wait()
            }
        }
    }

    /// Queues a composited frame for writing.
    func submit(_ index: Int, _ image: PixelBuffer, time: Double) {
        cond.lock()
        queue.append((index, time, image))
        cond.broadcast()
        cond.unlock()
    }

    /// Waits until every queued frame is written (or dropped after an error), then stops the
    /// writer threads.
    func close() {
        cond.lock(); closed = true; cond.broadcast(); cond.unlock()
        done.wait()
    }

    /// Stops at once, for an interrupt with a sink that abandons writes in flight
    /// (``_AbandonsWritesInFlight``): queued frames are dropped, writers stop taking frames, and
    /// nobody waits for the frames being encoded — their writes are refused by the cancelled
    /// sink (no file), and their threads end when the encode returns (or with the process).
    /// A PNG at `small` takes seconds at 4K: this is what makes Ctrl-C prompt.
    func abandon() {
        cond.lock()
        abandoned = true; closed = true
        for i in head..<queue.count { queue[i].image = nil }
        head = queue.count
        cond.broadcast()
        cond.unlock()
    }

    private func workerLoop() {
        while true {
            cond.lock()
            while head == queue.count && !closed { cond.wait() }
            if head == queue.count || abandoned { cond.unlock(); return }
            let (index, time) = (queue[head].index, queue[head].time)
            var image = queue[head].image
            queue[head].image = nil    // drop the queue's reference: the buffer stays unique
            head += 1
            if head > 64 && head * 2 > queue.count { queue.removeFirst(head); head = 0 }
            let skip = error != nil
            running += 1
            cond.unlock()

            var failed: FrameSinkError?
            if !skip {
                do throws(FrameSinkError) { try sink.write(frame: index, image!, time: time) } catch { failed = error }
            }

            cond.lock()
            running -= 1
            if let failed, error == nil, !abandoned { error = failed }   // an abandoned frame's refusal is not an error
            let ok = !skip && failed == nil && !abandoned
            if ok { written += 1 }
            let report = RecordingProgress(frame: index, written: written, total: total)
            free.append(image!)
            image = nil
            cond.broadcast()
            // Progress is reported under the lock: one call at a time, counts increasing.
            if ok, let progress { progress(report) }
            cond.unlock()
        }
    }
}

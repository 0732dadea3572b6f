import Synchronization
import Testing
@testable import FlipbookRender
import Flipbook
import FlipbookPixels
import Foundation
import FlipbookTestSupport

/// A scene exercising events, implicit animations, callbacks and a transition: built fresh
/// for each recording (a recorder records once).
func pushScene(frames: ClosedRange<Int>, fps: Double = 10) -> Recorder {
    let loop = VirtualRunLoop()
    return loop.run {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 40, height: 20)
        root.position = CGPoint(x: 20, y: 10)
        let card = CALayer()
        card.frame = CGRect(x: 0, y: 0, width: 40, height: 20)
        card.contents = TestScene.image(4, 2, .red)
        root.addSublayer(card)
        let dot = CALayer()
        dot.frame = CGRect(x: 2, y: 2, width: 6, height: 6)
        dot.backgroundColor = TestScene.blue
        root.addSublayer(dot)
        let rec = Recorder(root: root, settings: RecordingSettings(width: 40, height: 20, scale: 1, fps: fps,
                                                                    frames: frames, background: .white))
        rec.at(0.2) {
            let t = CATransition(); t.type = .push; t.subtype = .fromLeft; t.duration = 0.4
            card.actions = ["contents": t]
            card.contents = TestScene.image(4, 2, .green)
        }
        rec.at(0.3) {
            CATransaction.setCompletionBlock { dot.backgroundColor = TestScene.red }
            dot.position = CGPoint(x: 30, y: 10)
        }
        return rec
    }
}

@Suite struct RecorderTests {
    @Test func frameRangeIndependence() throws {
        let full = MemoryFrameSink(), part = MemoryFrameSink()
        try pushScene(frames: 0...9).record(to: full, options: RecordingOptions(threads: 2))
        try pushScene(frames: 5...9).record(to: part, options: RecordingOptions(threads: 2))
        #expect(part.frames.map(\.index) == Array(5...9))
        for n in 5...9 { #expect(part.image(n) == full.image(n), "frame \(n)") }
        #expect(full.image(0) != full.image(9))          // the scene does change
    }

    @Test func identicalOutputWhateverTheThreadCount() throws {
        let one = MemoryFrameSink(), two = MemoryFrameSink()
        let r1 = try pushScene(frames: 0...9).record(to: one, options: RecordingOptions(threads: 1))
        try pushScene(frames: 0...9).record(to: two, options: RecordingOptions(threads: 2))
        #expect(r1.framesWritten == 10 && r1.renderTimes.count == 10)
        #expect(r1.advanceTimes.count == 10 && r1.snapshotTimes.count == 10)   // per-stage times, one per frame
        #expect(one.frames == two.frames)
        #expect(one.frames.map(\.time) == (0...9).map { Double($0) / 10 })
    }

    /// The push from the left at its midpoint: the new (green) contents fill the left half,
    /// the old (red) ones were pushed into the right half.
    @Test func pushTransitionMidpoint() throws {
        let sink = MemoryFrameSink()
        try pushScene(frames: 0...6).record(to: sink)
        let before = try #require(sink.image(1)), mid = try #require(sink.image(4)), after = try #require(sink.image(6))
        #expect(before[5, 15] == .red && before[35, 15] == .red)
        // t = 0.4 is 0.2 s into the 0.4 s push: progress ½.
        #expect(mid[5, 15] == .green && mid[15, 15] == .green)
        #expect(mid[25, 15] == .red && mid[35, 15] == .red)
        #expect(after[5, 15] == .green && after[35, 15] == .green)
    }

    /// Events run at their own time; completion blocks run when the animation ends, and their
    /// changes animate implicitly from that time.
    @Test func eventsAndCompletionBlocksLandOnTheirFrames() throws {
        let sink = MemoryFrameSink()
        try pushScene(frames: 0...9).record(to: sink)
        // The implicit position animation runs 0.3 … 0.55 (0.25 s): at 0.3 the dot is still home,
        // at 0.4 it is on its way (neither home nor arrived).
        #expect(sink.image(3)?[4, 4] == .blue)
        #expect(sink.image(4)?[4, 4] != .blue && sink.image(4)?[29, 10] != .blue)
        // The block (at 0.55) sets red: blue→red runs 0.55 … 0.8, so 0.6 is a mix, 0.9 is red.
        let mix = try #require(sink.image(6)?[29, 10])
        #expect(mix.r > 0 && mix.b > 0 && mix.b > mix.r)
        #expect(sink.image(9)?[29, 10] == .red)
    }

    @Test func skippedFramesAreSimulatedNotRendered() throws {
        let full = MemoryFrameSink(), resumed = MemoryFrameSink()
        try pushScene(frames: 0...9).record(to: full)
        let r = try pushScene(frames: 0...9).record(to: resumed, options: RecordingOptions(skip: { $0 % 3 != 0 }))
        #expect(r.framesSkipped == 6 && r.framesWritten == 4)
        #expect(resumed.frames.map(\.index) == [0, 3, 6, 9])
        for n in [0, 3, 6, 9] { #expect(resumed.image(n) == full.image(n)) }
    }

    @Test func stopFinishesFramesInFlightAndCancels() throws {
        let sink = MemoryFrameSink()
        let asked = Atomic<Int>(0)
        let r = try pushScene(frames: 0...9).record(to: sink, options: RecordingOptions(threads: 2, shouldStop: {
            asked.add(1, ordering: .relaxed).newValue > 3
        }))
        #expect(r.cancelled && r.framesWritten == 3)
        #expect(sink.frames.map(\.index) == [0, 1, 2] && sink.isCancelled && !sink.isFinished)
    }

    /// With a sink that abandons writes in flight, a stop does not wait for slow encodes: the
    /// recording returns at once, frames being encoded are dropped (never written after the
    /// cancel), and the frames written are whole.
    @Test func stopAbandonsSlowEncodesInFlight() throws {
        let sink = SlowAbandoningSink(seconds: 1.5)
        let asked = Atomic<Int>(0)
        let t0 = DispatchTime.now().uptimeNanoseconds
        let r = try pushScene(frames: 0...9).record(to: sink, options: RecordingOptions(threads: 2, shouldStop: {
            asked.add(1, ordering: .relaxed).newValue > 3
        }))
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9
        #expect(r.cancelled && r.framesWritten == 0)
        #expect(elapsed < 1.2, "\(elapsed) s: waited for an encode")      // one encode is 1.5 s
        let cancelled = sink.isCancelled.load(ordering: .relaxed)
        #expect(cancelled)
    }

    /// After `cancel()` a PNG sequence writes nothing more (a frame whose encode was in flight
    /// is dropped, not written after the interrupt was reported).
    @Test func pngSinkDropsWritesAfterCancel() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flipbook-gate-\(getpid())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let sink = PNGSequenceSink(directory: dir)
        try sink.begin(FrameSinkFormat(width: 4, height: 4, fps: 10, frames: 0...1))
        try sink.write(frame: 0, PixelBuffer(width: 4, height: 4), time: 0)
        sink.cancel()
        #expect(throws: FrameSinkError.self) { try sink.write(frame: 1, PixelBuffer(width: 4, height: 4), time: 0.1) }
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(files == ["frame_00000.png"])
        // A new recording into the same sink writes again (the cancel does not poison it).
        try sink.begin(FrameSinkFormat(width: 4, height: 4, fps: 10, frames: 0...1))
        try sink.write(frame: 1, PixelBuffer(width: 4, height: 4), time: 0.1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["frame_00000.png", "frame_00001.png"])
    }

    @Test func streamsGetFramesInOrderFromOneThread() throws {
        let sink = OrderCheckingSink()
        try pushScene(frames: 0...19, fps: 30).record(to: sink, options: RecordingOptions(threads: 2))
        #expect(sink.order.withLock { $0 } == Array(0...19))
        #expect(sink.maxConcurrent.load(ordering: .relaxed) == 1)
    }

    @Test func sinkFailureStopsAndThrows() {
        let sink = OrderCheckingSink(failAt: 4)
        #expect(throws: RecorderError.sink(.diskFull(path: "x"))) {
            try pushScene(frames: 0...19).record(to: sink, options: RecordingOptions(threads: 2))
        }
        #expect(sink.order.withLock { $0 } == Array(0...4) && sink.cancelled.load(ordering: .relaxed))
    }

    @Test func invalidSettingsAndSecondRecordingAreRefused() throws {
        let loop = VirtualRunLoop()
        let root = loop.run { CALayer() }
        let bad = Recorder(root: root, settings: RecordingSettings(width: 0, height: 10, frames: 0...1))
        #expect(throws: RecorderError.invalidSettings("frame size 0×10 pixels is outside 1…16384 on a side")) {
            try bad.record(to: NullFrameSink())
        }
        let rec = pushScene(frames: 0...0)
        try rec.record(to: NullFrameSink())
        #expect(throws: RecorderError.alreadyRecorded) { try rec.record(to: NullFrameSink()) }
    }

    @Test func durationSettingsCountFrames() {
        let s = RecordingSettings(width: 10, height: 10, scale: 1.5, fps: 30, start: 1, duration: 2)
        #expect(s.frames == 0...59 && s.pixelWidth == 15 && s.time(ofFrame: 30) == 2)
        #expect(RecordingSettings(width: 1, height: 1, frames: 0...0, background: CGColor(red: 1, green: 0, blue: 0, alpha: 0.5)).backgroundPixel
                == RGBA8(r: 128, g: 0, b: 0, a: 128))
    }
}

/// A stream-like sink: records the order of writes and the most writes seen at once.
final class OrderCheckingSink: FrameSink {
    let order = Mutex<[Int]>([])
    let inside = Atomic<Int>(0), maxConcurrent = Atomic<Int>(0)
    let cancelled = Atomic<Bool>(false)
    let failAt: Int?
    init(failAt: Int? = nil) { self.failAt = failAt }
    var acceptsConcurrentWrites: Bool { false }
    func begin(_ format: FrameSinkFormat) throws(FrameSinkError) {}
    func write(frame index: Int, _ image: PixelBuffer, time: Double) throws(FrameSinkError) {
        let now = inside.add(1, ordering: .relaxed).newValue
        _ = maxConcurrent.max(now, ordering: .relaxed)
        defer { inside.subtract(1, ordering: .relaxed) }
        order.withLock { $0.append(index) }
        if index == failAt { throw .diskFull(path: "x") }
    }
    func finish() throws(FrameSinkError) {}
    func cancel() { cancelled.store(true, ordering: .relaxed) }
}

/// A finished recording lets its tree go: a server rendering scene after scene in one process
/// keeps no layers, backing stores or images of the scenes it finished.
@Suite struct RecorderMemoryTests {
    @Test func aFinishedRecordingFreesItsTree() throws {
        weak var root: CALayer?
        weak var drawn: CALayer?
        weak var loopRef: VirtualRunLoop?
        try {
            let loop = VirtualRunLoop()
            loopRef = loop
            let r = loop.run { () -> CALayer in
                let r = CALayer()
                r.bounds = CGRect(x: 0, y: 0, width: 32, height: 32)
                let d = CATextLayer()                     // a layer with a backing store
                d.frame = r.bounds
                d.string = "x"
                r.addSublayer(d)
                drawn = d
                return r
            }
            root = r
            let recorder = Recorder(root: r, settings: RecordingSettings(width: 32, height: 32, duration: 0.2))
            recorder.at(0.05) { r.opacity = 0.5 }         // an implicit animation still running at the end
            _ = try recorder.record(to: MemoryFrameSink())
        }()
        #expect(root == nil && drawn == nil && loopRef == nil)
    }
}

/// A sink whose writes take `seconds` (a slow encode) and that abandons writes in flight like
/// `PNGSequenceSink`: after `cancel()` a write returns without writing.
final class SlowAbandoningSink: FrameSink, _AbandonsWritesInFlight, @unchecked Sendable {
    let seconds: Double
    let isCancelled = Atomic<Bool>(false)
    init(seconds: Double) { self.seconds = seconds }
    var acceptsConcurrentWrites: Bool { true }
    func begin(_ format: FrameSinkFormat) throws(FrameSinkError) {}
    func write(frame index: Int, _ image: PixelBuffer, time: Double) throws(FrameSinkError) {
        Thread.sleep(forTimeInterval: seconds)
    }
    func finish() throws(FrameSinkError) {}
    func cancel() { isCancelled.store(true, ordering: .relaxed) }
}

/// Temporaries left in a shared output folder: this machine's are judged by their process,
/// another machine's (or container's) only by age — a PID there means nothing here.
@Suite struct StalePartialTests {
    @Test func foreignTemporariesAreKeptUntilOld() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flipbook-stale-\(getpid())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let other = _SinkFile.machineTag == "00000001" ? "00000002" : "00000001"
        let names = [
            "local-dead": ".a.png.partial-\(_SinkFile.machineTag)-999999-1",   // this machine, no such process
            "legacy-dead": ".b.png.partial-999999-1",                          // older name: this machine's
            "foreign-new": ".c.png.partial-\(other)-999999-1",                 // another machine, just written
            "foreign-old": ".d.png.partial-\(other)-999999-2",                 // another machine, two hours old
        ]
        for (_, n) in names { FileManager.default.createFile(atPath: dir + "/" + n, contents: Data([1])) }
        let old = Date(timeIntervalSinceNow: -7200)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: dir + "/" + names["foreign-old"]!)
        #expect(_SinkFile.removeStalePartials(in: dir) == 3)
        let left = try FileManager.default.contentsOfDirectory(atPath: dir)
        #expect(left == [names["foreign-new"]!])
    }

    /// 2,000 short names fill the C library's `readdir` buffer several times: reading an
    /// entry's name by copying its 256-byte `d_name` read past that buffer (a heap over-read,
    /// `make test-asan`, docs/sanitizers.md). The one stale temporary among them is found.
    @Test func aFolderOfManyFilesIsReadInBounds() throws {
        let dir = TemporaryDirectory(prefix: "flipbook-stale-")
        for k in 0..<2000 { FileManager.default.createFile(atPath: dir.file("f\(k)"), contents: nil) }
        FileManager.default.createFile(atPath: dir.file(".a.png.partial-\(_SinkFile.machineTag)-999999-1"), contents: nil)
        #expect(_SinkFile.removeStalePartials(in: dir.path) == 1)
        #expect(dir.entries.count == 2000)
    }
}

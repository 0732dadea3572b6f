import FlipbookRender
import FlipbookCompare
import FlipbookPixels

/// Records `recorder` and compares the chosen frames with their references
/// (`<test>.<name>.f<index>.png` each), reporting **one** failure that lists every frame that
/// differs — the recorder-based form of the sequence assertion.
///
///     let recorder = Recorder(root: root, settings: RecordingSettings(width: 96, height: 64, fps: 30, duration: 1))
///     recorder.at(0.1) { card.position.x = 80 }
///     assertRecording(recorder, frames: [0, 9, 15, 29], named: "slide")
///
/// Every frame of the recording is simulated (events, transactions and callbacks run in order);
/// only the frames asked for are composited, so the pixels are exactly those `flipbook render`
/// writes for the same frames. A recorder records once: pass a fresh one each time.
/// Frame indices outside the recording's range are reported as failures.
@discardableResult
public func assertRecording(
    _ recorder: Recorder, frames: [Int], named name: String, tolerance: Tolerance = .exact,
    threads: Int = 1, record: SnapshotRecordMode? = nil,
    testName: String = #function, fileID: String = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
) -> [(name: String, outcome: SnapshotOutcome)] {
    let wanted = Set(frames)
    let sink = MemoryFrameSink()
    var images: [(name: String, image: PixelBuffer)] = []
    do {
        try recorder.record(to: sink, options: RecordingOptions(threads: threads, skip: { !wanted.contains($0) }))
        for n in frames.sorted() {
            guard let image = sink.frames.first(where: { $0.index == n })?.image else {
                let message = "\(name): frame \(n) is not in the recording (frames \(recorder.settings.frames))"
                FailureReporter.fail(message, fileID: fileID, filePath: filePath, line: line, column: column)
                return [("\(name).f\(n)", .error(.render(message)))]
            }
            images.append(("\(name).f\(n)", image))
        }
    } catch {
        let message = "\(name): recording failed: \(error)"
        FailureReporter.fail(message, fileID: fileID, filePath: filePath, line: line, column: column)
        return [(name, .error(.render(message)))]
    }
    return assertSnapshots(images, tolerance: tolerance, record: record, testName: testName,
                           fileID: fileID, filePath: filePath, line: line, column: column)
}

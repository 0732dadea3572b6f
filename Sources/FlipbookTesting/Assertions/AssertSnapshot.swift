import FlipbookCompare
import FlipbookPixels
/// Compares `image` with the reference `__Snapshots__/<TestFile>/<test>.<name>.png` next to the
/// calling test file and reports a failure (Swift Testing or XCTest) when it differs beyond
/// `tolerance`, is missing in `never` mode, or was (re)recorded.
///
/// - Parameters:
///   - record: the record mode; `nil` reads `FLIPBOOK_RECORD` / `CI`
///     (``SnapshotRecordMode/fromEnvironment(_:)``).
/// - Returns: the outcome, for callers that want the numbers.
@discardableResult
public func assertSnapshot(
    of image: PixelBuffer, named name: String, tolerance: Tolerance = .exact,
    record: SnapshotRecordMode? = nil,
    testName: String = #function, fileID: String = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
) -> SnapshotOutcome {
    let outcome: SnapshotOutcome
    do throws(SnapshotError) {
        let verifier = try _verifier(record)
        let location = SnapshotLocation.forTest(filePath: "\(filePath)", testName: testName, name: name)
        outcome = verifier.verify(image, at: location, tolerance: tolerance)
    } catch {
        outcome = .error(error)
    }
    if let message = outcome.message {
        FailureReporter.fail(message, fileID: fileID, filePath: filePath, line: line, column: column)
    }
    return outcome
}

/// Compares several frames (e.g. an animation at chosen times) with their references
/// (`<test>.<frame name>.png` each) and reports **one** failure listing every frame that differs.
@discardableResult
public func assertSnapshots(
    _ frames: [(name: String, image: PixelBuffer)], tolerance: Tolerance = .exact,
    record: SnapshotRecordMode? = nil,
    testName: String = #function, fileID: String = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
) -> [(name: String, outcome: SnapshotOutcome)] {
    let results: [(name: String, outcome: SnapshotOutcome)]
    do throws(SnapshotError) {
        let verifier = try _verifier(record)
        let file = "\(filePath)"
        results = verifier.verify(frames: frames, location: {
            SnapshotLocation.forTest(filePath: file, testName: testName, name: $0)
        }, tolerance: tolerance)
    } catch {
        results = [("(all frames)", .error(error))]
    }
    if let message = SnapshotOutcome.combinedMessage(results) {
        FailureReporter.fail(message, fileID: fileID, filePath: filePath, line: line, column: column)
    }
    return results
}

/// The verifier of an assertion: `record` or the mode from the environment, and the review page
/// named by `FLIPBOOK_REPORT` (``ReviewReport/fromEnvironment(_:)``), if any.
func _verifier(_ record: SnapshotRecordMode?) throws(SnapshotError) -> SnapshotVerifier {
    SnapshotVerifier(recordMode: try _resolve(record), report: ReviewReport.fromEnvironment())
}

/// `record`, or the mode from the environment.
func _resolve(_ record: SnapshotRecordMode?) throws(SnapshotError) -> SnapshotRecordMode {
    if let record { return record }
    return try SnapshotRecordMode.fromEnvironment()
}

import Flipbook
import FlipbookCompare
import FlipbookPixels
import Foundation
/// Renders the live `layer` as it is at media time `time` and compares it with the reference
/// `__Snapshots__/<TestFile>/<test>.<name>.png`.
///
///     let loop = VirtualRunLoop()
///     loop.run {
///         let card = makeCard()                      // layers belong to `loop`
///         card.opacity = 0.5
///         assertRendering(of: card, at: 0, size: CGSize(width: 64, height: 48), named: "dimmed")
///     }
///
/// The layer's run loop is advanced to `time` (`advance(to:)` + `endTurn()`), the layer is
/// snapshotted with `makeRenderTree()` and rendered at `size · scale` pixels over
/// `background` (see ``LayerRenderer/frame(of:at:size:scale:background:)``).
/// **This moves that run loop's clock**, which never goes back: use one run loop per test and
/// ascending times; a time earlier than the clock is reported as a failure.
///
/// - Parameters:
///   - size: the image size in points; pixels are `size · scale`, rounded up.
///   - background: premultiplied fill under the layer (transparent by default, so the
///     reference shows the layer's own alpha).
///   - renderer: ``LayerRenderer/default`` is the project's compositor.
///   - record: the record mode; `nil` reads `FLIPBOOK_RECORD` / `CI`.
/// - Returns: the outcome, for callers that want the numbers.
@discardableResult
public func assertRendering(
    of layer: CALayer, at time: CFTimeInterval, size: CGSize, scale: CGFloat = 1,
    background: RGBA8 = .transparent, named name: String, tolerance: Tolerance = .exact,
    renderer: LayerRenderer = .default, record: SnapshotRecordMode? = nil,
    testName: String = #function, fileID: String = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
) -> SnapshotOutcome {
    let image: PixelBuffer
    do throws(SnapshotError) {
        image = try renderer.frame(of: layer, at: time, size: size, scale: scale, background: background)
    } catch {
        let outcome = SnapshotOutcome.error(error)
        FailureReporter.fail(outcome.message!, fileID: fileID, filePath: filePath, line: line, column: column)
        return outcome
    }
    return assertSnapshot(of: image, named: name, tolerance: tolerance, record: record, testName: testName,
                          fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Renders the live `layer` at each of `times` and compares every frame with its reference,
/// reporting **one** failure that lists exactly the frames that differ.
///
///     assertRenderings(of: card, at: [0, 0.125, 0.25], size: CGSize(width: 64, height: 48), named: "push")
///     // references: <test>.push.t0.png, <test>.push.t0.125.png, <test>.push.t0.25.png
///
/// Frame `i` is named ``LayerRenderer/frameName(_:at:)`` (`<name>.t<time>`), so references
/// are `__Snapshots__/<TestFile>/<test>.<name>.t<time>.png` and the failure message's first
/// line reads `2 of 3 frames differ: push.t0.125, push.t0.25`. Times must be finite, strictly
/// increasing and not before the run loop's clock (which the frames advance, as in
/// ``assertRendering(of:at:size:scale:background:named:tolerance:renderer:record:testName:fileID:filePath:line:column:)``);
/// otherwise nothing is rendered and the one failure says why. A frame whose rendering fails
/// is listed as failing; the others are still compared.
///
/// - Returns: every frame's name and outcome, in the order of `times`.
@discardableResult
public func assertRenderings(
    of layer: CALayer, at times: [CFTimeInterval], size: CGSize, scale: CGFloat = 1,
    background: RGBA8 = .transparent, named name: String, tolerance: Tolerance = .exact,
    renderer: LayerRenderer = .default, record: SnapshotRecordMode? = nil,
    testName: String = #function, fileID: String = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
) -> [(name: String, outcome: SnapshotOutcome)] {
    let results: [(name: String, outcome: SnapshotOutcome)]
    do throws(SnapshotError) {
        let verifier = try _verifier(record)
        try LayerRenderer.checkTimes(times, for: layer._runLoop)
        let file = "\(filePath)"
        results = times.map { t in
            let frameName = LayerRenderer.frameName(name, at: t)
            let location = SnapshotLocation.forTest(filePath: file, testName: testName, name: frameName)
            do throws(SnapshotError) {
                let image = try renderer.frame(of: layer, at: t, size: size, scale: scale, background: background)
                return (frameName, verifier.verify(image, at: location, tolerance: tolerance))
            } catch {
                return (frameName, .error(error))
            }
        }
    } catch {
        results = [("(all frames)", .error(error))]
    }
    if let message = SnapshotOutcome.combinedMessage(results) {
        FailureReporter.fail(message, fileID: fileID, filePath: filePath, line: line, column: column)
    }
    return results
}

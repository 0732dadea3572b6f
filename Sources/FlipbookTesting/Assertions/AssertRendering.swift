import Flipbook
import FlipbookCompare
import FlipbookPixels
import Foundation
/// Renders the render-tree snapshot `layer` at `width`×`height` device pixels (`scale` device
/// pixels per point, over the premultiplied `background`) and compares it with the reference
/// `__Snapshots__/<TestFile>/<test>.<name>.png` (see ``assertSnapshot(of:named:tolerance:record:testName:fileID:filePath:line:column:)``).
///
/// For a live `CALayer` at a media time, use
/// ``assertRendering(of:at:size:scale:background:named:tolerance:renderer:record:testName:fileID:filePath:line:column:)``.
@discardableResult
public func assertRendering(
    of layer: RenderLayer, width: Int, height: Int, scale: CGFloat = 1, background: RGBA8 = .transparent,
    named name: String,
    tolerance: Tolerance = .exact, renderer: LayerRenderer = .default,
    record: SnapshotRecordMode? = nil,
    testName: String = #function, fileID: String = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
) -> SnapshotOutcome {
    let image: PixelBuffer
    do {
        image = try renderer.renderRequest(layer, LayerRenderer.Request(width: width, height: height,
                                                                        scale: scale, background: background))
    } catch {
        let outcome = SnapshotOutcome.error(error as? SnapshotError ?? .render("rendering failed: \(error)"))
        FailureReporter.fail(outcome.message!, fileID: fileID, filePath: filePath, line: line, column: column)
        return outcome
    }
    return assertSnapshot(of: image, named: name, tolerance: tolerance, record: record, testName: testName,
                          fileID: fileID, filePath: filePath, line: line, column: column)
}

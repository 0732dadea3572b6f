/// Turns a render-tree snapshot into pixels for ``assertRendering(of:width:height:named:tolerance:renderer:record:testName:fileID:filePath:line:column:)``.
///
/// A closure so the assertions do not depend on one compositor API; ``default`` is the
/// project's compositor once it is wired (until then it reports that no renderer is set).
public struct LayerRenderer: Sendable {
    public var render: @Sendable (_ layer: CARenderLayer, _ width: Int, _ height: Int) throws -> PixelBuffer

    public init(_ render: @escaping @Sendable (CARenderLayer, Int, Int) throws -> PixelBuffer) {
        self.render = render
    }

    /// The compositor of `FlipbookRender`. TODO(lead): wire `Compositor().render(...)` here.
    public static let `default` = LayerRenderer { _, _, _ in
        throw SnapshotError.render("no compositor is wired into LayerRenderer.default yet; pass renderer:")
    }
}

/// Renders `layer` at `width`×`height` and compares it with the reference
/// `__Snapshots__/<TestFile>/<test>.<name>.png` (see ``assertSnapshot(of:named:tolerance:record:testName:fileID:filePath:line:column:)``).
@discardableResult
public func assertRendering(
    of layer: CARenderLayer, width: Int, height: Int, named name: String,
    tolerance: Tolerance = .exact, renderer: LayerRenderer = .default,
    record: SnapshotRecordMode? = nil,
    testName: String = #function, fileID: String = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
) -> SnapshotOutcome {
    let image: PixelBuffer
    do {
        image = try renderer.render(layer, width, height)
    } catch {
        let outcome = SnapshotOutcome.error(error as? SnapshotError ?? .render("rendering failed: \(error)"))
        FailureReporter.fail(outcome.message!, fileID: fileID, filePath: filePath, line: line, column: column)
        return outcome
    }
    return assertSnapshot(of: image, named: name, tolerance: tolerance, record: record, testName: testName,
                          fileID: fileID, filePath: filePath, line: line, column: column)
}

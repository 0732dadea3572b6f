import Testing
import XCTest

/// Sends a failure message to whichever test framework is running the current test.
///
/// - Inside a Swift Testing test (`Test.current != nil`): `Issue.record` at the caller's source
///   location.
/// - Otherwise: `XCTFail` at the caller's file and line (XCTest).
///
/// Both frameworks are imported by this library target (they ship with the toolchain on
/// Linux). Consequence: anything linking `FlipbookTesting` loads `libXCTest`, `libTesting` and
/// Foundation; see `docs/visual-testing.md` for the split that would keep them out of the CLI.
public enum FailureReporter {
    /// Reports `message` as a test failure.
    public static func fail(_ message: String, fileID: String, filePath: StaticString, line: UInt, column: UInt) {
        if Test.current != nil {
            Issue.record(Comment(rawValue: message),
                         sourceLocation: SourceLocation(fileID: fileID, filePath: "\(filePath)",
                                                        line: Int(line), column: Int(column)))
        } else {
            XCTFail(message, file: filePath, line: line)
        }
    }
}

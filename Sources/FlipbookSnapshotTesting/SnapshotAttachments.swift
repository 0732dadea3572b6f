import Foundation
import Testing

/// Records a failed comparison's images on the running Swift Testing test.
///
/// swift-snapshot-testing hands its attachments to Xcode only (`__XCODE_BUILT_PRODUCTS_DIR_PATHS`
/// set, and never on Linux), so on Linux a failure would leave nothing to look at but the
/// message. Swift Testing attachments exist on Linux: each image is recorded with
/// `Attachment.record` under its Apple name (`reference.png`, `failure.png`,
/// `difference.png`) at the test's source location. `swift test --attachments-path DIR`
/// writes them into `DIR` (which must exist); without that option they are discarded.
///
/// Outside a Swift Testing test (XCTest) nothing is recorded: XCTest on Linux has no
/// attachments. The new snapshot still lands where swift-snapshot-testing writes failed
/// snapshots, `$SNAPSHOT_ARTIFACTS/<TestFile>/<test>.<n>.png` (the temporary directory when
/// unset), next to the reference it was compared with.
enum SnapshotAttachments {
    static func record(_ files: [(name: String, data: Data)]) {
        guard let test = Test.current else { return }
        for file in files where !file.data.isEmpty {
            Attachment.record([UInt8](file.data), named: file.name, sourceLocation: test.sourceLocation)
        }
    }
}

import Flipbook
import FlipbookPixels
import FlipbookPNG
import FlipbookSnapshotTesting
import FlipbookTestSupport
import Foundation
import SnapshotTesting
import Testing

/// swift-snapshot-testing's record modes with the image strategies: `.missing` (the default,
/// and `SNAPSHOT_TESTING_RECORD=missing`), `.all`, `.failed`, `.never`.
@Suite struct RecordModeTests {
    let dir = TemporaryDirectory(prefix: "flipbook-snapshot-")

    static func square(_ color: CGColor) -> CALayer {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 4, height: 4)
        layer.backgroundColor = color
        return layer
    }

    @Test func missingRecordsANewReferenceAndFailsOnce() throws {
        try VirtualRunLoop().run {
            let first = try #require(verify(Self.square(Fixture.red), as: .image, named: "m", record: .missing, in: dir))
            #expect(first.contains("No reference was found on disk. Automatically recorded snapshot"))
            #expect(try PNG.decode(contentsOf: dir.file("check.m.png"))[0, 0] == RGBA8(r: 255, g: 0, b: 0, a: 255))
            #expect(verify(Self.square(Fixture.red), as: .image, named: "m", record: .missing, in: dir) == nil)
            let changed = try #require(verify(Self.square(Fixture.blue), as: .image, named: "m", record: .missing, in: dir))
            #expect(changed.contains("16 of 16 pixels differ"))
        }
    }

    @Test func neverRecordsNothing() throws {
        try VirtualRunLoop().run {
            let message = try #require(verify(Self.square(Fixture.red), as: .image, named: "n", record: .never, in: dir))
            #expect(message.contains("New snapshot was not recorded because recording is disabled"))
            #expect(dir.entries.isEmpty)
        }
    }

    @Test func allOverwritesEvenAMatch() throws {
        try VirtualRunLoop().run {
            _ = verify(Self.square(Fixture.red), as: .image, named: "a", record: .all, in: dir)
            let message = try #require(verify(Self.square(Fixture.blue), as: .image, named: "a", record: .all, in: dir))
            #expect(message.contains("Record mode is on"))
            #expect(try PNG.decode(contentsOf: dir.file("check.a.png"))[0, 0] == RGBA8(r: 0, g: 0, b: 255, a: 255))
        }
    }

    @Test func failedRecordsOnlyWhatDiffers() throws {
        try VirtualRunLoop().run {
            _ = verify(Self.square(Fixture.red), as: .image, named: "f", record: .all, in: dir)
            #expect(verify(Self.square(Fixture.red), as: .image, named: "f", record: .failed, in: dir) == nil)
            let message = try #require(verify(Self.square(Fixture.green), as: .image, named: "f", record: .failed, in: dir))
            #expect(message.contains("A new snapshot was automatically recorded."))
            #expect(try PNG.decode(contentsOf: dir.file("check.f.png"))[0, 0] == RGBA8(r: 0, g: 255, b: 0, a: 255))
        }
    }

    @Test func withSnapshotTestingSetsTheModeForTheBlock() throws {
        try VirtualRunLoop().run {
            withSnapshotTesting(record: .all) {
                _ = verifySnapshot(of: Self.square(Fixture.red), as: .image, named: "w",
                                   snapshotDirectory: dir.path, testName: "check")
            }
            #expect(FileManager.default.fileExists(atPath: dir.file("check.w.png")))
            try withSnapshotTesting(record: .never) {
                let message = try #require(verifySnapshot(of: Self.square(Fixture.blue), as: .image, named: "w",
                                                          snapshotDirectory: dir.path, testName: "check"))
                #expect(message.contains("16 of 16 pixels differ"))
            }
        }
    }
}

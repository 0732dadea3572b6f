import Foundation
import Testing

/// Every Swift sample program (`samples/swift/*`, built by `swift build`/`swift test` next to the
/// test bundle) runs and writes its frames: `sample-NAME OUTPUT_FOLDER 3` renders frames 0…3.
@Suite struct SwiftSampleTests {
    static let names = [
        "push-transition", "disable-actions-removal", "suppressed-position", "explicit-duration", "wag",
        "default-action-push", "pop-in", "fade-out-remove", "nested-transactions", "overshoot",
    ]

    /// The folder the build products (and this test bundle) live in.
    static var productsFolder: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
    }

    @Test func everySampleFolderIsListed() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../samples/swift").standardized.path
        let programs = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0 != "Support" }.sorted()
        #expect(programs == Self.names.sorted())
    }

    @Test(arguments: names)
    func sampleRendersItsFrames(_ name: String) throws {
        let executable = "\(Self.productsFolder)/sample-\(name)"
        try #require(FileManager.default.isExecutableFile(atPath: executable), "not built: \(executable)")
        let out = NSTemporaryDirectory() + "flipbook-sample-\(name)-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: out) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = [out, "3"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let frames = (try? FileManager.default.contentsOfDirectory(atPath: out))?.filter { $0.hasSuffix(".png") }.sorted() ?? []
        #expect(frames == ["frame_00000.png", "frame_00001.png", "frame_00002.png", "frame_00003.png"])
    }
}

import Testing
import Foundation
import FlipbookPixels
import FlipbookRender
import FlipbookScene

/// Scene `contents` images are PNG or JPEG, told apart by their bytes (FlipbookJPEGTests'
/// fixtures are the JPEGs).
@Suite struct SceneImageTests {
    static let jpegFixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("FlipbookJPEGTests/Fixtures").path

    /// A fresh folder holding `files` (name → bytes).
    func folder(_ name: String, _ files: [String: [UInt8]]) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flipbook-\(name)-\(getpid())").path
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for (file, bytes) in files {
            #expect(FileManager.default.createFile(atPath: dir + "/" + file, contents: Data(bytes)))
        }
        return dir
    }

    func solid() -> [UInt8] { [UInt8](FileManager.default.contents(atPath: Self.jpegFixtures + "/solid.jpg")!) }

    /// A JPEG, and a JPEG whose name says PNG, both render as their colour: (200, 40, 90) ± 2.
    @Test func jpegContentsRender() throws {
        let dir = try folder("scene-jpeg", ["photo.jpg": solid(), "renamed.png": solid()])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let text = """
        {"output": {"size": "48x16", "duration": 1, "background": "black"},
         "layers": [
          {"frame": [0, 0, 16, 16], "contents": "photo.jpg"},
          {"frame": [16, 0, 16, 16], "contents": "renamed.png"}
         ]}
        """
        let scene = try SceneParser.parse(text, file: "scene.json", baseDirectory: dir)
        var settings = scene.recording
        settings.frames = 0...0
        let sink = MemoryFrameSink()
        _ = try SceneBuilder(scene, file: "scene.json").makeRecorder(settings: settings).record(to: sink)
        let image = try #require(sink.image(0))
        for (x, y) in [(1, 1), (8, 8), (14, 14), (17, 2), (24, 8), (31, 15)] {
            let p = image[x, y]
            #expect(abs(Int(p.r) - 200) <= 2 && abs(Int(p.g) - 40) <= 2 && abs(Int(p.b) - 90) <= 2 && p.a == 255, "(\(x), \(y)): \(p)")
        }
        #expect(image[40, 8] == RGBA8(r: 0, g: 0, b: 0, a: 255))  // no layer there: the background
    }

    /// JPEG headers count toward the scene's pixel budget, read before anything is decoded: two
    /// files claiming 16384² each (the per-side limit) are refused together.
    @Test func jpegHeadersCountTowardThePixelBudget() throws {
        var big = solid()
        var i = 2
        while big[i + 1] != 0xC0 { i += 2 + (Int(big[i + 2]) << 8 | Int(big[i + 3])) }
        for k in [i + 5, i + 7] { big[k] = 0x40; big[k + 1] = 0x00 }  // 16384 × 16384
        let dir = try folder("scene-jpeg-budget", ["a.jpg": big, "b.jpg": big + [0]])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let text = """
        {"output": {"size": "16x16", "duration": 1},
         "layers": [{"contents": "a.jpg"}, {"contents": "b.jpg"}]}
        """
        let scene = try SceneParser.parse(text, file: "scene.json", baseDirectory: dir)
        do {
            _ = try SceneBuilder.loadImages(scene, file: "scene.json")
            Issue.record("no error")
        } catch {
            #expect(error.description.hasSuffix("image \"b.jpg\" brings the scene's images to 536870912 pixels, above the budget of 268435456 (SceneBuilder.imagePixelBudget)"),
                    "\(error.description)")
        }
    }

    /// Cut in its scan: the header pass (the budget) reads it, decoding then fails.
    @Test func aTruncatedJPEGIsASceneError() throws {
        let b = [UInt8](FileManager.default.contents(atPath: Self.jpegFixtures + "/baseline.jpg")!)
        let dir = try folder("scene-jpeg-cut", ["cut.jpg": Array(b.prefix(b.count - 100))])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let text = "{\"output\": {\"size\": \"16x16\", \"duration\": 1},\n \"layers\": [{\"contents\": \"cut.jpg\"}]}"
        let scene = try SceneParser.parse(text, file: "scene.json", baseDirectory: dir)
        do {
            _ = try SceneBuilder.loadImages(scene, file: "scene.json")
            Issue.record("no error")
        } catch {
            #expect(error.description == "scene.json:2: layers[0].contents: image \"cut.jpg\" (\(dir)/cut.jpg) cannot be used: truncated JPEG: Premature end of JPEG file")
        }
    }
}

import FlipbookFuzzTargets
import Foundation
import Testing

/// Replays every input the fuzz driver kept (`Tests/Fixtures/fuzz/crash-*`, `hang-*`, `rss-*`)
/// through the driver's own targets (`FuzzTargets`, shared with `Fuzz/Sources/flipbook-fuzz`).
/// With no kept input, the seed corpus itself is replayed, so the test always runs the targets.
@Suite struct FuzzReplayTests {
    static var repo: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }

    @Test func keptInputsAndSeedsRunCleanly() throws {
        let dir = Self.repo + "/Tests/Fixtures/fuzz"
        let kept = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [])
            .filter { $0.hasPrefix("crash-") || $0.hasPrefix("hang-") || $0.hasPrefix("rss-") }.sorted()
        let scenes = Self.repo + "/samples/scenes"
        var ran = 0
        for name in kept {
            let bytes = [UInt8](FileManager.default.contents(atPath: dir + "/" + name) ?? Data())
            if name.contains("-png-") { FuzzTargets.png(bytes) }
            else if name.contains("-jpeg-") { FuzzTargets.jpeg(bytes) }
            else if name.contains("-scene-") { FuzzTargets.scene(bytes, baseDirectory: scenes) }
            else if name.contains("-lottie-") { FuzzTargets.lottie(bytes) }
            else { FuzzTargets.compositor(bytes) }
            ran += 1
        }
        if kept.isEmpty {
            for f in try FileManager.default.contentsOfDirectory(atPath: scenes).filter({ $0.hasSuffix(".json") }).sorted().prefix(6) {
                let bytes = [UInt8](FileManager.default.contents(atPath: scenes + "/" + f) ?? Data())
                FuzzTargets.scene(bytes, baseDirectory: scenes)
                FuzzTargets.compositor(bytes)
                ran += 1
            }
            let png = Self.repo + "/Tests/FlipbookPNGTests/Fixtures"
            for f in try FileManager.default.contentsOfDirectory(atPath: png).filter({ $0.hasSuffix(".png") }).sorted() {
                FuzzTargets.png([UInt8](FileManager.default.contents(atPath: png + "/" + f) ?? Data()))
                ran += 1
            }
            let lottie = Self.repo + "/Tests/Fixtures/lottie/fixtures"
            for f in try FileManager.default.contentsOfDirectory(atPath: lottie).filter({ $0.hasSuffix(".json") }).sorted().prefix(2) {
                FuzzTargets.lottie([UInt8](FileManager.default.contents(atPath: lottie + "/" + f) ?? Data()))
                ran += 1
            }
            let jpeg = Self.repo + "/Tests/FlipbookJPEGTests/Fixtures"
            for f in try FileManager.default.contentsOfDirectory(atPath: jpeg).filter({ $0.hasSuffix(".jpg") }).sorted() {
                FuzzTargets.jpeg([UInt8](FileManager.default.contents(atPath: jpeg + "/" + f) ?? Data()))
                ran += 1
            }
        }
        #expect(ran > 0)
    }
}

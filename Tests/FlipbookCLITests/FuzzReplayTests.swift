import Flipbook
import FlipbookFuzzTargets
import Foundation
import Testing

/// Replays every input the fuzzers kept through their own targets (`FuzzTargets`, shared with
/// `Fuzz/Sources/flipbook-libfuzzer` and `flipbook-fuzz`): libFuzzer's findings are named
/// `TARGET-{crash,leak,timeout,oom,slow-unit}-SHA1` (Fuzz/run.sh's artifact prefix), the plain
/// driver's `{crash,hang,rss}-TARGET-…`. With no kept input, the seed corpus itself is
/// replayed, so the test always runs the targets.
@Suite struct FuzzReplayTests {
    static var repo: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }

    @Test func keptInputsAndSeedsRunCleanly() throws {
        let dir = Self.repo + "/Tests/Fixtures/fuzz"
        let kept = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).compactMap { name in
            Self.target(ofKept: name).map { (name, $0) }
        }.sorted { $0.0 < $1.0 }
        let scenes = Self.repo + "/samples/scenes"
        var ran = 0
        for (name, target) in kept {
            let bytes = [UInt8](FileManager.default.contents(atPath: dir + "/" + name) ?? Data())
            switch target {
            case "png": FuzzTargets.png(bytes)
            case "jpeg": FuzzTargets.jpeg(bytes)
            case "scene": FuzzTargets.scene(bytes, baseDirectory: scenes)
            case "lottie": FuzzTargets.lottie(bytes)
            case "font": FuzzTargets.font(bytes)
            default: FuzzTargets.compositor(bytes)
            }
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

    static let targets: Set<String> = ["scene", "png", "jpeg", "lottie", "font", "compositor"]

    /// The target of a kept input's file name, nil for files that are not kept inputs.
    static func target(ofKept name: String) -> String? {
        let parts = name.split(separator: "-", maxSplits: 2).map(String.init)
        guard parts.count >= 2 else { return nil }
        if ["crash", "hang", "rss"].contains(parts[0]), targets.contains(parts[1]) { return parts[1] }     // plain driver
        if targets.contains(parts[0]), ["crash", "leak", "timeout", "oom", "slow"].contains(parts[1]) { return parts[0] }   // libFuzzer
        return nil
    }

    @Test func keptInputNamesNameTheirTarget() {
        #expect(Self.target(ofKept: "crash-scene-emitter-a") == "scene")
        #expect(Self.target(ofKept: "rss-scene-dash-a") == "scene")
        #expect(Self.target(ofKept: "font-crash-0123abcd") == "font")
        #expect(Self.target(ofKept: "lottie-slow-unit-0123") == "lottie")
        #expect(Self.target(ofKept: "compositor-oom-99") == "compositor")
        #expect(Self.target(ofKept: "current-scene") == nil)
        #expect(Self.target(ofKept: "README.md") == nil)
    }

    /// The font seeds (Fuzz/seeds/font: TrueType with layout tables, a collection, CFF, WOFF)
    /// load as fonts and run through the font target.
    @Test func fontSeedsLoadAndRun() throws {
        let dir = Self.repo + "/Fuzz/seeds/font"
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).filter { !$0.hasSuffix(".py") }.sorted()
        #expect(files.count >= 5)
        for f in files {
            let bytes = [UInt8](FileManager.default.contents(atPath: dir + "/" + f) ?? Data())
            #expect(CGFont(CGDataProvider(data: Data(bytes))) != nil, "\(f) does not load as a font")
            FuzzTargets.font(bytes)
        }
    }
}

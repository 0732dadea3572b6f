import Testing
import Foundation
import FlipbookPixels
import FlipbookPNG
import FlipbookRender
import FlipbookTestSupport
@testable import FlipbookLottie

/// One small Lottie file per feature of issue 38 (Tests/Fixtures/lottie/features, written by
/// `scripts/lottie-feature-files.py`) through the whole mapping and `LottieRendering` at
/// 200 × 200, against ThorVG's frames: frames 0, N/4, N/2, 3N/4 and N − 1, each within
/// `max(1.5, 1.5 × the ThorVG–rlottie disagreement)` of mean |Δ| (premultiplied RGBA8), the
/// acceptance rule of the four fixtures — or within 1.5 where rlottie does not draw the file
/// right. Where ThorVG does not draw a feature as After Effects does (merge paths, zig-zags,
/// feathers, a few formulas), it rendered an equivalent file (`features/equivalents/`; the
/// README lists why). A failure writes actual, reference and diff PNGs to
/// /tmp/flipbook-lottie-failures.
///
/// Set `FLIPBOOK_LOTTIE_FEATURES_OUT` to a folder to also get every rendered frame there
/// (`<feature>_<k>.png`) and `<feature>.tsv` (feature, k, mean |Δ| to ThorVG, tolerance,
/// ThorVG–rlottie), passing or not; with `FLIPBOOK_LOTTIE_FEATURES_SIZE=N` as well, the frames
/// are rendered N × N instead and only written (to compare with players run at that size).
@Suite struct FeatureReferenceTests {
    static let references = try? LottieReferences(directory: LottieReferences.featuresDirectory)
    static let dumpDirectory = ProcessInfo.processInfo.environment["FLIPBOOK_LOTTIE_FEATURES_OUT"]
    static let dumpSize = dumpDirectory == nil ? nil : ProcessInfo.processInfo.environment["FLIPBOOK_LOTTIE_FEATURES_SIZE"].flatMap(Int.init)

    /// Every feature file has its references (a file without them would be silently untested),
    /// and every entry's references are ThorVG's bytes.
    @Test func everyFeatureFileHasReferences() throws {
        let refs = try #require(Self.references)
        #expect(refs.width == 200 && refs.height == 200)
        let files = try FileManager.default.contentsOfDirectory(atPath: LottieReferences.featuresDirectory)
            .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
        #expect(files.count >= 40)
        #expect(refs.fixtures.map(\.name) == files)
        // Equivalents exist, and only where named.
        let equivalents = try FileManager.default.contentsOfDirectory(atPath: LottieReferences.featuresDirectory + "/equivalents")
            .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
        #expect(refs.fixtures.filter { $0.referenceFile != nil }.map(\.name) == equivalents)
        for f in refs.fixtures { if let e = f.referenceFile { #expect(FileManager.default.fileExists(atPath: e), "\(e)") } }
        for f in refs.fixtures {
            let n = f.frameCount
            #expect(f.frames.map(\.k) == [0, n / 4, n / 2, 3 * n / 4, n - 1], "\(f.name)")
        }
    }

    @Test(arguments: (references?.frames ?? []))
    func referenceIsThorVGsFrame(_ r: LottieReferenceFrame) throws {
        let image = try r.image
        #expect(image.width == 200 && image.height == 200)
        #expect(image.isValidPremultiplied)
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for y in 0..<image.height {
            for i in 0..<(image.width * 4) { h = (h ^ UInt64(image.bytes[y * image.bytesPerRow + i])) &* 0x100_0000_01B3 }
        }
        #expect(h == r.thorvgChecksum, "not ThorVG's bytes")
        #expect(r.tolerance == (r.rlottieDisagreementIgnored == nil ? LottieReferences.tolerance(forDisagreement: r.disagreement) : 1.5))
    }

    /// The markers file's markers sit on sampled frames: playing from marker "outro" (frame
    /// 15) shows ThorVG's frame 15 at once and its frame 22 seven frames later; from "rise"
    /// to "outro", frame 7 then frame 15, where it stops.
    @Test func playingFromMarkerToMarkerShowsTheirFrames() throws {
        let refs = try #require(Self.references)
        let fixture = try #require(refs.fixtures.first { $0.name == "markers" })
        func frame(_ k: Int) throws -> LottieReferenceFrame { try #require(fixture.frames.first { $0.k == k }) }
        let animation = try LottieAnimation.load(filepath: fixture.path)
        #expect(animation.markerNames == ["intro", "rise", "outro"])
        for (from, to, shown) in [("outro", Optional<String>.none, [(0, 15), (7, 22)]), ("rise", "outro", [(0, 7), (8, 15), (12, 15)])] {
            let loop = VirtualRunLoop()
            let scene = loop.run { LottieRendering.scene(for: animation, size: .fit(width: 200, height: 200), logger: .silent) }
            let start = loop.run { () -> Double in
                if let to { scene.animationLayer.play(fromMarker: from, toMarker: to) } else { scene.animationLayer.play(marker: from) }
                loop.endTurn()
                return VirtualRunLoop.current.currentTime
            }
            for (after, k) in shown {
                let pixels = try loop.run {
                    try Compositor(threadCount: 1).render(scene.root.makeRenderTree(at: start + Double(after) / scene.framerate),
                                                          width: 200, height: 200)
                }
                let result = try frame(k).compare(pixels)
                #expect(result.passes, "from \(from) + \(after) frames: \(result)")
            }
        }
    }

    @Test(arguments: (references?.fixtures ?? []).map(\.name))
    func framesMatchThorVG(_ name: String) throws {
        let refs = try #require(Self.references)
        let fixture = try #require(refs.fixtures.first { $0.name == name })
        let animation = try LottieAnimation.load(filepath: fixture.path)
        let loop = VirtualRunLoop()
        let side = Self.dumpSize ?? refs.width
        let scene = loop.run { LottieRendering.scene(for: animation, size: .fit(width: Double(side), height: Double(side)), logger: .silent) }
        #expect(scene.frameCount == fixture.frameCount)
        var lines = ""
        for frame in fixture.frames {
            let pixels = try loop.run {
                try Compositor(threadCount: 1).render(scene.root.makeRenderTree(at: scene.time(ofFrame: frame.k)),
                                                      width: side, height: side)
            }
            if let dir = Self.dumpDirectory, Self.dumpSize != nil {
                try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
                try PNG.write(pixels, to: "\(dir)/\(name)_\(frame.k).png")
                continue
            }
            let result = try frame.compare(pixels)
            #expect(result.passes, "\(result)")
            if let dir = Self.dumpDirectory {
                try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
                try PNG.write(pixels, to: "\(dir)/\(name)_\(frame.k).png")
                lines += "\(name)\t\(frame.k)\t" + String(format: "%.3f\t%.3f\t%.3f\n", result.delta, frame.tolerance, frame.disagreement)
            }
        }
        if let dir = Self.dumpDirectory { try Data(lines.utf8).write(to: URL(fileURLWithPath: "\(dir)/\(name).tsv")) }
    }
}

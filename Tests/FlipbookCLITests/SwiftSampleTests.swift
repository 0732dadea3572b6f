import Foundation
import Testing
import FlipbookPNG
import FlipbookPixels
import FlipbookTesting
import FlipbookTestSupport

/// Every Swift sample program (`samples/swift/*`, built by `swift build`/`swift test` next to the
/// test bundle) runs and writes its frames (`sample-NAME OUTPUT_FOLDER N` renders frames 0…N),
/// and the frames show the sample:
///
/// - where the scene file `samples/scenes/NAME.json` is the same scene (``sameAsScene``), every
///   frame equals the scene file's frame pixel for pixel, so the pixel checks of
///   `RenderSampleTests` on the scene files hold for the Swift programs too;
/// - the others (``differsFromScene``, with the reason) are compared with reviewed reference
///   frames in `__Snapshots__/SwiftSampleTests/` (`FLIPBOOK_RECORD`, docs/visual-testing.md);
/// - and for every sample, the frames at ``midFrames`` (mid-animation) are not blank and differ
///   from frame 0: something visibly happened.
@Suite struct SwiftSampleTests {
    static let names = [
        "push-transition", "disable-actions-removal", "suppressed-position", "explicit-duration", "wag",
        "default-action-push", "pop-in", "fade-out-remove", "nested-transactions", "overshoot",
        "progress-draw",
    ]

    /// Samples whose every frame is byte-identical to their scene file's (checked by rendering
    /// both, every frame).
    static let sameAsScene = [
        "push-transition", "disable-actions-removal", "explicit-duration", "pop-in", "fade-out-remove",
        "nested-transactions", "overshoot",
    ]

    /// Samples whose frames differ from their scene file's, and why.
    static let differsFromScene: [String: String] = [
        // The program moves both layers to x = 230 (the red one ends half outside the 240 pt
        // frame); the scene file moves them to 210. Frames 6…29 differ.
        "suppressed-position": "position.x 230 in Swift, 210 in the scene file",
        // The scene file's keyframes are the program's, precomputed and rounded: one pixel of
        // an edge differs by 1 in frames 8, 11, 13…17.
        "wag": "precomputed keyframes round differently",
        // In the program the first `contents` (set when the layer is built) already runs the
        // subclass's default action, so frames 0…5 push the red card in from the left; the
        // scene file starts with the card in place (no action for the initial value).
        "default-action-push": "the initial contents is pushed in from the left in Swift",
        // No scene file: a layer that draws itself (`draw(in:)`, a custom animatable property)
        // cannot be written in one.
        "progress-draw": "no scene file (draw(in:) and a custom property)",
    ]

    /// Frames in the middle of each sample's animation (30 fps; explicit-duration 10 fps).
    static let midFrames: [String: [Int]] = [
        "push-transition": [15, 30],        // the 1 s ease-in push from 0.25 s, under way
        "disable-actions-removal": [8, 12], // the opacity fade from 0.2 s; the other layer gone at once
        "suppressed-position": [12, 18],    // the blue layer moving, the red one already moved
        "explicit-duration": [5, 20],       // both moving; then only the 5 s one
        "wag": [8, 14],                     // the keyframe wag from 0.1 s
        "default-action-push": [3, 9],      // the first push (see above); the second, from 0.2 s
        "pop-in": [11, 14],                 // added at 0.3 s: fading in, scaling up and back
        "fade-out-remove": [11, 14],        // fading and shrinking from 0.3 s (removed at 0.5 s)
        "nested-transactions": [30, 60],    // the 2 s transactions from 0.2 s
        "overshoot": [10, 25],              // growing first; past 60 pt
        "progress-draw": [12, 24],          // the ring redrawn from its presentation copy, 0 → 0.75 from 0.2 s
    ]

    /// A fresh empty folder for each test (one suite instance per test), removed after it.
    let folder = TemporaryDirectory(prefix: "flipbook-sample-")

    /// The folder the build products (and this test bundle) live in.
    static var productsFolder: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
    }

    /// Runs `sample-NAME OUT [LAST]`; returns OUT (a folder in this test's temporary folder).
    func runSample(_ name: String, lastFrame: Int? = nil, into sub: String = "swift",
                   environment: [String: String] = [:]) throws -> (status: Int32, out: String) {
        let executable = "\(Self.productsFolder)/sample-\(name)"
        try #require(FileManager.default.isExecutableFile(atPath: executable), "not built: \(executable)")
        let out = folder.file("\(sub)-\(name)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = [out] + (lastFrame.map { ["\($0)"] } ?? [])
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, out)
    }

    static func frame(_ folder: String, _ n: Int) throws -> PixelBuffer {
        try PNG.decode(contentsOf: "\(folder)/" + String(format: "frame_%05d.png", n))
    }

    static func pngs(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".png") }.sorted()
    }

    @Test func everySampleFolderIsListed() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../samples/swift").standardized.path
        let programs = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0 != "Support" }.sorted()
        #expect(programs == Self.names.sorted())
        // Every sample is checked one way or the other, and has mid-animation frames.
        #expect((Self.sameAsScene + Self.differsFromScene.keys).sorted() == Self.names.sorted())
        #expect(Self.midFrames.keys.sorted() == Self.names.sorted())
    }

    @Test(arguments: names)
    func sampleRendersItsFrames(_ name: String) throws {
        let (status, out) = try runSample(name, lastFrame: 3)
        #expect(status == 0)
        let frames = Self.pngs(out)
        #expect(frames == ["frame_00000.png", "frame_00001.png", "frame_00002.png", "frame_00003.png"])
    }

    /// The mid-animation frames are not blank (more than one colour) and differ from frame 0.
    @Test(arguments: names)
    func midAnimationFramesShowSomething(_ name: String) throws {
        let mid = try #require(Self.midFrames[name])
        let (status, out) = try runSample(name, lastFrame: mid.max()!)
        try #require(status == 0)
        let first = try Self.frame(out, 0)
        for n in mid {
            let f = try Self.frame(out, n)
            let oneColour = (0..<f.height).allSatisfy { y in (0..<f.width).allSatisfy { x in f[x, y] == f[0, 0] } }
            #expect(!oneColour, "frame \(n) of \(name) is one colour")
            #expect(f != first, "frame \(n) of \(name) equals frame 0: nothing moved")
        }
    }

    /// Every frame of the program equals the scene file's (rendered in-process by `flipbook render`).
    @Test(arguments: sameAsScene)
    func framesEqualTheSceneFile(_ name: String) throws {
        let (status, swift) = try runSample(name)
        try #require(status == 0)
        let scene = folder.file("scene-\(name)")
        let r = try RenderRun.run([RenderRun.scene(name), "-o", scene, "--quiet"])
        try #require(r.code == 0, "\(r.err)")
        let names = Self.pngs(swift)
        #expect(names.count >= 30 && names == Self.pngs(scene), "\(names.count) vs \(Self.pngs(scene).count) frames")
        var differing: [String] = []
        for file in names {
            if try PNG.decode(contentsOf: "\(swift)/\(file)") != PNG.decode(contentsOf: "\(scene)/\(file)") { differing.append(file) }
        }
        #expect(differing.isEmpty, "\(name): \(differing.count) frames differ from the scene file's: \(differing.prefix(5))")
    }

    /// progress-draw redraws its layer from the presentation copy inside each frame's snapshot:
    /// a recording that starts at frame 20 on one thread gives the same bytes as the whole
    /// recording on four (the snapshot is a function of the tree and the time only).
    @Test func progressDrawFramesDependOnTimeOnly() throws {
        let (s1, all) = try runSample("progress-draw", lastFrame: 30, into: "all", environment: ["FLIPBOOK_SAMPLE_THREADS": "4"])
        let (s2, late) = try runSample("progress-draw", lastFrame: 30, into: "late",
                                       environment: ["FLIPBOOK_SAMPLE_FIRST": "20", "FLIPBOOK_SAMPLE_THREADS": "1"])
        try #require(s1 == 0 && s2 == 0)
        let names = Self.pngs(late)
        #expect(names.count == 11 && names.first == "frame_00020.png")
        for file in names {
            #expect(try PNG.decode(contentsOf: "\(all)/\(file)") == PNG.decode(contentsOf: "\(late)/\(file)"), "\(file) differs")
        }
        // Mid-animation frames differ from each other: the ring is redrawn every frame.
        #expect(try Self.frame(all, 20) != Self.frame(all, 21))
    }

    /// The samples that are not their scene file's twin: the mid-animation frames equal the
    /// reviewed references `__Snapshots__/SwiftSampleTests/framesMatchTheReferences.NAME.fN.png`.
    @Test(arguments: differsFromScene.keys.sorted())
    func framesMatchTheReferences(_ name: String) throws {
        let mid = try #require(Self.midFrames[name])
        let (status, out) = try runSample(name, lastFrame: mid.max()!)
        try #require(status == 0)
        let frames = try mid.map { n in (name: "\(name).f\(n)", image: try Self.frame(out, n)) }
        assertSnapshots(frames)
    }
}

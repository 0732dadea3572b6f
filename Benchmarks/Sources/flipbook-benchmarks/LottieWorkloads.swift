import Flipbook
import FlipbookLottie
import FlipbookPixels
import FlipbookRender
import Foundation

/// `w8`: real Lottie files, as `../shared/peers/lottie/` renders them with rlottie and ThorVG —
/// the four fixtures (`Tests/Fixtures/lottie/fixtures`, the peers' files byte for byte), every
/// frame k = 0…N−1 in order (the file's frame ip + k, N = op − ip), one thread, at 512×512 and
/// 1920×1080 with the composition fitted (scale min(W/w, H/h), centred), transparent background
/// cleared every frame. Per fixture and size: the layer tree is built once (untimed: the
/// peers' load), frame 0 is rendered once untimed, then `passes` passes over all N frames, each
/// frame's snapshot + composite timed. The number to compare is the **mean** ms per frame
/// (total / frames, what a player spends; the peers' table column), given in the note next to
/// the median.
extension BenchWorkloads {
    static let w8Fixtures = ["LottieLogo1", "MotionCorpse_Jrcanest", "issue_2066", "issue_769"]

    /// Where the fixtures are: `$FLIPBOOK_LOTTIE_FIXTURES`, else the repository's copy (the
    /// benchmarks run from the project root).
    static var w8Directory: String {
        ProcessInfo.processInfo.environment["FLIPBOOK_LOTTIE_FIXTURES"] ?? "Tests/Fixtures/lottie/fixtures"
    }

    func w8(passes: Int = 3) throws -> [BenchResult] {
        var rows: [BenchResult] = []
        for name in Self.w8Fixtures {
            let path = "\(Self.w8Directory)/\(name).json"
            let animation: LottieAnimation
            do { animation = try LottieAnimation.load(filepath: path) } catch { throw BenchFailure("w8: \(error.description)") }
            for (w, h) in [(512, 512), (1920, 1080)] {
                let loop = VirtualRunLoop()
                let scene = loop.run {
                    LottieRendering.scene(for: animation, size: .fit(width: Double(w), height: Double(h)), logger: .silent)
                }
                let compositor = Compositor(threadCount: 1)
                var buffer = PixelBuffer(width: w, height: h)
                let clear = RGBA8(r: 0, g: 0, b: 0, a: 0)
                let n = scene.frameCount
                var wall: [Double] = [], cpu: [Double] = []
                var total = 0.0
                try loop.run {
                    try compositor.render(scene.root.makeRenderTree(at: scene.time(ofFrame: 0)), into: &buffer, background: clear)
                    for _ in 0..<passes {
                        for k in 0..<n {
                            let t = try BenchClock.measure {
                                let tree = scene.root.makeRenderTree(at: scene.time(ofFrame: k))
                                try compositor.render(tree, into: &buffer, background: clear)
                            }
                            wall.append(t.wall); cpu.append(t.cpu); total += t.wall
                        }
                    }
                    try compositor.render(scene.root.makeRenderTree(at: scene.time(ofFrame: n / 2)), into: &buffer, background: clear)
                }
                save("w8_\(name)_\(w)x\(h)", buffer)
                let mean = total / Double(wall.count) * 1000
                rows.append(result("w8", BenchStats(wall: wall, cpu: cpu), pixels: w * h, threads: 1,
                                   variant: "\(name) \(w)x\(h)",
                                   note: "mean \(BenchReport.fixed(mean, 3)) ms/frame over \(passes)×\(n) frames; mid-frame saved"))
            }
        }
        return rows
    }
}

import ArgumentParser
import Flipbook
import FlipbookLottie
import FlipbookPixels
import FlipbookPNG
import FlipbookRender
import Foundation

/// `flipbook-benchmarks lottie`: the `w8` loop (``BenchWorkloads/w8(passes:)``) on chosen
/// fixtures and sizes, for profiling and for checking that an optimisation changes no pixel.
///
/// - timing: per fixture and size, the layer tree built once and frame 0 rendered untimed, then
///   `--passes` passes over every frame in order, one thread; prints the mean ms per frame;
/// - `--hashes FILE`: one line per frame of the first pass (`fixture size frame hash`, a
///   64-bit FNV-1a of the premultiplied RGBA8 bytes) — diff two files to compare builds;
/// - `--save DIR`: frames 0, N/4, N/2, 3N/4 and N−1 of each fixture and size as PNG files.
struct LottieCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lottie",
        abstract: "Run the w8 Lottie loop on chosen fixtures and sizes; optionally hash every frame and save sample frames."
    )

    @Option(help: "Fixture name (repeatable; default: the four w8 fixtures).")
    var fixture: [String] = []

    @Option(help: "Output size WxH (repeatable; default: 512x512 and 1920x1080).")
    var size: [String] = []

    @Option(help: "Timed passes over all frames.")
    var passes: Int = 3

    @Option(help: "Write a hash of every frame of the first pass to this file.")
    var hashes: String?

    @Option(help: "Write frames 0, N/4, N/2, 3N/4, N-1 of each fixture and size as PNG into this folder.")
    var save: String?

    func run() throws {
        let names = fixture.isEmpty ? BenchWorkloads.w8Fixtures : fixture
        let sizes: [(Int, Int)] = try (size.isEmpty ? ["512x512", "1920x1080"] : size).map { s in
            let p = s.split(separator: "x").compactMap { Int($0) }
            guard p.count == 2, p[0] > 0, p[1] > 0 else { throw ValidationError("bad --size \(s)") }
            return (p[0], p[1])
        }
        if let save { try FileManager.default.createDirectory(atPath: save, withIntermediateDirectories: true) }
        var hashLines: [String] = []
        print("load \(BenchReport.fixed(BenchClock.loadAverage(), 2))")
        for name in names {
            let animation = try LottieAnimation.load(filepath: "\(BenchWorkloads.w8Directory)/\(name).json")
            for (w, h) in sizes {
                let loop = VirtualRunLoop()
                let scene = loop.run {
                    LottieRendering.scene(for: animation, size: .fit(width: Double(w), height: Double(h)), logger: .silent)
                }
                let compositor = Compositor(threadCount: 1)
                var buffer = PixelBuffer(width: w, height: h)
                let clear = RGBA8(r: 0, g: 0, b: 0, a: 0)
                let n = scene.frameCount
                let samples = Set([0, n / 4, n / 2, 3 * n / 4, n - 1])
                var total = 0.0, cpu = 0.0
                try loop.run {
                    try compositor.render(scene.root.makeRenderTree(at: scene.time(ofFrame: 0)), into: &buffer, background: clear)
                    for pass in 0..<passes {
                        for k in 0..<n {
                            let t = try BenchClock.measure {
                                let tree = scene.root.makeRenderTree(at: scene.time(ofFrame: k))
                                try compositor.render(tree, into: &buffer, background: clear)
                            }
                            total += t.wall; cpu += t.cpu
                            guard pass == 0 else { continue }
                            if hashes != nil { hashLines.append("\(name) \(w)x\(h) \(k) \(Self.fnv(buffer))") }
                            if let save, samples.contains(k) {
                                try PNG.write(buffer, to: "\(save)/\(name)_\(w)x\(h)_\(k).png", options: .fast)
                            }
                        }
                    }
                }
                let frames = Double(max(passes, 1) * n)
                print("\(name) \(w)x\(h): mean \(BenchReport.fixed(total / frames * 1000, 3)) ms/frame (cpu \(BenchReport.fixed(cpu / frames * 1000, 3))) over \(passes)×\(n) frames")
            }
        }
        print("load \(BenchReport.fixed(BenchClock.loadAverage(), 2))")
        if let hashes {
            try (hashLines.joined(separator: "\n") + "\n").write(toFile: hashes, atomically: true, encoding: .utf8)
        }
    }

    /// 64-bit FNV-1a of the buffer's bytes.
    static func fnv(_ b: PixelBuffer) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        b.withUnsafeBytes { raw in
            for byte in raw { h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        }
        return String(h, radix: 16)
    }
}

import ArgumentParser
import Dispatch
import FlipbookPixels
import FlipbookPNG
import FlipbookPixels
import Foundation

/// `flipbook-benchmarks png`: PNG encode throughput on the peers' W1 frame (W3), the peers' UI
/// frame (`--w3b`, W3b) or `--input`.
///
/// For each configuration: 2 warm-up encodes, then `--frames` timed encodes; prints the median
/// MB/s of raw input (`width · height · 4` bytes / time), the output size and its ratio to
/// fpng's output (2,694,830 bytes for W1, 513,086 for the UI frame; the peers' fastest
/// encoder). Run it on a release build.
struct PNGCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "png",
        abstract: "Measure PNG encode speed and size for each preset and a few raw knob combinations."
    )

    @Option(help: "Timed encodes per configuration (after 2 warm-ups).")
    var frames: Int = 10

    @Option(help: "Encode this PNG instead of the regenerated W1 frame.")
    var input: String?

    @Flag(help: "Encode the peers' UI frame (W3b: ../shared/peers/fixtures/ui-frame.png or $FLIPBOOK_UI_FRAME).")
    var w3b = false

    @Option(help: "Run only the configurations whose name contains this text (e.g. 'fast', 'rle').")
    var only: String?

    @Option(help: "Also measure aggregate throughput of the fast preset with this many frames encoded concurrently (one per thread).")
    var jobs: Int = 2

    @Flag(help: "Time each encode by the thread's CPU time instead of the wall clock: on a shared machine other jobs then slow a row less (cache and memory contention remain).")
    var cpuTime = false

    @Flag(help: "Also run the slow knob combinations (levels 6/9 with single filters ...).")
    var all = false

    /// fpng's W1 output size (peers results, `summary.md`, W3).
    static let fpngBytes = 2_694_830
    /// fpng's output size for the UI frame (W3b).
    static let fpngBytesW3b = 513_086

    /// The configurations measured: the presets, then raw knobs around them.
    static func configurations(all: Bool) -> [(String, PNGEncodeOptions)] {
        var list: [(String, PNGEncodeOptions)] = [("preset fast", .fast), ("preset default", .default), ("preset small", .small)]
        func o(_ level: Int, _ s: PNGCompressionStrategy, _ f: PNGRowFilter, rgb: Bool = true, mem: Int? = nil,
               win: Int? = nil, buf: Int? = 1 << 20) -> PNGEncodeOptions {
            PNGEncodeOptions(compressionLevel: level, strategy: s, filter: f, memoryLevel: mem, windowBits: win,
                             bufferSize: buf, writesOpaqueAsRGB: rgb)
        }
        let ownRGBA = PNGEncodeOptions(strategy: .flipbookFast, bufferSize: 1 << 20, writesOpaqueAsRGB: false)
        func lib(_ s: PNGCompressionStrategy, _ level: Int, _ f: PNGRowFilter, rgb: Bool = true) -> PNGEncodeOptions {
            PNGEncodeOptions(compressionLevel: level, strategy: s, filter: f, bufferSize: 1 << 20, writesOpaqueAsRGB: rgb)
        }
        list += [
            ("preset fast RGBA", PNGEncodeOptions(strategy: .fastAuto, bufferSize: 1 << 20, writesOpaqueAsRGB: false)),
            ("preset default RGBA", lib(.libdeflate, 4, .all, rgb: false)),
            ("isal L1 none", lib(.isal, 1, .none)),
            ("isal L1 up", lib(.isal, 1, .up)),
            ("isal L1 none RGBA", lib(.isal, 1, .none, rgb: false)),
            ("isal L1 up RGBA", lib(.isal, 1, .up, rgb: false)),
            ("libdeflate L1 all", lib(.libdeflate, 1, .all)),
            ("libdeflate L4 up", lib(.libdeflate, 4, .up)),
            ("libdeflate L4 paeth", lib(.libdeflate, 4, .paeth)),
            ("libdeflate L4 none", lib(.libdeflate, 4, .none)),
            ("libdeflate L5 all", lib(.libdeflate, 5, .all)),
            ("libdeflate L6 all", lib(.libdeflate, 6, .all)),
            ("libdeflate L12 up RGBA", lib(.libdeflate, 12, .up, rgb: false)),
            // libpng's defaults: level 6, all filters and, because filters are on, Z_FILTERED.
            ("zlib L6 all RGBA (libpng default)", o(6, .filtered, .all, rgb: false, buf: nil)),
            ("preset fastZlib", .fastZlib),
            ("flipbookFast RGB", o(1, .flipbookFast, .up)),
            ("flipbookFast RGBA", ownRGBA),
            ("L1 default up RGBA 8K-buf (peers ref)", o(1, .default, .up, rgb: false, buf: nil)),
            ("L1 default up", o(1, .default, .up)),
            ("L1 rle up RGBA", o(1, .rle, .up, rgb: false)),
            ("L1 rle up", o(1, .rle, .up)),
            ("L1 rle up 8K-buf", o(1, .rle, .up, buf: nil)),
            ("L1 rle sub", o(1, .rle, .sub)),
            ("L1 rle paeth", o(1, .rle, .paeth)),
            ("L1 huffmanOnly up", o(1, .huffmanOnly, .up)),
            ("L1 rle none", o(1, .rle, .none)),
            ("L3 default up", o(3, .default, .up)),
            ("L6 filtered up", o(6, .filtered, .up)),
            ("L6 default all", o(6, .default, .all)),
            ("L9 filtered all", o(9, .filtered, .all)),
        ]
        if all {
            list += [
                ("L1 rle all", o(1, .rle, .all)),
                ("L1 rle up mem9", o(1, .rle, .up, mem: 9)),
                ("L4 rle up", o(4, .rle, .up)),
                ("L6 default paeth", o(6, .default, .paeth)),
                ("L9 default all", o(9, .default, .all)),
                ("L9 filtered paeth", o(9, .filtered, .paeth)),
            ]
        }
        return list
    }

    func validate() throws {
        guard frames >= 1 else { throw ValidationError("--frames must be at least 1") }
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
    }

    func run() throws {
        let image: PixelBuffer
        if w3b {
            do { image = try PNG.decode(contentsOf: BenchWorkloads.uiFramePath) } catch {
                throw BenchFailure("the UI frame: \(error.description) (set FLIPBOOK_UI_FRAME)")
            }
        } else if let input {
            do { image = try PNG.decode(contentsOf: input) } catch {
                throw BenchFailure("cannot read \(input): \(error.description)")
            }
        } else {
            image = PeerWorkloads.w1ReferenceFrame()
        }
        let raw = Double(image.width * image.height * 4)
        print("flipbook-benchmarks png: \(image.width)×\(image.height), \(Int(raw)) raw bytes, \(PNG.libraryVersions)")
        print("config                                 |   MB/s | median ms |     bytes | / fpng" + (cpuTime ? "   (thread CPU time)" : ""))
        let clock = ContinuousClock()
        for (name, options) in Self.configurations(all: all) where only.map({ name.contains($0) }) ?? true {
            var size = 0
            var times: [Double] = []
            do {
                for k in 0..<(frames + 2) {
                    let start = clock.now, cpuStart = Self.threadCPUSeconds()
                    let out = try PNG.encode(image, options: options)
                    let elapsed = clock.now - start, cpu = Self.threadCPUSeconds() - cpuStart
                    size = out.count
                    if k >= 2 {
                        let (s, atto) = elapsed.components
                        times.append(cpuTime ? cpu : Double(s) + Double(atto) * 1e-18)
                    }
                }
            } catch {
                print("\(name): \(error)")
                continue
            }
            times.sort()
            let median = times.count % 2 == 1 ? times[times.count / 2] : (times[times.count / 2 - 1] + times[times.count / 2]) / 2
            let mbs = raw / median / 1e6
            let fpng = w3b ? Self.fpngBytesW3b : input == nil ? Self.fpngBytes : 0
            let ratio = fpng > 0 ? Self.fixed(Double(size) / Double(fpng), 3) : "-"
            print("\(Self.pad(name, 38)) | \(Self.pad(Self.fixed(mbs, 1), 6, left: true)) | \(Self.pad(Self.fixed(median * 1000, 2), 9, left: true)) | \(Self.pad(String(size), 9, left: true)) | \(ratio)")
        }
        if jobs > 1 { aggregate(image, raw: raw, clock: clock) }
    }

    /// Frame dumps encode whole frames in parallel (one libpng encoder per thread): `jobs`
    /// threads each encode `frames` frames with `fast`; MB/s = all raw bytes / wall time.
    func aggregate(_ image: PixelBuffer, raw: Double, clock: ContinuousClock) {
        let n = jobs, count = frames
        for _ in 0..<n { _ = try? PNG.encode(image, options: .fast) }  // warm-up
        let start = clock.now
        DispatchQueue.concurrentPerform(iterations: n) { _ in
            for _ in 0..<count { _ = try? PNG.encode(image, options: .fast) }
        }
        let (s, atto) = (clock.now - start).components
        let wall = Double(s) + Double(atto) * 1e-18
        let mbs = raw * Double(n * count) / wall / 1e6
        print("preset fast, \(n) frames at a time (aggregate) | \(Self.fixed(mbs, 1)) MB/s over \(n * count) frames")
    }

    /// CPU time of the calling thread (`CLOCK_THREAD_CPUTIME_ID`), in seconds.
    static func threadCPUSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }

    static func fixed(_ v: Double, _ digits: Int) -> String {
        var p = 1.0
        for _ in 0..<digits { p *= 10 }
        let r = (v * p).rounded() / p
        var s = String(r)
        if let dot = s.firstIndex(of: ".") {
            let decimals = s.distance(from: dot, to: s.endIndex) - 1
            if decimals < digits { s += String(repeating: "0", count: digits - decimals) }
        }
        return s
    }

    static func pad(_ s: String, _ n: Int, left: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, n - s.count))
        return left ? fill + s : s + fill
    }
}

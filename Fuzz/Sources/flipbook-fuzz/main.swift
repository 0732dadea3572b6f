import Flipbook
import FlipbookPixels
import FlipbookFuzzTargets
import FlipbookPNG
import FlipbookRender
import FlipbookScene
import FuzzMutation
import Foundation
#if canImport(Glibc)
import Glibc
#endif

// flipbook-fuzz scene|png|jpeg|compositor|lottie|font [--seconds N | --runs N] [--seed S] [--corpus DIR]... [--out DIR] [--replay FILE]
//
// A plain in-process fuzz driver (no coverage feedback): inputs from the corpus folders are
// mutated (bit flips, interesting bytes and numbers, insertions, deletions, splices) and run
// through the target. Before each run the input is written to OUT/current-TARGET, so when the
// process dies the caller (`make fuzz`, Fuzz/run.sh) keeps it as a crash. A run using more
// than 5 s of CPU (for `lottie`, a step: loading, a mapping or a frame), or 60 s of
// wall-clock time, or a resident set above 1 GiB is saved (hang-/rss-…) and exits 3 / 4.
// Deterministic for a given seed.

var args = Array(CommandLine.arguments.dropFirst())
func option(_ name: String) -> String? {
    guard let i = args.firstIndex(of: name), i + 1 < args.count else { return nil }
    defer { args.removeSubrange(i...(i + 1)) }
    return args[i + 1]
}
var corpora: [String] = []
while let c = option("--corpus") { corpora.append(c) }
let seconds = option("--seconds").flatMap(Double.init)
let runLimit = option("--runs").flatMap(Int.init)
var rng = SplitMix64(state: option("--seed").flatMap(UInt64.init) ?? UInt64(time(nil)))
let out = option("--out") ?? "Tests/Fixtures/fuzz"
let replayPath = option("--replay")
guard let target = args.first, ["scene", "png", "jpeg", "compositor", "lottie", "font"].contains(target) else {
    FileHandle.standardError.write(Data("usage: flipbook-fuzz scene|png|jpeg|compositor|lottie|font [--seconds N | --runs N] [--seed S] [--corpus DIR]... [--out DIR]\n".utf8))
    exit(2)
}
try? FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)

// MARK: Corpus

var corpus: [[UInt8]] = []
for dir in corpora {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
    let suffixes = ["png": [".png"], "jpeg": [".jpg"], "lottie": [".json", ".lottie"], "font": [".ttf", ".otf", ".ttc", ".woff"]][target] ?? [".json"]
    for f in files.sorted() where suffixes.contains(where: f.hasSuffix) || target == "compositor" {
        if let d = FileManager.default.contents(atPath: dir + "/" + f), d.count < 1 << 20 { corpus.append([UInt8](d)) }
    }
}
if corpus.isEmpty { corpus = [[UInt8](repeating: 0, count: 64)] }

// MARK: Mutation

let interestingNumbers = ["0", "-1", "1e308", "-1e308", "1e19", "-1e19", "1e-320", "4294967296", "9223372036854775807",
                          "NaN", "1e300", "0.5", "16384", "16385", "10000000", "-0"]
func mutate(_ input: [UInt8]) -> [UInt8] {
    var d = input
    let steps = 1 + Int(rng.next() % 4)
    for _ in 0..<steps {
        if d.isEmpty { d = [UInt8(truncatingIfNeeded: rng.next())]; continue }
        let i = Int(rng.next() % UInt64(d.count))
        switch rng.next() % 8 {
        case 0: d[i] ^= UInt8(1 << (rng.next() % 8))
        case 1: d[i] = [0, 0xFF, 0x7F, 0x80, 0x30, 0x39, 0x2D, 0x22][Int(rng.next() % 8)]
        case 2: d.insert(UInt8(truncatingIfNeeded: rng.next()), at: i)
        case 3: d.removeSubrange(i..<min(d.count, i + 1 + Int(rng.next() % 16)))
        case 4:   // splice another corpus item
            let o = corpus[Int(rng.next() % UInt64(corpus.count))]
            if !o.isEmpty { let j = Int(rng.next() % UInt64(o.count)); d.replaceSubrange(i..<d.count, with: o[j...].prefix(4096)) }
        case 5:   // a number somewhere replaced by an extreme one
            if let s = d[i...].firstIndex(where: { (0x30...0x39).contains($0) }) {
                var e = s
                while e < d.count, (0x30...0x39).contains(d[e]) || d[e] == 0x2E || d[e] == 0x65 || d[e] == 0x2D { e += 1 }
                d.replaceSubrange(s..<e, with: Array(interestingNumbers[Int(rng.next() % UInt64(interestingNumbers.count))].utf8))
            }
        case 6:   // duplicate a slice (repeated structure)
            let n = min(d.count - i, 1 + Int(rng.next() % 256))
            d.insert(contentsOf: d[i..<(i + n)], at: i)
        default:  // 32-bit big-endian length fields (PNG chunks) set to extremes
            if i + 4 <= d.count {
                let v: UInt32 = [0, 0xFFFF_FFFF, 0x7FFF_FFF0, 1 << 20, 16384][Int(rng.next() % 5)]
                d[i] = UInt8(v >> 24); d[i + 1] = UInt8(v >> 16 & 0xFF); d[i + 2] = UInt8(v >> 8 & 0xFF); d[i + 3] = UInt8(v & 0xFF)
            }
        }
    }
    return Array(d.prefix(1 << 20))
}

/// The `lottie` target's mutation: mostly structural (``JSONMutator``; now and then wrapped in
/// a dotLottie archive), else bytes. Inputs that loaded are kept in a small pool mutated
/// further, so hostile values pile up across runs.
let lottieDonors: [[JSONMutator.Node]] = target == "lottie"
    ? corpus.compactMap { (try? SceneJSONParser.parse($0)).map { JSONMutator.Node($0).preorder } } : []
var lottiePool: [[UInt8]] = []
func mutateLottie(_ input: [UInt8]) -> [UInt8] {
    let choice = rng.next() % 8
    if choice < 6, let m = JSONMutator.mutate(input, donors: lottieDonors, rng: &rng), m.count <= 1 << 20 {
        return choice == 5 ? JSONMutator.dotLottie(m) : m
    }
    return mutate(input)
}
func nextInput() -> [UInt8] {
    guard target == "lottie" else { return mutate(corpus[Int(rng.next() % UInt64(corpus.count))]) }
    let fromPool = !lottiePool.isEmpty && rng.next() % 2 == 0
    let base = fromPool ? lottiePool[Int(rng.next() % UInt64(lottiePool.count))] : corpus[Int(rng.next() % UInt64(corpus.count))]
    return mutateLottie(base)
}

// MARK: Targets

let baseDirectory = corpora.first ?? FileManager.default.currentDirectoryPath

// The targets are `FuzzTargets` (Sources/FlipbookFuzzTargets), shared with FuzzReplayTests.

// MARK: Watchdog and loop

let started = Date()
/// The hang clock counts the main thread's CPU time (the driver runs at nice 19 beside builds:
/// on a loaded machine a run of a tenth of a second can take seconds of wall-clock time), with
/// wall-clock time as a backstop for a run that waits forever (a deadlock uses no CPU).
let mainCPUClock: clockid_t = { var id = clockid_t(); pthread_getcpuclockid(pthread_self(), &id); return id }()
@Sendable func mainCPUSeconds() -> Double {
    var ts = timespec()
    clock_gettime(mainCPUClock, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
nonisolated(unsafe) var runStart = Date()
nonisolated(unsafe) var runStartCPU = mainCPUSeconds()
/// Restarts the hang clock (each run; each step of the `lottie` target).
func startClock() { runStart = Date(); runStartCPU = mainCPUSeconds() }
nonisolated(unsafe) var currentInput: [UInt8] = []
@Sendable func save(_ kind: String, _ bytes: [UInt8]) {
    var h: UInt64 = 1469598103934665603
    for b in bytes { h = (h ^ UInt64(b)) &* 1099511628211 }
    let path = "\(out)/\(kind)-\(target)-\(String(h, radix: 16))"
    FileManager.default.createFile(atPath: path, contents: Data(bytes))
    FileManager.default.createFile(atPath: "\(out)/last-\(target)", contents: Data(path.utf8))
}
@Sendable func residentBytes() -> Int {
    guard let s = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
          let pages = s.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}
let watchdog = Thread {
    while true {
        Thread.sleep(forTimeInterval: 0.5)
        if mainCPUSeconds() - runStartCPU > 5 || Date().timeIntervalSince(runStart) > 60 {
            save("hang", currentInput); print("hang (> 5 s of CPU, or 60 s) saved"); exit(3)
        }
        if residentBytes() > 1 << 30 { save("rss", currentInput); print("resident set above 1 GiB saved"); exit(4) }
    }
}
watchdog.start()

if let replay = replayPath {
    // Replay one input as it is (no mutation): a kept crash, hang or RSS case.
    let input = [UInt8](FileManager.default.contents(atPath: replay) ?? Data())
    currentInput = input  // what the watchdog saves if the replay hangs (it saved an empty file)
    startClock()
    switch target {
    case "scene": FuzzTargets.scene(input, baseDirectory: baseDirectory)
    case "png": FuzzTargets.png(input)
    case "jpeg": FuzzTargets.jpeg(input)
    case "font": FuzzTargets.font(input)
    case "lottie":
        let loaded = FuzzTargets.lottie(input, step: { startClock() })
        print("lottie: the input \(loaded ? "loaded and rendered" : "was refused by the loader")")
    default: FuzzTargets.compositor(input)
    }
    print("\(target): replayed \(replay) cleanly")
    exit(0)
}

let currentPath = "\(out)/current-\(target)"
var runs = 0
var loaded = 0  // lottie: inputs that loaded (reached the mapping and the renderer)
while true {
    if let limit = runLimit, runs >= limit { break }
    if let seconds, Date().timeIntervalSince(started) >= seconds { break }
    let input = nextInput()
    currentInput = input
    _ = FileManager.default.createFile(atPath: currentPath, contents: Data(input))
    startClock()
    switch target {
    case "scene": FuzzTargets.scene(input, baseDirectory: baseDirectory)
    case "png": FuzzTargets.png(input)
    case "jpeg": FuzzTargets.jpeg(input)
    case "font": FuzzTargets.font(input)
    case "lottie":
        // A JSON input that loaded joins the pool (up to 64, replacing at random).
        if FuzzTargets.lottie(input, step: { startClock() }) {
            loaded += 1
            guard input.first == UInt8(ascii: "{") else { break }
            if lottiePool.count < 64 { lottiePool.append(input) } else { lottiePool[Int(rng.next() % 64)] = input }
        }
    default: FuzzTargets.compositor(input)
    }
    runs += 1
}
try? FileManager.default.removeItem(atPath: currentPath)
print("\(target): \(runs) runs\(target == "lottie" ? " (\(loaded) loaded)" : "") in \(String(format: "%.1f", Date().timeIntervalSince(started))) s, no crash, no hang, no RSS above 1 GiB")

import CFuzzEntry
import FlipbookFuzzTargets
import FlipbookScene
import Foundation
import FuzzMutation
#if canImport(Glibc)
import Glibc
#endif

// flipbook-libfuzzer TARGET [libFuzzer flags and corpus folders]
//
// The coverage-guided fuzz targets: libFuzzer (linked by `-sanitize=fuzzer`) drives
// `FuzzTargets` — the same code the plain driver (`flipbook-fuzz`) and the replay test run —
// with the inputs it mutates, keeping those that reach new code. Built with AddressSanitizer
// (Swift and C) and UndefinedBehaviorSanitizer (C) by `make fuzz` / Fuzz/libfuzzer.sh; see
// docs/fuzzing.md. TARGET is one of `FuzzTargets.names`; it is also read from
// FLIPBOOK_FUZZ_TARGET, which the name sets, so libFuzzer's -fork/-jobs/-merge child
// processes (which are run with libFuzzer's flags only) fuzz the same target.

let names = ["scene", "png", "jpeg", "lottie", "font", "compositor"]
var argv = CommandLine.arguments
if argv.count > 1, names.contains(argv[1]) {
    setenv("FLIPBOOK_FUZZ_TARGET", argv[1], 1)
    argv.remove(at: 1)
}
guard let chosen = ProcessInfo.processInfo.environment["FLIPBOOK_FUZZ_TARGET"], names.contains(chosen) else {
    FileHandle.standardError.write(Data("usage: flipbook-libfuzzer \(names.joined(separator: "|")) [libFuzzer flags] [CORPUS...]\n".utf8))
    exit(2)
}

/// What the C callbacks read (statics: a C function pointer cannot capture).
enum Run {
    /// The target being fuzzed.
    nonisolated(unsafe) static var target = ""
    /// The repository (images referred to by scene files resolve against samples/scenes).
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path
    static let sceneDirectory = ProcessInfo.processInfo.environment["FLIPBOOK_FUZZ_SCENES"] ?? repository + "/samples/scenes"
    /// The JSON seed documents whose values the structure-aware mutation splices in (see
    /// `structured`). Kept as bytes and parsed when picked: a long-lived tree of indirect enum
    /// nodes reads as leaked to LeakSanitizer (Swift keeps enum tags in the pointers' spare bits).
    nonisolated(unsafe) static var donors: [[UInt8]] = []
}
Run.target = chosen

/// The callback libFuzzer calls with each input (a C function pointer: no captures, so the
/// target is read from globals set before the driver starts).
let callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt = { data, size in
    let bytes = data.map { [UInt8](UnsafeBufferPointer(start: $0, count: size)) } ?? []
    switch Run.target {
    case "scene": FuzzTargets.scene(bytes, baseDirectory: Run.sceneDirectory)
    case "png": FuzzTargets.png(bytes)
    case "jpeg": FuzzTargets.jpeg(bytes)
    case "lottie": FuzzTargets.lottie(bytes)
    case "font": FuzzTargets.font(bytes)
    default: FuzzTargets.compositor(bytes)
    }
    return 0
}

// MARK: Structure-aware mutation (scene and lottie)

/// Values spliced into mutated documents: the JSON seed files in the corpus folders given on
/// the command line (layers, shapes, keyframe lists, ids of other files), at most 256.
Run.donors = {
    guard chosen == "scene" || chosen == "lottie" else { return [] }
    var result: [[UInt8]] = []
    for dir in argv.dropFirst() where !dir.hasPrefix("-") {
        for name in ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted() where name.hasSuffix(".json") {
            guard let data = FileManager.default.contents(atPath: dir + "/" + name), data.count < 1 << 20 else { continue }
            result.append([UInt8](data))
            if result.count >= 256 { return result }
        }
    }
    return result
}()

/// Three mutations in four are made on the parsed tree (JSONMutator: extreme numbers, values
/// of other documents, repeated and dropped elements — the result is still JSON, so it gets
/// past the parser's first pass); for `lottie` one in eight of those is wrapped in a
/// dotLottie archive. The rest, and inputs that are not JSON, get libFuzzer's own mutations.
let structured: flipbook_fuzz_mutator = { data, size, out, maxSize, seed in
    guard let data, let out else { return 0 }
    var rng = SplitMix64(state: UInt64(seed) &* 0x2545_F491_4F6C_DD1D)
    let choice = rng.next() % 8
    guard choice < 6 else { return 0 }
    let input = [UInt8](UnsafeBufferPointer(start: data, count: size))
    // One donor document per mutation (its nodes in pre-order); none: the input's own values.
    var donor: [[JSONMutator.Node]] = []
    if !Run.donors.isEmpty, let json = try? SceneJSONParser.parse(Run.donors[Int(rng.next() % UInt64(Run.donors.count))]) {
        donor = [JSONMutator.Node(json).preorder]
    }
    guard var mutated = JSONMutator.mutate(input, donors: donor, rng: &rng, maxBytes: min(maxSize, 1 << 20)) else { return 0 }
    if Run.target == "lottie", choice == 5 { mutated = JSONMutator.dotLottie(mutated) }
    guard !mutated.isEmpty, mutated.count <= maxSize else { return 0 }
    mutated.withUnsafeBufferPointer { out.update(from: $0.baseAddress!, count: $0.count) }
    return mutated.count
}
if chosen == "scene" || chosen == "lottie" { flipbook_fuzz_set_mutator(structured) }

// C strings for libFuzzer's argc/argv (it may keep pointers into them: never freed).
var cArguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
var argc = CInt(argv.count)
let status = cArguments.withUnsafeMutableBufferPointer { buffer -> CInt in
    var pointer: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = buffer.baseAddress
    return flipbook_fuzz_run_driver(&argc, &pointer, callback)
}
if status == -1 {
    FileHandle.standardError.write(Data("flipbook-libfuzzer: built without libFuzzer; build it with Fuzz/libfuzzer.sh (or `make fuzz`)\n".utf8))
    exit(2)
}
exit(status)

import Foundation
import Testing
import ZIPFoundation
@testable import FlipbookLottie

/// Hostile documents the loader refuses: each with the exact error (kind, JSON path, message)
/// and never a crash, a hang or an unbounded allocation (docs/limits.md, `LottieLimits`).
@Suite struct HostileParsingTests {
    typealias H = Hostile

    @Test func precompositionCyclesDirectAndIndirect() {
        let direct = H.document(#"[{"ty": 0, "ks": {}, "refId": "a"}]"#,
                                extra: #", "assets": [{"id": "a", "layers": [{"ty": 0, "ks": {}, "refId": "a"}]}]"#)
        let e = H.error(direct)
        #expect(e?.kind == .invalid)
        #expect(e?.description == #"animation:1: assets[0].layers[0].refId: precomposition "a" contains itself (a → a)"#)
        let indirect = H.document(#"[{"ty": 0, "ks": {}, "refId": "a"}]"#, extra: #", "assets": ["#
            + #"{"id": "a", "layers": [{"ty": 3, "ks": {}}, {"ty": 0, "ks": {}, "refId": "b"}]}, "#
            + #"{"id": "b", "layers": [{"ty": 0, "ks": {}, "refId": "c"}]}, "#
            + #"{"id": "c", "layers": [{"ty": 0, "ks": {}, "refId": "a"}]}]"#)
        #expect(H.error(indirect)?.description == #"animation:1: assets[2].layers[0].refId: precomposition "a" contains itself (a → b → c → a)"#)
    }

    @Test func aMillionKeyframesAreRefused() {
        // One past the bound (100 000 per property): refused naming the property.
        let keyframes = (0...100_000).map { #"{"t":\#($0),"s":[0]}"# }.joined(separator: ",")
        let text = H.document(#"[{"ty": 3, "ks": {"r": {"a": 1, "k": [\#(keyframes)]}}}]"#)
        let e = H.error(text)
        #expect(e?.kind == .tooLarge)
        #expect(e?.description == "animation:1: layers[0].ks.r.k: 100001 keyframes; the limit is 100000 per property")
    }

    @Test func aBillionPixelCompositionIsRefused() {
        #expect(H.error(H.document("[]", w: "40000", h: "40000"))?.description
                == "animation:1: w: expected a width between 0 (exclusive) and 16384, got 40000")
        #expect(H.error(H.document("[]", w: "1e9", h: "1"))?.description
                == "animation:1: w: expected a width between 0 (exclusive) and 16384, got 1000000000")
        let tall = H.error(H.document("[]", w: "1", h: "1e9"))
        #expect(tall?.kind == .tooLarge)
        #expect(tall?.description == "animation:1: h: expected a height between 0 (exclusive) and 16384, got 1000000000")
        #expect(H.error(H.document("[]", w: "-5"))?.kind == .invalid)
    }

    @Test func nanAndInfinityAnywhere() {
        // JSON has no NaN or Infinity literal: a syntax error at the value.
        #expect(H.error(H.document("[]", w: "NaN"))?.description == "animation: line 1, column 50: expected a value, found 'N'")
        #expect(H.error(H.document("[]", h: "-Infinity"))?.description == "animation: line 1, column 61: expected a digit, found 'I'")
        // Numbers past Double's range read as ±∞ and are refused where they stand.
        #expect(H.error(H.document("[]", w: "1e999"))?.description == "animation:1: w: expected a finite number, got inf")
        let keyframe = H.document(#"[{"ty": 3, "ks": {"s": {"a": 1, "k": [{"t": 0, "s": [100, 100]}, {"t": 9, "s": [1, -1e999]}]}}}]"#)
        #expect(H.error(keyframe)?.description == "animation:1: layers[0].ks.s.k[1].s[1]: expected a finite number, got -inf")
        let ease = H.document(#"[{"ty": 3, "ks": {"o": {"a": 1, "k": [{"t": 0, "s": [0], "o": {"x": [1e400], "y": [0]}}, {"t": 9, "s": [1]}]}}}]"#)
        #expect(H.error(ease)?.description == "animation:1: layers[0].ks.o.k[0].o.x[0]: expected a finite number, got inf")
        let vertex = H.document("[\(H.shapes(#"{"ty": "sh", "ks": {"k": {"c": true, "v": [[0, 0], [1e309, 0]]}}}"#))]")
        #expect(H.error(vertex)?.description == "animation:1: layers[0].shapes[0].it[0].ks.k.v[1][0]: expected a finite number, got inf")
        // Underflow is not an error: 1e-400 reads as 0.
        #expect(H.error(H.document(#"[{"ty": 3, "ks": {"r": {"k": 1e-400}}}]"#)) == nil)
    }

    @Test func timelineBounds() {
        // op − ip of 10¹² frames: op is beyond ±10⁹ (whole-frame steps must stay exact).
        let long = H.error(H.document("[]", op: "1e12"))
        #expect(long?.kind == .tooLarge)
        #expect(long?.description == "animation:1: op: expected an out point between −1000000000 and 1000000000, got 1000000000000")
        #expect(H.error(H.document("[]", ip: "-1e300"))?.description
                == "animation:1: ip: expected an in point between −1000000000 and 1000000000, got -1e+300")
        // Within ±10⁹, the length is bounded at 100 000 frames.
        let length = H.error(H.document("[]", ip: "-50000", op: "50000.5"))
        #expect(length?.kind == .tooLarge)
        #expect(length?.description == "animation:1: op: the timeline (op − ip) is 100000.5 frames long; the limit is 100000 frames")
        #expect(H.error(H.document("[]", ip: "999900000", op: "1000000000")) == nil)
        // Inverted or empty: op must come after ip.
        #expect(H.error(H.document("[]", ip: "60", op: "0"))?.description == "animation:1: op: expected an out point after the in point (60), got 0")
        #expect(H.error(H.document("[]", ip: "5", op: "5"))?.kind == .invalid)
        #expect(LottieLimits.standard.maximumTimelineFrames == 100_000 && LottieLimits.standard.maximumFrameNumber == 1e9)
    }

    @Test func deepNestingOfGroups() {
        // 10⁵ nested groups: the JSON parser stops at 256 levels, before building anything.
        let n = 100_000
        let nested = String(repeating: #"{"ty": "gr", "it": ["#, count: n) + String(repeating: "]}", count: n)
        let e = H.error(H.document(#"[{"ty": 4, "ks": {}, "shapes": [\#(nested)]}]"#))
        #expect(e?.kind == .syntax)
        #expect(e?.description == "animation: line 1, column 2626: nesting deeper than 256 levels")
    }

    @Test func gradientStopsAreBounded() {
        let g = #"{"ty": "gf", "t": 1, "s": {"k": [0, 0]}, "e": {"k": [1, 1]}, "g": {"p": 1000000, "k": {"k": [0, 1, 0, 0, 1, 0, 0, 1]}}}"#
        let e = H.error(H.document("[\(H.shapes(H.square + ", " + g))]"))
        #expect(e?.kind == .tooLarge)
        #expect(e?.description == "animation:1: layers[0].shapes[0].it[2].g.p: 1000000 colour stops; the limit is 10000")
        // Opacity stops (the pairs after the colour stops) are bounded the same way.
        let alphas = (0...10_000).map { _ in "0.5, 1" }.joined(separator: ", ")
        let many = #"{"ty": "gf", "t": 1, "s": {"k": [0, 0]}, "e": {"k": [1, 1]}, "g": {"p": 1, "k": {"k": [0, 1, 0, 0, \#(alphas)]}}}"#
        #expect(H.error(H.document("[\(H.shapes(H.square + ", " + many))]"))?.description
                == "animation:1: layers[0].shapes[0].it[2].g.k: the value has 10001 opacity stops after its 1 colour stops; the limit is 10000")
    }

    @Test func documentsAreBoundedInSize() throws {
        var limits = LottieLimits()
        limits.maximumJSONBytes = 100
        let text = H.document("[]") + String(repeating: " ", count: 40)
        #expect(throws: LottieError(kind: .tooLarge, file: "anim.json", line: nil, path: "",
                                    message: "the document is 116 bytes; the limit is 100 bytes")) {
            try LottieParser.parse(Data(text.utf8), file: "anim.json", limits: limits)
        }
        // A file over 64 MiB is refused from its size, before it is read (a sparse file here).
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let big = dir.appendingPathComponent("big.json").path
        #expect(FileManager.default.createFile(atPath: big, contents: Data("{".utf8)))
        let handle = try #require(FileHandle(forWritingAtPath: big))
        try handle.truncate(atOffset: 65 << 20)
        try handle.close()
        #expect(throws: LottieError(kind: .tooLarge, file: big, line: nil, path: "", message: "the document is 65 MiB; the limit is 64 MiB")) {
            try LottieAnimation.load(filepath: big)
        }
        // Not a regular file: never read (/dev/zero would be read forever).
        #expect(throws: LottieError(kind: .unreadable, file: "/dev/zero", line: nil, path: "", message: "cannot read the file: not a regular file")) {
            try LottieAnimation.load(filepath: "/dev/zero")
        }
    }

    // MARK: dotLottie zip bombs

    static func zip(_ entries: [(String, Data)]) throws -> Data { try ParsingDotLottieTests.zip(entries) }

    static let manifest = Data(#"{"animations": [{"id": "x"}]}"#.utf8)

    @Test func anEntryThatInflatesPastItsDeclaredSizeStops() throws {
        // 65 MiB of zeros (about 65 KiB deflated) declaring 100 bytes, with the real bounds: the
        // animation entry is JSON (≤ 64 MiB), so extraction stops at 64 MiB.
        let bomb = ParsingDotLottieTests.declaring(100, in: try Self.zip([("animations/x.json", Data(count: 65 << 20))]))
        // The manifest is added undeclared-over (declaring rewrote every entry; add it after).
        let archive = try Archive(data: bomb, accessMode: .update)
        try archive.addEntry(with: "manifest.json", type: .file, uncompressedSize: Int64(Self.manifest.count), compressionMethod: .deflate) { p, n in
            Self.manifest.subdata(in: Int(p)..<Int(p) + n)
        }
        let data = try #require(archive.data)
        #expect(data.count < 200_000)
        #expect(throws: LottieError(kind: .tooLarge, file: "bomb.lottie", line: nil, path: "animations/x.json",
                                    message: "the entry inflates past 64 MiB (it declares 100 bytes); extraction stopped there")) {
            try DotLottieFile(data: data, filename: "bomb.lottie")
        }
    }

    @Test func hugeDeclaredSizesAreRefusedBeforeInflating() throws {
        // An image entry declaring 300 MiB: over the 256 MiB entry bound.
        let image = ParsingDotLottieTests.declaring(300 << 20, in: try Self.zip([("images/img_0.png", ParsingImageTests.pngBytes)]))
        let archive = try Archive(data: image, accessMode: .update)
        for (name, bytes) in [("manifest.json", Self.manifest), ("animations/x.json", Data(ParsingDotLottieTests.animation.utf8))] {
            try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(bytes.count), compressionMethod: .deflate) { p, n in
                bytes.subdata(in: Int(p)..<Int(p) + n)
            }
        }
        #expect(throws: LottieError(kind: .tooLarge, file: "bomb.lottie", line: nil, path: "images/img_0.png",
                                    message: "the entry is 300 MiB uncompressed; the limit is 256 MiB")) {
            try DotLottieFile(data: try #require(archive.data), filename: "bomb.lottie")
        }
        // 4 GiB − 1 declared for the manifest.
        let manifest = ParsingDotLottieTests.declaring(.max, in: try Self.zip([("manifest.json", Self.manifest)]))
        #expect(throws: LottieError(kind: .tooLarge, file: "bomb.lottie", line: nil, path: "manifest.json",
                                    message: "the entry is 4096 MiB uncompressed; the limit is 64 MiB")) {
            try DotLottieFile(data: manifest, filename: "bomb.lottie")
        }
    }

    /// Offsets past the end of an in-memory archive are refused before ZIPFoundation, whose
    /// memory file traps on them (found by the lottie fuzz target: a central directory past the
    /// end; its input is replayed from Tests/Fixtures/fuzz).
    @Test func archiveOffsetsPastTheEndAreRefused() throws {
        let good = try Self.zip([("manifest.json", Self.manifest), ("animations/x.json", Data(ParsingDotLottieTests.animation.utf8))])
        #expect(try DotLottieFile(data: good, filename: "a.lottie").animations.count == 1)
        let end = good.count - 22
        func patched(_ offset: Int, _ value: UInt32) -> Data {
            var d = good
            for k in 0..<4 { d[offset + k] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(k))) }
            return d
        }
        let start = Int(good[end + 16]) | Int(good[end + 17]) << 8 | Int(good[end + 18]) << 16 | Int(good[end + 19]) << 24
        let size = Int(good[end + 12]) | Int(good[end + 13]) << 8 | Int(good[end + 14]) << 16 | Int(good[end + 15]) << 24
        #expect(throws: LottieError(kind: .unreadable, file: "a.lottie", line: nil, path: "",
                                    message: "not a readable zip archive: the central directory (\(size) bytes at byte \(good.count + 100)) does not end before the end record at byte \(end)")) {
            try DotLottieFile(data: patched(end + 16, UInt32(good.count + 100)), filename: "a.lottie")
        }
        // The first entry's local header moved past the end.
        #expect(throws: LottieError(kind: .unreadable, file: "a.lottie", line: nil, path: "",
                                    message: "not a readable zip archive: the local header of entry 1 (byte \(good.count)) is not inside the archive")) {
            try DotLottieFile(data: patched(start + 42, UInt32(good.count)), filename: "a.lottie")
        }
        // An end-record comment longer than what follows (ZIPFoundation would fail to open the
        // archive and leak its memory file; found by LeakSanitizer).
        var comment = good
        comment[end + 20] = 0x53; comment[end + 21] = 0x74
        #expect(throws: LottieError(kind: .unreadable, file: "a.lottie", line: nil, path: "",
                                    message: "not a readable zip archive: the end record's comment (29779 bytes at byte \(end + 22)) runs past the end of the archive")) {
            try DotLottieFile(data: comment, filename: "a.lottie")
        }
        // The first entry's compressed size running past the end.
        #expect(throws: LottieError.self) { try DotLottieFile(data: patched(start + 20, 0x7FFF_0000), filename: "a.lottie") }
        #expect(throws: LottieError.self) { try DotLottieFile(data: good.prefix(end), filename: "a.lottie") }
        _ = size
    }

    @Test func manyEntriesAreRefused() throws {
        var limits = LottieLimits()
        limits.maximumArchiveEntries = 10
        let entries = [("manifest.json", Self.manifest), ("animations/x.json", Data(ParsingDotLottieTests.animation.utf8))]
            + (0..<9).map { ("images/\($0).png", ParsingImageTests.pngBytes) }
        #expect(throws: LottieError(kind: .tooLarge, file: "many.lottie", line: nil, path: "",
                                    message: "the archive has more than 10 entries; the limit is 10")) {
            try DotLottieFile(data: try Self.zip(entries), filename: "many.lottie", limits: limits)
        }
        limits.maximumArchiveEntries = 11
        #expect(try DotLottieFile(data: try Self.zip(entries), filename: "many.lottie", limits: limits).animations.count == 1)
        #expect(LottieLimits.standard.maximumArchiveEntries == 10_000)
    }
}

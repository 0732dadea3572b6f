import Testing
import Foundation
import FlipbookPNG
@testable import FlipbookRender
import FlipbookPixels
import FlipbookTestSupport

/// A `w × h` opaque frame whose pixel (x, y) encodes x, y and `seed`.
func sinkFrame(_ w: Int, _ h: Int, seed: UInt8) -> PixelBuffer {
    var p = PixelBuffer(width: w, height: h)
    for y in 0..<h { for x in 0..<w { p[x, y] = RGBA8(r: UInt8(x & 255), g: UInt8(y & 255), b: seed, a: 255) } }
    return p
}

@Suite struct FramePatternTests {
    @Test func formats() throws {
        #expect(FramePattern.default.fileName(42) == "frame_00042.png")
        #expect(try FramePattern("f%d.png").fileName(7) == "f7.png")
        #expect(try FramePattern("%3d|%%").fileName(7) == "  7|%")
        #expect(try FramePattern("a%-4ib").fileName(7) == "a7   b")
        #expect(try FramePattern("x%02u").fileName(123) == "x123")
    }

    @Test func refusesBadPatterns() {
        func msg(_ p: String) -> String { do { _ = try FramePattern(p); return "ok" } catch { return error.description } }
        #expect(msg("frame.png") == #"invalid file-name pattern "frame.png": it has no integer conversion for the frame number; it needs exactly one, e.g. frame_%05d.png"#)
        #expect(msg("%d_%d.png") == #"invalid file-name pattern "%d_%d.png": it has more than one integer conversion; it needs exactly one"#)
        #expect(msg("%s.png") == #"invalid file-name pattern "%s.png": '%s' is not an integer conversion; use %d, e.g. frame_%05d.png"#)
        #expect(msg("a/%d.png") == #"invalid file-name pattern "a/%d.png": it names a file inside the output folder and may not contain '/'"#)
        #expect(msg("%05") == #"invalid file-name pattern "%05": the conversion after '%' is incomplete"#)
        #expect(msg("%d%") == #"invalid file-name pattern "%d%": it ends with a lone '%'"#)
    }
}

@Suite struct PNGSequenceSinkTests {
    /// A fresh empty folder for each test (one suite instance per test), removed after it.
    let folder = TemporaryDirectory(prefix: "flipbook-sink-")

    @Test func writesDecodableFramesAtomically() throws {
        let dir = folder.path
        let sink = PNGSequenceSink(directory: dir)
        try sink.begin(FrameSinkFormat(width: 5, height: 3, fps: 30, frames: 10...12))
        for n in 10...12 { try sink.write(frame: n, sinkFrame(5, 3, seed: UInt8(n)), time: Double(n) / 30) }
        try sink.finish()
        let names = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(names == ["frame_00010.png", "frame_00011.png", "frame_00012.png"])  // no temporaries left
        #expect(try PNG.decode(contentsOf: dir + "/frame_00011.png") == sinkFrame(5, 3, seed: 11))
        #expect(sink.framesWritten == 3)
        #expect(sink.bytesWritten == names.reduce(0) { $0 + ((try? FileManager.default.attributesOfItem(atPath: dir + "/" + $1)[.size] as? Int) ?? 0) })
    }

    @Test func resumeTrustsOnlyCompleteFiles() throws {
        let dir = folder.path
        let sink = PNGSequenceSink(directory: dir, pattern: try FramePattern("f%d.png"))
        try sink.begin(FrameSinkFormat(width: 8, height: 8, fps: 24, frames: 0...3))
        for n in 0...2 { try sink.write(frame: n, sinkFrame(8, 8, seed: UInt8(n)), time: 0) }
        // Frame 1: truncated (drop IEND); frame 2: garbage; frame 3: missing.
        let p1 = dir + "/f1.png", p2 = dir + "/f2.png"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: p1))
        try bytes.prefix(bytes.count - 12).write(to: URL(fileURLWithPath: p1))
        try Data("not a png".utf8).write(to: URL(fileURLWithPath: p2))
        #expect(sink.isFrameComplete(0))
        #expect(!sink.isFrameComplete(1))
        #expect(!sink.isFrameComplete(2))
        #expect(!sink.isFrameComplete(3))
        // A file of the wrong size is not this recording's frame.
        let other = PNGSequenceSink(directory: dir, pattern: try FramePattern("f%d.png"))
        try other.begin(FrameSinkFormat(width: 9, height: 8, fps: 24, frames: 0...3))
        #expect(!other.isFrameComplete(0))
    }

    @Test func unwritableFolderFailsAtBegin() {
        let sink = PNGSequenceSink(directory: "/nonexistent-flipbook-dir")
        #expect(throws: FrameSinkError.cannotCreate(path: "/nonexistent-flipbook-dir/frame_00000.png", reason: "the folder /nonexistent-flipbook-dir does not exist")) {
            try sink.begin(FrameSinkFormat(width: 1, height: 1, fps: 1, frames: 0...0))
        }
        #expect(FrameSinkError.cannotCreate(path: "a", reason: "b").isOutputFailure)
    }

    @Test func wrongSizeIsRefused() throws {
        let dir = folder.path
        let sink = PNGSequenceSink(directory: dir)
        try sink.begin(FrameSinkFormat(width: 4, height: 4, fps: 30, frames: 0...0))
        #expect(throws: FrameSinkError.wrongFrameSize(frame: 0, expected: "4×4", got: "3×4")) {
            try sink.write(frame: 0, PixelBuffer(width: 3, height: 4), time: 0)
        }
    }
}

@Suite struct MemoryAndNullSinkTests {
    @Test func memoryKeepsFramesByIndex() throws {
        let sink = MemoryFrameSink()
        try sink.begin(FrameSinkFormat(width: 2, height: 2, fps: 10, frames: 0...1))
        try sink.write(frame: 1, sinkFrame(2, 2, seed: 1), time: 0.1)
        try sink.write(frame: 0, sinkFrame(2, 2, seed: 0), time: 0)
        try sink.finish()
        #expect(sink.frames.map(\.index) == [0, 1])
        #expect(sink.frames[1].time == 0.1)
        #expect(sink.image(1) == sinkFrame(2, 2, seed: 1))
        #expect(sink.isFinished)
        #expect(throws: FrameSinkError.self) { try sink.write(frame: 2, sinkFrame(2, 2, seed: 2), time: 0) }
    }

    @Test func nullCounts() throws {
        let sink = NullFrameSink()
        try sink.begin(FrameSinkFormat(width: 2, height: 2, fps: 10, frames: 0...4))
        for n in 0...4 { try sink.write(frame: n, sinkFrame(2, 2, seed: 0), time: 0) }
        #expect(sink.framesWritten == 5)
    }

    @Test func fpsFractions() {
        func f(_ fps: Double) -> String { let r = FrameSinkFormat(width: 1, height: 1, fps: fps, frames: 0...0).fpsFraction; return "\(r.numerator):\(r.denominator)" }
        #expect(f(30) == "30:1")
        #expect(f(30000.0 / 1001) == "30000:1001")
        #expect(f(23.976) == "2997:125")
        #expect(f(12.5) == "25:2")
    }
}

import Testing
import Synchronization
import Foundation
@testable import FlipbookRender
import FlipbookPixels
import FlipbookTestSupport

@Suite struct Y4MSinkTests {
    /// A fresh empty folder for each test (one suite instance per test), removed after it.
    let folder = TemporaryDirectory(prefix: "flipbook-sink-")

    @Test func headerAndFrameSizes() throws {
        let dir = folder.path
        let path = dir + "/out.y4m"
        let sink = Y4MSink(path: path)
        let format = FrameSinkFormat(width: 5, height: 3, fps: 30000.0 / 1001, frames: 0...2)
        try sink.begin(format)
        #expect(!FileManager.default.fileExists(atPath: path))  // a temporary until finish
        for n in 0...2 { try sink.write(frame: n, sinkFrame(5, 3, seed: UInt8(n)), time: 0) }
        try sink.finish()
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let header = "YUV4MPEG2 W5 H3 F30000:1001 Ip A1:1 C420jpeg XCOLORRANGE=LIMITED\n"
        #expect(data.prefix(header.utf8.count) == Data(header.utf8))
        // 4:2:0 of 5×3: Y 15 bytes, Cb and Cr 3×2 each = 27 bytes per frame, plus "FRAME\n".
        #expect(Y4MConversion.frameSize(width: 5, height: 3, chroma: .c420jpeg) == 27)
        #expect(data.count == header.utf8.count + 3 * (6 + 27))
        #expect(sink.bytesWritten == data.count)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["out.y4m"])
    }

    @Test func conversionValues() {
        func yuv(_ c: RGBA8, bg: RGBA8 = .black, chroma: Y4MChroma = .c444) -> [UInt8] {
            var p = PixelBuffer(width: 1, height: 1); p[0, 0] = c
            var out: [UInt8] = []
            Y4MConversion.convert(p, background: bg, chroma: chroma, into: &out)
            return out
        }
        #expect(yuv(.white) == [235, 128, 128])
        #expect(yuv(.black) == [16, 128, 128])
        #expect(yuv(RGBA8(r: 255, g: 0, b: 0, a: 255)) == [63, 102, 240])
        #expect(yuv(RGBA8(r: 0, g: 0, b: 255, a: 255)) == [32, 240, 118])
        // Transparent over a white background is white; half-transparent black over white is grey.
        #expect(yuv(.transparent, bg: .white) == [235, 128, 128])
        #expect(yuv(RGBA8(r: 0, g: 0, b: 0, a: 128), bg: .white) == yuv(RGBA8(r: 127, g: 127, b: 127, a: 255)))
        // 4:2:0 chroma of a 2×2 block is the rounded mean: two red + two blue pixels.
        var p = PixelBuffer(width: 2, height: 2)
        p[0, 0] = RGBA8(r: 255, g: 0, b: 0, a: 255); p[1, 0] = RGBA8(r: 255, g: 0, b: 0, a: 255)
        p[0, 1] = RGBA8(r: 0, g: 0, b: 255, a: 255); p[1, 1] = RGBA8(r: 0, g: 0, b: 255, a: 255)
        var out: [UInt8] = []
        Y4MConversion.convert(p, background: .black, chroma: .c420jpeg, into: &out)
        #expect(out == [63, 63, 32, 32, 171, 179])  // Cb = round((102+102+240+240)/4), Cr = round((240+240+118+118)/4)
    }

    @Test func cancelLeavesNothingAndOrderIsEnforced() throws {
        let dir = folder.path
        let sink = Y4MSink(path: dir + "/out.y4m", chroma: .c444)
        try sink.begin(FrameSinkFormat(width: 2, height: 2, fps: 25, frames: 4...6))
        #expect(throws: FrameSinkError.notBegun("frame 5 written when frame 4 was expected (a stream needs frames in order)")) {
            try sink.write(frame: 5, sinkFrame(2, 2, seed: 0), time: 0)
        }
        try sink.write(frame: 4, sinkFrame(2, 2, seed: 0), time: 0)
        sink.cancel()
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == [])
    }
}

@Suite struct FFmpegSinkTests {
    let format = FrameSinkFormat(width: 4, height: 2, fps: 30, frames: 0...2)

    /// Fresh folders for each test (one suite instance per test), removed after it: the fake
    /// program's and the output's.
    let binFolder = TemporaryDirectory(prefix: "flipbook-sink-ffbin-")
    let outFolder = TemporaryDirectory(prefix: "flipbook-sink-ffout-")

    @Test func missingProgramIsNamed() {
        let never = outFolder.file("never.mp4")
        let sink = FFmpegSink(path: never, container: .mp4, searchPath: "/nonexistent-a:/nonexistent-b")
        #expect(throws: FrameSinkError.missingProgram(name: "ffmpeg", searched: "/nonexistent-a:/nonexistent-b")) { try sink.begin(format) }
        #expect(FrameSinkError.missingProgram(name: "ffmpeg", searched: "/a:/b").description
                == "ffmpeg was not found on PATH (searched /a:/b); install ffmpeg or choose another format (png, y4m)")
        #expect(!FileManager.default.fileExists(atPath: never))
    }

    /// A fake `ffmpeg` script in this test's program folder; returns the folder.
    func fakeFFmpeg(_ body: String) -> String {
        let dir = binFolder.path
        let script = dir + "/ffmpeg"
        try! ("#!/bin/sh\n" + body + "\n").write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        return dir
    }

    @Test func streamsRawRGBAAndRenamesOnSuccess() throws {
        // Records its arguments next to the output, then copies stdin to the output (last argument).
        let bin = fakeFFmpeg(#"for a; do out="$a"; done; echo "$@" > "$out.args"; cat > "$out""#)
        let dir = outFolder.path
        let sink = FFmpegSink(path: dir + "/movie.mp4", container: .mp4, background: .white, searchPath: bin)
        try sink.begin(format)
        var translucent = sinkFrame(4, 2, seed: 9)
        translucent[0, 0] = .transparent
        for n in 0...2 { try sink.write(frame: n, n == 0 ? translucent : sinkFrame(4, 2, seed: UInt8(n)), time: 0) }
        try sink.finish()
        let data = try Data(contentsOf: URL(fileURLWithPath: dir + "/movie.mp4"))
        #expect(data.count == 3 * 4 * 2 * 4)
        #expect(Array(data.prefix(8)) == [255, 255, 255, 255, 1, 0, 9, 255])  // transparent → white background, opaque
        let args = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".args") }
        #expect(args.count == 1)  // written under the temporary name, then renamed
        let line = try String(contentsOfFile: dir + "/" + args[0], encoding: .utf8)
        #expect(line.contains("-f rawvideo -pix_fmt rgba -s 4x2 -r 30/1 -i - -an -vf scale=out_color_matrix=bt709:out_range=tv"))
        #expect(line.contains("format=yuv420p -c:v libx264 -crf 18"))
    }

    @Test func failureShowsStderrAndLeavesNothing() throws {
        let bin = fakeFFmpeg("cat > /dev/null; echo 'Unknown encoder libx264' >&2; exit 1")
        let dir = outFolder.path
        let sink = FFmpegSink(path: dir + "/movie.webm", container: .webm, searchPath: bin)
        try sink.begin(format)
        for n in 0...2 { try sink.write(frame: n, sinkFrame(4, 2, seed: 0), time: 0) }
        #expect(throws: FrameSinkError.programFailed(name: "ffmpeg", status: "exit status 1", stderr: "Unknown encoder libx264")) {
            try sink.finish()
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == [])
    }

    /// Cancelling stops ffmpeg at once (SIGKILL: the output is thrown away), even an ffmpeg
    /// that would take its time over SIGTERM — this one ignores it and never reads its input
    /// again; with SIGTERM, cancel() would wait for it forever.
    @Test func cancelStopsTheProgramAtOnce() throws {
        let bin = fakeFFmpeg("trap '' TERM; while :; do sleep 1; done")
        let dir = outFolder.path
        let sink = FFmpegSink(path: dir + "/movie.mp4", container: .mp4, searchPath: bin)
        try sink.begin(format)
        try sink.write(frame: 0, sinkFrame(4, 2, seed: 1), time: 0)
        let done = Mutex(false)
        let t = Thread { sink.cancel(); done.withLock { $0 = true } }
        t.start()
        let deadline = Date().addingTimeInterval(10)
        while !done.withLock({ $0 }) && Date() < deadline { usleep(10_000) }
        #expect(done.withLock { $0 }, "cancel() did not return")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).filter { !$0.hasPrefix(".") || $0.contains("partial") } == [])
    }

    @Test func programQuittingEarlyIsAnError() throws {
        let bin = fakeFFmpeg("echo 'bad input' >&2; exit 2")
        let sink = FFmpegSink(path: outFolder.file("never.webm"), container: .webm, searchPath: bin)
        let big = FrameSinkFormat(width: 512, height: 512, fps: 30, frames: 0...9)
        try sink.begin(big)
        var caught: FrameSinkError?
        do { for n in 0...9 { try sink.write(frame: n, PixelBuffer(width: 512, height: 512), time: 0) }; try sink.finish() } catch { caught = error }
        #expect(caught == .programFailed(name: "ffmpeg", status: "exit status 2", stderr: "bad input"))
    }
}

import Synchronization
#if canImport(Glibc)
import Glibc
#endif
import FlipbookPixels
import FlipbookPNG
import Foundation

/// Video (MP4, MOV, WebM) and animated images (GIF, APNG, WebP) through an `ffmpeg` subprocess.
///
/// - Frames are streamed to ffmpeg's standard input as raw RGBA
///   (`-f rawvideo -pix_fmt rgba -s WxH -r fps -i -`), never staged on disk. When the
///   ``encoding``'s pixel format has alpha (ProRes 4444 `yuva444p10le`, VP9 `yuva420p`, GIF,
///   APNG, WebP) they are sent un-premultiplied (ffmpeg's `rgba` is straight alpha) and the
///   alpha survives; otherwise they are composited over ``background`` and sent opaque.
/// - Codec, pixel format, quality, BT.709 conversion and tags: ``FFmpegEncoding``. Odd sizes
///   are padded to even for subsampled pixel formats (`-vf pad=…`), which they require.
/// - ffmpeg writes to a temporary name next to ``path``, renamed on success at ``finish()``;
///   on failure or ``cancel()`` the temporary is removed and ffmpeg's output (stderr) is in the error.
/// - ``begin(_:)`` fails with ``FrameSinkError/missingProgram(name:searched:)`` when `ffmpeg` is
///   not on `PATH`, before anything is rendered. It sets `SIGPIPE` to ignored for the process,
///   so ffmpeg dying mid-stream is an error, not a crash.
/// - ffmpeg dies with the process that started it (Linux `PR_SET_PDEATHSIG`, set in the child
///   before exec): a render killed by SIGKILL leaves no ffmpeg running and no file growing; its
///   temporary is removed by the next run into that folder. The signal is tied to the thread
///   that called ``begin(_:)`` — `Recorder.record(to:)` keeps that thread busy until ``finish()``,
///   so only a caller driving the sink by hand from a thread that exits early would be affected.
public final class FFmpegSink: FrameSink {
    public typealias Container = FFmpegEncoding.Container

    public let path: String
    public var container: Container { encoding.container }
    /// Codec, pixel format and quality.
    public let encoding: FFmpegEncoding
    public let background: RGBA8
    /// Where to look for `ffmpeg` (`nil`: the `PATH` environment variable).
    public let searchPath: String?
    public static let programName = "ffmpeg"

    private struct State {
        var process: _Subprocess?
        var temp: String?
        var format: FrameSinkFormat?
        var next = 0
        var buffer: [UInt8] = []
        var bytes = 0
    }
    private let state = Mutex(State())

    /// The container's default codec, pixel format and quality.
    public convenience init(path: String, container: Container, background: RGBA8 = .black, searchPath: String? = nil) {
        self.init(path: path, encoding: FFmpegEncoding(container: container), background: background, searchPath: searchPath)
    }

    /// `encoding` should pass ``FFmpegEncoding/validate()``; otherwise ffmpeg reports the problem.
    public init(path: String, encoding: FFmpegEncoding, background: RGBA8 = .black, searchPath: String? = nil) {
        self.path = path; self.encoding = encoding; self.background = background; self.searchPath = searchPath
    }

    public var acceptsConcurrentWrites: Bool { false }
    /// Raw bytes sent to ffmpeg so far.
    public var bytesSent: Int { state.withLock { $0.bytes } }

    /// ffmpeg's arguments for `format`, writing to `output`.
    public func arguments(for format: FrameSinkFormat, output: String) -> [String] {
        let f = format.fpsFraction
        var args = ["-hide_banner", "-loglevel", "error", "-y",
                    "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "\(format.width)x\(format.height)",
                    "-r", "\(f.numerator)/\(f.denominator)", "-i", "-", "-an"]
        args += encoding.outputArguments(width: format.width, height: format.height, padding: background)
        return args + [output]
    }

    public func begin(_ format: FrameSinkFormat) throws(FrameSinkError) {
        signal(SIGPIPE, SIG_IGN)
        let search = searchPath ?? (getenv("PATH").map { String(cString: $0) } ?? "")
        guard let exe = _Subprocess.find(Self.programName, in: search) else {
            if let bad = _Subprocess.findNonExecutable(Self.programName, in: search) {
                throw .missingProgram(name: Self.programName, searched: "not executable: " + bad)
            }
            throw .missingProgram(name: Self.programName, searched: search)
        }
        _SinkFile.removeStalePartials(of: path)   // left by a killed earlier run
        // Probe the folder (and reserve nothing): ffmpeg creates the temporary itself.
        let probe = try _SinkFile(atomicPath: path)
        let temp = probe.temp!
        probe.discard()
        let process = try _Subprocess(name: Self.programName, executable: exe, arguments: arguments(for: format, output: temp))
        state.withLock { s in
            s.process = process; s.temp = temp; s.format = format; s.next = format.frames.lowerBound
        }
    }

    public func write(frame index: Int, _ image: PixelBuffer, time: Double) throws(FrameSinkError) {
        let r: Result<Void, FrameSinkError> = state.withLock { s in
            do throws(FrameSinkError) {
                guard let p = s.process, let format = s.format else { throw .notBegun("write before begin or after finish") }
                try format.check(image, frame: index)
                guard index == s.next else { throw .notBegun("frame \(index) written when frame \(s.next) was expected (a stream needs frames in order)") }
                if encoding.keepsAlpha {
                    Self.straightRGBA(image, into: &s.buffer)
                } else {
                    Self.opaqueRGBA(image, background: background, into: &s.buffer)
                }
                do { try _SinkFile(descriptor: p.stdinFD, name: "\(Self.programName)'s input").write(s.buffer) } catch {
                    // ffmpeg quit (EPIPE) or the pipe broke: report what ffmpeg said.
                    let status = p.wait() ?? "closed its input early"
                    let output = p.output()
                    Self.abandon(&s)
                    throw .programFailed(name: Self.programName, status: status, stderr: output)
                }
                s.bytes += s.buffer.count
                s.next += 1
                return .success(())
            } catch { return .failure(error) }
        }
        try r.get()
    }

    public func finish() throws(FrameSinkError) {
        let r: Result<Void, FrameSinkError> = state.withLock { s in
            guard let p = s.process, let temp = s.temp else { return .failure(.notBegun("finish before begin")) }
            if let status = p.wait() {
                let output = p.output()
                Self.abandon(&s)
                return .failure(.programFailed(name: Self.programName, status: status, stderr: output))
            }
            p.cleanUp()
            s.process = nil; s.temp = nil
            guard rename(temp, path) == 0 else {
                let e = errno
                unlink(temp)
                return .failure(.writeFailed(path: path, reason: "cannot rename into place: \(_SinkFile.reason(e))"))
            }
            return .success(())
        }
        try r.get()
    }

    public func cancel() {
        state.withLock { s in s.process?.terminate(); Self.abandon(&s) }
    }

    private static func abandon(_ s: inout State) {
        s.process?.terminate()
        s.process?.cleanUp()
        if let t = s.temp { unlink(t) }
        s.process = nil; s.temp = nil
    }

    /// `image` as packed straight RGBA (ffmpeg's `rgba`): the PNG sink's conversion
    /// (``PNG/straightRGBA(_:into:)``), so a frame's alpha and colours match its PNG.
    static func straightRGBA(_ image: PixelBuffer, into out: inout [UInt8]) {
        PNG.straightRGBA(image, into: &out)
    }

    /// `image` composited over the opaque `background`, as straight RGBA with alpha 255:
    /// `c = s + div255(B · (255 − a))`, `a = 255`.
    static func opaqueRGBA(_ image: PixelBuffer, background: RGBA8, into out: inout [UInt8]) {
        let w = image.width, h = image.height, stride = image.bytesPerRow
        if out.count != w * h * 4 { out = [UInt8](repeating: 0, count: w * h * 4) }
        let bg = (UInt32(background.r), UInt32(background.g), UInt32(background.b))
        image.withUnsafeBytes { src in
            out.withUnsafeMutableBytes { dst in
                for y in 0..<h {
                    let s = src.baseAddress! + y * stride, d = dst.baseAddress! + y * w * 4
                    for x in 0..<(w * 4) where x & 3 == 0 {
                        let inv = 255 - UInt32(s.load(fromByteOffset: x + 3, as: UInt8.self))
                        d.storeBytes(of: UInt8(UInt32(s.load(fromByteOffset: x, as: UInt8.self)) + PixelRounding.div255(bg.0 * inv)), toByteOffset: x, as: UInt8.self)
                        d.storeBytes(of: UInt8(UInt32(s.load(fromByteOffset: x + 1, as: UInt8.self)) + PixelRounding.div255(bg.1 * inv)), toByteOffset: x + 1, as: UInt8.self)
                        d.storeBytes(of: UInt8(UInt32(s.load(fromByteOffset: x + 2, as: UInt8.self)) + PixelRounding.div255(bg.2 * inv)), toByteOffset: x + 2, as: UInt8.self)
                        d.storeBytes(of: 255, toByteOffset: x + 3, as: UInt8.self)
                    }
                }
            }
        }
    }
}

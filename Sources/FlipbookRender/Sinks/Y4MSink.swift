import Synchronization
#if canImport(Glibc)
import Glibc
#endif
import FlipbookPixels

/// A YUV4MPEG2 stream (`.y4m`): a text header, then `FRAME\n` and the raw planes of each frame.
/// Any video tool reads it (`ffmpeg -i out.y4m …`, `x264 out.y4m`, `mpv`).
///
/// Header: `YUV4MPEG2 W<w> H<h> F<num>:<den> Ip A1:1 C420jpeg XCOLORRANGE=LIMITED` (or `C444`).
/// Pixels: BT.709 matrix, limited range, converted by ``Y4MConversion`` (documented there),
/// after compositing over ``background`` — frames are normally opaque already. Y4M has no
/// field for the matrix; tell encoders `-colorspace bt709` if they need it.
///
/// Output goes to a file — written to a temporary name and renamed at ``finish()``, removed
/// by ``cancel()`` — or to standard output (`path == nil`, for piping). Frames must arrive in
/// order (``acceptsConcurrentWrites`` is `false`). Writing to a closed pipe gives
/// ``FrameSinkError/writeFailed(path:reason:)`` ("Broken pipe"): ``begin(_:)`` sets `SIGPIPE`
/// to ignored for the process so that a reader quitting does not kill the recorder.
public final class Y4MSink: FrameSink {
    /// The output file, or `nil` for standard output.
    public let path: String?
    public let chroma: Y4MChroma
    /// The opaque colour under translucent pixels (premultiplied; default black).
    public let background: RGBA8

    private struct State {
        var file: _SinkFile?
        var format: FrameSinkFormat?
        var next = 0
        var buffer: [UInt8] = []
        var bytes = 0
    }
    private let state = Mutex(State())

    public init(path: String?, chroma: Y4MChroma = .c420jpeg, background: RGBA8 = .black) {
        self.path = path; self.chroma = chroma; self.background = background
    }

    public var acceptsConcurrentWrites: Bool { false }

    /// Bytes written so far (header included).
    public var bytesWritten: Int { state.withLock { $0.bytes } }

    /// The stream header for `format`, newline included.
    public func header(for format: FrameSinkFormat) -> String {
        let f = format.fpsFraction
        return "YUV4MPEG2 W\(format.width) H\(format.height) F\(f.numerator):\(f.denominator) Ip A1:1 \(chroma.headerToken) XCOLORRANGE=LIMITED\n"
    }

    public func begin(_ format: FrameSinkFormat) throws(FrameSinkError) {
        signal(SIGPIPE, SIG_IGN)
        if let path { _SinkFile.removeStalePartials(of: path) }   // left by a killed earlier run
        let file = try path.map { p throws(FrameSinkError) in try _SinkFile(atomicPath: p) } ?? _SinkFile(descriptor: 1, name: "standard output")
        let header = Array(header(for: format).utf8)
        do { try file.write(header) } catch { file.discard(); throw error }
        state.withLock { s in
            s.file = file; s.format = format; s.next = format.frames.lowerBound; s.bytes = header.count
        }
    }

    public func write(frame index: Int, _ image: PixelBuffer, time: Double) throws(FrameSinkError) {
        let r: Result<Void, FrameSinkError> = state.withLock { s in
            do throws(FrameSinkError) {
                guard let file = s.file, let format = s.format else { throw .notBegun("write before begin or after finish") }
                try format.check(image, frame: index)
                guard index == s.next else { throw .notBegun("frame \(index) written when frame \(s.next) was expected (a stream needs frames in order)") }
                s.buffer.removeAll(keepingCapacity: true)
                s.buffer.append(contentsOf: Array("FRAME\n".utf8))
                Y4MConversion.convert(image, background: background, chroma: chroma, into: &s.buffer)
                try file.write(s.buffer)
                s.bytes += s.buffer.count
                s.next += 1
                return .success(())
            } catch { return .failure(error) }
        }
        try r.get()
    }

    public func finish() throws(FrameSinkError) {
        let file = state.withLock { s -> _SinkFile? in defer { s.file = nil }; return s.file }
        guard let file else { throw .notBegun("finish before begin") }
        try file.commit()
    }

    public func cancel() {
        state.withLock { s in s.file?.discard(); s.file = nil }
    }
}

import Foundation

/// Whether `ffmpeg` and `ffprobe` are on `PATH`: tests that decode outputs back are
/// `.enabled(if: ffmpegAvailable)` and are skipped (reported as such) without them.
public let ffmpegAvailable = FFmpegTools.ffmpeg != nil && FFmpegTools.ffprobe != nil

/// Runs ffmpeg/ffprobe to check what the sinks wrote: stream facts, frame counts, decoded pixels.
public enum FFmpegTools {
    public static let ffmpeg = find("ffmpeg")
    public static let ffprobe = find("ffprobe")

    static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(dir)/\(name)") {
            return "\(dir)/\(name)"
        }
        return nil
    }

    /// Runs `executable` with `arguments`; stdout as bytes, stderr as text.
    public static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, out: Data, err: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        // stderr to a file, stdout through a pipe read to its end: no pipe can fill and block.
        let errPath = NSTemporaryDirectory() + "/flipbook-ff-\(UUID().uuidString).log"
        FileManager.default.createFile(atPath: errPath, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: errPath) }
        let errFile = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        let out = Pipe()
        p.standardOutput = out; p.standardError = errFile
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        try? errFile.close()
        let err = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        return (p.terminationStatus, data, err)
    }

    /// ffprobe's facts about the first video stream (`codec_name`, `pix_fmt`, `width`,
    /// `color_space`, `nb_read_frames` …, and stream tags as `TAG:name`).
    public static func probe(_ path: String) throws -> [String: String] {
        let r = try run(ffprobe!, ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                                   "stream=codec_name,profile,pix_fmt,width,height,nb_read_frames,color_space,color_primaries,color_transfer,color_range:stream_tags",
                                   "-of", "default=noprint_wrappers=1", path])
        var facts: [String: String] = [:]
        for line in String(decoding: r.out, as: UTF8.self).split(separator: "\n") {
            guard let eq = line.firstIndex(of: "=") else { continue }
            facts[String(line[..<eq])] = String(line[line.index(after: eq)...])
        }
        return facts
    }

    /// Every frame of `path` decoded by ffmpeg to `pixelFormat` (`rgba`: 4 bytes a pixel;
    /// `yuv444p`: the Y, U and V planes, as stored — no range or matrix conversion), `width × height` each. `decoder` forces one (libvpx-vp9 is the
    /// decoder that reads VP9's alpha).
    public static func decode(_ path: String, width: Int, height: Int, pixelFormat: String = "rgba", decoder: String? = nil) throws -> [[UInt8]] {
        let bytesPerPixel = pixelFormat == "yuv444p" ? 3 : 4
        let r = try run(ffmpeg!, ["-v", "error"] + (decoder.map { ["-c:v", $0] } ?? []) + ["-i", path, "-f", "rawvideo", "-pix_fmt", pixelFormat, "-"])
        guard r.status == 0 else { throw DecodeError(message: r.err) }
        let size = width * height * bytesPerPixel
        let bytes = [UInt8](r.out)
        return stride(from: 0, to: bytes.count - size + 1, by: size).map { Array(bytes[$0..<($0 + size)]) }
    }

    public struct DecodeError: Error, CustomStringConvertible { public var message: String; public var description: String { message } }
}

/// The RIFF chunks of an animated WebP (ffmpeg 5 cannot decode animated WebP, so tests read
/// the container themselves): canvas size and flags from `VP8X`, one `ANMF` per frame.
public struct WebPContainer {
    public var canvasWidth = 0, canvasHeight = 0
    public var hasAlpha = false, isAnimated = false
    /// Each frame's payload (its `ALPH`/`VP8 `/`VP8L` chunks) and its rectangle.
    public var frames: [(x: Int, y: Int, width: Int, height: Int, chunks: [UInt8])] = []

    public init?(_ data: [UInt8]) {
        func u32(_ i: Int) -> Int { Int(data[i]) | Int(data[i + 1]) << 8 | Int(data[i + 2]) << 16 | Int(data[i + 3]) << 24 }
        func u24(_ i: Int) -> Int { Int(data[i]) | Int(data[i + 1]) << 8 | Int(data[i + 2]) << 16 }
        guard data.count >= 12, Array(data[0..<4]) == Array("RIFF".utf8), Array(data[8..<12]) == Array("WEBP".utf8) else { return nil }
        var i = 12
        while i + 8 <= data.count {
            let tag = String(decoding: data[i..<(i + 4)], as: UTF8.self), size = u32(i + 4), body = i + 8
            guard body + size <= data.count else { return nil }
            switch tag {
            case "VP8X":
                hasAlpha = data[body] & 0x10 != 0; isAnimated = data[body] & 0x02 != 0
                canvasWidth = u24(body + 4) + 1; canvasHeight = u24(body + 7) + 1
            case "ANMF":
                frames.append((u24(body) * 2, u24(body + 3) * 2, u24(body + 6) + 1, u24(body + 9) + 1,
                               Array(data[(body + 16)..<(body + size)])))
            default: break
            }
            i = body + size + (size & 1)
        }
    }

    /// Frame `n` as a still WebP file (`VP8X` + its chunks), which ffmpeg decodes.
    public func still(_ n: Int) -> [UInt8] {
        let f = frames[n]
        func le(_ v: Int, _ bytes: Int) -> [UInt8] { (0..<bytes).map { UInt8((v >> (8 * $0)) & 0xFF) } }
        let vp8x = Array("VP8X".utf8) + le(10, 4) + [hasAlpha ? 0x10 : 0, 0, 0, 0] + le(f.width - 1, 3) + le(f.height - 1, 3)
        let body = Array("WEBP".utf8) + vp8x + f.chunks
        return Array("RIFF".utf8) + le(body.count, 4) + body
    }
}

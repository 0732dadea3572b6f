import FlipbookPixels

/// What ``FFmpegSink`` asks ffmpeg to write: a container, a codec in it, the pixel format the
/// codec stores and its quality knob. Every combination is checked by ``validate()``, so a
/// caller (the CLI) can name the problem before ffmpeg starts.
///
/// | container | codecs (first = default) | pixel formats (first = default) | quality |
/// |---|---|---|---|
/// | `mp4` | h264, h265 | yuv420p, yuv422p, yuv444p | CRF 0–51 (h264 18, h265 23) |
/// | `mov` | prores, h264, h265 | prores: yuva444p10le (4444 + alpha), yuv444p10le (4444), yuv422p10le (422 HQ) | prores: none |
/// | `webm` | vp9 | yuva420p (alpha), yuv420p, yuv444p | CRF 0–63 (32) |
/// | `gif` | gif | rgba (1-bit transparency), rgb24 (opaque) | none (palette per file) |
/// | `apng` | apng | rgba, rgb24 | none (lossless) |
/// | `webp` | webp | yuva420p (alpha), yuv420p | quality 0–100 (80) |
///
/// H.264, H.265, VP9 and ProRes are converted from RGB with the BT.709 matrix (limited range)
/// by ffmpeg's `scale` filter and tagged BT.709 (matrix, primaries, transfer) — the same matrix
/// ``Y4MConversion`` uses. ffmpeg's default would be BT.601, untagged, which players show with
/// shifted colours.
///
/// Pixel formats with alpha get the frames un-premultiplied (ffmpeg's `rgba` is straight
/// alpha); the others get them composited over the sink's background first.
public struct FFmpegEncoding: Sendable, Hashable {
    /// The output file's kind; also its file-name extension.
    public enum Container: String, Sendable, Hashable, CaseIterable {
        case mp4, mov, webm, gif, apng, webp
    }

    /// A video or image codec, named as users say it (the ffmpeg encoder is ``encoder``).
    public enum Codec: String, Sendable, Hashable, CaseIterable {
        case h264, h265, vp9, prores, gif, apng, webp

        /// The ffmpeg encoder used.
        public var encoder: String {
            switch self {
            case .h264: "libx264"
            case .h265: "libx265"
            case .vp9: "libvpx-vp9"
            case .prores: "prores_ks"
            case .gif: "gif"
            case .apng: "apng"
            case .webp: "libwebp_anim"
            }
        }

        /// Pixel formats this codec can store, the default first.
        public var pixelFormats: [PixelFormat] {
            switch self {
            case .h264: [.yuv420p, .yuv422p, .yuv444p]
            case .h265: [.yuv420p, .yuv422p, .yuv444p]
            case .vp9: [.yuva420p, .yuv420p, .yuv444p]
            case .prores: [.yuva444p10le, .yuv444p10le, .yuv422p10le]
            case .gif: [.rgba, .rgb24]
            case .apng: [.rgba, .rgb24]
            case .webp: [.yuva420p, .yuv420p]
            }
        }

        /// The quality values accepted (`nil`: the codec has no quality knob), and the default.
        /// For h264/h265/vp9 it is the CRF (lower is better, bigger files); for webp, libwebp's
        /// quality (higher is better).
        public var qualityRange: (range: ClosedRange<Int>, default: Int)? {
            switch self {
            case .h264: (0...51, 18)
            case .h265: (0...51, 23)
            case .vp9: (0...63, 32)
            case .webp: (0...100, 80)
            case .prores, .gif, .apng: nil
            }
        }

        /// Whether the quality knob is a CRF (`--crf`) rather than a quality (`--quality`).
        public var qualityIsCRF: Bool { self == .h264 || self == .h265 || self == .vp9 }

        /// YUV codecs converted with BT.709 and tagged.
        public var isBT709: Bool { self == .h264 || self == .h265 || self == .vp9 || self == .prores }
    }

    /// A pixel format as ffmpeg names it.
    public enum PixelFormat: String, Sendable, Hashable, CaseIterable {
        case yuv420p, yuv422p, yuv444p, yuva420p, yuv422p10le, yuv444p10le, yuva444p10le, rgba, rgb24

        /// Whether it stores alpha (then frames are sent straight, not flattened).
        public var hasAlpha: Bool { self == .yuva420p || self == .yuva444p10le || self == .rgba }

        /// Whether its chroma is subsampled horizontally (then odd widths/heights are padded).
        var needsEvenSize: Bool {
            switch self {
            case .yuv420p, .yuva420p, .yuv422p, .yuv422p10le: true
            default: false
            }
        }
    }

    public var container: Container
    public var codec: Codec
    public var pixelFormat: PixelFormat
    /// CRF or quality (see ``Codec/qualityRange``); `nil` for the codec's default.
    public var quality: Int?

    /// The container's defaults, with any of `codec`, `pixelFormat`, `quality` replaced.
    /// Not checked: call ``validate()``.
    public init(container: Container, codec: Codec? = nil, pixelFormat: PixelFormat? = nil, quality: Int? = nil) {
        let c = codec ?? Self.codecs(for: container)[0]
        self.container = container
        self.codec = c
        self.pixelFormat = pixelFormat ?? c.pixelFormats[0]
        self.quality = quality
    }

    /// The codecs a container holds, the default first.
    public static func codecs(for container: Container) -> [Codec] {
        switch container {
        case .mp4: [.h264, .h265]
        case .mov: [.prores, .h264, .h265]
        case .webm: [.vp9]
        case .gif: [.gif]
        case .apng: [.apng]
        case .webp: [.webp]
        }
    }

    /// Why this combination cannot be written, or `nil`. One reason at a time, naming the
    /// value and the choices.
    public func validate() -> EncodingProblem? {
        let codecs = Self.codecs(for: container)
        guard codecs.contains(codec) else { return .codec(codec, container: container, choices: codecs) }
        guard codec.pixelFormats.contains(pixelFormat) else { return .pixelFormat(pixelFormat, codec: codec, choices: codec.pixelFormats) }
        if let q = quality {
            guard let (range, _) = codec.qualityRange else { return .noQuality(codec: codec) }
            guard range.contains(q) else { return .quality(q, codec: codec, range: range) }
        }
        return nil
    }

    /// The quality used: the given one or the codec's default (`nil` when it has none).
    public var effectiveQuality: Int? { quality ?? codec.qualityRange?.default }

    /// Whether frames go to ffmpeg with their alpha (straight) rather than flattened.
    public var keepsAlpha: Bool { pixelFormat.hasAlpha }

    /// A problem found by ``validate()``.
    public enum EncodingProblem: Sendable, Hashable, CustomStringConvertible {
        case codec(Codec, container: Container, choices: [Codec])
        case pixelFormat(PixelFormat, codec: Codec, choices: [PixelFormat])
        case noQuality(codec: Codec)
        case quality(Int, codec: Codec, range: ClosedRange<Int>)

        public var description: String {
            switch self {
            case let .codec(c, container, choices):
                return "codec \(c.rawValue) cannot go in .\(container.rawValue); choose \(choices.map(\.rawValue).joined(separator: " or "))"
            case let .pixelFormat(p, codec, choices):
                return "pixel format \(p.rawValue) is not one \(codec.rawValue) stores; choose \(choices.map(\.rawValue).joined(separator: ", "))"
            case let .noQuality(codec):
                return "\(codec.rawValue) has no quality setting"
            case let .quality(q, codec, range):
                return "\(q) is outside \(codec.rawValue)'s range \(range.lowerBound)...\(range.upperBound)"
            }
        }
    }

    /// ffmpeg's arguments after the input (`-i -`): filters, encoder, options, muxer; the
    /// output path is appended by the caller. An odd size in a subsampled format is padded by
    /// one row or column: transparent with alpha, else `padding` (the colour frames are
    /// flattened onto, so the extra line matches the background).
    public func outputArguments(width: Int, height: Int, padding: RGBA8 = .black) -> [String] {
        var filters: [String] = []
        if pixelFormat.needsEvenSize && (width % 2 == 1 || height % 2 == 1) {
            func hex(_ v: UInt8) -> String { let s = String(v, radix: 16, uppercase: true); return s.count == 1 ? "0" + s : s }
            let color = keepsAlpha ? ":color=black@0"
                : padding == .black ? "" : ":color=0x" + hex(padding.r) + hex(padding.g) + hex(padding.b)
            filters.append("pad=ceil(iw/2)*2:ceil(ih/2)*2" + color)
        }
        var args: [String] = []
        switch codec {
        case .h264, .h265, .vp9, .prores:
            // The conversion to YUV happens here, with the matrix named (not in the scaler
            // ffmpeg would insert with its BT.601 default); then the tags say so.
            filters.append("scale=out_color_matrix=bt709:out_range=tv:flags=accurate_rnd+full_chroma_int")
            filters.append("format=\(pixelFormat.rawValue)")
        case .gif:
            // One palette for the whole animation (every frame's colours counted; palettegen
            // holds all frames until the end, so memory is frames × width × height × 4), then
            // each frame mapped onto it with ordered (Bayer) dithering: measured on demo.json at
            // 640×360 it is 22 % smaller and 35 % faster than error diffusion (sierra2_4a) at
            // the same PSNR (35.9 dB), and its fixed pattern does not flicker from frame to
            // frame (docs/sinks.md). One palette entry is kept for transparency with alpha;
            // alpha < 128 becomes transparent (GIF has 1-bit alpha).
            filters.append("split[a][b];[a]palettegen=stats_mode=full:reserve_transparent=\(keepsAlpha ? 1 : 0)[p];[b][p]paletteuse=dither=bayer:bayer_scale=5:alpha_threshold=128")
        case .apng, .webp:
            filters.append("format=\(pixelFormat.rawValue)")
        }
        args += ["-vf", filters.joined(separator: ",")]
        args += ["-c:v", codec.encoder]
        switch codec {
        case .h264:
            args += ["-crf", "\(effectiveQuality!)", "-preset", "medium"]
        case .h265:
            args += ["-crf", "\(effectiveQuality!)", "-preset", "medium", "-tag:v", "hvc1", "-x265-params", "log-level=error"]
        case .vp9:
            args += ["-crf", "\(effectiveQuality!)", "-b:v", "0", "-row-mt", "1"]
        case .prores:
            // 4 = 4444, 3 = 422 HQ; alpha_bits 16 keeps the full alpha precision.
            args += ["-profile:v", pixelFormat == .yuv422p10le ? "3" : "4", "-vendor", "apl0"]
            if keepsAlpha { args += ["-alpha_bits", "16"] }
            // prores_ks leaves the frame header's colour fields unset (ffprobe: unknown);
            // this bitstream filter writes them.
            args += ["-bsf:v", "prores_metadata=color_primaries=bt709:color_trc=bt709:colorspace=bt709"]
        case .gif:
            args += ["-loop", "0"]
        case .apng:
            args += ["-plays", "0"]
        case .webp:
            args += ["-quality", "\(effectiveQuality!)", "-loop", "0"]
        }
        if codec.isBT709 {
            args += ["-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv"]
        }
        switch container {
        case .mp4: args += ["-movflags", "+faststart", "-f", "mp4"]
        case .mov: args += ["-movflags", "+faststart", "-f", "mov"]
        case .webm: args += ["-f", "webm"]
        case .gif: args += ["-f", "gif"]
        case .apng: args += ["-f", "apng"]
        case .webp: args += ["-f", "webp"]
        }
        return args
    }
}

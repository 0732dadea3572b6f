/// How the image data is deflated: one of zlib's strategies (`deflateInit2`'s `strategy`),
/// Flipbook's own deflate for image rows, libdeflate or ISA-L after Flipbook's filtering, or a
/// per-frame choice between ISA-L and the own deflate (the `fast` preset).
public enum PNGCompressionStrategy: String, Sendable, Hashable, CaseIterable {
    /// Lazy LZ77 matching plus Huffman coding (`Z_DEFAULT_STRATEGY`).
    case `default`
    /// Favour Huffman coding over short matches, tuned for filtered image rows (`Z_FILTERED`).
    case filtered
    /// No matching at all, Huffman coding only (`Z_HUFFMAN_ONLY`).
    case huffmanOnly
    /// Matches at distance 1 only: run-length encoding (`Z_RLE`). No hash chains, hence fast.
    case rle
    /// Fixed Huffman codes, no dynamic tables (`Z_FIXED`).
    case fixed
    /// Not zlib: Flipbook's deflate encoder specialised for image rows (`fast_deflate.c`):
    /// `sub` filter on row 0 and `up` on the others, pixel-granular matching (runs and one
    /// hash candidate), per-block dynamic Huffman codes, stored blocks when those are smaller.
    /// libpng still writes every chunk. `compressionLevel`, `filter`, `memoryLevel` and
    /// `windowBits` are ignored; interlaced (and test-only) outputs fall back to zlib level 1
    /// `rle` with `filter`. Design and measurements: `docs/png.md`.
    case flipbookFast
    /// Not zlib: the rows are filtered by Flipbook and deflated by **libdeflate**
    /// (`lib_deflate.c`), which is smaller and faster than zlib at every level.
    /// `compressionLevel` is libdeflate's, 1…12: 1–9 are greedy/lazy matching like zlib's,
    /// 10–12 near-optimal parsing (12: the smallest deflate measured, slow). With `filter` `.all`
    /// the filter is chosen **per frame** between `none` and `up` (at levels ≥ 10 also `paeth`
    /// and libpng's per-row heuristic), by compressing a sample of rows (4 bands of 16 rows at
    /// level 1; 16 bands at level 6 for levels ≥ 10) with each and keeping the smallest:
    /// UI-like frames compress best unfiltered, gradients with `up`/`paeth`. A single filter
    /// skips the choice; other filters than `.all` are used for every row.
    /// `memoryLevel` and `windowBits` are ignored; interlaced (and test-only) outputs fall back
    /// to zlib at level min(level, 9), `filtered`.
    case libdeflate
    /// Not zlib: as ``libdeflate`` but deflated by Intel **ISA-L**'s igzip (SIMD, levels 0…3;
    /// level 1 is its fastest with matching). With `filter` `.all` the per-frame choice is
    /// between `none` and `up`.
    case isal
    /// Not zlib: per frame, the better of two fast encoders. A sample of rows (4 bands of 16)
    /// is deflated by ISA-L level 1 unfiltered and with `up`; when unfiltered is smaller (flat,
    /// UI-like frames, where long matches survive without filtering) the frame is written by
    /// ISA-L level 1 unfiltered, otherwise (gradients, photos) by ``flipbookFast``, which is
    /// 24 % smaller than ISA-L with `up` there at a similar speed. The other knobs are ignored,
    /// as for ``flipbookFast``.
    case fastAuto

    /// Whether the level range is libdeflate's (1…12) or ISA-L's (0…3) instead of zlib's 0…9.
    var levelRange: ClosedRange<Int> {
        switch self {
        case .libdeflate: 1...12
        case .isal: 0...3
        default: 0...9
        }
    }

    @usableFromInline var zlibValue: Int32 {
        switch self {
        case .default: return 0
        case .filtered: return 1
        case .huffmanOnly: return 2
        case .rle: return 3
        case .fixed: return 4
        case .flipbookFast: return 16
        case .libdeflate: return 17
        case .isal: return 18
        case .fastAuto: return 19
        }
    }
}

/// Which PNG row filters the encoder may use. A single filter is applied to every row;
/// with zlib, ``all`` lets libpng pick per row (minimum sum of absolute differences), which
/// costs five trial filterings per row. With ``PNGCompressionStrategy/libdeflate`` and
/// ``PNGCompressionStrategy/isal``, ``all`` means one filter per frame, chosen by compressing a
/// sample of rows with each candidate (on UI-like frames `none` wins, which libpng's per-row
/// rule never picks).
public enum PNGRowFilter: String, Sendable, Hashable, CaseIterable {
    case none, sub, up, average, paeth, all

    @usableFromInline var libpngMask: Int32 {
        switch self {
        case .none: return 0x08
        case .sub: return 0x10
        case .up: return 0x20
        case .average: return 0x40
        case .paeth: return 0x80
        case .all: return 0xF8
        }
    }
}

/// How ``PNG/encode(_:options:)`` compresses. Start from a preset and adjust the raw knobs.
///
/// The presets were chosen by measuring two 1920×1080 frames side by side with fpng, ISA-L,
/// libdeflate and libpng (the peers harness, W3 = 64 rotated gradient layers, W3b = a UI frame
/// with text; release build; the tables are in `docs/png.md`):
/// - ``fast``: frame dumps. ``PNGCompressionStrategy/fastAuto``: ISA-L level 1 unfiltered on
///   flat frames, Flipbook's own deflate on gradients, chosen per frame from a sample.
/// - ``fastZlib``: zlib `Z_RLE` at level 1 with the `up` filter (the `fast` of two versions ago).
/// - ``default``: libdeflate level 4 with the filter chosen per frame: smaller than libpng's
///   default (zlib 6, adaptive filters) on both frames at 7–9× its speed.
/// - ``small``: golden files: libdeflate level 12 (near-optimal parsing), filter chosen per frame.
public struct PNGEncodeOptions: Sendable, Hashable {
    /// zlib level, 0 (store) … 9 (smallest); libdeflate's 1…12 with ``PNGCompressionStrategy/libdeflate``,
    /// ISA-L's 0…3 with ``PNGCompressionStrategy/isal``.
    public var compressionLevel: Int
    public var strategy: PNGCompressionStrategy
    public var filter: PNGRowFilter
    /// tEXt chunks written before the image data, e.g. `("flipbook:time", "1.25")`.
    public var text: [PNGTextChunk]
    /// zlib `memLevel` 1…9 (memory for the match finder); `nil` keeps libpng's default (8).
    public var memoryLevel: Int?
    /// zlib `windowBits` 8…15 (log2 of the match window); `nil` keeps libpng's default (15).
    public var windowBits: Int?
    /// Size in bytes of libpng's IDAT buffer, i.e. the IDAT chunk size; `nil` keeps 8192.
    public var bufferSize: Int?
    /// Write colour type 2 (RGB) instead of 6 (RGBA) when every pixel is opaque: a quarter
    /// fewer bytes to filter and compress, and decoding gives back the same pixels.
    public var writesOpaqueAsRGB: Bool
    /// Write Adam7 interlaced (bigger and slower; for completeness and tests).
    public var interlaced: Bool
    /// Test hook: the PNG format to write (gray, gray+alpha, 16-bit) instead of RGB(A)8.
    var _format: _PNGOutputFormat = .automatic

    public init(compressionLevel: Int = 6, strategy: PNGCompressionStrategy = .filtered,
                filter: PNGRowFilter = .all, text: [PNGTextChunk] = [], memoryLevel: Int? = nil,
                windowBits: Int? = nil, bufferSize: Int? = nil, writesOpaqueAsRGB: Bool = true,
                interlaced: Bool = false) {
        self.compressionLevel = compressionLevel
        self.strategy = strategy
        self.filter = filter
        self.text = text
        self.memoryLevel = memoryLevel
        self.windowBits = windowBits
        self.bufferSize = bufferSize
        self.writesOpaqueAsRGB = writesOpaqueAsRGB
        self.interlaced = interlaced
    }

    /// Frame dumps: per frame ISA-L level 1 unfiltered (flat frames) or Flipbook's own deflate
    /// (gradients), framed by libpng (``PNGCompressionStrategy/fastAuto``). Level 1 and `up`
    /// only matter for interlaced output, which falls back to zlib.
    public static let fast = PNGEncodeOptions(compressionLevel: 1, strategy: .fastAuto, filter: .up,
                                              bufferSize: 1 << 20)
    /// The zlib configuration of frame dumps: level 1, `Z_RLE`, `up` filter.
    public static let fastZlib = PNGEncodeOptions(compressionLevel: 1, strategy: .rle, filter: .up,
                                                  bufferSize: 1 << 20)
    /// Balanced: libdeflate level 4, the filter chosen per frame (none or up). Level 4
    /// rather than 5–6: on W3 it is 2.7 % under libpng's default size at ~7× its speed, where
    /// level 5 is 5.6 % under at ~5.6× (too close to the 5× target on a noisy machine).
    public static let `default` = PNGEncodeOptions(compressionLevel: 4, strategy: .libdeflate, filter: .all,
                                                   bufferSize: 1 << 20)
    /// Golden files: smallest output, slow: libdeflate level 12, the filter chosen per frame
    /// (none/up/paeth/per-row heuristic, on a quarter of the rows).
    public static let small = PNGEncodeOptions(compressionLevel: 12, strategy: .libdeflate, filter: .all,
                                               bufferSize: 1 << 20)

    /// A copy with `text` replaced.
    public func withText(_ text: [PNGTextChunk]) -> PNGEncodeOptions {
        var copy = self
        copy.text = text
        return copy
    }
}

/// Output layouts besides the automatic RGB/RGBA8 choice; used by tests to produce fixtures.
enum _PNGOutputFormat: Int32, Sendable, Hashable {
    case automatic = -1
    case rgba8 = 0
    case rgb8 = 1
    /// Colour type 0: the R byte of each pixel.
    case gray8 = 2
    /// Colour type 4: the R and A bytes of each pixel (straight).
    case grayAlpha8 = 3
    /// Colour type 6, 16 bits: each straight byte b stored as b·257.
    case rgba16 = 4
}

/// The named encoder presets, a closed set (what `--png-compression` and `--preset` take).
public enum PNGPreset: String, Sendable, Hashable, CaseIterable {
    /// ``PNGEncodeOptions/fast``: ISA-L or Flipbook's own deflate per frame, the default for frame sequences.
    case fast
    /// ``PNGEncodeOptions/fastZlib``: zlib level 1.
    case fastZlib
    /// ``PNGEncodeOptions/default``: libdeflate level 4, filter chosen per frame.
    case `default`
    /// ``PNGEncodeOptions/small``: libdeflate level 12, for golden files.
    case small

    /// The options this preset stands for.
    public var options: PNGEncodeOptions {
        switch self {
        case .fast: .fast
        case .fastZlib: .fastZlib
        case .default: .default
        case .small: .small
        }
    }
}

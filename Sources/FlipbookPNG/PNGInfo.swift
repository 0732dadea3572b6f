/// The PNG colour types (IHDR byte 9).
public enum PNGColorType: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case gray = 0
    case rgb = 2
    case palette = 3
    case grayAlpha = 4
    case rgba = 6

    /// The name `flipbook info` prints: `gray`, `gray+alpha`, `RGB`, `RGBA`, `palette`.
    public var description: String {
        switch self {
        case .gray: return "gray"
        case .rgb: return "RGB"
        case .palette: return "palette"
        case .grayAlpha: return "gray+alpha"
        case .rgba: return "RGBA"
        }
    }
}

/// One text chunk (`tEXt` when written; `tEXt`, `zTXt` or `iTXt` when read).
///
/// Keywords are 1–79 Latin-1 characters (printable, no leading, trailing or double spaces);
/// Flipbook's own keys are namespaced, e.g. `flipbook:time`. Written text must be Latin-1
/// without NUL (the tEXt rules); ``PNG/encode(_:options:)`` rejects anything else.
public struct PNGTextChunk: Sendable, Hashable, CustomStringConvertible {
    public var keyword: String
    public var text: String

    public init(_ keyword: String, _ text: String) {
        self.keyword = keyword
        self.text = text
    }

    public init(keyword: String, text: String) {
        self.init(keyword, text)
    }

    public var description: String { "\(keyword)=\(text)" }
}

/// What a PNG's header says, without decoding the image (``PNG/info(_:)``).
public struct PNGInfo: Sendable, Hashable {
    public var width: Int
    public var height: Int
    /// Bits per sample (per palette index for ``PNGColorType/palette``): 1, 2, 4, 8 or 16.
    public var bitDepth: Int
    public var colorType: PNGColorType
    /// Adam7 interlacing.
    public var isInterlaced: Bool
    /// True when the image can hold transparency: an alpha channel or a `tRNS` chunk.
    public var hasAlpha: Bool
    /// The text chunks that precede the image data (Flipbook writes all of its own there).
    public var text: [PNGTextChunk]

    public init(width: Int, height: Int, bitDepth: Int, colorType: PNGColorType, isInterlaced: Bool,
                hasAlpha: Bool, text: [PNGTextChunk] = []) {
        self.width = width
        self.height = height
        self.bitDepth = bitDepth
        self.colorType = colorType
        self.isInterlaced = isInterlaced
        self.hasAlpha = hasAlpha
        self.text = text
    }

    /// The value of the first text chunk with this keyword.
    public func text(forKeyword keyword: String) -> String? {
        text.first { $0.keyword == keyword }?.text
    }
}

/// The image file formats Flipbook decodes, told apart by their first bytes — never by a
/// file's name, so a JPEG saved as `logo.png` (or a `data:` URI with the wrong media type)
/// still loads.
public enum ImageFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Starts `89 50 4E 47` (`\x89PNG`); decoded by FlipbookPNG (libpng).
    case png
    /// Starts `FF D8 FF` (SOI and the next marker); decoded by FlipbookJPEG (libjpeg-turbo).
    case jpeg

    /// The format `bytes` start like, or nil when neither signature matches. Looks at no more
    /// than the first four bytes; whether the rest is whole is the decoder's business.
    public init?(sniffing bytes: some Collection<UInt8>) {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            self = .png
        } else if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else {
            return nil
        }
    }

    /// `PNG` or `JPEG`.
    public var description: String { rawValue.uppercased() }
}

import Foundation

/// Bytes for Core Graphics objects to read (Apple's `CGDataProvider`), here for fonts:
/// `CGFont(_:)` takes one.
///
/// Apple's initializers take `CFData` and `CFURL` (`data as CFData`, `url as CFURL` compile as
/// on Apple, and are failable as there); Flipbook adds `Data` and `URL` forms. A URL that is not
/// a readable local file gives nil, as on Apple.
public final class CGDataProvider: @unchecked Sendable {
    /// The provider's bytes (read once, immutable).
    public let data: Data

    /// A provider of `data`.
    public init(data: Data) { self.data = data }

    /// A provider of `data` (Apple's `init?(data: CFData)`; never nil here).
    public convenience init?(data: CFData) { self.init(data: data as Data) }

    /// A provider of a local file's bytes (Apple's `init?(url: CFURL)`); nil when it cannot be read.
    public convenience init?(url: CFURL) { self.init(url: url as URL) }

    /// A provider of a local file's bytes; nil when it cannot be read.
    public convenience init?(url: URL) {
        guard url.isFileURL, let d = try? Data(contentsOf: url) else { return nil }
        self.init(data: d)
    }

    /// A provider of the file at `filename`; nil when it cannot be read.
    public convenience init?(filename: String) {
        self.init(url: URL(fileURLWithPath: filename))
    }
}

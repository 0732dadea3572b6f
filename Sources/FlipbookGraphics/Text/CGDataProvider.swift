import Foundation

/// Bytes for Core Graphics objects to read (Apple's `CGDataProvider`), here for fonts:
/// `CGFont(_:)` takes one.
///
/// Apple's initializers take `CFData` and `CFURL`; on Linux they take Foundation's `Data` and
/// `URL` (the same values a ported `as CFData` / `as CFURL` produced). A URL that is not a
/// readable local file gives nil, as on Apple.
public final class CGDataProvider: @unchecked Sendable {
    /// The provider's bytes (read once, immutable).
    public let data: Data

    /// A provider of `data`.
    public init(data: Data) { self.data = data }

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

/// Why JPEG bytes could not be decoded.
///
/// ``kind`` is for code (tests, exit codes), ``message`` for people, one line:
/// `truncated JPEG: Premature end of JPEG file` (libjpeg's own words after the colon when the
/// library found the fault).
public struct JPEGError: Error, CustomStringConvertible, Sendable, Hashable {
    /// The class of failure.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The data does not start with a JPEG's SOI marker and a marker after it (`FF D8 FF`).
        case notJPEG
        /// The data ends before the image does (in the header or in the compressed scans).
        case truncated
        /// The header or the compressed data is malformed, or libjpeg warned about it (a
        /// damaged scan, extraneous bytes): a JPEG libjpeg would have to patch up is refused.
        case corrupt
        /// The header claims a side above `PixelBuffer.maximumDimension` (refused before allocating).
        case tooLarge
        /// A valid JPEG Flipbook does not decode: CMYK/YCCK colour, 12- or 16-bit samples,
        /// lossless or hierarchical coding.
        case unsupported
        /// Memory ran out inside libjpeg.
        case outOfMemory
    }

    public var kind: Kind
    public var message: String

    public init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}

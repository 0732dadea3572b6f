import FlipbookJPEG
import FlipbookPNG

/// Why an image file or image bytes could not be decoded by ``ImageDecoder`` (PNG or JPEG).
///
/// The decoders' own errors (`PNGError`, `JPEGError`) are folded into one ``kind``; the
/// ``message`` is theirs, unchanged. ``description`` is one line, prefixed with the file path
/// when there is one: `img/logo.jpg: truncated JPEG: Premature end of JPEG file`.
public struct ImageError: Error, CustomStringConvertible, Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The bytes start like neither a PNG nor a JPEG (or like one, but its signature is damaged).
        case unknownFormat
        /// The data ends before the image does.
        case truncated
        /// The decoder rejected the data (bad CRC, malformed segment, damaged compressed data).
        case corrupt
        /// A side above `PixelBuffer.maximumDimension`, or a file above 1 GiB (refused before allocating).
        case tooLarge
        /// A valid file of a kind Flipbook does not decode (CMYK or 12-bit JPEG, …).
        case unsupported
        /// Memory ran out inside a decoder.
        case outOfMemory
        /// The file to read does not exist.
        case fileNotFound
        /// The file exists but could not be read (permissions, a directory, a FIFO, an I/O error).
        case readFailed
    }

    public var kind: Kind
    public var message: String
    /// The format the bytes were sniffed as, nil when unknown or not read.
    public var format: ImageFormat?
    /// The file involved, when there was one.
    public var path: String?

    public init(kind: Kind, message: String, format: ImageFormat? = nil, path: String? = nil) {
        self.kind = kind
        self.message = message
        self.format = format
        self.path = path
    }

    /// A PNG decoder's or file reader's error.
    public init(_ error: PNGError, format: ImageFormat? = .png) {
        let kind: Kind
        switch error.kind {
        case .notPNG: kind = .unknownFormat
        case .truncated: kind = .truncated
        case .corrupt, .invalidArgument: kind = .corrupt
        case .tooLarge: kind = .tooLarge
        case .outOfMemory: kind = .outOfMemory
        case .fileNotFound: kind = .fileNotFound
        case .readFailed, .writeFailed: kind = .readFailed
        }
        self.init(kind: kind, message: error.message, format: format, path: error.path)
    }

    /// A JPEG decoder's error.
    public init(_ error: JPEGError) {
        let kind: Kind
        switch error.kind {
        case .notJPEG: kind = .unknownFormat
        case .truncated: kind = .truncated
        case .corrupt: kind = .corrupt
        case .tooLarge: kind = .tooLarge
        case .unsupported: kind = .unsupported
        case .outOfMemory: kind = .outOfMemory
        }
        self.init(kind: kind, message: error.message, format: .jpeg)
    }

    /// One line: `path: message`, or just the message.
    public var description: String {
        if let path { return "\(path): \(message)" }
        return message
    }

    /// The same error, naming `path`.
    package func at(_ path: String) -> ImageError {
        var e = self
        e.path = path
        return e
    }
}

/// Why a PNG could not be read, decoded, encoded or written.
///
/// ``kind`` is for code (tests, exit codes), ``message`` for people; ``description`` is one
/// line, prefixed with the file path when there is one:
/// `frames/0001.png: truncated PNG: the data ends before the image does`.
public struct PNGError: Error, CustomStringConvertible, Sendable, Hashable {
    /// The class of failure.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The data does not start with the PNG signature.
        case notPNG
        /// The data ends before the image does.
        case truncated
        /// libpng rejected the data: bad CRC, malformed chunk, broken zlib stream ...
        case corrupt
        /// The header claims a side above ``PixelBuffer/maximumDimension`` (refused before allocating).
        case tooLarge
        /// The request cannot be encoded: empty size, inconsistent buffer, bad text keyword, knob out of range.
        case invalidArgument
        /// Memory ran out inside the codec.
        case outOfMemory
        /// The file to read does not exist.
        case fileNotFound
        /// The file exists but could not be read (permissions, a directory, an I/O error).
        case readFailed
        /// The output could not be written (missing or read-only folder, full disk, rename failed).
        case writeFailed
    }

    public var kind: Kind
    public var message: String
    /// The file involved, when the operation had one.
    public var path: String?

    public init(kind: Kind, message: String, path: String? = nil) {
        self.kind = kind
        self.message = message
        self.path = path
    }

    /// One line: `path: message`, or just the message.
    public var description: String {
        if let path { return "\(path): \(message)" }
        return message
    }

    /// The same error, naming `path`.
    func at(_ path: String) -> PNGError {
        var e = self
        e.path = path
        return e
    }
}

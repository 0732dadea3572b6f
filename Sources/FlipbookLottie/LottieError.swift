import Foundation

/// Why a Lottie file (Bodymovin JSON or dotLottie) was refused. Every problem found while
/// loading is one of these; none is found after rendering has started (the whole document is
/// parsed and checked first).
///
/// ``description`` is one line, in the form editors and compilers use (the same form as
/// FlipbookScene's `SceneError`):
///
///     anim.json:120: layers[3].shapes[0].it[2].c.k: expected a number or an array of numbers, got a string
///     anim.json: line 7, column 3: expected ',' or '}', found ']'
///     anim.lottie: animations/main.json: the entry is 300 MiB uncompressed; the limit is 256 MiB
///
/// Problems that do not stop the animation from loading (an expression that is not evaluated,
/// an image that cannot be found) are ``LottieWarning``s instead.
public struct LottieError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        /// The file, or an entry of a dotLottie archive, could not be read.
        case unreadable
        /// The text is not valid JSON.
        case syntax
        /// Valid JSON that is not a valid Lottie document: a wrong type, a missing required
        /// key, a bad value, a reference to a missing asset, a precomposition cycle, a broken
        /// dotLottie manifest.
        case invalid
        /// Neither Bodymovin JSON nor a dotLottie (zip) archive, or a zip feature that cannot
        /// be read (an unknown compression method).
        case unsupported
        /// One of the documented bounds on hostile input was exceeded (composition size, frame
        /// rate, keyframes per property, expanded layer count, dotLottie entry sizes).
        case tooLarge
    }

    public var kind: Kind
    /// The file as the caller named it (display name); for a dotLottie entry, the archive.
    public var file: String
    /// 1-based line of the offending value (or key), when known.
    public var line: Int?
    /// Column, for syntax errors.
    public var column: Int?
    /// The JSON path of the offending value (`layers[3].shapes[0].it[2].c.k`), or the name of
    /// the dotLottie entry; empty for the document as a whole.
    public var path: String
    /// What was wrong and what was expected.
    public var message: String

    public init(kind: Kind, file: String, line: Int?, column: Int? = nil, path: String, message: String) {
        self.kind = kind; self.file = file; self.line = line; self.column = column
        self.path = path; self.message = message
    }

    public var description: String {
        if kind == .syntax, let line, let column { return "\(file): line \(line), column \(column): \(message)" }
        var s = file
        if let line { s += ":\(line)" }
        s += ": "
        if !path.isEmpty { s += path + ": " }
        return s + message
    }
}

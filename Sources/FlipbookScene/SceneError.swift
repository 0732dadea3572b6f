/// Why a scene file was refused. Every scene problem is one of these; none is found after
/// rendering has started (``SceneParser`` validates the whole file first).
///
/// ``description`` is one line, in the form editors and compilers use:
///
///     scene.json:12: layers[3].transform: expected 16 numbers, got 15
///     scene.json: line 7, column 3: expected ',' or '}', found ']'
///     scene.json: cannot read the file: no such file
public struct SceneError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        /// The file could not be read.
        case unreadable
        /// The text is not valid JSON.
        case syntax
        /// Valid JSON that is not a valid scene (wrong type, unknown key, bad value, bad reference …).
        case invalid
        /// An image the scene uses is missing or unreadable.
        case missingImage
        /// A font the scene names is not bundled or installed, or its file is missing or not a font.
        case missingFont
    }

    public var kind: Kind
    /// The scene file as the caller named it (display name).
    public var file: String
    /// 1-based line of the offending value (or key), when known.
    public var line: Int?
    /// Column, for syntax errors.
    public var column: Int?
    /// The JSON path of the offending value (`layers[3].transform`); empty for the document.
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

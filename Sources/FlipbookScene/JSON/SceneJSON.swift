/// A JSON value that remembers where it was written: the parse tree of a scene file.
///
/// Foundation's `JSONSerialization` forgets source positions, so scene errors could not say
/// `scene.json:12:`. ``SceneJSONParser`` builds this tree instead; every node carries the
/// 1-based ``line`` and ``column`` of its first character, and object members keep their
/// written order (so `"set": {"a": 1, "b": 2}` applies `a` before `b`) and the position of
/// their key.
public struct SceneJSON: Sendable, Hashable {
    /// The value proper.
    public indirect enum Value: Sendable, Hashable {
        case null
        case bool(Bool)
        /// Every JSON number, parsed as `Double` (`1e999` becomes `+inf`; callers that need a
        /// finite number check it and report it).
        case number(Double)
        case string(String)
        case array([SceneJSON])
        /// Members in source order; keys are unique (the parser rejects duplicates).
        case object([Member])
    }

    /// One `"key": value` pair of an object.
    public struct Member: Sendable, Hashable {
        public var key: String
        /// Where the key's opening quote is.
        public var keyLine: Int, keyColumn: Int
        public var value: SceneJSON
    }

    public var value: Value
    /// 1-based line of the value's first character.
    public var line: Int
    /// 1-based column (in Unicode scalars) of the value's first character.
    public var column: Int

    public init(_ value: Value, line: Int, column: Int) {
        self.value = value; self.line = line; self.column = column
    }

    /// A short name of the value's type for messages: `a number`, `an object` …
    public var typeDescription: String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// The member named `key`, if this is an object that has it.
    public subscript(key: String) -> SceneJSON? {
        guard case let .object(members) = value else { return nil }
        return members.first { $0.key == key }?.value
    }
}

/// A syntax error in JSON text: `line 7, column 3: expected ',' or '}'`.
public struct SceneJSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var message: String

    public var description: String { "line \(line), column \(column): \(message)" }
}

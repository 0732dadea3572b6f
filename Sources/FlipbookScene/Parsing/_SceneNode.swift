/// A JSON value with its JSON path: the cursor the scene parser reads through. Every accessor
/// checks the type and throws a ``SceneError`` naming the path and line.
struct _SceneNode {
    let json: SceneJSON
    let path: String
    let file: String

    func fail(_ message: String, line: Int? = nil) -> SceneError {
        SceneError(kind: .invalid, file: file, line: line ?? json.line, path: path, message: message)
    }

    func child(_ key: String, _ value: SceneJSON) -> _SceneNode {
        _SceneNode(json: value, path: path.isEmpty ? key : "\(path).\(key)", file: file)
    }

    func element(_ index: Int, _ value: SceneJSON) -> _SceneNode {
        _SceneNode(json: value, path: "\(path)[\(index)]", file: file)
    }

    var isNull: Bool { if case .null = json.value { return true } else { return false } }

    func expected(_ what: String) -> SceneError { fail("expected \(what), got \(json.typeDescription)") }

    // MARK: Scalars

    /// A finite number.
    func number() throws(SceneError) -> Double {
        guard case let .number(v) = json.value else { throw expected("a number") }
        guard v.isFinite else { throw fail("expected a finite number, got \(v)") }
        return v
    }

    /// A finite number within `range`; `what` describes the range for the message.
    func number(in range: ClosedRange<Double>, _ what: String) throws(SceneError) -> Double {
        let v = try number()
        guard range.contains(v) else { throw fail("expected \(what), got \(_SceneNode.format(v))") }
        return v
    }

    /// A finite number, or the string `"infinity"` (for `repeatCount`).
    func numberOrInfinity() throws(SceneError) -> Double {
        if case .string("infinity") = json.value { return .infinity }
        guard case .number = json.value else { throw expected("a number or \"infinity\"") }
        return try number()
    }

    /// A whole number.
    func integer() throws(SceneError) -> Int {
        guard case let .number(v) = json.value else { throw expected("an integer") }
        guard v.isFinite, v.rounded() == v, abs(v) < 1e15 else { throw fail("expected an integer, got \(_SceneNode.format(v))") }
        return Int(v)
    }

    func bool() throws(SceneError) -> Bool {
        guard case let .bool(b) = json.value else { throw expected("true or false") }
        return b
    }

    func string() throws(SceneError) -> String {
        guard case let .string(s) = json.value else { throw expected("a string") }
        return s
    }

    /// A string that must be one of `choices` (`what` names the kind of value).
    func choice(_ choices: [String], _ what: String) throws(SceneError) -> String {
        let s = try string()
        guard choices.contains(s) else {
            var m = "unknown \(what) \"\(s)\"; expected one of \(choices.joined(separator: ", "))"
            if let near = _SceneNode.suggestion(for: s, in: choices) { m = "unknown \(what) \"\(s)\" (did you mean \"\(near)\"?)" }
            throw fail(m)
        }
        return s
    }

    // MARK: Containers

    func array() throws(SceneError) -> [_SceneNode] {
        guard case let .array(items) = json.value else { throw expected("an array") }
        return items.enumerated().map { element($0.offset, $0.element) }
    }

    /// Exactly `count` finite numbers (`what` names them for the message).
    func numbers(count: Int, _ what: String) throws(SceneError) -> [Double] {
        guard case let .array(items) = json.value else { throw expected("\(what)") }
        guard items.count == count else { throw fail("expected \(what), got \(items.count) \(items.count == 1 ? "element" : "elements")") }
        var out: [Double] = []
        for (i, item) in items.enumerated() { out.append(try element(i, item).number()) }
        return out
    }

    /// The members of an object, refusing keys outside `allowed`.
    func object(allowed: [String]) throws(SceneError) -> _SceneObject {
        guard case let .object(members) = json.value else { throw expected("an object") }
        for m in members where !allowed.contains(m.key) {
            var msg = "unknown key \"\(m.key)\""
            if let near = _SceneNode.suggestion(for: m.key, in: allowed) { msg += " (did you mean \"\(near)\"?)" }
            throw fail(msg, line: m.keyLine)
        }
        return _SceneObject(node: self, members: members)
    }

    /// The members of an object with any keys (dictionaries such as `actions`).
    func dictionary() throws(SceneError) -> [(key: String, keyLine: Int, value: _SceneNode)] {
        guard case let .object(members) = json.value else { throw expected("an object") }
        return members.map { (key: $0.key, keyLine: $0.keyLine, value: child($0.key, $0.value)) }
    }

    // MARK: Helpers

    /// A number written without a trailing `.0` when whole.
    static func format(_ v: Double) -> String {
        v.isFinite && v.rounded() == v && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }

    /// The closest of `candidates` to `word` (case-insensitive equality, or edit distance ≤ 2
    /// at most half the word), or `nil`.
    static func suggestion(for word: String, in candidates: [String]) -> String? {
        if let c = candidates.first(where: { $0.lowercased() == word.lowercased() }) { return c }
        var best: (String, Int)?
        for c in candidates {
            let d = editDistance(Array(word.lowercased()), Array(c.lowercased()))
            if d <= min(2, max(1, word.count / 2)), best == nil || d < best!.1 { best = (c, d) }
        }
        return best?.0
    }

    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        var prev = Array(0...b.count)
        for i in 1...a.count {
            var cur = [i] + Array(repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            prev = cur
        }
        return prev[b.count]
    }
}

/// An object's members, looked up by key.
struct _SceneObject {
    let node: _SceneNode
    let members: [SceneJSON.Member]

    /// The member `key`, if present.
    subscript(key: String) -> _SceneNode? {
        members.first { $0.key == key }.map { node.child(key, $0.value) }
    }

    /// The member `key`, or an error saying it is missing.
    func required(_ key: String, _ what: String) throws(SceneError) -> _SceneNode {
        guard let n = self[key] else { throw node.fail("missing required key \"\(key)\" (\(what))") }
        return n
    }

    func has(_ key: String) -> Bool { members.contains { $0.key == key } }
}

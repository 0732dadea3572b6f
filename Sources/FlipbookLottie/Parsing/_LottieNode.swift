import Foundation
import FlipbookScene

/// A JSON value with its JSON path: the cursor the Lottie parser reads through (the
/// counterpart of FlipbookScene's `_SceneNode`). Every accessor checks the type and throws a
/// ``LottieError`` naming the path and line, e.g.
/// `anim.json:120: layers[3].shapes[0].it[2].c.k: expected a number or an array of numbers, got a string`.
///
/// Unlike scene files, Lottie documents carry many keys Flipbook does not read (`ix`, `mn`,
/// `cix`, `bounds` …): unknown keys are ignored, never refused.
struct _LottieNode {
    let json: SceneJSON
    let path: String
    let file: String

    func fail(_ message: String, kind: LottieError.Kind = .invalid, line: Int? = nil) -> LottieError {
        LottieError(kind: kind, file: file, line: line ?? json.line, path: path, message: message)
    }

    func child(_ key: String, _ value: SceneJSON) -> _LottieNode {
        _LottieNode(json: value, path: path.isEmpty ? key : "\(path).\(key)", file: file)
    }

    func element(_ index: Int, _ value: SceneJSON) -> _LottieNode {
        _LottieNode(json: value, path: "\(path)[\(index)]", file: file)
    }

    var isNull: Bool { if case .null = json.value { return true } else { return false } }
    var isObject: Bool { if case .object = json.value { return true } else { return false } }
    var isArray: Bool { if case .array = json.value { return true } else { return false } }
    var isNumber: Bool { if case .number = json.value { return true } else { return false } }

    func expected(_ what: String) -> LottieError { fail("expected \(what), got \(json.typeDescription)") }

    // MARK: Scalars

    /// A finite number (`1e999`, which the JSON parser reads as infinity, is refused).
    func number() throws(LottieError) -> Double {
        guard case let .number(v) = json.value else { throw expected("a number") }
        return try finite(v)
    }

    private func finite(_ v: Double) throws(LottieError) -> Double {
        guard v.isFinite else { throw fail("expected a finite number, got \(v)") }
        return v
    }

    /// A whole number.
    func integer() throws(LottieError) -> Int {
        guard case let .number(v) = json.value else { throw expected("an integer") }
        guard v.isFinite, v.rounded() == v, abs(v) < 1e15 else { throw fail("expected an integer, got \(_LottieNode.format(v))") }
        return Int(v)
    }

    /// A flag: `true`/`false`, or a number (Bodymovin writes `0`/`1`; non-zero is true).
    func flag() throws(LottieError) -> Bool {
        switch json.value {
        case let .bool(b): return b
        case let .number(v): return try finite(v) != 0
        default: throw expected("true, false, 0 or 1")
        }
    }

    func string() throws(LottieError) -> String {
        guard case let .string(s) = json.value else { throw expected("a string") }
        return s
    }

    /// An identifier (`id`, `refId`): a string, or a whole number written without quotes
    /// (some exporters do), kept as its decimal text.
    func identifier() throws(LottieError) -> String {
        if case let .string(s) = json.value { return s }
        if case .number = json.value { return String(try integer()) }
        throw expected("a string")
    }

    // MARK: Containers

    func array() throws(LottieError) -> [_LottieNode] {
        guard case let .array(items) = json.value else { throw expected("an array") }
        return items.enumerated().map { element($0.offset, $0.element) }
    }

    /// A number or an array of numbers, as a flat list (`5` → `[5]`).
    func numbers() throws(LottieError) -> [Double] {
        switch json.value {
        case let .number(v): return [try finite(v)]
        case let .array(items):
            var out: [Double] = []
            out.reserveCapacity(items.count)
            for (i, item) in items.enumerated() {
                guard case let .number(v) = item.value else {
                    throw element(i, item).fail("expected a number, got \(item.typeDescription)")
                }
                out.append(try element(i, item).finite(v))
            }
            return out
        default:
            throw expected("a number or an array of numbers")
        }
    }

    /// The members of an object (any keys).
    func object() throws(LottieError) -> _LottieObject {
        guard case let .object(members) = json.value else { throw expected("an object") }
        return _LottieObject(node: self, members: members)
    }

    // MARK: Helpers

    /// A number written without a trailing `.0` when whole.
    static func format(_ v: Double) -> String {
        v.isFinite && v.rounded() == v && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }
}

/// An object's members, looked up by key.
struct _LottieObject {
    let node: _LottieNode
    let members: [SceneJSON.Member]

    /// The member `key`, if present and not `null` (Bodymovin writes `null` for absent values
    /// in a few places; they read as absent).
    subscript(key: String) -> _LottieNode? {
        guard let m = members.first(where: { $0.key == key }) else { return nil }
        if case .null = m.value.value { return nil }
        return node.child(key, m.value)
    }

    /// The member `key`, or an error saying it is missing.
    func required(_ key: String, _ what: String) throws(LottieError) -> _LottieNode {
        guard let n = self[key] else { throw node.fail("missing required key \"\(key)\" (\(what))") }
        return n
    }

    func has(_ key: String) -> Bool { self[key] != nil }
}

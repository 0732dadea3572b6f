/// A strict JSON parser (RFC 8259) that keeps source positions, for scene files.
///
/// - Input is UTF-8 bytes; a leading byte-order mark is skipped.
/// - Strict: no comments, no trailing commas, no `NaN`/`Infinity`, no single quotes, no
///   control characters inside strings; duplicate keys in one object are errors.
/// - Positions: `line` counts `\n` (1-based); `column` counts Unicode scalars (1-based; UTF-8
///   continuation bytes do not advance it), so the column matches what an editor shows.
/// - Nesting deeper than ``maximumDepth`` is refused (no stack overflow on hostile input).
///
/// Every failure is a ``SceneJSONSyntaxError`` such as `line 7, column 3: expected ',' or '}'`.
public struct SceneJSONParser {
    /// The deepest nesting of arrays and objects accepted.
    public static let maximumDepth = 256

    private let bytes: [UInt8]
    private var i = 0
    private var line = 1
    private var column = 1
    private var depth = 0

    /// Parses a whole document: exactly one value, surrounded by optional whitespace.
    public static func parse(_ bytes: [UInt8]) throws(SceneJSONSyntaxError) -> SceneJSON {
        var p = SceneJSONParser(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { p.i = 3 }
        p.skipWhitespace()
        guard p.i < bytes.count else { throw p.error("the document is empty; expected a JSON value") }
        let v = try p.parseValue()
        p.skipWhitespace()
        guard p.i == bytes.count else { throw p.error("unexpected \(p.describeCurrent()) after the end of the document") }
        return v
    }

    /// Parses JSON text.
    public static func parse(_ text: String) throws(SceneJSONSyntaxError) -> SceneJSON {
        try parse(Array(text.utf8))
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    // MARK: Cursor

    private var current: UInt8? { i < bytes.count ? bytes[i] : nil }

    private mutating func advance() {
        let b = bytes[i]
        i += 1
        if b == 0x0A { line += 1; column = 1 } else if b & 0xC0 != 0x80 { column += 1 }
    }

    private mutating func skipWhitespace() {
        while let b = current, b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { advance() }
    }

    private func error(_ message: String) -> SceneJSONSyntaxError {
        SceneJSONSyntaxError(line: line, column: column, message: message)
    }

    private func describeCurrent() -> String {
        guard let b = current else { return "end of file" }
        if b >= 0x21 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
        if b == 0x20 { return "space" }
        return String(format: "byte 0x%02X", b)
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws(SceneJSONSyntaxError) {
        guard current == byte else { throw error("expected \(what), found \(describeCurrent())") }
        advance()
    }

    // MARK: Values

    private mutating func parseValue() throws(SceneJSONSyntaxError) -> SceneJSON {
        let (l, c) = (line, column)
        guard let b = current else { throw error("unexpected end of file; expected a value") }
        switch b {
        case UInt8(ascii: "{"): return SceneJSON(try parseObject(), line: l, column: c)
        case UInt8(ascii: "["): return SceneJSON(try parseArray(), line: l, column: c)
        case UInt8(ascii: "\""): return SceneJSON(.string(try parseString()), line: l, column: c)
        case UInt8(ascii: "t"): try literal("true"); return SceneJSON(.bool(true), line: l, column: c)
        case UInt8(ascii: "f"): try literal("false"); return SceneJSON(.bool(false), line: l, column: c)
        case UInt8(ascii: "n"): try literal("null"); return SceneJSON(.null, line: l, column: c)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return SceneJSON(.number(try parseNumber()), line: l, column: c)
        default:
            throw error("expected a value, found \(describeCurrent())")
        }
    }

    private mutating func literal(_ word: String) throws(SceneJSONSyntaxError) {
        let (l, c) = (line, column)
        for w in word.utf8 {
            guard current == w else {
                throw SceneJSONSyntaxError(line: l, column: c, message: "invalid literal; expected '\(word)'")
            }
            advance()
        }
    }

    private mutating func enter() throws(SceneJSONSyntaxError) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth) levels") }
    }

    private mutating func parseObject() throws(SceneJSONSyntaxError) -> SceneJSON.Value {
        try enter(); defer { depth -= 1 }
        advance()  // {
        var members: [SceneJSON.Member] = []
        var seen: [String: Int] = [:]
        skipWhitespace()
        if current == UInt8(ascii: "}") { advance(); return .object([]) }
        while true {
            skipWhitespace()
            let (kl, kc) = (line, column)
            guard current == UInt8(ascii: "\"") else { throw error("expected a key in double quotes, found \(describeCurrent())") }
            let key = try parseString()
            if let first = seen[key] {
                throw SceneJSONSyntaxError(line: kl, column: kc, message: "duplicate key \"\(key)\" (first on line \(first))")
            }
            seen[key] = kl
            skipWhitespace()
            try expect(UInt8(ascii: ":"), "':' after the key")
            skipWhitespace()
            let value = try parseValue()
            members.append(SceneJSON.Member(key: key, keyLine: kl, keyColumn: kc, value: value))
            skipWhitespace()
            if current == UInt8(ascii: ",") { advance(); continue }
            if current == UInt8(ascii: "}") { advance(); return .object(members) }
            throw error("expected ',' or '}', found \(describeCurrent())")
        }
    }

    private mutating func parseArray() throws(SceneJSONSyntaxError) -> SceneJSON.Value {
        try enter(); defer { depth -= 1 }
        advance()  // [
        var items: [SceneJSON] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") { advance(); return .array([]) }
        while true {
            skipWhitespace()
            items.append(try parseValue())
            skipWhitespace()
            if current == UInt8(ascii: ",") { advance(); continue }
            if current == UInt8(ascii: "]") { advance(); return .array(items) }
            throw error("expected ',' or ']', found \(describeCurrent())")
        }
    }

    private mutating func parseNumber() throws(SceneJSONSyntaxError) -> Double {
        let start = i
        let (l, c) = (line, column)
        func digits(_ p: inout SceneJSONParser) -> Int {
            var n = 0
            while let b = p.current, b >= 0x30 && b <= 0x39 { p.advance(); n += 1 }
            return n
        }
        if current == UInt8(ascii: "-") { advance() }
        if current == UInt8(ascii: "0") {
            advance()
            if let b = current, b >= 0x30 && b <= 0x39 { throw error("numbers may not have leading zeros") }
        } else if digits(&self) == 0 {
            throw error("expected a digit, found \(describeCurrent())")
        }
        if current == UInt8(ascii: ".") {
            advance()
            guard digits(&self) > 0 else { throw error("expected a digit after '.', found \(describeCurrent())") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            advance()
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { advance() }
            guard digits(&self) > 0 else { throw error("expected a digit in the exponent, found \(describeCurrent())") }
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        guard let v = Double(text) else {
            throw SceneJSONSyntaxError(line: l, column: c, message: "invalid number \(text)")
        }
        return v
    }

    private mutating func parseString() throws(SceneJSONSyntaxError) -> String {
        advance()  // opening quote
        var out: [UInt8] = []
        while true {
            guard let b = current else { throw error("unterminated string") }
            switch b {
            case UInt8(ascii: "\""):
                advance()
                guard let s = String(validating: out, as: UTF8.self) else { throw error("string is not valid UTF-8") }
                return s
            case UInt8(ascii: "\\"):
                advance()
                guard let e = current else { throw error("unterminated string") }
                let simple: [UInt8: UInt8] = [0x22: 0x22, 0x5C: 0x5C, 0x2F: 0x2F, 0x62: 0x08, 0x66: 0x0C, 0x6E: 0x0A, 0x72: 0x0D, 0x74: 0x09]
                if let s = simple[e] { advance(); out.append(s); continue }
                guard e == UInt8(ascii: "u") else { throw error("invalid escape '\\\(Character(Unicode.Scalar(e)))'") }
                advance()
                var scalar = try hex4()
                if (0xD800...0xDBFF).contains(scalar) {
                    guard current == UInt8(ascii: "\\") else { throw error("unpaired UTF-16 surrogate in \\u escape") }
                    advance()
                    guard current == UInt8(ascii: "u") else { throw error("unpaired UTF-16 surrogate in \\u escape") }
                    advance()
                    let low = try hex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired UTF-16 surrogate in \\u escape") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw error("unpaired UTF-16 surrogate in \\u escape")
                }
                out.append(contentsOf: Array(String(Character(Unicode.Scalar(scalar)!)).utf8))
            case 0..<0x20:
                throw error("control character in string (escape it, e.g. \\n)")
            default:
                advance()
                out.append(b)
            }
        }
    }

    private mutating func hex4() throws(SceneJSONSyntaxError) -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<4 {
            guard let b = current, let d = Self.hexDigit(b) else { throw error("expected 4 hex digits after \\u") }
            v = v << 4 | d
            advance()
        }
        return v
    }

    private static func hexDigit(_ b: UInt8) -> UInt32? {
        switch b {
        case 0x30...0x39: return UInt32(b - 0x30)
        case 0x41...0x46: return UInt32(b - 0x41 + 10)
        case 0x61...0x66: return UInt32(b - 0x61 + 10)
        default: return nil
        }
    }
}

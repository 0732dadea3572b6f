import Foundation
import Testing
@testable import FlipbookScene

/// `docs/scene.schema.json`, the JSON Schema editors use for scene files: every sample is valid
/// against it, typical mistakes are not, and it names every key the parser accepts.
///
/// The validator below implements the subset of JSON Schema (draft-07) the schema uses — and
/// refuses any other keyword, so the schema cannot quietly grow past what is tested.
@Suite struct SceneSchemaTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    static func load(_ path: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    static let schema: JSONValue = try! load(repo + "/docs/scene.schema.json")

    static var samples: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: repo + "/samples/scenes")) ?? [])
            .filter { $0.hasSuffix(".json") }.sorted()
    }

    @Test func everySampleIsValid() throws {
        #expect(Self.samples.count >= 20)
        for name in Self.samples {
            let scene = try Self.load(Self.repo + "/samples/scenes/" + name)
            let errors = try SchemaValidator(root: Self.schema).validate(scene)
            #expect(errors.isEmpty, "\(name): \(errors.prefix(5))")
        }
    }

    @Test func mistakesAreReported() throws {
        let cases: [(String, String)] = [
            (#"{"layers": []}"#, "missing \"output\""),
            (#"{"output": {"size": "10x10", "duration": 1}, "layers": [{"opactiy": 1}]}"#, "layers[0]: unknown key \"opactiy\""),
            (#"{"output": {"size": "10x10", "duration": 1}, "layers": [{"bounds": [0, 0, 10]}]}"#, "layers[0].bounds: expected at least 4 items"),
            (##"{"output": {"size": "10x10", "duration": 1}, "layers": [{"backgroundColor": "#12345"}]}"##, "layers[0].backgroundColor: matches none of"),
            (#"{"output": {"size": "10x10", "fps": 0, "duration": 1}}"#, "output.fps: expected > 0"),
            (#"{"output": {"size": "10x10", "duration": 1, "format": "mkv"}}"#, "output.format: expected one of"),
            (#"{"output": {"size": "10x10", "duration": 1}, "layers": [{"animations": [{"keyPath": "opacity"}]}]}"#, "layers[0].animations[0]: missing \"class\""),
            (#"{"output": {"size": "10x10", "duration": 1}, "timeline": [{"at": 1, "do": [{"layer": "a", "sett": {}}]}]}"#, "timeline[0].do[0]: matches none of"),
            (#"{"output": {"size": "10x10", "duration": 1}, "layers": [{"isHidden": 1}]}"#, "layers[0].isHidden: expected boolean"),
        ]
        for (text, message) in cases {
            let scene = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
            let errors = try SchemaValidator(root: Self.schema).validate(scene)
            #expect(errors.contains { $0.contains(message) }, "\(text): \(errors)")
            // The parser agrees that each of these is an error.
            #expect(throws: SceneError.self) { try SceneParser.parse(text) }
        }
    }

    /// Every key the parser accepts is in the schema (a key added to the parser and not here
    /// fails this test, naming it).
    @Test func schemaNamesEveryParserKey() throws {
        func keys(_ definition: String) -> Set<String> {
            guard case .object(let defs)? = Self.schema["definitions"], case .object(let d)? = defs[definition],
                  case .object(let props)? = d["properties"] else { return [] }
            return Set(props.keys)
        }
        #expect(Set(SceneParser.layerKeys).subtracting(keys("layer")).isEmpty, "layer: \(Set(SceneParser.layerKeys).subtracting(keys("layer")))")
        let animationKeys = Set(SceneParser.timingKeys + SceneParser.propertyKeys + SceneParser.basicKeys + SceneParser.keyframeKeys
                                + SceneParser.springKeys + ["animations", "type", "subtype", "startProgress", "endProgress"])
        #expect(animationKeys.subtracting(keys("animation")).isEmpty, "animation: \(animationKeys.subtracting(keys("animation")))")
        #expect(Set(SceneParser.transactionKeys).subtracting(keys("transaction")).isEmpty)
        #expect(Set(SceneParser.transactionKeys + ["at"]).subtracting(keys("event")).isEmpty)
        let cellKeys = Set(EmitterCellDescription.numberKeys + ["name", "enabled", "isEnabled", "color", "contents", "contentsRect", "emitterCells"])
        #expect(cellKeys.subtracting(keys("emitterCell")).isEmpty, "emitterCell: \(cellKeys.subtracting(keys("emitterCell")))")
        #expect(keys("output") == ["size", "scale", "fps", "duration", "frames", "start", "background", "format"])
        #expect(Set(SceneParser.valueFunctions).subtracting(Self.valueFunctionEnum).isEmpty)
    }

    static var valueFunctionEnum: Set<String> {
        guard case .object(let defs)? = schema["definitions"], case .object(let a)? = defs["animation"],
              case .object(let props)? = a["properties"], case .object(let vf)? = props["valueFunction"],
              case .array(let names)? = vf["enum"] else { return [] }
        return Set(names.compactMap { if case .string(let s) = $0 { s } else { nil } })
    }
}

/// A JSON document with booleans and numbers kept apart (JSONDecoder is strict about both).
indirect enum JSONValue: Decodable, Equatable {
    case null, bool(Bool), number(Double), string(String), array([JSONValue]), object([String: JSONValue])

    init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let n = try? c.decode(Double.self) { self = .number(n) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([JSONValue].self) { self = .array(a) }
        else { self = .object(try c.decode([String: JSONValue].self)) }
    }

    subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number(let n): n.rounded() == n ? "integer" : "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

/// Draft-07 validation for the keywords `docs/scene.schema.json` uses: `type`, `enum`, `const`,
/// `properties`, `additionalProperties`, `required`, `minProperties`, `maxProperties`, `items`,
/// `minItems`, `maxItems`, `minimum`, `maximum`, `exclusiveMinimum`, `pattern`, `anyOf`, `$ref`
/// (to `#/definitions/…`); `description`, `title`, `$schema` and `definitions` are annotations.
/// Any other keyword throws: the schema may only use what is checked here.
struct SchemaValidator {
    let root: JSONValue
    static let annotations: Set<String> = ["description", "title", "$schema", "definitions"]
    static let keywords: Set<String> = ["type", "enum", "const", "properties", "additionalProperties", "required",
                                        "minProperties", "maxProperties", "items", "minItems", "maxItems", "minimum",
                                        "maximum", "exclusiveMinimum", "pattern", "anyOf", "$ref"]

    struct UnsupportedKeyword: Error, CustomStringConvertible { var description: String }

    /// Messages like `layers[0].bounds: expected at least 4 items`; empty when valid.
    func validate(_ value: JSONValue) throws -> [String] {
        var errors: [String] = []
        try check(value, root, path: "", into: &errors)
        return errors
    }

    private func resolve(_ ref: String) -> JSONValue? {
        guard ref.hasPrefix("#/definitions/") else { return nil }
        return root["definitions"]?[String(ref.dropFirst("#/definitions/".count))]
    }

    private func check(_ v: JSONValue, _ schema: JSONValue, path: String, into errors: inout [String]) throws {
        guard case .object(let s) = schema else { return }
        for key in s.keys where !Self.keywords.contains(key) && !Self.annotations.contains(key) {
            throw UnsupportedKeyword(description: "schema keyword \(key) at \(path.isEmpty ? "the top" : path) is not supported by this validator")
        }
        let at = path.isEmpty ? "(top)" : path
        func fail(_ m: String) { errors.append("\(at): \(m)") }
        if case .string(let ref)? = s["$ref"] {
            guard let target = resolve(ref) else { throw UnsupportedKeyword(description: "unresolvable $ref \(ref)") }
            try check(v, target, path: path, into: &errors)
        }
        if let t = s["type"] {
            let allowed: [String]
            switch t {
            case .string(let one): allowed = [one]
            case .array(let many): allowed = many.compactMap { if case .string(let x) = $0 { x } else { nil } }
            default: allowed = []
            }
            let actual = v.typeName
            if !(allowed.contains(actual) || (actual == "integer" && allowed.contains("number"))) {
                fail("expected \(allowed.joined(separator: " or ")), got \(actual)")
                return
            }
        }
        if case .array(let options)? = s["enum"], !options.contains(v) { fail("expected one of \(options)") }
        if let c = s["const"], c != v { fail("expected \(c)") }
        if case .number(let n) = v {
            if case .number(let m)? = s["minimum"], n < m { fail("expected >= \(m), got \(n)") }
            if case .number(let m)? = s["maximum"], n > m { fail("expected <= \(m), got \(n)") }
            if case .number(let m)? = s["exclusiveMinimum"], n <= m { fail("expected > \(m), got \(n)") }
        }
        if case .string(let text) = v, case .string(let pattern)? = s["pattern"] {
            let re = try NSRegularExpression(pattern: pattern)
            if re.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) == nil { fail("\"\(text)\" does not match \(pattern)") }
        }
        if case .array(let items) = v {
            if case .number(let m)? = s["minItems"], Double(items.count) < m { fail("expected at least \(Int(m)) items, got \(items.count)") }
            if case .number(let m)? = s["maxItems"], Double(items.count) > m { fail("expected at most \(Int(m)) items, got \(items.count)") }
            if let itemSchema = s["items"] {
                for (i, item) in items.enumerated() { try check(item, itemSchema, path: path + "[\(i)]", into: &errors) }
            }
        }
        if case .object(let o) = v {
            if case .array(let required)? = s["required"] {
                for case .string(let key) in required where o[key] == nil { fail("missing \"\(key)\"") }
            }
            if case .number(let m)? = s["minProperties"], Double(o.count) < m { fail("expected at least \(Int(m)) keys") }
            if case .number(let m)? = s["maxProperties"], Double(o.count) > m { fail("expected at most \(Int(m)) keys") }
            let props: [String: JSONValue]
            if case .object(let p)? = s["properties"] { props = p } else { props = [:] }
            for key in o.keys.sorted() {
                let child = path.isEmpty ? key : path + "." + key
                if let p = props[key] {
                    try check(o[key]!, p, path: child, into: &errors)
                } else if let extra = s["additionalProperties"] {
                    if extra == .bool(false) { fail("unknown key \"\(key)\"") }
                    else { try check(o[key]!, extra, path: child, into: &errors) }
                }
            }
        }
        if case .array(let options)? = s["anyOf"] {
            var matched = false
            for option in options {
                var sub: [String] = []
                try check(v, option, path: path, into: &sub)
                if sub.isEmpty { matched = true; break }
            }
            if !matched { fail("matches none of the \(options.count) allowed forms") }
        }
    }
}

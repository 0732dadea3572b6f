import FlipbookScene
import Foundation

/// Structure-aware mutation of JSON documents (the `lottie` and `scene` targets; both drivers): byte mutations of a
/// Lottie file are nearly always syntax errors the parser refuses on its first pass, so most
/// inputs are instead parsed, changed as a tree and written back — values replaced by extreme
/// numbers or by other values of the corpus (another layer, shape, keyframe list, id …), array
/// elements repeated or dropped, members removed — and, now and then, wrapped in a dotLottie
/// archive. The result is still valid JSON (or a valid zip), so it reaches the mapping and the
/// renderer.
public enum JSONMutator {
    /// A JSON tree whose numbers keep their text (so `1e999` can be written).
    public indirect enum Node {
        case null
        case bool(Bool)
        case number(String)
        case string(String)
        case array([Node])
        case object([(String, Node)])

        public init(_ j: SceneJSON) {
            switch j.value {
            case .null: self = .null
            case let .bool(b): self = .bool(b)
            case let .number(v): self = .number(v.isFinite && v.rounded() == v && abs(v) < 1e15 ? String(Int(v)) : "\(v)")
            case let .string(s): self = .string(s)
            case let .array(items): self = .array(items.map(Node.init))
            case let .object(members): self = .object(members.map { ($0.key, Node($0.value)) })
            }
        }

        /// Writes the tree as JSON; stops early once `out` holds more than `limit` bytes (a
        /// tree of repeated elements may stand for gigabytes of text).
        func write(into out: inout [UInt8], limit: Int = .max) {
            guard out.count <= limit else { return }
            switch self {
            case .null: out += Array("null".utf8)
            case let .bool(b): out += Array((b ? "true" : "false").utf8)
            case let .number(t): out += Array(t.utf8)
            case let .string(s): JSONMutator.writeString(s, into: &out)
            case let .array(items):
                out.append(UInt8(ascii: "["))
                for (i, item) in items.enumerated() {
                    if i > 0 { out.append(UInt8(ascii: ",")) }
                    item.write(into: &out, limit: limit)
                }
                out.append(UInt8(ascii: "]"))
            case let .object(members):
                out.append(UInt8(ascii: "{"))
                for (i, m) in members.enumerated() {
                    if i > 0 { out.append(UInt8(ascii: ",")) }
                    JSONMutator.writeString(m.0, into: &out)
                    out.append(UInt8(ascii: ":"))
                    m.1.write(into: &out, limit: limit)
                }
                out.append(UInt8(ascii: "}"))
            }
        }

        /// Every node in pre-order (this one first).
        public var preorder: [Node] {
            var out: [Node] = []
            func walk(_ n: Node) {
                out.append(n)
                switch n {
                case let .array(items): items.forEach(walk)
                case let .object(members): members.forEach { walk($0.1) }
                default: break
                }
            }
            walk(self)
            return out
        }

        /// This tree with the `i`-th node (pre-order) replaced by `transform` of it.
        func replacing(at i: Int, _ transform: (Node) -> Node) -> Node {
            var i = i
            return replace(&i, transform)
        }

        private func replace(_ i: inout Int, _ transform: (Node) -> Node) -> Node {
            if i == 0 { i = -1; return transform(self) }
            if i < 0 { return self }
            i -= 1
            switch self {
            case let .array(items): return .array(items.map { $0.replace(&i, transform) })
            case let .object(members): return .object(members.map { ($0.0, $0.1.replace(&i, transform)) })
            default: return self
            }
        }
    }

    static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for u in s.utf8 {
            switch u {
            case UInt8(ascii: "\""): out += Array("\\\"".utf8)
            case UInt8(ascii: "\\"): out += Array("\\\\".utf8)
            case 0..<0x20: out += Array(String(format: "\\u%04x", u).utf8)
            default: out.append(u)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Numbers that find edge cases in Lottie files: ±∞ (`1e999`), 10⁹ copies or points,
    /// 10¹² frames, zero and negative sizes, stretches and dashes, flags and small type codes.
    public static let numbers = ["0", "-0", "1", "2", "3", "4", "5", "6", "-1", "0.5", "-0.5", "1e999", "-1e999", "1e-300",
                          "1000000000", "-1000000000", "1e12", "1e19", "-1e19", "1e308", "100000", "16384", "16385",
                          "4294967296", "100", "360", "0.0001", "99.9999"]

    /// Parses `bytes`, applies 1–3 tree mutations (values from `donors`, the corpus documents'
    /// nodes in pre-order, may be spliced in) and writes the tree back; nil when `bytes` is not
    /// JSON or the result would pass `maxBytes`.
    public static func mutate<R: RandomNumberGenerator>(_ bytes: [UInt8], donors: [[Node]], rng: inout R,
                                                        maxBytes: Int = 1 << 20) -> [UInt8]? {
        guard let json = try? SceneJSONParser.parse(bytes) else { return nil }
        var tree = Node(json)
        for round in 0..<(1 + Int(rng.next() % 3)) {
            // Repeats compound (1000 copies of 1000 copies …): a tree past `maxBytes` of text is
            // given up before it is walked again (its pre-order would be as large).
            if round > 0 {
                var probe: [UInt8] = []
                tree.write(into: &probe, limit: maxBytes)
                guard probe.count <= maxBytes else { return nil }
            }
            let nodes = tree.preorder, n = nodes.count
            let at = Int(rng.next() % UInt64(n))
            func pick(from donors: [[Node]]) -> Node {
                let donor = donors.isEmpty ? nodes : donors[Int(rng.next() % UInt64(donors.count))]
                return donor[Int(rng.next() % UInt64(donor.count))]
            }
            func index(_ test: (Node) -> Bool) -> Int? {
                (0..<n).lazy.map { (at + $0) % n }.first { test(nodes[$0]) }
            }
            switch rng.next() % 8 {
            case 0, 1:   // a number replaced by an extreme one (or any value by a number)
                let t = numbers[Int(rng.next() % UInt64(numbers.count))]
                let target = index { if case .number = $0 { return true }; return false } ?? at
                tree = tree.replacing(at: target) { _ in .number(t) }
            case 2, 3:   // a value replaced by another value of the corpus
                let value = pick(from: donors)
                tree = tree.replacing(at: at) { _ in value }
            case 4:      // an array element repeated (more layers, keyframes, shapes, stops …)
                let times = [2, 3, 8, 64, 1000][Int(rng.next() % 5)]
                let pick = rng.next()
                tree = tree.replacing(at: index { if case .array = $0 { return true }; return false } ?? at) { node in
                    guard case var .array(items) = node, !items.isEmpty else { return node }
                    let i = Int(pick % UInt64(items.count))
                    items.insert(contentsOf: Array(repeating: items[i], count: times - 1), at: i)
                    return .array(items)
                }
            case 5:      // an array element or object member dropped
                let pick = rng.next()
                tree = tree.replacing(at: at) { node in
                    switch node {
                    case var .array(items) where !items.isEmpty:
                        items.remove(at: Int(pick % UInt64(items.count))); return .array(items)
                    case var .object(members) where !members.isEmpty:
                        members.remove(at: Int(pick % UInt64(members.count))); return .object(members)
                    default: return node
                    }
                }
            case 6:      // a string replaced by another string of the document (ids → cycles)
                let strings = nodes.compactMap { node -> String? in if case let .string(s) = node { return s } else { return nil } }
                if let s = strings.isEmpty ? nil : strings[Int(rng.next() % UInt64(strings.count))] {
                    let target = index { if case .string = $0 { return true }; return false } ?? at
                    tree = tree.replacing(at: target) { _ in .string(s) }
                }
            default:     // an object member copied into another object (a key it lacked)
                guard case let .object(from) = pick(from: donors), !from.isEmpty else { break }
                let member = from[Int(rng.next() % UInt64(from.count))]
                tree = tree.replacing(at: index { if case .object = $0 { return true }; return false } ?? at) { node in
                    guard case var .object(members) = node else { return node }
                    members.removeAll { $0.0 == member.0 }
                    members.append(member)
                    return .object(members)
                }
            }
        }
        var out: [UInt8] = []
        tree.write(into: &out, limit: maxBytes)
        return out.count <= maxBytes ? out : nil
    }

    // MARK: dotLottie

    /// A dotLottie archive (stored, uncompressed entries) holding `animation` as
    /// `animations/a.json` with a version-1 manifest.
    public static func dotLottie(_ animation: [UInt8]) -> [UInt8] {
        zip([("manifest.json", Array(#"{"version":"1","animations":[{"id":"a"}],"activeAnimationId":"a"}"#.utf8)),
             ("animations/a.json", animation)])
    }

    /// A minimal zip archive of stored entries.
    static func zip(_ entries: [(String, [UInt8])]) -> [UInt8] {
        var out: [UInt8] = [], central: [UInt8] = []
        func u16(_ v: Int, _ b: inout [UInt8]) { b += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: UInt32, _ b: inout [UInt8]) { b += (0..<4).map { UInt8(v >> (8 * $0) & 0xFF) } }
        for (name, data) in entries {
            let crc = crc32(data), offset = out.count, nameBytes = Array(name.utf8)
            u32(0x0403_4B50, &out); u16(20, &out); u16(0, &out); u16(0, &out); u16(0, &out); u16(0, &out)
            u32(crc, &out); u32(UInt32(data.count), &out); u32(UInt32(data.count), &out)
            u16(nameBytes.count, &out); u16(0, &out); out += nameBytes; out += data
            u32(0x0201_4B50, &central); u16(20, &central); u16(20, &central); u16(0, &central); u16(0, &central)
            u16(0, &central); u16(0, &central); u32(crc, &central); u32(UInt32(data.count), &central)
            u32(UInt32(data.count), &central); u16(nameBytes.count, &central); u16(0, &central); u16(0, &central)
            u16(0, &central); u16(0, &central); u32(0, &central); u32(UInt32(offset), &central); central += nameBytes
        }
        let start = out.count
        out += central
        u32(0x0605_4B50, &out); u16(0, &out); u16(0, &out); u16(entries.count, &out); u16(entries.count, &out)
        u32(UInt32(central.count), &out); u32(UInt32(start), &out); u16(0, &out)
        return out
    }

    static func crc32(_ data: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in data {
            c ^= UInt32(b)
            for _ in 0..<8 { c = c & 1 != 0 ? (c >> 1) ^ 0xEDB8_8320 : c >> 1 }
        }
        return ~c
    }
}

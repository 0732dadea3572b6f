import FlipbookPixels

extension ReviewReport {
    /// One compared image of a review page: what was compared, the verdict, the numbers, the
    /// images, and how to accept the actual image as the new reference.
    public struct Entry: Sendable {
        /// The verdict. Only ``same`` passes; the page lists every other status first.
        public enum Status: String, Sendable, Hashable, CaseIterable {
            /// Identical, or within tolerance.
            case same
            /// Beyond tolerance.
            case different
            /// The images have different sizes.
            case sizeMismatch = "size-mismatch"
            /// There is no reference (expected) image.
            case missingExpected = "missing-expected"
            /// There is no actual image (a reference without a frame to compare).
            case missingActual = "missing-actual"
            /// A reference was written (record mode): the test fails until it is reviewed.
            case recorded
            /// An image could not be read.
            case unreadable
            /// The comparison could not be made (rendering failed, unwritable folder …).
            case error

            /// True for ``same`` only.
            public var passed: Bool { self == .same }
        }

        /// An image of an entry: pixels to encode, or a PNG file to copy byte for byte (with its
        /// pixels when the caller has them, which spares a decode for the heat map).
        public struct Image: Sendable {
            public var pixels: PixelBuffer?
            public var file: String?

            /// Pixels, written to the report as a PNG.
            public static func pixels(_ image: PixelBuffer) -> Image { Image(pixels: image, file: nil) }
            /// A PNG file, copied into the report unchanged; `pixels` are its decoded pixels if known.
            public static func file(_ path: String, pixels: PixelBuffer? = nil) -> Image { Image(pixels: pixels, file: path) }
        }

        /// What the page shows as the image's name, e.g. `frame_00012.png` or
        /// `pressedState.highlight`.
        public var name: String
        /// Where it comes from, e.g. the test file (`ButtonTests`); `nil` for none. Shown above
        /// the name and part of the entry's identity.
        public var group: String?
        public var status: Status
        /// The numbers (pixels differing, max Δ, PSNR …), when the images were compared.
        public var comparison: ImageComparison?
        /// The reference.
        public var expected: Image?
        /// The image checked against it.
        public var actual: Image?
        /// A longer explanation (a failure message, why a file is unreadable).
        public var message: String?
        /// Shell commands that make the actual image the new reference, one per line (the page
        /// shows them under "Accept"); empty when there is nothing to accept.
        public var accept: [String]
        /// The tolerance as the page states it, when the verdict came from another rule than
        /// ``comparison``'s ``Tolerance`` (e.g. `precision 0.99, perceptual precision 0.98`);
        /// `nil` shows the comparison's own.
        public var toleranceDescription: String?

        public init(name: String, group: String? = nil, status: Status, comparison: ImageComparison? = nil,
                    expected: Image? = nil, actual: Image? = nil, message: String? = nil, accept: [String] = []) {
            self.name = name; self.group = group; self.status = status; self.comparison = comparison
            self.expected = expected; self.actual = actual; self.message = message; self.accept = accept
        }

        /// The entry's identity in the report folder: its files are `entries/<key>.json` and
        /// `images/<key>.{expected,actual,heat}.png`. Made of the group and name (only
        /// `A–Z a–z 0–9 . _ -`, at most 80 characters) and a 64-bit FNV-1a hash of both in hex,
        /// so two entries share a key only when they have the same group and name: adding such
        /// an entry again replaces it (a test run again shows its latest result).
        public var key: String {
            let readable = SnapshotLocation.sanitize(group.map { "\($0).\(name)" } ?? name)
            var h: UInt64 = 0xcbf2_9ce4_8422_2325
            for b in (group ?? "").utf8 + [0] + name.utf8 {
                h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3
            }
            let hex = String(h, radix: 16)
            return String(readable.prefix(80)) + "-" + String(repeating: "0", count: 16 - hex.count) + hex
        }
    }
}

extension ReviewReport {
    /// A shell word for an accept command: `'…'` with embedded quotes as `'\''`, or the word
    /// itself when it is made only of characters no shell treats specially
    /// (`A–Z a–z 0–9 _ - . / , : = + @ %`).
    public static func shellQuote(_ s: String) -> String {
        let safe = !s.isEmpty && s.unicodeScalars.allSatisfy {
            switch $0 {
            case "A"..."Z", "a"..."z", "0"..."9", "_", "-", ".", "/", ",", ":", "=", "+", "@", "%": return true
            default: return false
            }
        }
        if safe { return s }
        return "'" + s.replacing("'", with: "'\\''") + "'"
    }
}

/// A JSON string literal. Quotes, backslashes and control characters are escaped, and so are
/// `<`, `>` and `&` (as `\u003c` …), so the text can sit inside an HTML `<script>` element.
func _reviewJSONString(_ s: String) -> String {
    var out = "\""
    for u in s.unicodeScalars {
        switch u {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case "<": out += "\\u003c"
        case ">": out += "\\u003e"
        case "&": out += "\\u0026"
        case "\u{2028}": out += "\\u2028"
        case "\u{2029}": out += "\\u2029"
        default:
            if u.value < 0x20 {
                let hex = String(u.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                out.unicodeScalars.append(u)
            }
        }
    }
    return out + "\""
}

/// A finite number as JSON (`null` for ∞ and NaN).
func _reviewJSONNumber(_ x: Double) -> String {
    guard x.isFinite else { return "null" }
    if x == x.rounded(), abs(x) < 1e15 { return String(Int64(x)) }
    return String(x)
}

/// A printf-style file-name pattern with exactly one integer conversion, e.g.
/// `frame_%05d.png` → `frame_00042.png`.
///
/// Accepted: literal text, `%%` for a percent sign, and one conversion
/// `%[flags][width]d` (or `i`, `u`) with flags `0` (pad with zeros) and `-` (pad on the right)
/// and a width of at most 20. Anything else (`%s`, two conversions, none, `/` in the pattern)
/// is refused up front with ``FrameSinkError/invalidPattern(pattern:reason:)``. Formatting is
/// done here, not by C `printf`, so no pattern can read arbitrary memory.
public struct FramePattern: Sendable, Hashable, CustomStringConvertible {
    public static let `default` = try! FramePattern("frame_%05d.png")

    public let pattern: String
    let prefix: String, suffix: String
    let width: Int, zeroPad: Bool, leftAlign: Bool

    public init(_ pattern: String) throws(FrameSinkError) {
        func bad(_ r: String) -> FrameSinkError { .invalidPattern(pattern: pattern, reason: r) }
        guard !pattern.contains("/") else { throw bad("it names a file inside the output folder and may not contain '/'") }
        let chars = Array(pattern)
        var prefix = "", suffix = "", found = false
        var width = 0, zeroPad = false, leftAlign = false
        var i = 0
        while i < chars.count {
            let c = chars[i]
            guard c == "%" else { if found { suffix.append(c) } else { prefix.append(c) }; i += 1; continue }
            i += 1
            guard i < chars.count else { throw bad("it ends with a lone '%'") }
            if chars[i] == "%" { if found { suffix.append("%") } else { prefix.append("%") }; i += 1; continue }
            while i < chars.count, chars[i] == "0" || chars[i] == "-" {
                if chars[i] == "0" { zeroPad = true } else { leftAlign = true }
                i += 1
            }
            var digits = ""
            while i < chars.count, let _ = chars[i].wholeNumberValue, chars[i].isASCII { digits.append(chars[i]); i += 1 }
            guard i < chars.count else { throw bad("the conversion after '%' is incomplete") }
            guard "diu".contains(chars[i]) else {
                throw bad("'%\(digits)\(chars[i])' is not an integer conversion; use %d, e.g. frame_%05d.png")
            }
            guard !found else { throw bad("it has more than one integer conversion; it needs exactly one") }
            guard digits.count <= 2, (Int(digits) ?? 0) <= 20 else { throw bad("the width \(digits) is above 20") }
            width = Int(digits) ?? 0
            found = true
            i += 1
        }
        guard found else { throw bad("it has no integer conversion for the frame number; it needs exactly one, e.g. frame_%05d.png") }
        self.pattern = pattern; self.prefix = prefix; self.suffix = suffix
        self.width = width; self.zeroPad = zeroPad && !leftAlign; self.leftAlign = leftAlign
    }

    /// The file name of frame `n` (`n >= 0`).
    public func fileName(_ n: Int) -> String {
        let digits = String(n)
        let pad = max(0, width - digits.count)
        let body = leftAlign ? digits + String(repeating: " ", count: pad)
                             : String(repeating: zeroPad ? "0" : " ", count: pad) + digits
        return prefix + body + suffix
    }

    public var description: String { pattern }
}

import Flipbook
import Foundation

/// SVG path data (the `d` attribute: `"M10 10 C 20 0, 40 0, 50 10 Z"`) → `CGPath`, as users paste
/// it from design tools into scene files.
///
/// The whole grammar of SVG 1.1 §8.3 / SVG 2 "Path data": `M m L l H h V v C c S s Q q T t A a
/// Z z`, implicit repetition of a command's parameters (after `M`, repeated pairs are line-tos),
/// numbers with signs, fractions and exponents written without separators (`"M1.5.5-2e1"` is
/// `M 1.5 0.5 -20`), and arc flags written as single digits without separators (`"a1 1 0 00 1 1"`).
///
/// Conversions (the path keeps the SVG coordinates: y down, as layer space):
/// - `H`/`V` become lines; `S`/`T` reflect the previous control point (or use the current point
///   when the previous command was not a cubic / quadratic, per the spec).
/// - `A` becomes cubic Béziers: the endpoint parameterisation is converted to the centre one
///   (SVG implementation notes F.6.5, out-of-range radii scaled up per F.6.6, a zero radius
///   gives a line, an arc whose end equals its start is omitted), then split into pieces of at
///   most 90°, each a cubic with control distance `4/3·tan(Δθ/4)` (radial error ≤ 0.027 %).
/// - `Z` closes the subpath; a following command starts at the subpath's start point.
///
/// Errors name the character offset and what was expected (``SVGPathDataError``).
public enum SVGPathData {
    /// Parses `data` into a path; throws on the first error.
    public static func path(from data: String) throws(SVGPathDataError) -> CGPath {
        var parser = _SVGPathParser(Array(data.utf8))
        try parser.run()
        return parser.path._copy()
    }
}

/// Why SVG path data was refused: the 0-based UTF-8 offset and what was wrong.
public struct SVGPathDataError: Error, Sendable, Hashable, CustomStringConvertible {
    public var offset: Int
    public var message: String
    public init(offset: Int, message: String) { self.offset = offset; self.message = message }
    public var description: String { "SVG path data, character \(offset + 1): \(message)" }
}

struct _SVGPathParser {
    let s: [UInt8]
    var i = 0
    let path = CGMutablePath()
    var current = CGPoint.zero
    var subpathStart = CGPoint.zero
    /// The second control point of the previous cubic (for `S`), or the control of the previous
    /// quadratic (for `T`); nil when the previous command was not of that kind.
    var lastCubicControl: CGPoint?
    var lastQuadControl: CGPoint?
    var hasCurrentPoint = false

    init(_ s: [UInt8]) { self.s = s }

    func fail(_ message: String, at offset: Int? = nil) -> SVGPathDataError {
        SVGPathDataError(offset: offset ?? i, message: message)
    }

    mutating func skipSpace() {
        while i < s.count, s[i] == 0x20 || s[i] == 0x09 || s[i] == 0x0A || s[i] == 0x0D || s[i] == 0x0C { i += 1 }
    }

    /// Whitespace and at most one comma.
    mutating func skipSeparator() {
        skipSpace()
        if i < s.count, s[i] == UInt8(ascii: ",") { i += 1; skipSpace() }
    }

    static func isCommand(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "M"), UInt8(ascii: "m"), UInt8(ascii: "L"), UInt8(ascii: "l"), UInt8(ascii: "H"),
             UInt8(ascii: "h"), UInt8(ascii: "V"), UInt8(ascii: "v"), UInt8(ascii: "C"), UInt8(ascii: "c"),
             UInt8(ascii: "S"), UInt8(ascii: "s"), UInt8(ascii: "Q"), UInt8(ascii: "q"), UInt8(ascii: "T"),
             UInt8(ascii: "t"), UInt8(ascii: "A"), UInt8(ascii: "a"), UInt8(ascii: "Z"), UInt8(ascii: "z"):
            return true
        default: return false
        }
    }

    /// Whether a number starts at the cursor (after whitespace/comma).
    mutating func atNumber() -> Bool {
        skipSeparator()
        guard i < s.count else { return false }
        let c = s[i]
        return (c >= 0x30 && c <= 0x39) || c == UInt8(ascii: "-") || c == UInt8(ascii: "+") || c == UInt8(ascii: ".")
    }

    /// `sign? (digits ('.' digits?)? | '.' digits) (('e'|'E') sign? digits)?`
    mutating func number(_ what: String) throws(SVGPathDataError) -> CGFloat {
        skipSeparator()
        let start = i
        if i < s.count, s[i] == UInt8(ascii: "-") || s[i] == UInt8(ascii: "+") { i += 1 }
        var digits = 0
        while i < s.count, s[i] >= 0x30, s[i] <= 0x39 { i += 1; digits += 1 }
        if i < s.count, s[i] == UInt8(ascii: ".") {
            i += 1
            while i < s.count, s[i] >= 0x30, s[i] <= 0x39 { i += 1; digits += 1 }
        }
        guard digits > 0 else {
            i = start
            let found = start < s.count ? "'\(Character(Unicode.Scalar(s[start])))'" : "the end"
            throw fail("expected \(what) (a number), found \(found)", at: start)
        }
        if i < s.count, s[i] == UInt8(ascii: "e") || s[i] == UInt8(ascii: "E") {
            var j = i + 1
            if j < s.count, s[j] == UInt8(ascii: "-") || s[j] == UInt8(ascii: "+") { j += 1 }
            var expDigits = 0
            while j < s.count, s[j] >= 0x30, s[j] <= 0x39 { j += 1; expDigits += 1 }
            if expDigits > 0 { i = j }
        }
        let text = String(decoding: s[start..<i], as: UTF8.self)
        guard let v = Double(text), v.isFinite else { throw fail("number \(text) is out of range", at: start) }
        return CGFloat(v)
    }

    /// An arc flag: a single `0` or `1` (no separator needed after it).
    mutating func flag() throws(SVGPathDataError) -> Bool {
        skipSeparator()
        guard i < s.count, s[i] == UInt8(ascii: "0") || s[i] == UInt8(ascii: "1") else {
            throw fail("expected an arc flag (0 or 1)")
        }
        defer { i += 1 }
        return s[i] == UInt8(ascii: "1")
    }

    mutating func point(relative: Bool, _ what: String) throws(SVGPathDataError) -> CGPoint {
        let x = try number("\(what) x"), y = try number("\(what) y")
        return relative ? CGPoint(x: current.x + x, y: current.y + y) : CGPoint(x: x, y: y)
    }

    mutating func run() throws(SVGPathDataError) {
        skipSpace()
        guard i < s.count else { throw fail("empty path data") }
        var command: UInt8 = 0
        while true {
            skipSpace()
            if i >= s.count { return }
            let c = s[i]
            if Self.isCommand(c) {
                command = c; i += 1
            } else if command == 0 || !atNumber() || command == UInt8(ascii: "Z") || command == UInt8(ascii: "z") {
                let found = "'\(Character(Unicode.Scalar(c)))'"
                throw fail(command == 0 ? "path data must start with a moveto (M or m), found \(found)"
                                        : "expected a command letter or a number, found \(found)")
            }
            if !hasCurrentPoint, command != UInt8(ascii: "M"), command != UInt8(ascii: "m") {
                throw fail("path data must start with a moveto (M or m)", at: i - 1)
            }
            try execute(&command)
        }
    }

    /// Runs one command with its parameters; after a moveto, further pairs are linetos.
    mutating func execute(_ command: inout UInt8) throws(SVGPathDataError) {
        let rel = command >= UInt8(ascii: "a")
        var cubic: CGPoint? = nil, quad: CGPoint? = nil
        switch command | 0x20 {  // lower case
        case UInt8(ascii: "m"):
            let p = try point(relative: rel && hasCurrentPoint, "moveto")
            path.move(to: p); current = p; subpathStart = p; hasCurrentPoint = true
            command = rel ? UInt8(ascii: "l") : UInt8(ascii: "L")
        case UInt8(ascii: "l"):
            let p = try point(relative: rel, "lineto")
            path.addLine(to: p); current = p
        case UInt8(ascii: "h"):
            let x = try number("horizontal lineto x")
            let p = CGPoint(x: rel ? current.x + x : x, y: current.y)
            path.addLine(to: p); current = p
        case UInt8(ascii: "v"):
            let y = try number("vertical lineto y")
            let p = CGPoint(x: current.x, y: rel ? current.y + y : y)
            path.addLine(to: p); current = p
        case UInt8(ascii: "c"):
            let c1 = try point(relative: rel, "curveto control 1")
            let c2 = try point(relative: rel, "curveto control 2")
            let p = try point(relative: rel, "curveto end")
            path.addCurve(to: p, control1: c1, control2: c2); current = p; cubic = c2
        case UInt8(ascii: "s"):
            let c1 = lastCubicControl.map { CGPoint(x: 2 * current.x - $0.x, y: 2 * current.y - $0.y) } ?? current
            let c2 = try point(relative: rel, "smooth curveto control 2")
            let p = try point(relative: rel, "smooth curveto end")
            path.addCurve(to: p, control1: c1, control2: c2); current = p; cubic = c2
        case UInt8(ascii: "q"):
            let c = try point(relative: rel, "quadratic control")
            let p = try point(relative: rel, "quadratic end")
            path.addQuadCurve(to: p, control: c); current = p; quad = c
        case UInt8(ascii: "t"):
            let c = lastQuadControl.map { CGPoint(x: 2 * current.x - $0.x, y: 2 * current.y - $0.y) } ?? current
            let p = try point(relative: rel, "smooth quadratic end")
            path.addQuadCurve(to: p, control: c); current = p; quad = c
        case UInt8(ascii: "a"):
            let rx = try number("arc rx"), ry = try number("arc ry"), rotation = try number("arc x-axis-rotation")
            let large = try flag(), sweep = try flag()
            let p = try point(relative: rel, "arc end")
            _SVGArc.append(to: path, from: current, to: p, rx: rx, ry: ry, rotationDegrees: rotation,
                           largeArc: large, sweep: sweep)
            current = p
        default:  // z
            path.closeSubpath(); current = subpathStart
        }
        lastCubicControl = cubic
        lastQuadControl = quad
    }
}

/// SVG elliptical arcs as cubic Béziers (SVG implementation notes F.6.5 and F.6.6).
enum _SVGArc {
    static func append(to path: CGMutablePath, from p0: CGPoint, to p1: CGPoint, rx rx0: CGFloat, ry ry0: CGFloat,
                       rotationDegrees: CGFloat, largeArc: Bool, sweep: Bool) {
        if p0 == p1 { return }                       // F.6.2: omitted
        var rx = abs(Double(rx0)), ry = abs(Double(ry0))
        if rx == 0 || ry == 0 { path.addLine(to: p1); return }
        let phi = Double(rotationDegrees) * .pi / 180
        let (cosφ, sinφ) = (cos(phi), sin(phi))
        // F.6.5.1: (x1′, y1′)
        let dx = (Double(p0.x) - Double(p1.x)) / 2, dy = (Double(p0.y) - Double(p1.y)) / 2
        let x1 = cosφ * dx + sinφ * dy, y1 = -sinφ * dx + cosφ * dy
        // F.6.6.2: scale radii up when too small
        let lambda = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry)
        if lambda > 1 { let k = lambda.squareRoot(); rx *= k; ry *= k }
        // F.6.5.2: centre in the rotated frame
        let num = max(0, rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1)
        let den = rx * rx * y1 * y1 + ry * ry * x1 * x1
        var k = den > 0 ? (num / den).squareRoot() : 0
        if largeArc == sweep { k = -k }
        let cxp = k * rx * y1 / ry, cyp = -k * ry * x1 / rx
        // F.6.5.3: centre
        let cx = cosφ * cxp - sinφ * cyp + (Double(p0.x) + Double(p1.x)) / 2
        let cy = sinφ * cxp + cosφ * cyp + (Double(p0.y) + Double(p1.y)) / 2
        // F.6.5.5–6: start angle and sweep
        func angle(_ ux: Double, _ uy: Double, _ vx: Double, _ vy: Double) -> Double {
            atan2(ux * vy - uy * vx, ux * vx + uy * vy)
        }
        let ux = (x1 - cxp) / rx, uy = (y1 - cyp) / ry
        let vx = (-x1 - cxp) / rx, vy = (-y1 - cyp) / ry
        let theta1 = angle(1, 0, ux, uy)
        var delta = angle(ux, uy, vx, vy)
        if !sweep, delta > 0 { delta -= 2 * .pi } else if sweep, delta < 0 { delta += 2 * .pi }
        // Pieces of at most 90°.
        let n = max(1, Int((abs(delta) / (.pi / 2) - 1e-9).rounded(.up)))
        let step = delta / Double(n)
        let alpha = 4.0 / 3.0 * tan(step / 4)
        func onEllipse(_ t: Double) -> (Double, Double, Double, Double) {
            let (ct, st) = (cos(t), sin(t))
            let x = cx + rx * ct * cosφ - ry * st * sinφ
            let y = cy + rx * ct * sinφ + ry * st * cosφ
            let dxdt = -rx * st * cosφ - ry * ct * sinφ
            let dydt = -rx * st * sinφ + ry * ct * cosφ
            return (x, y, dxdt, dydt)
        }
        var t = theta1
        var a = onEllipse(t)
        for piece in 0..<n {
            let t2 = t + step
            let b = onEllipse(t2)
            let c1 = CGPoint(x: a.0 + alpha * a.2, y: a.1 + alpha * a.3)
            let c2 = CGPoint(x: b.0 - alpha * b.2, y: b.1 - alpha * b.3)
            // The last piece ends exactly on the given end point.
            let end = piece == n - 1 ? p1 : CGPoint(x: b.0, y: b.1)
            path.addCurve(to: end, control1: c1, control2: c2)
            t = t2; a = b
        }
    }
}

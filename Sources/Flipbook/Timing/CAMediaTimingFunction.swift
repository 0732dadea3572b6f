import Foundation
/// The name of one of Core Animation's predefined timing functions.
public struct CAMediaTimingFunctionName: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let linear = CAMediaTimingFunctionName(rawValue: "linear")
    public static let easeIn = CAMediaTimingFunctionName(rawValue: "easeIn")
    public static let easeOut = CAMediaTimingFunctionName(rawValue: "easeOut")
    public static let easeInEaseOut = CAMediaTimingFunctionName(rawValue: "easeInEaseOut")
    /// The curve Core Animation uses for implicit animations when the transaction names none.
    public static let `default` = CAMediaTimingFunctionName(rawValue: "default")
}

/// A cubic Bézier pacing curve from (0, 0) to (1, 1) with two control points (Apple's
/// `CAMediaTimingFunction`).
///
/// Control-point `y` values may leave [0, 1] (overshooting curves); `x` values are clamped to
/// [0, 1] so the curve stays a function of time. The solver (`_solve(_:)`) lives in
/// `CAMediaTimingFunction+Solve.swift`.
public final class CAMediaTimingFunction: Hashable, Sendable, CustomStringConvertible {
    /// The first control point (x1, y1) and the second (x2, y2).
    public let c1x: Float, c1y: Float, c2x: Float, c2y: Float
    /// The name, when made from one.
    public let name: CAMediaTimingFunctionName?

    /// Apple's control points for the named functions.
    public convenience init(name: CAMediaTimingFunctionName) {
        let p: (Float, Float, Float, Float)
        switch name {
        case .linear: p = (0, 0, 1, 1)
        case .easeIn: p = (0.42, 0, 1, 1)
        case .easeOut: p = (0, 0, 0.58, 1)
        case .easeInEaseOut: p = (0.42, 0, 0.58, 1)
        case .default: p = (0.25, 0.1, 0.25, 1)
        default:
            // Unknown names fall back to linear (Apple returns nil-like behaviour; we document it).
            p = (0, 0, 1, 1)
        }
        self.init(controlPoints: p.0, p.1, p.2, p.3, name: name)
    }

    /// A curve with control points (c1x, c1y) and (c2x, c2y); x values are clamped to [0, 1].
    public convenience init(controlPoints c1x: Float, _ c1y: Float, _ c2x: Float, _ c2y: Float) {
        self.init(controlPoints: c1x, c1y, c2x, c2y, name: nil)
    }

    private init(controlPoints c1x: Float, _ c1y: Float, _ c2x: Float, _ c2y: Float, name: CAMediaTimingFunctionName?) {
        self.c1x = min(max(c1x, 0), 1); self.c1y = c1y
        self.c2x = min(max(c2x, 0), 1); self.c2y = c2y
        self.name = name
    }

    /// Writes control point `idx` (0…3: (0,0), c1, c2, (1,1)) into `ptr[0], ptr[1]`.
    public func getControlPoint(at idx: Int, values ptr: UnsafeMutablePointer<Float>) {
        let p = _controlPoint(at: idx)
        ptr[0] = p.x; ptr[1] = p.y
    }

    /// Control point `idx` (0…3) as a pair; out-of-range indices give (0, 0).
    package func _controlPoint(at idx: Int) -> (x: Float, y: Float) {
        switch idx {
        case 1: return (c1x, c1y)
        case 2: return (c2x, c2y)
        case 3: return (1, 1)
        default: return (0, 0)
        }
    }

    public static func == (a: CAMediaTimingFunction, b: CAMediaTimingFunction) -> Bool {
        a.c1x == b.c1x && a.c1y == b.c1y && a.c2x == b.c2x && a.c2y == b.c2y
    }

    public func hash(into h: inout Hasher) { h.combine(c1x); h.combine(c1y); h.combine(c2x); h.combine(c2y) }

    public var description: String {
        name.map { "CAMediaTimingFunction(\($0.rawValue))" } ?? "CAMediaTimingFunction(\(c1x), \(c1y), \(c2x), \(c2y))"
    }
}

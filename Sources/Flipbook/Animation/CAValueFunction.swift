import Foundation
/// The name of a ``CAValueFunction``.
public struct CAValueFunctionName: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// One value: an angle in radians about x / y / z.
    public static let rotateX = CAValueFunctionName(rawValue: "rotateX")
    public static let rotateY = CAValueFunctionName(rawValue: "rotateY")
    public static let rotateZ = CAValueFunctionName(rawValue: "rotateZ")
    /// Three values (sx, sy, sz).
    public static let scale = CAValueFunctionName(rawValue: "scale")
    /// One value.
    public static let scaleX = CAValueFunctionName(rawValue: "scaleX")
    public static let scaleY = CAValueFunctionName(rawValue: "scaleY")
    public static let scaleZ = CAValueFunctionName(rawValue: "scaleZ")
    /// Three values (tx, ty, tz).
    public static let translate = CAValueFunctionName(rawValue: "translate")
    /// One value.
    public static let translateX = CAValueFunctionName(rawValue: "translateX")
    public static let translateY = CAValueFunctionName(rawValue: "translateY")
    public static let translateZ = CAValueFunctionName(rawValue: "translateZ")
}

/// Turns the scalar (or 3-vector) a property animation interpolates into a `CATransform3D`,
/// so `transform` can animate a rotation by angle (0 → 2π turns a full circle, which matrix
/// interpolation could not express). Apple's `CAValueFunction`.
///
/// Input shapes (chosen where Apple is silent, documented here): a one-value function takes a
/// scalar or the first element of an array (empty → identity). `scale` takes up to three values;
/// one value scales x, y and z uniformly, two give (sx, sy, 1). `translate` takes up to three;
/// missing components are 0. `init?(name:)` is failable as Apple's: nil for a name that is not
/// one of the `CAValueFunctionName` constants.
public final class CAValueFunction: Sendable, Hashable {
    public let name: CAValueFunctionName

    public init?(name: CAValueFunctionName) {
        guard CAValueFunction.known.contains(name) else { return nil }
        self.name = name
    }

    static let known: Set<CAValueFunctionName> = [
        .rotateX, .rotateY, .rotateZ, .scale, .scaleX, .scaleY, .scaleZ, .translate, .translateX, .translateY, .translateZ,
    ]

    public static func == (a: CAValueFunction, b: CAValueFunction) -> Bool { a.name == b.name }
    public func hash(into h: inout Hasher) { h.combine(name) }

    /// The transform for input values `v`.
    package func _transform(_ v: [Double]) -> CATransform3D {
        let a = v.first ?? 0
        switch name {
        case .rotateX: return v.isEmpty ? CATransform3DIdentity : CATransform3DMakeRotation(a, 1, 0, 0)
        case .rotateY: return v.isEmpty ? CATransform3DIdentity : CATransform3DMakeRotation(a, 0, 1, 0)
        case .rotateZ: return v.isEmpty ? CATransform3DIdentity : CATransform3DMakeRotation(a, 0, 0, 1)
        case .scale:
            switch v.count {
            case 0: return CATransform3DIdentity
            case 1: return CATransform3DMakeScale(a, a, a)
            case 2: return CATransform3DMakeScale(v[0], v[1], 1)
            default: return CATransform3DMakeScale(v[0], v[1], v[2])
            }
        case .scaleX: return CATransform3DMakeScale(v.isEmpty ? 1 : a, 1, 1)
        case .scaleY: return CATransform3DMakeScale(1, v.isEmpty ? 1 : a, 1)
        case .scaleZ: return CATransform3DMakeScale(1, 1, v.isEmpty ? 1 : a)
        case .translate:
            return CATransform3DMakeTranslation(v.count > 0 ? v[0] : 0, v.count > 1 ? v[1] : 0, v.count > 2 ? v[2] : 0)
        case .translateX: return CATransform3DMakeTranslation(a, 0, 0)
        case .translateY: return CATransform3DMakeTranslation(0, a, 0)
        case .translateZ: return CATransform3DMakeTranslation(0, 0, a)
        default: return CATransform3DIdentity
        }
    }

    /// The transform for an animated value (a scalar or number array); nil for other values.
    package func _transform(for value: _AnimValue) -> CATransform3D? {
        switch value {
        case let .scalar(x, _): return _transform([x])
        case let .numbers(xs, _): return _transform(xs)
        default: return nil
        }
    }
}

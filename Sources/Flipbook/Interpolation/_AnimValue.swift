import Foundation
import FlipbookGraphics
/// The Swift type a scalar (or each element of a number array) came from, so that
/// `_AnimValue/toAny(like:)` can hand back the same type.
package enum _ScalarKind: Sendable, Hashable {
    case cgFloat, double, float, int, bool, number
}

/// An animatable value: `Any` (as stored in `fromValue`, `values`, a layer property) boxed into
/// something that can interpolate, add, subtract, scale and measure distance.
///
/// | Swift value                                   | case          | interpolation            |
/// |-----------------------------------------------|---------------|--------------------------|
/// | CGFloat, Double, Float, Int, Bool, NSNumber   | `.scalar`     | linear (Int rounds half away from zero; Bool is value ≥ ½) |
/// | CGPoint, CGSize, CGRect                       | `.point` …    | component-wise           |
/// | CGColor                                       | `.color`      | component-wise in RGBA (straight alpha) |
/// | CATransform3D                                 | `.transform`  | decompose → lerp / slerp → recompose |
/// | NSValue (`caTransform3D:`, `cgPoint:`, `cgSize:`, `cgRect:`, `cgAffineTransform:`) | the boxed struct's case | as the struct (an affine transform as a `CATransform3D`) |
/// | CGImage (`contents`)                          | `.image`      | a ``ContentsCrossfade`` |
/// | [CGFloat], [Double], [Float], [Int], [NSNumber] | `.numbers`  | element-wise (equal counts) |
/// | CGPath (`path`, `shadowPath`)                 | `.path`       | point-wise (same element structure; see `_AnimValue+Path.swift`) |
/// | [CGColor] (`CAGradientLayer.colors`)          | `.colors`     | element-wise like `.color` (equal counts) |
///
/// Values of different cases (or number arrays of different lengths) do not interpolate: the
/// result switches from `a` to `b` at fraction ½ (CSS's rule for discrete values). Fractions
/// outside [0, 1] extrapolate (springs and overshooting timing functions need that).
package enum _AnimValue: Hashable {
    case scalar(Double, _ScalarKind)
    case point(CGPoint)
    case size(CGSize)
    case rect(CGRect)
    case color(CGColor)
    case transform(CATransform3D)
    case image(CGImage?)
    case crossfade(ContentsCrossfade)
    case numbers([Double], _ScalarKind)
    case path(CGPath)
    case colors([CGColor])

    /// Boxes `value`; nil for nil or an unsupported type. Nested optionals are unwrapped.
    public init?(_ value: Any?) {
        guard let value else { return nil }
        if let known = _AnimValue._boxKnown(value) { self = known; return }
        guard let v = _AnimValue._unwrap(value) else { return nil }
        switch v {
        case let x as CGFloat: self = .scalar(Double(x), .cgFloat)
        case let x as Double: self = .scalar(x, .double)
        case let x as Float: self = .scalar(Double(x), .float)
        case let x as Int: self = .scalar(Double(x), .int)
        case let x as Bool: self = .scalar(x ? 1 : 0, .bool)
        case let x as CGPoint: self = .point(x)
        case let x as CGSize: self = .size(x)
        case let x as CGRect: self = .rect(x)
        case let x as CGColor: self = .color(x)
        case let x as CATransform3D: self = .transform(x)
        case let x as CGImage: self = .image(x)
        case let x as ContentsCrossfade: self = .crossfade(x)
        case let x as CGPath: self = .path(x)
        case let x as [CGFloat]: self = .numbers(x.map(Double.init), .cgFloat)
        case let x as [Double]: self = .numbers(x, .double)
        case let x as [Float]: self = .numbers(x.map(Double.init), .float)
        case let x as [Int]: self = .numbers(x.map(Double.init), .int)
        case let x as [NSNumber]: self = .numbers(x.map(\.doubleValue), .number)
        case let x as NSNumber: self = .scalar(x.doubleValue, .number)
        case let x as NSValue:
            // `NSValue(caTransform3D:)`, `(cgPoint:)`, `(cgSize:)`, `(cgRect:)`,
            // `(cgAffineTransform:)`: the struct inside (an affine transform as a 3-D one).
            switch x._animatableValue {
            case let t as CATransform3D: self = .transform(t)
            case let a as CGAffineTransform: self = .transform(CATransform3DMakeAffineTransform(a))
            case let v?: guard let b = _AnimValue(v) else { return nil }; self = b
            case nil: return nil
            }
        case let x as [CGColor]: self = .colors(x)
        case let x as [Any] where !x.isEmpty && x.allSatisfy({ $0 is CGColor }):
            self = .colors(x.map { $0 as! CGColor })
        default: return nil
        }
    }

    /// The common types, recognised by their exact dynamic type (a metadata comparison, where
    /// the general path below reflects the value and tries a chain of dynamic casts): the same
    /// box the general path makes for them. Nil for any other type (an `Optional`, `NSNumber`,
    /// `NSValue`, arrays, …), which takes the general path.
    @inline(__always)
    static func _boxKnown(_ v: Any) -> _AnimValue? {
        switch _knownType(v) {
        case .cgFloat: return .scalar(Double(v as! CGFloat), .cgFloat)
        case .double: return .scalar(v as! Double, .double)
        case .float: return .scalar(Double(v as! Float), .float)
        case .int: return .scalar(Double(v as! Int), .int)
        case .bool: return .scalar((v as! Bool) ? 1 : 0, .bool)
        case .point: return .point(v as! CGPoint)
        case .size: return .size(v as! CGSize)
        case .rect: return .rect(v as! CGRect)
        case .transform: return .transform(v as! CATransform3D)
        case .color: return .color(v as! CGColor)
        case .path: return .path(v as! CGPath)
        case nil: return nil
        }
    }

    /// The types ``_boxKnown(_:)`` recognises (none of them an `Optional`).
    enum _KnownType { case cgFloat, double, float, int, bool, point, size, rect, transform, color, path }

    @inline(__always)
    static func _knownType(_ v: Any) -> _KnownType? {
        let t = ObjectIdentifier(type(of: v))
        if t == ObjectIdentifier(CGFloat.self) { return .cgFloat }
        if t == ObjectIdentifier(Float.self) { return .float }
        if t == ObjectIdentifier(CGPoint.self) { return .point }
        if t == ObjectIdentifier(CATransform3D.self) { return .transform }
        if t == ObjectIdentifier(CGColor.self) { return .color }
        if t == ObjectIdentifier(CGPath.self) || t == ObjectIdentifier(CGMutablePath.self) { return .path }
        if t == ObjectIdentifier(Double.self) { return .double }
        if t == ObjectIdentifier(Bool.self) { return .bool }
        if t == ObjectIdentifier(CGSize.self) { return .size }
        if t == ObjectIdentifier(CGRect.self) { return .rect }
        if t == ObjectIdentifier(Int.self) { return .int }
        return nil
    }

    /// `value` with any levels of `Optional` removed (nil when one of them is nil).
    static func _unwrap(_ value: Any?) -> Any? {
        guard let value else { return nil }
        if _knownType(value) != nil { return value }   // not an Optional: no reflection
        let m = Mirror(reflecting: value)
        if m.displayStyle == .optional {
            guard let inner = m.children.first?.value else { return nil }
            return _unwrap(inner)
        }
        return value
    }

    /// Back to a Swift value. For scalars and number arrays the type follows `like` when it is a
    /// scalar / number array (so a `Double` from-value animating a `CGFloat` property gives
    /// `CGFloat`), else the kind the value was boxed from. Int rounds half away from zero; Bool
    /// is `value ≥ 0.5`.
    public func toAny(like: Any? = nil) -> Any {
        // The kind of `like` matters only for scalars and number arrays: boxed only for them.
        func likeKind() -> _ScalarKind? {
            switch _AnimValue(like) {
            case .scalar(_, let k)?, .numbers(_, let k)?: return k
            default: return nil
            }
        }
        switch self {
        case let .scalar(x, k): return _AnimValue._scalar(x, likeKind() ?? k)
        case let .numbers(xs, k):
            let kind = likeKind() ?? k
            switch kind {
            case .cgFloat: return xs.map { CGFloat($0) }
            case .double: return xs
            case .float: return xs.map { Float($0) }
            case .int: return xs.map { _AnimValue._int($0) }
            case .bool: return xs.map { $0 >= 0.5 }
            case .number: return xs.map { NSNumber(value: $0) }
            }
        case let .point(p): return p
        case let .size(s): return s
        case let .rect(r): return r
        case let .color(c): return c
        case let .transform(t): return t
        case let .image(i): return i as Any
        case let .crossfade(x): return x
        case let .path(p): return p
        case let .colors(cs): return cs.map { $0 as Any }
        }
    }

    static func _scalar(_ x: Double, _ k: _ScalarKind) -> Any {
        switch k {
        case .cgFloat: return CGFloat(x)
        case .double: return x
        case .float: return Float(x)
        case .int: return _int(x)
        case .bool: return x >= 0.5
        case .number: return NSNumber(value: x)
        }
    }

    /// Rounds half away from zero; NaN → 0, out-of-range values clamp to Int's range.
    static func _int(_ x: Double) -> Int {
        guard x.isFinite else { return x.isNaN ? 0 : (x > 0 ? Int.max : Int.min) }
        let r = x.rounded()
        if r >= 9.2e18 { return Int.max }
        if r <= -9.2e18 { return Int.min }
        return Int(r)
    }
}

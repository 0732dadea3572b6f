import Foundation
import FlipbookGraphics
/// Converting KVC values to the types of layer properties.
///
/// Numbers: `Int` (any width), `Double`, `Float`, `CGFloat`, `NSNumber` and `Bool` (0/1) are
/// accepted for every numeric key and converted exactly as Swift's initialisers do. Booleans
/// accept `Bool`, `NSNumber` and integers (non-zero = true). Structs are given as their own
/// type (`CGPoint`, `CGSize`, `CGRect`, `CATransform3D`; a `CGAffineTransform` is accepted for
/// transforms) or boxed as Apple's KVC takes them: `NSValue(cgPoint:)`, `(cgSize:)`,
/// `(cgRect:)`, `(caTransform3D:)`, `(cgAffineTransform:)`. String-backed enums accept the
/// struct or its raw `String`.
enum _KVCCoercion {
    static func double(_ v: Any?) -> Double? {
        // The usual types by their exact dynamic type (the value the chain below gives them).
        if let v {
            let t = ObjectIdentifier(type(of: v))
            if t == ObjectIdentifier(CGFloat.self) { return Double(v as! CGFloat) }
            if t == ObjectIdentifier(Double.self) { return v as? Double }
            if t == ObjectIdentifier(Float.self) { return Double(v as! Float) }
        }
        switch v {
        case let x as Double: return x
        case let x as CGFloat: return Double(x)
        case let x as Float: return Double(x)
        case let x as Int: return Double(x)
        case let x as Bool: return x ? 1 : 0
        case let x as NSNumber: return x.doubleValue
        case let x as Int8: return Double(x)
        case let x as Int16: return Double(x)
        case let x as Int32: return Double(x)
        case let x as Int64: return Double(x)
        case let x as UInt: return Double(x)
        case let x as UInt8: return Double(x)
        case let x as UInt16: return Double(x)
        case let x as UInt32: return Double(x)
        case let x as UInt64: return Double(x)
        default: return nil
        }
    }

    static func bool(_ v: Any?) -> Bool? {
        switch v {
        case let x as Bool: return x
        case let x as NSNumber: return x.boolValue
        default: return double(v).map { $0 != 0 }
        }
    }

    // Throwing coercers used by the key table (key names the property in errors).

    static func cgFloat(_ v: Any?, _ key: String) throws -> CGFloat {
        guard v != nil else { throw LayerKVCError.nilValue(key: key) }
        guard let d = double(v) else { throw LayerKVCError.wrongType(key: key, expected: "a number", got: v) }
        return CGFloat(d)
    }

    static func float(_ v: Any?, _ key: String) throws -> Float { Float(try cgFloat(v, key)) }
    static func timeInterval(_ v: Any?, _ key: String) throws -> Double { Double(try cgFloat(v, key)) }

    static func boolean(_ v: Any?, _ key: String) throws -> Bool {
        guard v != nil else { throw LayerKVCError.nilValue(key: key) }
        guard let b = bool(v) else { throw LayerKVCError.wrongType(key: key, expected: "Bool", got: v) }
        return b
    }

    /// A non-optional value of exactly type `T` (or an `NSValue` boxing one).
    static func exact<T>(_ v: Any?, _ key: String, _ name: String) throws -> T {
        guard v != nil else { throw LayerKVCError.nilValue(key: key) }
        guard let x = (v as? T) ?? unboxed(v) as? T else { throw LayerKVCError.wrongType(key: key, expected: name, got: v) }
        return x
    }

    /// An optional value of type `T` (nil allowed; an `NSValue` boxing a `T` is unboxed).
    static func optional<T>(_ v: Any?, _ key: String, _ name: String) throws -> T? {
        guard let v else { return nil }
        guard let x = (v as? T) ?? unboxed(v) as? T else { throw LayerKVCError.wrongType(key: key, expected: name, got: v) }
        return x
    }

    /// The struct inside an `NSValue` box Core Animation knows (not a number); nil otherwise.
    static func unboxed(_ v: Any?) -> Any? {
        guard let box = v as? NSValue else { return nil }
        return box._animatableValue
    }

    static func transform(_ v: Any?, _ key: String) throws -> CATransform3D {
        if let a = (v as? CGAffineTransform) ?? unboxed(v) as? CGAffineTransform { return CATransform3DMakeAffineTransform(a) }
        return try exact(v, key, "CATransform3D")
    }

    static func rawString<T: RawRepresentable>(_ v: Any?, _ key: String) throws -> T where T.RawValue == String {
        if let s = v as? String, let t = T(rawValue: s) { return t }
        return try exact(v, key, "\(T.self) or String")
    }

    static func cornerMask(_ v: Any?, _ key: String) throws -> CACornerMask {
        if let m = v as? CACornerMask { return m }
        guard let d = double(v), d >= 0, d <= Double(UInt32.max), d == d.rounded() else {
            if v == nil { throw LayerKVCError.nilValue(key: key) }
            throw LayerKVCError.wrongType(key: key, expected: "CACornerMask", got: v)
        }
        return CACornerMask(rawValue: UInt(d))
    }
}

import Foundation
import FlipbookGraphics
/// Key-path components inside struct values (Core Animation's KVC extensions):
///
/// | value | components |
/// |---|---|
/// | `CGPoint` | `x`, `y` |
/// | `CGSize` | `width`, `height` |
/// | `CGRect` | `origin` (→ CGPoint), `size` (→ CGSize) |
/// | `CATransform3D` | `rotation` (= `rotation.z`), `rotation.x/y/z`, `scale` (mean of x, y, z; setting sets all three), `scale.x/y/z`, `scale.xy` (mean of x and y; setting sets both — undocumented by Apple but accepted by Core Animation, and what Pulsator's and Animatify's pulses animate), `translation` (CGSize of x, y), `translation.x/y/z` |
///
/// Reading a numeric component gives a `CGFloat`. Transform components are read from, and
/// written through, `_TransformComponents` (decompose, replace, recompose).
enum _StructKeyPath {
    /// ``isStruct(_:)`` for a value whose dynamic type is exactly one of the four (not an
    /// `Optional` or `NSValue` holding one): a metadata comparison, no cast.
    static func isExactStruct(_ v: Any) -> Bool {
        let t = ObjectIdentifier(type(of: v))
        return t == ObjectIdentifier(CGPoint.self) || t == ObjectIdentifier(CATransform3D.self)
            || t == ObjectIdentifier(CGSize.self) || t == ObjectIdentifier(CGRect.self)
    }

    static func isStruct(_ v: Any) -> Bool {
        v is CGPoint || v is CGSize || v is CGRect || v is CATransform3D
    }

    static func get(_ v: Any, _ path: ArraySlice<Substring>, keyPath: String) throws -> Any {
        guard let c = path.first else { return v }
        let rest = path.dropFirst()
        func unknown() -> LayerKVCError { .unknownKeyPathComponent(keyPath: keyPath, component: String(c)) }
        switch v {
        case let p as CGPoint:
            guard rest.isEmpty else { throw unknown() }
            switch c { case "x": return p.x; case "y": return p.y; default: throw unknown() }
        case let s as CGSize:
            guard rest.isEmpty else { throw unknown() }
            switch c { case "width": return s.width; case "height": return s.height; default: throw unknown() }
        case let r as CGRect:
            switch c {
            case "origin": return try get(r.origin, rest, keyPath: keyPath)
            case "size": return try get(r.size, rest, keyPath: keyPath)
            default: throw unknown()
            }
        case let t as CATransform3D:
            let comps = _TransformComponents(t)
            let axis = rest.first
            guard rest.count <= 1 else { throw unknown() }
            switch (c, axis) {
            case ("rotation", nil), ("rotation", "z"): return comps.rotation.z
            case ("rotation", "x"): return comps.rotation.x
            case ("rotation", "y"): return comps.rotation.y
            case ("scale", nil): return (comps.scale.x + comps.scale.y + comps.scale.z) / 3
            case ("scale", "x"): return comps.scale.x
            case ("scale", "y"): return comps.scale.y
            case ("scale", "z"): return comps.scale.z
            case ("scale", "xy"): return (comps.scale.x + comps.scale.y) / 2
            case ("translation", nil): return CGSize(width: comps.translation.x, height: comps.translation.y)
            case ("translation", "x"): return comps.translation.x
            case ("translation", "y"): return comps.translation.y
            case ("translation", "z"): return comps.translation.z
            default:
                throw LayerKVCError.unknownKeyPathComponent(keyPath: keyPath, component: String(axis ?? c))
            }
        default:
            throw unknown()
        }
    }

    /// `v` with the component at `path` replaced by `new` (coerced like a property value).
    static func set(_ v: Any, _ path: ArraySlice<Substring>, to new: Any?, keyPath: String) throws -> Any {
        guard let c = path.first else { return v }
        let rest = path.dropFirst()
        func unknown() -> LayerKVCError { .unknownKeyPathComponent(keyPath: keyPath, component: String(c)) }
        func number() throws -> CGFloat { try _KVCCoercion.cgFloat(new, keyPath) }
        switch v {
        case var p as CGPoint:
            guard rest.isEmpty else { throw unknown() }
            switch c { case "x": p.x = try number(); case "y": p.y = try number(); default: throw unknown() }
            return p
        case var s as CGSize:
            guard rest.isEmpty else { throw unknown() }
            switch c {
            case "width": s.width = try number()
            case "height": s.height = try number()
            default: throw unknown()
            }
            return s
        case var r as CGRect:
            switch c {
            case "origin":
                r.origin = rest.isEmpty ? try _KVCCoercion.exact(new, keyPath, "CGPoint")
                    : try set(r.origin, rest, to: new, keyPath: keyPath) as! CGPoint
            case "size":
                r.size = rest.isEmpty ? try _KVCCoercion.exact(new, keyPath, "CGSize")
                    : try set(r.size, rest, to: new, keyPath: keyPath) as! CGSize
            default: throw unknown()
            }
            return r
        case let t as CATransform3D:
            var comps = _TransformComponents(t)
            let axis = rest.first
            guard rest.count <= 1 else { throw unknown() }
            switch (c, axis) {
            case ("rotation", nil), ("rotation", "z"): comps.rotation.z = try number()
            case ("rotation", "x"): comps.rotation.x = try number()
            case ("rotation", "y"): comps.rotation.y = try number()
            case ("scale", nil):
                let s = try number(); comps.scale = (s, s, s)
            case ("scale", "x"): comps.scale.x = try number()
            case ("scale", "y"): comps.scale.y = try number()
            case ("scale", "z"): comps.scale.z = try number()
            case ("scale", "xy"):
                let s = try number(); comps.scale.x = s; comps.scale.y = s
            case ("translation", nil):
                let s: CGSize = try _KVCCoercion.exact(new, keyPath, "CGSize")
                comps.translation.x = s.width; comps.translation.y = s.height
            case ("translation", "x"): comps.translation.x = try number()
            case ("translation", "y"): comps.translation.y = try number()
            case ("translation", "z"): comps.translation.z = try number()
            default:
                throw LayerKVCError.unknownKeyPathComponent(keyPath: keyPath, component: String(axis ?? c))
            }
            return comps.transform
        default:
            throw unknown()
        }
    }
}

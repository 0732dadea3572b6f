import Foundation
import FlipbookGraphics
/// One KVC-reachable built-in key of `CALayer`.
struct _LayerKeyEntry: @unchecked Sendable {  // immutable after the table is built
    /// Reads the value from a layer.
    let get: (CALayer) -> Any?
    /// Coerces and writes through the typed setter (so the action search runs).
    let set: (CALayer, Any?) throws -> Void
    /// For keys stored in `_LayerState`: read from / write into a state without actions
    /// (defaults). Nil for derived or tree keys.
    let getState: ((_LayerState) -> Any?)?
    let setState: ((inout _LayerState, Any?) throws -> Void)?
}

/// The table of built-in keys: KVC key → accessors. Swift names that differ from Apple's KVC
/// keys are accepted as aliases (`isHidden` → `hidden`, `isDoubleSided` → `doubleSided`,
/// `isOpaque` → `opaque`).
enum _LayerKeyTable {
    static let defaultLayerState = _LayerState()

    static func canonical(_ key: String) -> String {
        switch key {
        case "isHidden": return "hidden"
        case "isDoubleSided": return "doubleSided"
        case "isOpaque": return "opaque"
        default: return key
        }
    }

    /// A key backed by a `_LayerState` field.
    private static func field<T>(
        _ state: WritableKeyPath<_LayerState, T>, _ layer: ReferenceWritableKeyPath<CALayer, T>,
        _ key: String, _ coerce: @escaping (Any?, String) throws -> T
    ) -> (String, _LayerKeyEntry) {
        // Only an optional type can hold a nil to flatten: decided once, not per read.
        if _isOptionalType(T.self) {
            return (key, _LayerKeyEntry(
                get: { _flattenOptional($0[keyPath: layer]) },
                set: { l, v in l[keyPath: layer] = try coerce(v, key) },
                getState: { _flattenOptional($0[keyPath: state]) },
                setState: { s, v in s[keyPath: state] = try coerce(v, key) }
            ))
        }
        return (key, _LayerKeyEntry(
            get: { $0[keyPath: layer] },
            set: { l, v in l[keyPath: layer] = try coerce(v, key) },
            getState: { $0[keyPath: state] },
            setState: { s, v in s[keyPath: state] = try coerce(v, key) }
        ))
    }

    /// A derived or tree key.
    private static func derived(
        _ key: String, get: @escaping (CALayer) -> Any?, set: @escaping (CALayer, Any?) throws -> Void
    ) -> (String, _LayerKeyEntry) {
        (key, _LayerKeyEntry(get: get, set: set, getState: nil, setState: nil))
    }

    /// An optional object of type `T` (`shadowPath`); `name` is the type in errors.
    private static func object<T>(_ name: String) -> (Any?, String) throws -> T? {
        { v, key in try _KVCCoercion.optional(v, key, name) }
    }
    private static let num = _KVCCoercion.cgFloat
    private static let flt = _KVCCoercion.float
    private static let dbl = _KVCCoercion.timeInterval
    private static let bool = _KVCCoercion.boolean
    private static func point(_ v: Any?, _ k: String) throws -> CGPoint { try _KVCCoercion.exact(v, k, "CGPoint") }
    private static func size(_ v: Any?, _ k: String) throws -> CGSize { try _KVCCoercion.exact(v, k, "CGSize") }
    private static func rect(_ v: Any?, _ k: String) throws -> CGRect { try _KVCCoercion.exact(v, k, "CGRect") }
    private static func color(_ v: Any?, _ k: String) throws -> CGColor? { try _KVCCoercion.optional(v, k, "CGColor") }
    private static func string(_ v: Any?, _ k: String) throws -> String? { try _KVCCoercion.optional(v, k, "String") }

    static let entries: [String: _LayerKeyEntry] = Dictionary(uniqueKeysWithValues: [
        field(\.bounds, \.bounds, "bounds", rect),
        field(\.position, \.position, "position", point),
        field(\.zPosition, \.zPosition, "zPosition", num),
        field(\.anchorPoint, \.anchorPoint, "anchorPoint", point),
        field(\.anchorPointZ, \.anchorPointZ, "anchorPointZ", num),
        field(\.transform, \.transform, "transform", _KVCCoercion.transform),
        field(\.sublayerTransform, \.sublayerTransform, "sublayerTransform", _KVCCoercion.transform),
        field(\.backgroundColor, \.backgroundColor, "backgroundColor", color),
        field(\.cornerRadius, \.cornerRadius, "cornerRadius", num),
        field(\.maskedCorners, \.maskedCorners, "maskedCorners", _KVCCoercion.cornerMask),
        field(\.borderWidth, \.borderWidth, "borderWidth", num),
        field(\.borderColor, \.borderColor, "borderColor", color),
        field(\.opacity, \.opacity, "opacity", flt),
        field(\.isHidden, \.isHidden, "hidden", bool),
        field(\.masksToBounds, \.masksToBounds, "masksToBounds", bool),
        field(\.isDoubleSided, \.isDoubleSided, "doubleSided", bool),
        field(\.allowsGroupOpacity, \.allowsGroupOpacity, "allowsGroupOpacity", bool),
        // `CALayer.contents` is `Any?` (as on Apple) while the state holds a `CGImage?`.
        ("contents", _LayerKeyEntry(
            get: { $0._state.contents.map { $0 as Any } },
            set: { l, v in
                let image: CGImage? = try _KVCCoercion.optional(v, "contents", "CGImage")
                l.contents = image
            },
            getState: { $0.contents.map { $0 as Any } },
            setState: { s, v in s.contents = try _KVCCoercion.optional(v, "contents", "CGImage") })),
        field(\.contentsRect, \.contentsRect, "contentsRect", rect),
        field(\.contentsCenter, \.contentsCenter, "contentsCenter", rect),
        field(\.contentsGravity, \.contentsGravity, "contentsGravity", _KVCCoercion.rawString),
        field(\.contentsScale, \.contentsScale, "contentsScale", num),
        field(\.minificationFilter, \.minificationFilter, "minificationFilter", _KVCCoercion.rawString),
        field(\.magnificationFilter, \.magnificationFilter, "magnificationFilter", _KVCCoercion.rawString),
        field(\.shadowColor, \.shadowColor, "shadowColor", color),
        field(\.shadowOpacity, \.shadowOpacity, "shadowOpacity", flt),
        field(\.shadowOffset, \.shadowOffset, "shadowOffset", size),
        field(\.shadowRadius, \.shadowRadius, "shadowRadius", num),
        field(\.shadowPath, \.shadowPath, "shadowPath", object("CGPath")),
        field(\.name, \.name, "name", string),
        field(\.needsDisplayOnBoundsChange, \.needsDisplayOnBoundsChange, "needsDisplayOnBoundsChange", bool),
        field(\.isOpaque, \.isOpaque, "opaque", bool),
        field(\.drawsAsynchronously, \.drawsAsynchronously, "drawsAsynchronously", bool),
        field(\.shouldRasterize, \.shouldRasterize, "shouldRasterize", bool),
        field(\.rasterizationScale, \.rasterizationScale, "rasterizationScale", num),
        field(\.allowsEdgeAntialiasing, \.allowsEdgeAntialiasing, "allowsEdgeAntialiasing", bool),
        field(\.edgeAntialiasingMask, \.edgeAntialiasingMask, "edgeAntialiasingMask",
              { v, k in try _KVCCoercion.exact(v, k, "CAEdgeAntialiasingMask") }),
        field(\.minificationFilterBias, \.minificationFilterBias, "minificationFilterBias", flt),
        field(\.contentsFormat, \.contentsFormat, "contentsFormat", { v, k in try _KVCCoercion.exact(v, k, "CALayerContentsFormat") }),
        field(\.cornerCurve, \.cornerCurve, "cornerCurve", { v, k in try _KVCCoercion.exact(v, k, "CALayerCornerCurve") }),
        field(\.beginTime, \.beginTime, "beginTime", dbl),
        field(\.duration, \.duration, "duration", dbl),
        field(\.speed, \.speed, "speed", flt),
        field(\.timeOffset, \.timeOffset, "timeOffset", dbl),
        field(\.repeatCount, \.repeatCount, "repeatCount", flt),
        field(\.repeatDuration, \.repeatDuration, "repeatDuration", dbl),
        field(\.autoreverses, \.autoreverses, "autoreverses", bool),
        field(\.fillMode, \.fillMode, "fillMode", _KVCCoercion.rawString),
        field(\.isGeometryFlipped, \.isGeometryFlipped, "geometryFlipped", bool),
        field(\.wantsExtendedDynamicRangeContent, \.wantsExtendedDynamicRangeContent, "wantsExtendedDynamicRangeContent", bool),
        derived("frame", get: { $0.frame }, set: { l, v in l.frame = try rect(v, "frame") }),
        derived("mask", get: { $0.mask.map { $0 as Any } }, set: { l, v in l.mask = try _KVCCoercion.optional(v, "mask", "CALayer") }),
        derived("sublayers", get: { $0.sublayers.map { $0 as Any } }, set: { l, v in
            l.sublayers = try _KVCCoercion.optional(v, "sublayers", "[CALayer]")
        }),
        derived("superlayer", get: { $0.superlayer.map { $0 as Any } }, set: { _, _ in throw LayerKVCError.readOnly(key: "superlayer") }),
        derived("actions", get: { $0.actions.map { $0 as Any } }, set: { l, v in
            l.actions = try _KVCCoercion.optional(v, "actions", "[String: CAAction]")
        }),
        derived("style", get: { $0.style.map { $0 as Any } }, set: { l, v in
            l.style = try _KVCCoercion.optional(v, "style", "[AnyHashable: Any]")
        }),
    ])
}

/// A value of a generic `T` that may itself be an `Optional`, as a plain `Any?`
/// (so `CGColor?.none` reads back as nil, not as a boxed nil).
func _flattenOptional(_ v: Any?) -> Any? {
    guard let v else { return nil }
    if let o = v as? _AnyOptional { return _flattenOptional(o._wrappedAny) }
    return v
}

/// Whether `T` is an `Optional` (whose values ``_flattenOptional(_:)`` may have to flatten;
/// a value of any other concrete type comes back from it unchanged).
func _isOptionalType<T>(_: T.Type) -> Bool { T.self is _AnyOptional.Type }

protocol _AnyOptional { var _wrappedAny: Any? { get } }
extension Optional: _AnyOptional {
    var _wrappedAny: Any? { map { $0 as Any } }
}

import Foundation
import FlipbookGraphics

/// A layer that draws a path: filled, then stroked (Apple's `CAShapeLayer`).
///
/// The shape is in the layer's coordinate space (y down, origin at the top-left of `bounds`,
/// as on iOS) and is composited between the layer's contents and its first sublayer, as Apple
/// documents: background → contents → shape (fill, then stroke) → sublayers → border. It is
/// drawn by the vector core directly (no intermediate bitmap), under any transform including
/// perspective; without a `shadowPath`, the layer's shadow follows the drawn shape.
///
/// **Animatable.** `fillColor`, `strokeColor`, `lineWidth`, `lineDashPhase`, `miterLimit`,
/// `strokeStart` and `strokeEnd` animate implicitly (on live layers, like `CALayer`'s animatable
/// properties) and explicitly. `path` animates **explicitly only** (Apple's header: "Paths will
/// interpolate as a linear blend of the paths' control points"; setting `path` adds no implicit
/// animation). Two paths interpolate point by point when their element structures match (same
/// element kinds in the same order); otherwise the animation switches from the first path to the
/// second at the midpoint (fraction ½), Flipbook's rule for every value that cannot interpolate
/// (Apple leaves the result undefined).
///
/// **Storage.** The shape values are one typed value (`_ShapeState`) kept in the layer's
/// custom-key storage under a private key. So the machinery that already copies custom keys —
/// presentation copies (`init(layer:)`), the committed state of `CATransition`'s "before"
/// picture, render snapshots — carries them without special cases, while KVC reaches the
/// individual keys (`path`, `lineWidth`, …) through their own typed entries (numbers coerced,
/// wrong types reported, nil accepted where the property is optional).
///
/// **Trimming.** `strokeStart`/`strokeEnd` are fractions of the arc length of the whole path (all
/// subpaths together; moves between subpaths count 0), clamped to 0…1; nothing is stroked when
/// `strokeEnd ≤ strokeStart`. They trim the stroke only, never the fill. Dashes start at the
/// trimmed start (the dash pattern runs along the visible part).
open class CAShapeLayer: CALayer {
    /// Presentation copies of this class and of your subclasses of it (see `CALayer.init(layer:)`).
    override package class func _makePresentationCopy(of model: CALayer) -> CALayer { CAShapeLayer(layer: model) }

    // No initializers of its own: `init()` and `init(layer:)` are inherited (a presentation
    // copy gets the shape values with the custom keys), so subclasses write theirs as for any
    // `CALayer`. Until the first change the values are the class's defaults.

    /// The shape values (typed), read from and written to the custom-key storage; the class's
    /// defaults (`defaultValue(forKey:)`) until the first change.
    final var _shape: _ShapeState {
        get { _shapeState(in: _extras) }
        set { _extras[_ShapeState.storageKey] = newValue }
    }

    /// The shape values stored in `extras` (this layer's, a presentation copy's or a committed
    /// state's), or the class's defaults.
    final func _shapeState(in extras: [String: Any]) -> _ShapeState {
        if let s = extras[_ShapeState.storageKey] as? _ShapeState { return s }
        let cls = _modelClass as? CAShapeLayer.Type ?? CAShapeLayer.self   // a copy answers with the model's defaults
        return cls == CAShapeLayer.self ? _ShapeState.defaults : CAShapeLayer._defaults(for: cls)
    }

    /// Apple's defaults overridden by `cls.defaultValue(forKey:)` for the shape keys.
    static func _defaults(for cls: CAShapeLayer.Type) -> _ShapeState {
        _state(_ShapeState(), withDefaultsOf: cls, setters: _keyEntries.lazy.map { (key: $0.key, set: $0.value.setState) })
    }

    /// Sets one shape value through the layer's one change path (action search, transaction,
    /// committed state, implicit animation).
    final func _setShape<T: Equatable>(_ field: WritableKeyPath<_ShapeState, T>, _ new: T, key: String) {
        _setSubclassField(\CAShapeLayer._shape, field, new, key: key)
    }

    /// The path drawn (layer coordinates). A `CGMutablePath` is copied when set, so changing it
    /// afterwards does not change the layer (set the property again). Animatable explicitly only.
    open var path: CGPath? {
        get { _shape.path }
        set { _setShape(\.path, newValue.map { $0 is CGMutablePath ? $0._copy() : $0 }, key: "path") }
    }
    /// The fill colour; nil fills nothing. Default opaque black. Animatable.
    open var fillColor: CGColor? {
        get { _shape.fillColor }
        set { _setShape(\.fillColor, newValue, key: "fillColor") }
    }
    /// The fill rule. Default `.nonZero`.
    open var fillRule: CAShapeLayerFillRule {
        get { _shape.fillRule }
        set { _setShape(\.fillRule, newValue, key: "fillRule") }
    }
    /// The stroke colour; nil strokes nothing (the default). Animatable.
    open var strokeColor: CGColor? {
        get { _shape.strokeColor }
        set { _setShape(\.strokeColor, newValue, key: "strokeColor") }
    }
    /// Where the stroke starts, as a fraction of the path's arc length. Default 0. Animatable.
    open var strokeStart: CGFloat {
        get { _shape.strokeStart }
        set { _setShape(\.strokeStart, newValue, key: "strokeStart") }
    }
    /// Where the stroke ends, as a fraction of the path's arc length. Default 1. Animatable.
    open var strokeEnd: CGFloat {
        get { _shape.strokeEnd }
        set { _setShape(\.strokeEnd, newValue, key: "strokeEnd") }
    }
    /// The stroke width in layer units. Default 1. Animatable.
    open var lineWidth: CGFloat {
        get { _shape.lineWidth }
        set { _setShape(\.lineWidth, newValue, key: "lineWidth") }
    }
    /// The miter limit. Default 10. Animatable.
    open var miterLimit: CGFloat {
        get { _shape.miterLimit }
        set { _setShape(\.miterLimit, newValue, key: "miterLimit") }
    }
    /// The cap of open subpaths and dashes. Default `.butt`.
    open var lineCap: CAShapeLayerLineCap {
        get { _shape.lineCap }
        set { _setShape(\.lineCap, newValue, key: "lineCap") }
    }
    /// The join between segments. Default `.miter`.
    open var lineJoin: CAShapeLayerLineJoin {
        get { _shape.lineJoin }
        set { _setShape(\.lineJoin, newValue, key: "lineJoin") }
    }
    /// How far into the dash pattern the stroke starts. Default 0. Animatable.
    open var lineDashPhase: CGFloat {
        get { _shape.lineDashPhase }
        set { _setShape(\.lineDashPhase, newValue, key: "lineDashPhase") }
    }
    /// Alternating painted / unpainted lengths (layer units), starting painted; nil or empty =
    /// solid. An odd count repeats, as in Core Graphics. Default nil.
    open var lineDashPattern: [NSNumber]? {
        get { _shape.lineDashPattern }
        set { _setShape(\.lineDashPattern, newValue, key: "lineDashPattern") }
    }

    /// Apple's defaults for the shape keys, then `CALayer`'s.
    open override class func defaultValue(forKey key: String) -> Any? {
        if _keyEntries[key] != nil { return _ShapeState._default(forKey: key) }
        return super.defaultValue(forKey: key)
    }

    // MARK: Keys

    /// The keys that animate implicitly when changed on a live layer (`path` is not one: it
    /// animates explicitly only, as on Apple).
    package static let _shapeImplicitlyAnimatableKeys: Set<String> = [
        "fillColor", "strokeColor", "lineWidth", "lineDashPhase", "miterLimit", "strokeStart", "strokeEnd",
    ]

    /// KVC entries of the shape keys: `get`/`set` go through the typed properties (so a KVC
    /// write runs the same change path); `setState` writes a bare `_ShapeState` (defaults).
    static let _keyEntries: [String: _ShapeKeyEntry] = {
        func field<T: Equatable>(_ kp: WritableKeyPath<_ShapeState, T>, _ property: ReferenceWritableKeyPath<CAShapeLayer, T>,
                                 _ key: String, _ coerce: @escaping (Any?, String) throws -> T) -> (String, _ShapeKeyEntry) {
            let flattens = _isOptionalType(T.self)   // decided once, not per read
            return (key, _ShapeKeyEntry(
                entry: _LayerKeyEntry(
                    // Through the (overridable) property, so a subclass's override sees KVC too.
                    get: { l in
                        guard let s = l as? CAShapeLayer else { return nil }
                        return flattens ? _flattenOptional(s[keyPath: property]) : s[keyPath: property]
                    },
                    set: { l, v in
                        let t = try coerce(v, key)
                        (l as? CAShapeLayer)?[keyPath: property] = t
                    },
                    getState: nil, setState: nil),
                setState: { s, v in s[keyPath: kp] = try coerce(v, key) }))
        }
        let num = _KVCCoercion.cgFloat
        func color(_ v: Any?, _ k: String) throws -> CGColor? { try _KVCCoercion.optional(v, k, "CGColor") }
        func path(_ v: Any?, _ k: String) throws -> CGPath? { try _KVCCoercion.optional(v, k, "CGPath") }
        return Dictionary(uniqueKeysWithValues: [
            field(\.path, \.path, "path", path),
            field(\.fillColor, \.fillColor, "fillColor", color),
            field(\.fillRule, \.fillRule, "fillRule", _KVCCoercion.rawString),
            field(\.strokeColor, \.strokeColor, "strokeColor", color),
            field(\.strokeStart, \.strokeStart, "strokeStart", num),
            field(\.strokeEnd, \.strokeEnd, "strokeEnd", num),
            field(\.lineWidth, \.lineWidth, "lineWidth", num),
            field(\.miterLimit, \.miterLimit, "miterLimit", num),
            field(\.lineCap, \.lineCap, "lineCap", _KVCCoercion.rawString),
            field(\.lineJoin, \.lineJoin, "lineJoin", _KVCCoercion.rawString),
            field(\.lineDashPhase, \.lineDashPhase, "lineDashPhase", num),
            field(\.lineDashPattern, \.lineDashPattern, "lineDashPattern", _ShapeState._dashPattern),
        ])
    }()
}

/// One KVC key of `CAShapeLayer`: the layer entry and a setter into a bare `_ShapeState`
/// (subclass defaults at init).
struct _ShapeKeyEntry: @unchecked Sendable {  // immutable after the table is built
    let entry: _LayerKeyEntry
    let setState: (inout _ShapeState, Any?) throws -> Void
}

/// The values of a `CAShapeLayer`, with Apple's defaults (see ``CAShapeLayer``'s storage note).
struct _ShapeState: Equatable {
    /// The custom key the value lives under (not a valid KVC key anyone would use).
    static let storageKey = "\u{1}CAShapeLayer.state"

    var path: CGPath? = nil
    var fillColor: CGColor? = .black
    var fillRule: CAShapeLayerFillRule = .nonZero
    var strokeColor: CGColor? = nil
    var strokeStart: CGFloat = 0
    var strokeEnd: CGFloat = 1
    var lineWidth: CGFloat = 1
    var miterLimit: CGFloat = 10
    var lineCap: CAShapeLayerLineCap = .butt
    var lineJoin: CAShapeLayerLineJoin = .miter
    var lineDashPhase: CGFloat = 0
    var lineDashPattern: [NSNumber]? = nil

    static let defaults = _ShapeState()

    static func _default(forKey key: String) -> Any? {
        let d = defaults
        switch key {
        case "path": return d.path
        case "fillColor": return d.fillColor
        case "fillRule": return d.fillRule
        case "strokeColor": return d.strokeColor
        case "strokeStart": return d.strokeStart
        case "strokeEnd": return d.strokeEnd
        case "lineWidth": return d.lineWidth
        case "miterLimit": return d.miterLimit
        case "lineCap": return d.lineCap
        case "lineJoin": return d.lineJoin
        case "lineDashPhase": return d.lineDashPhase
        case "lineDashPattern": return d.lineDashPattern
        default: return nil
        }
    }

    /// `lineDashPattern` from KVC: `[NSNumber]`, or an array of Swift numbers; nil allowed.
    static func _dashPattern(_ v: Any?, _ key: String) throws -> [NSNumber]? {
        guard let v = _AnimValue._unwrap(v) else { return nil }
        if let x = v as? [NSNumber] { return x }
        if let xs = v as? [Any] {
            var out: [NSNumber] = []
            for x in xs {
                guard let d = _KVCCoercion.double(x) else {
                    throw LayerKVCError.wrongType(key: key, expected: "[NSNumber]", got: v)
                }
                out.append(NSNumber(value: d))
            }
            return out
        }
        throw LayerKVCError.wrongType(key: key, expected: "[NSNumber]", got: v)
    }
}

/// How a shape layer fills its path (Apple's `CAShapeLayerFillRule`).
public struct CAShapeLayerFillRule: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Non-zero winding (the default).
    public static let nonZero = CAShapeLayerFillRule(rawValue: "non-zero")
    /// Even-odd.
    public static let evenOdd = CAShapeLayerFillRule(rawValue: "even-odd")
}

/// The ends of a shape layer's open subpaths and dashes (Apple's `CAShapeLayerLineCap`).
public struct CAShapeLayerLineCap: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let butt = CAShapeLayerLineCap(rawValue: "butt")
    public static let round = CAShapeLayerLineCap(rawValue: "round")
    public static let square = CAShapeLayerLineCap(rawValue: "square")
}

/// The corners between a shape layer's segments (Apple's `CAShapeLayerLineJoin`).
public struct CAShapeLayerLineJoin: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let miter = CAShapeLayerLineJoin(rawValue: "miter")
    public static let round = CAShapeLayerLineJoin(rawValue: "round")
    public static let bevel = CAShapeLayerLineJoin(rawValue: "bevel")
}

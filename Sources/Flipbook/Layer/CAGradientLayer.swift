import Foundation
import FlipbookGraphics

/// A layer that fills its bounds with a colour gradient (Apple's `CAGradientLayer`).
///
/// The gradient is drawn over the layer's background colour and under its contents, clipped to
/// the layer's shape (rounded corners included), by the raster pipeline's gradient paint
/// (`FlipbookRaster.GradientPaint`): exact per-pixel positions, a 1024-step colour ramp,
/// colours interpolated unpremultiplied as in Core Graphics, no dithering (docs/compositor.md).
///
/// **Geometry.** `startPoint` and `endPoint` are in the layer's unit coordinate space — (0, 0)
/// is the top-left of `bounds` and (1, 1) the bottom-right, y down as everywhere in Flipbook
/// (iOS's convention) — and may lie outside it. They are mapped to the layer's bounds before
/// the gradient is laid out, so on a non-square layer an axial gradient from (0, 0) to (1, 1)
/// has its colour bands perpendicular to the bounds' diagonal, as Core Graphics draws it.
/// - `.axial`: colours run from `startPoint` to `endPoint`; before and after, the end colours
///   extend. Equal points draw nothing.
/// - `.radial`: an ellipse centred at `startPoint` whose radii are `|endPoint.x − startPoint.x|`
///   (horizontal) and `|endPoint.y − startPoint.y|` (vertical), in bounds units; the last colour
///   extends beyond it. Chosen where Apple is silent: when one radius is 0 the other is used for
///   both (a circle); when both are, nothing is drawn.
/// - `.conic`: a sweep around `startPoint`, from the direction of `endPoint`, clockwise on
///   screen, one turn from the first colour to the last.
///
/// **Stops.** `locations` nil spreads the colours evenly. Chosen where Apple is silent: when
/// `locations` has a different count from `colors`, it is ignored (even spread); locations are
/// used in increasing order (a stable sort). One colour fills the layer with it; no colours
/// draw nothing.
///
/// **Animatable.** `colors`, `locations`, `startPoint` and `endPoint` animate implicitly and
/// explicitly. Arrays interpolate element by element when both have the same count; otherwise
/// the animation switches from the old array to the new one at the midpoint (fraction ½),
/// Flipbook's rule for values that cannot interpolate.
///
/// **Storage.** As ``CAShapeLayer``: one typed value in the custom-key storage, so presentation
/// copies, `init(layer:)` and transitions carry it; KVC reaches each key through its property.
open class CAGradientLayer: CALayer {
    /// Presentation copies of this class and of your subclasses of it (see `CALayer.init(layer:)`).
    override package class func _makePresentationCopy(of model: CALayer) -> CALayer { CAGradientLayer(layer: model) }

    final var _gradient: _GradientState {
        get { _gradientState(in: _extras) }
        set { _extras[_GradientState.storageKey] = newValue }
    }

    /// The gradient values stored in `extras`, or the class's defaults.
    final func _gradientState(in extras: [String: Any]) -> _GradientState {
        if let s = extras[_GradientState.storageKey] as? _GradientState { return s }
        let cls = _modelClass as? CAGradientLayer.Type ?? CAGradientLayer.self   // a copy answers with the model's defaults
        return cls == CAGradientLayer.self ? _GradientState() : CAGradientLayer._defaults(for: cls)
    }

    static func _defaults(for cls: CAGradientLayer.Type) -> _GradientState {
        _state(_GradientState(), withDefaultsOf: cls, setters: _keyEntries.lazy.map { (key: $0.key, set: $0.value.setState) })
    }

    final func _setGradient<T>(_ field: WritableKeyPath<_GradientState, T>, _ new: T, key: String,
                               same: (T, T) -> Bool) {
        _setSubclassField(\CAGradientLayer._gradient, field, new, key: key, same: same)
    }

    /// The colours (`CGColor`s; other elements are ignored when drawing). Default nil. Animatable.
    open var colors: [Any]? {
        get { _gradient.colors }
        set { _setGradient(\.colors, newValue, key: "colors", same: _GradientState.sameColors) }
    }

    /// Where each colour sits, 0…1 along the gradient; nil = evenly spaced. Default nil.
    /// Animatable.
    open var locations: [NSNumber]? {
        get { _gradient.locations }
        set { _setGradient(\.locations, newValue, key: "locations", same: ==) }
    }

    /// Where the gradient starts, in the unit space of the bounds. Default (0.5, 0). Animatable.
    open var startPoint: CGPoint {
        get { _gradient.startPoint }
        set { _setGradient(\.startPoint, newValue, key: "startPoint", same: ==) }
    }

    /// Where the gradient ends, in the unit space of the bounds. Default (0.5, 1). Animatable.
    open var endPoint: CGPoint {
        get { _gradient.endPoint }
        set { _setGradient(\.endPoint, newValue, key: "endPoint", same: ==) }
    }

    /// The kind of gradient. Default `.axial`.
    open var type: CAGradientLayerType {
        get { _gradient.type }
        set { _setGradient(\.type, newValue, key: "type", same: ==) }
    }

    /// Apple's defaults for the gradient keys, then `CALayer`'s.
    open override class func defaultValue(forKey key: String) -> Any? {
        if _keyEntries[key] != nil { return _GradientState._default(forKey: key) }
        return super.defaultValue(forKey: key)
    }

    // MARK: Keys

    package static let _gradientImplicitlyAnimatableKeys: Set<String> = ["colors", "locations", "startPoint", "endPoint"]

    static let _keyEntries: [String: _GradientKeyEntry] = {
        func field<T>(_ kp: WritableKeyPath<_GradientState, T>, _ property: ReferenceWritableKeyPath<CAGradientLayer, T>,
                      _ key: String, _ coerce: @escaping (Any?, String) throws -> T) -> (String, _GradientKeyEntry) {
            (key, _GradientKeyEntry(
                entry: _LayerKeyEntry(
                    get: { l in (l as? CAGradientLayer).map { _flattenOptional($0[keyPath: property]) } ?? nil },
                    set: { l, v in
                        let t = try coerce(v, key)
                        (l as? CAGradientLayer)?[keyPath: property] = t
                    },
                    getState: nil, setState: nil),
                setState: { s, v in s[keyPath: kp] = try coerce(v, key) }))
        }
        func point(_ v: Any?, _ k: String) throws -> CGPoint {
            guard let p = _AnimValue._unwrap(v) as? CGPoint else { throw LayerKVCError.wrongType(key: k, expected: "CGPoint", got: v) }
            return p
        }
        func colors(_ v: Any?, _ k: String) throws -> [Any]? {
            guard let v = _AnimValue._unwrap(v) else { return nil }
            if let xs = v as? [Any] { return xs }
            throw LayerKVCError.wrongType(key: k, expected: "[CGColor]", got: v)
        }
        return Dictionary(uniqueKeysWithValues: [
            field(\.colors, \.colors, "colors", colors),
            field(\.locations, \.locations, "locations", _ShapeState._dashPattern),
            field(\.startPoint, \.startPoint, "startPoint", point),
            field(\.endPoint, \.endPoint, "endPoint", point),
            field(\.type, \.type, "type", _KVCCoercion.rawString),
        ])
    }()
}

/// One KVC key of `CAGradientLayer` (see `_ShapeKeyEntry`).
struct _GradientKeyEntry: @unchecked Sendable {
    let entry: _LayerKeyEntry
    let setState: (inout _GradientState, Any?) throws -> Void
}

/// The values of a `CAGradientLayer`, with Apple's defaults.
struct _GradientState {
    static let storageKey = "\u{1}CAGradientLayer.state"

    var colors: [Any]? = nil
    var locations: [NSNumber]? = nil
    var startPoint = CGPoint(x: 0.5, y: 0)
    var endPoint = CGPoint(x: 0.5, y: 1)
    var type: CAGradientLayerType = .axial

    static func _default(forKey key: String) -> Any? {
        let d = _GradientState()
        switch key {
        case "colors": return d.colors
        case "locations": return d.locations
        case "startPoint": return d.startPoint
        case "endPoint": return d.endPoint
        case "type": return d.type
        default: return nil
        }
    }

    /// Colour arrays are equal when both are nil or have equal `CGColor`s in the same order.
    static func sameColors(_ a: [Any]?, _ b: [Any]?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case let (x?, y?):
            guard x.count == y.count else { return false }
            return zip(x, y).allSatisfy { p, q in
                if let c = p as? CGColor, let d = q as? CGColor { return c == d }
                return false
            }
        default: return false
        }
    }
}

/// The kind of gradient a `CAGradientLayer` draws (Apple's `CAGradientLayerType`).
public struct CAGradientLayerType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// From `startPoint` to `endPoint` (the default).
    public static let axial = CAGradientLayerType(rawValue: "axial")
    /// An ellipse centred at `startPoint`, radii from `endPoint`.
    public static let radial = CAGradientLayerType(rawValue: "radial")
    /// A sweep around `startPoint` starting towards `endPoint`.
    public static let conic = CAGradientLayerType(rawValue: "conic")
}

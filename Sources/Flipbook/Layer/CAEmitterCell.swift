import Foundation
import FlipbookGraphics

/// One kind of particle an emitter layer emits (Apple's `CAEmitterCell`): how many are born
/// per second, how long they live, how they move, turn, grow and change colour, and the image
/// they show. A cell's own `emitterCells` are emitted by each of its particles in turn.
///
/// Particles are computed, not simulated: see ``CAEmitterLayer`` for the model (every
/// particle a pure function of the seed, its birth index and the time). Defaults are Apple's:
/// `birthRate` 0 and `lifetime` 0 (a new cell emits nothing until given both), `scale` 1,
/// `color` opaque white, `contentsRect` the unit square, `isEnabled` true.
///
/// Units: angles in radians, `velocity` in points per second, accelerations in points per
/// second², `spin` in radians per second, colour ranges and speeds in colour units (0…1) and
/// units per second. A `…Range` value `r` spreads its property uniformly over `±r`.
open class CAEmitterCell: NSObject, CAMediaTiming {
    open var name: String?
    open var isEnabled = true
    /// Particles per second (times the layer's `birthRate`). Default 0.
    open var birthRate: Float = 0
    /// Seconds a particle lives (times the layer's `lifetime`), ± `lifetimeRange`. Default 0.
    open var lifetime: Float = 0
    open var lifetimeRange: Float = 0
    /// The direction of emission: `emissionLongitude` in the layer's x-y plane, measured from
    /// +x towards +y — clockwise on Flipbook's y-down screen, as on iOS — spread ± `emissionRange`.
    /// `emissionLatitude` tilts it out of the plane (the in-plane speed is `velocity·cos(latitude)`).
    open var emissionLatitude: CGFloat = 0
    open var emissionLongitude: CGFloat = 0
    open var emissionRange: CGFloat = 0
    open var velocity: CGFloat = 0
    open var velocityRange: CGFloat = 0
    /// Constant acceleration (y down: a positive `yAcceleration` falls, as on iOS).
    open var xAcceleration: CGFloat = 0
    open var yAcceleration: CGFloat = 0
    open var zAcceleration: CGFloat = 0
    open var scale: CGFloat = 1
    open var scaleRange: CGFloat = 0
    open var scaleSpeed: CGFloat = 0
    open var spin: CGFloat = 0
    open var spinRange: CGFloat = 0
    /// The colour the particle's image is multiplied by (straight RGBA). Default opaque white.
    open var color: CGColor? = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
    open var redRange: Float = 0
    open var greenRange: Float = 0
    open var blueRange: Float = 0
    open var alphaRange: Float = 0
    open var redSpeed: Float = 0
    open var greenSpeed: Float = 0
    open var blueSpeed: Float = 0
    open var alphaSpeed: Float = 0
    /// The particle's image (a `CGImage`); a cell without contents draws nothing (its
    /// sub-cells still emit).
    open var contents: Any?
    open var contentsRect = CGRect(x: 0, y: 0, width: 1, height: 1)
    /// Image pixels per point. Default 1.
    open var contentsScale: CGFloat = 1
    open var minificationFilter: String = "linear"
    open var magnificationFilter: String = "linear"
    open var minificationFilterBias: Float = 0
    /// Cells each particle of this cell emits.
    open var emitterCells: [CAEmitterCell]?
    /// Apple's "inherited attributes similar to in layers" (CAEmitterCell.h). Default nil.
    /// Stored, copied into nothing, read back as set: as for layers (docs/model.md), Flipbook
    /// does not look property values up in a style dictionary.
    open var style: [AnyHashable: Any]?
    /// Arbitrary values (Apple's cells are KVC containers).
    private var _values: [String: Any] = [:]

    // CAMediaTiming: the cell emits from `beginTime` (seconds after its emitter's time 0) for
    // `duration` seconds (0 = forever); the other members are stored.
    open var beginTime: CFTimeInterval = 0
    open var duration: CFTimeInterval = 0
    open var speed: Float = 1
    open var timeOffset: CFTimeInterval = 0
    open var repeatCount: Float = 0
    open var repeatDuration: CFTimeInterval = 0
    open var autoreverses = false
    open var fillMode: CAMediaTimingFillMode = .removed

    public override init() { super.init() }

    /// Apple's archive initializer (`NSSecureCoding`), here so that ported subclasses compile
    /// unchanged (`required init?(coder: NSCoder) { super.init(coder: coder) }`). Flipbook does
    /// not archive cells: it returns nil.
    public required init?(coder: NSCoder) {
        return nil
    }

    /// Apple's `+emitterCell` is imported into Swift as `CAEmitterCell()`; calling it by name
    /// does not compile there, nor here.
    @available(*, unavailable, message: "use object construction 'CAEmitterCell()'")
    public class func emitterCell() -> CAEmitterCell { CAEmitterCell() }

    /// Apple's default of each of the cell's properties (CAEmitterCell.h and the property
    /// pages: `isEnabled` true, `birthRate` and `lifetime` 0, `scale` 1, `color` opaque white,
    /// `contentsRect` the unit rectangle, `contentsScale` 1, the filters `linear`, `speed` 1,
    /// `fillMode` `removed`, everything else zero, false or nil), typed as the property is
    /// (`Float`, `CGFloat`, `CGColor`, `CGRect`, `String`, `CFTimeInterval`, …); nil for a key
    /// the cell does not declare. Override to give your own keys defaults (call `super`).
    open class func defaultValue(forKey key: String) -> Any? {
        switch key {
        case "enabled", "isEnabled": return true
        case "birthRate", "lifetime", "lifetimeRange": return Float(0)
        case "emissionLatitude", "emissionLongitude", "emissionRange", "velocity", "velocityRange",
             "xAcceleration", "yAcceleration", "zAcceleration", "scaleRange", "scaleSpeed", "spin", "spinRange":
            return CGFloat(0)
        case "scale", "contentsScale": return CGFloat(1)
        case "color": return CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        case "redRange", "greenRange", "blueRange", "alphaRange", "redSpeed", "greenSpeed", "blueSpeed", "alphaSpeed",
             "minificationFilterBias":
            return Float(0)
        case "contentsRect": return CGRect(x: 0, y: 0, width: 1, height: 1)
        case "minificationFilter", "magnificationFilter": return "linear"
        case "beginTime", "duration", "timeOffset", "repeatDuration": return CFTimeInterval(0)
        case "speed": return Float(1)
        case "repeatCount": return Float(0)
        case "autoreverses": return false
        case "fillMode": return CAMediaTimingFillMode.removed
        default: return nil   // name, contents, emitterCells, style: nil
        }
    }

    /// Whether `key`'s value would be archived: true (no archiving in Flipbook).
    open func shouldArchiveValue(forKey key: String) -> Bool { true }

    /// KVC read: a declared property's value (Apple's key: `enabled`, `birthRate`, …), else a
    /// value stored with ``setValue(_:forKey:)``, else ``defaultValue(forKey:)``.
    open func value(forKey key: String) -> Any? {
        if let k = CAEmitterCell._keys[key] { return k.get(self) }
        return _values[key] ?? type(of: self).defaultValue(forKey: key)
    }

    /// KVC write: a declared property is set through its (overridable) setter, numbers coerced
    /// (`Int`, `Double`, `NSNumber`, … for `Float`/`CGFloat` keys), `NSValue`-boxed rectangles
    /// unboxed; a wrong type is ignored and reported on standard error, as for layers. Any other
    /// key is stored (nil removes it).
    open func setValue(_ value: Any?, forKey key: String) {
        guard let k = CAEmitterCell._keys[key] else { _values[key] = value; return }
        do { try k.set(self, value) } catch { _KVCDiagnostics.report(error) }
    }

    /// The cell's declared keys: KVC read and write through the properties.
    private struct _Key: @unchecked Sendable {  // immutable after the table is built
        let get: (CAEmitterCell) -> Any?
        let set: (CAEmitterCell, Any?) throws -> Void
    }

    private static let _keys: [String: _Key] = {
        func key<T>(_ kp: ReferenceWritableKeyPath<CAEmitterCell, T>, _ coerce: @escaping (Any?, String) throws -> T,
                    _ name: String) -> (String, _Key) {
            (name, _Key(get: { _flattenOptional($0[keyPath: kp]) }, set: { c, v in c[keyPath: kp] = try coerce(v, name) }))
        }
        let flt = _KVCCoercion.float, num = _KVCCoercion.cgFloat, dbl = _KVCCoercion.timeInterval, bool = _KVCCoercion.boolean
        func string(_ v: Any?, _ k: String) throws -> String { try _KVCCoercion.exact(v, k, "String") }
        func optString(_ v: Any?, _ k: String) throws -> String? { try _KVCCoercion.optional(v, k, "String") }
        func color(_ v: Any?, _ k: String) throws -> CGColor? { try _KVCCoercion.optional(v, k, "CGColor") }
        func rect(_ v: Any?, _ k: String) throws -> CGRect { try _KVCCoercion.exact(v, k, "CGRect") }
        func cells(_ v: Any?, _ k: String) throws -> [CAEmitterCell]? { try _KVCCoercion.optional(v, k, "[CAEmitterCell]") }
        func dict(_ v: Any?, _ k: String) throws -> [AnyHashable: Any]? {
            guard let v else { return nil }
            if let d = v as? [AnyHashable: Any] { return d }
            if let d = v as? NSDictionary { return d as? [AnyHashable: Any] }
            throw LayerKVCError.wrongType(key: k, expected: "[AnyHashable: Any]", got: v)
        }
        func fill(_ v: Any?, _ k: String) throws -> CAMediaTimingFillMode { try _KVCCoercion.rawString(v, k) }
        var keys = Dictionary(uniqueKeysWithValues: [
            key(\.name, optString, "name"), key(\.isEnabled, bool, "enabled"),
            key(\.birthRate, flt, "birthRate"), key(\.lifetime, flt, "lifetime"), key(\.lifetimeRange, flt, "lifetimeRange"),
            key(\.emissionLatitude, num, "emissionLatitude"), key(\.emissionLongitude, num, "emissionLongitude"),
            key(\.emissionRange, num, "emissionRange"), key(\.velocity, num, "velocity"), key(\.velocityRange, num, "velocityRange"),
            key(\.xAcceleration, num, "xAcceleration"), key(\.yAcceleration, num, "yAcceleration"),
            key(\.zAcceleration, num, "zAcceleration"), key(\.scale, num, "scale"), key(\.scaleRange, num, "scaleRange"),
            key(\.scaleSpeed, num, "scaleSpeed"), key(\.spin, num, "spin"), key(\.spinRange, num, "spinRange"),
            key(\.color, color, "color"),
            key(\.redRange, flt, "redRange"), key(\.greenRange, flt, "greenRange"), key(\.blueRange, flt, "blueRange"),
            key(\.alphaRange, flt, "alphaRange"), key(\.redSpeed, flt, "redSpeed"), key(\.greenSpeed, flt, "greenSpeed"),
            key(\.blueSpeed, flt, "blueSpeed"), key(\.alphaSpeed, flt, "alphaSpeed"),
            key(\.contents, { v, _ in v }, "contents"), key(\.contentsRect, rect, "contentsRect"),
            key(\.contentsScale, num, "contentsScale"),
            key(\.minificationFilter, string, "minificationFilter"), key(\.magnificationFilter, string, "magnificationFilter"),
            key(\.minificationFilterBias, flt, "minificationFilterBias"),
            key(\.emitterCells, cells, "emitterCells"), key(\.style, dict, "style"),
            key(\.beginTime, dbl, "beginTime"), key(\.duration, dbl, "duration"), key(\.speed, flt, "speed"),
            key(\.timeOffset, dbl, "timeOffset"), key(\.repeatCount, flt, "repeatCount"),
            key(\.repeatDuration, dbl, "repeatDuration"), key(\.autoreverses, bool, "autoreverses"),
            key(\.fillMode, fill, "fillMode"),
        ])
        keys["isEnabled"] = keys["enabled"]   // the Swift name, as layers accept `isHidden`
        return keys
    }()
}

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
    /// The cell's values (all but its sub-cells): the storage of the properties below, and what
    /// an emitter's history freezes (``_CellValues``).
    final var _v = _CellValues()

    /// The name that key paths use to find the cell: `emitterCells.<name>.<key>` on the emitter
    /// layer (see ``CAEmitterLayer``).
    open var name: String? { get { _v.name } set { _v.name = newValue } }
    /// Whether the cell emits and draws. KVC key `enabled` (or `isEnabled`).
    open var isEnabled: Bool { get { _v.isEnabled } set { _v.isEnabled = newValue } }
    /// Particles per second (times the layer's `birthRate`). Default 0.
    open var birthRate: Float { get { _v.birthRate } set { _v.birthRate = newValue } }
    /// Seconds a particle lives (times the layer's `lifetime`), ± `lifetimeRange`. Default 0.
    open var lifetime: Float { get { _v.lifetime } set { _v.lifetime = newValue } }
    open var lifetimeRange: Float { get { _v.lifetimeRange } set { _v.lifetimeRange = newValue } }
    /// The direction of emission: `emissionLongitude` in the layer's x-y plane, measured from
    /// +x towards +y — clockwise on Flipbook's y-down screen, as on iOS — spread ± `emissionRange`.
    /// `emissionLatitude` tilts it out of the plane (the in-plane speed is `velocity·cos(latitude)`).
    open var emissionLatitude: CGFloat { get { _v.emissionLatitude } set { _v.emissionLatitude = newValue } }
    open var emissionLongitude: CGFloat { get { _v.emissionLongitude } set { _v.emissionLongitude = newValue } }
    open var emissionRange: CGFloat { get { _v.emissionRange } set { _v.emissionRange = newValue } }
    open var velocity: CGFloat { get { _v.velocity } set { _v.velocity = newValue } }
    open var velocityRange: CGFloat { get { _v.velocityRange } set { _v.velocityRange = newValue } }
    /// Constant acceleration (y down: a positive `yAcceleration` falls, as on iOS).
    open var xAcceleration: CGFloat { get { _v.xAcceleration } set { _v.xAcceleration = newValue } }
    open var yAcceleration: CGFloat { get { _v.yAcceleration } set { _v.yAcceleration = newValue } }
    open var zAcceleration: CGFloat { get { _v.zAcceleration } set { _v.zAcceleration = newValue } }
    open var scale: CGFloat { get { _v.scale } set { _v.scale = newValue } }
    open var scaleRange: CGFloat { get { _v.scaleRange } set { _v.scaleRange = newValue } }
    open var scaleSpeed: CGFloat { get { _v.scaleSpeed } set { _v.scaleSpeed = newValue } }
    open var spin: CGFloat { get { _v.spin } set { _v.spin = newValue } }
    open var spinRange: CGFloat { get { _v.spinRange } set { _v.spinRange = newValue } }
    /// The colour the particle's image is multiplied by (straight RGBA). Default opaque white.
    open var color: CGColor? { get { _v.color } set { _v.color = newValue } }
    open var redRange: Float { get { _v.redRange } set { _v.redRange = newValue } }
    open var greenRange: Float { get { _v.greenRange } set { _v.greenRange = newValue } }
    open var blueRange: Float { get { _v.blueRange } set { _v.blueRange = newValue } }
    open var alphaRange: Float { get { _v.alphaRange } set { _v.alphaRange = newValue } }
    open var redSpeed: Float { get { _v.redSpeed } set { _v.redSpeed = newValue } }
    open var greenSpeed: Float { get { _v.greenSpeed } set { _v.greenSpeed = newValue } }
    open var blueSpeed: Float { get { _v.blueSpeed } set { _v.blueSpeed = newValue } }
    open var alphaSpeed: Float { get { _v.alphaSpeed } set { _v.alphaSpeed = newValue } }
    /// The particle's image (a `CGImage`); a cell without contents draws nothing (its
    /// sub-cells still emit).
    open var contents: Any? { get { _v.contents } set { _v.contents = newValue } }
    open var contentsRect: CGRect { get { _v.contentsRect } set { _v.contentsRect = newValue } }
    /// Image pixels per point. Default 1.
    open var contentsScale: CGFloat { get { _v.contentsScale } set { _v.contentsScale = newValue } }
    open var minificationFilter: String { get { _v.minificationFilter } set { _v.minificationFilter = newValue } }
    open var magnificationFilter: String { get { _v.magnificationFilter } set { _v.magnificationFilter = newValue } }
    open var minificationFilterBias: Float { get { _v.minificationFilterBias } set { _v.minificationFilterBias = newValue } }
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
    open var beginTime: CFTimeInterval { get { _v.beginTime } set { _v.beginTime = newValue } }
    open var duration: CFTimeInterval { get { _v.duration } set { _v.duration = newValue } }
    open var speed: Float { get { _v.speed } set { _v.speed = newValue } }
    open var timeOffset: CFTimeInterval { get { _v.timeOffset } set { _v.timeOffset = newValue } }
    open var repeatCount: Float { get { _v.repeatCount } set { _v.repeatCount = newValue } }
    open var repeatDuration: CFTimeInterval { get { _v.repeatDuration } set { _v.repeatDuration = newValue } }
    open var autoreverses: Bool { get { _v.autoreverses } set { _v.autoreverses = newValue } }
    open var fillMode: CAMediaTimingFillMode { get { _v.fillMode } set { _v.fillMode = newValue } }

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

    /// KVC read: the declared properties (through the properties, so a subclass's override
    /// answers; `enabled` is `isEnabled`'s key, as on Apple), `emitterCells`, then custom keys,
    /// then `defaultValue(forKey:)`.
    open func value(forKey key: String) -> Any? {
        if let e = _CellValues.keys[key] { return e.getCell(self) }
        if key == "emitterCells" { return emitterCells }
        if key == "style" { return style }
        return _values[key] ?? Self.defaultValue(forKey: key)
    }

    /// KVC write: the declared properties (numbers coerced as for layers; a value of the wrong
    /// type is ignored and reported on standard error, as for layers), `emitterCells`, else a
    /// custom key (nil removes it).
    open func setValue(_ value: Any?, forKey key: String) {
        do { try _trySetValue(value, forKey: key) } catch { _KVCDiagnostics.report(error) }
    }

    /// Key paths below the cell: `emitterCells.<name>.<key>` (sub-cells by name) and struct
    /// components (`contentsRect.size.width`). Nil when the path names nothing.
    open func value(forKeyPath keyPath: String) -> Any? {
        try? CALayer._resolve(self, keyPath.split(separator: ".", omittingEmptySubsequences: false)[...], keyPath: keyPath)
    }

    /// `setValue(_:forKeyPath:)` through the same paths (a bad path or value is ignored and
    /// reported on standard error).
    open func setValue(_ value: Any?, forKeyPath keyPath: String) {
        do {
            let parts = keyPath.split(separator: ".", omittingEmptySubsequences: false)
            try _trySetValue(value, path: parts[...], keyPath: keyPath)
        } catch { _KVCDiagnostics.report(error) }
    }

    /// `setValue(_:forKey:)` that throws on a value of the wrong type.
    final func _trySetValue(_ value: Any?, forKey key: String) throws {
        if let e = _CellValues.keys[key] { return try e.setCell(self, value) }
        if key == "emitterCells" {
            emitterCells = try _KVCCoercion.optional(value, key, "[CAEmitterCell]")
            return
        }
        if key == "style" {
            guard let value else { style = nil; return }
            if let d = value as? [AnyHashable: Any] { style = d; return }
            if let d = value as? NSDictionary, let sd = d as? [AnyHashable: Any] { style = sd; return }
            throw LayerKVCError.wrongType(key: key, expected: "[AnyHashable: Any]", got: value)
        }
        _values[key] = value
    }

    /// The value at `key` for key-path resolution: a declared key, `emitterCells`, or a custom
    /// key that has a value; anything else names nothing (throws).
    final func _tryValue(forKey key: String, keyPath: String) throws -> Any? {
        if _CellValues.keys[key] != nil || key == "emitterCells" || key == "style" || _values[key] != nil { return value(forKey: key) }
        throw LayerKVCError.unknownKeyPathComponent(keyPath: keyPath, component: key)
    }

    /// Sets the value at the key path `path` below this cell.
    final func _trySetValue(_ value: Any?, path: ArraySlice<Substring>, keyPath: String) throws {
        guard let first = path.first, !first.isEmpty else {
            throw LayerKVCError.unknownKeyPathComponent(keyPath: keyPath, component: "")
        }
        let rest = path.dropFirst()
        if rest.isEmpty { return try _trySetValue(value, forKey: String(first)) }
        if first == "emitterCells" {
            let name = rest.first!
            guard let sub = emitterCells?.first(where: { $0.name == String(name) }) else {
                throw LayerKVCError.unknownKeyPathComponent(keyPath: keyPath, component: String(name))
            }
            return try sub._trySetValue(value, path: rest.dropFirst(), keyPath: keyPath)
        }
        guard let top = try _tryValue(forKey: String(first), keyPath: keyPath), _StructKeyPath.isStruct(top) else {
            throw LayerKVCError.unknownKeyPathComponent(keyPath: keyPath, component: String(rest.first!))
        }
        try _trySetValue(try _StructKeyPath.set(top, rest, to: value, keyPath: keyPath), forKey: String(first))
    }

    /// The cell's values with its sub-cells' (recursively) in `subcells`: what a particle born
    /// now reads. Cycles (a cell among its own sub-cells) stop at 64 levels.
    final func _frozen(depth: Int = 0) -> _CellValues {
        var v = _v
        if depth < 64 { v.subcells = emitterCells?.map { $0._frozen(depth: depth + 1) } }
        return v
    }

    /// A copy of the cell as a `CAEmitterCell` (a subclass's `init()` is not `required`, as on
    /// Apple, so it cannot be called on the cell's own class): its values, sub-cells (the same
    /// objects), style and custom keys. Used by presentation copies, which must not change the
    /// model's cells; the particles read only these values.
    final func _copy() -> CAEmitterCell {
        let c = CAEmitterCell()
        c.style = style
        c._v = _v
        c.emitterCells = emitterCells
        c._values = _values
        return c
    }
}

/// The values of one emitter cell, with Apple's defaults: the storage of ``CAEmitterCell`` and,
/// frozen with its sub-cells in `subcells`, a cell as an emitter's history keeps it.
struct _CellValues {
    var name: String? = nil
    var isEnabled = true
    var birthRate: Float = 0
    var lifetime: Float = 0
    var lifetimeRange: Float = 0
    var emissionLatitude: CGFloat = 0
    var emissionLongitude: CGFloat = 0
    var emissionRange: CGFloat = 0
    var velocity: CGFloat = 0
    var velocityRange: CGFloat = 0
    var xAcceleration: CGFloat = 0
    var yAcceleration: CGFloat = 0
    var zAcceleration: CGFloat = 0
    var scale: CGFloat = 1
    var scaleRange: CGFloat = 0
    var scaleSpeed: CGFloat = 0
    var spin: CGFloat = 0
    var spinRange: CGFloat = 0
    var color: CGColor? = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
    var redRange: Float = 0
    var greenRange: Float = 0
    var blueRange: Float = 0
    var alphaRange: Float = 0
    var redSpeed: Float = 0
    var greenSpeed: Float = 0
    var blueSpeed: Float = 0
    var alphaSpeed: Float = 0
    var contents: Any? = nil
    var contentsRect = CGRect(x: 0, y: 0, width: 1, height: 1)
    var contentsScale: CGFloat = 1
    var minificationFilter: String = "linear"
    var magnificationFilter: String = "linear"
    var minificationFilterBias: Float = 0
    var beginTime: CFTimeInterval = 0
    var duration: CFTimeInterval = 0
    var speed: Float = 1
    var timeOffset: CFTimeInterval = 0
    var repeatCount: Float = 0
    var repeatDuration: CFTimeInterval = 0
    var autoreverses = false
    var fillMode: CAMediaTimingFillMode = .removed
    /// Frozen copies only: the sub-cells' values (a live cell's sub-cells are its `emitterCells`).
    var subcells: [_CellValues]? = nil

    /// One KVC key of a cell: on the values (frozen cells) and through the class's property.
    struct Key: @unchecked Sendable {  // immutable after the table is built
        let get: (_CellValues) -> Any?
        let set: (inout _CellValues, Any?) throws -> Void
        let getCell: (CAEmitterCell) -> Any?
        let setCell: (CAEmitterCell, Any?) throws -> Void
    }

    /// The declared keys (Apple's KVC names; `isEnabled` also answers to `enabled`).
    static let keys: [String: Key] = {
        func key<T>(_ name: String, _ c: ReferenceWritableKeyPath<CAEmitterCell, T>, _ v: WritableKeyPath<_CellValues, T>,
                    _ coerce: @escaping (Any?, String) throws -> T) -> (String, Key) {
            (name, Key(get: { _flattenOptional($0[keyPath: v]) }, set: { $0[keyPath: v] = try coerce($1, name) },
                       getCell: { _flattenOptional($0[keyPath: c]) }, setCell: { $0[keyPath: c] = try coerce($1, name) }))
        }
        let string: (Any?, String) throws -> String = { try _KVCCoercion.exact($0, $1, "String") }
        return Dictionary(uniqueKeysWithValues: [
            key("name", \.name, \.name, { try _KVCCoercion.optional($0, $1, "String") }),
            key("enabled", \.isEnabled, \.isEnabled, _KVCCoercion.boolean),
            key("isEnabled", \.isEnabled, \.isEnabled, _KVCCoercion.boolean),
            key("birthRate", \.birthRate, \.birthRate, _KVCCoercion.float),
            key("lifetime", \.lifetime, \.lifetime, _KVCCoercion.float),
            key("lifetimeRange", \.lifetimeRange, \.lifetimeRange, _KVCCoercion.float),
            key("emissionLatitude", \.emissionLatitude, \.emissionLatitude, _KVCCoercion.cgFloat),
            key("emissionLongitude", \.emissionLongitude, \.emissionLongitude, _KVCCoercion.cgFloat),
            key("emissionRange", \.emissionRange, \.emissionRange, _KVCCoercion.cgFloat),
            key("velocity", \.velocity, \.velocity, _KVCCoercion.cgFloat),
            key("velocityRange", \.velocityRange, \.velocityRange, _KVCCoercion.cgFloat),
            key("xAcceleration", \.xAcceleration, \.xAcceleration, _KVCCoercion.cgFloat),
            key("yAcceleration", \.yAcceleration, \.yAcceleration, _KVCCoercion.cgFloat),
            key("zAcceleration", \.zAcceleration, \.zAcceleration, _KVCCoercion.cgFloat),
            key("scale", \.scale, \.scale, _KVCCoercion.cgFloat),
            key("scaleRange", \.scaleRange, \.scaleRange, _KVCCoercion.cgFloat),
            key("scaleSpeed", \.scaleSpeed, \.scaleSpeed, _KVCCoercion.cgFloat),
            key("spin", \.spin, \.spin, _KVCCoercion.cgFloat),
            key("spinRange", \.spinRange, \.spinRange, _KVCCoercion.cgFloat),
            key("color", \.color, \.color, { try _KVCCoercion.optional($0, $1, "CGColor") }),
            key("redRange", \.redRange, \.redRange, _KVCCoercion.float),
            key("greenRange", \.greenRange, \.greenRange, _KVCCoercion.float),
            key("blueRange", \.blueRange, \.blueRange, _KVCCoercion.float),
            key("alphaRange", \.alphaRange, \.alphaRange, _KVCCoercion.float),
            key("redSpeed", \.redSpeed, \.redSpeed, _KVCCoercion.float),
            key("greenSpeed", \.greenSpeed, \.greenSpeed, _KVCCoercion.float),
            key("blueSpeed", \.blueSpeed, \.blueSpeed, _KVCCoercion.float),
            key("alphaSpeed", \.alphaSpeed, \.alphaSpeed, _KVCCoercion.float),
            key("contents", \.contents, \.contents, { v, _ in v }),
            key("contentsRect", \.contentsRect, \.contentsRect, { try _KVCCoercion.exact($0, $1, "CGRect") }),
            key("contentsScale", \.contentsScale, \.contentsScale, _KVCCoercion.cgFloat),
            key("minificationFilter", \.minificationFilter, \.minificationFilter, string),
            key("magnificationFilter", \.magnificationFilter, \.magnificationFilter, string),
            key("minificationFilterBias", \.minificationFilterBias, \.minificationFilterBias, _KVCCoercion.float),
            key("beginTime", \.beginTime, \.beginTime, _KVCCoercion.timeInterval),
            key("duration", \.duration, \.duration, _KVCCoercion.timeInterval),
            key("speed", \.speed, \.speed, _KVCCoercion.float),
            key("timeOffset", \.timeOffset, \.timeOffset, _KVCCoercion.timeInterval),
            key("repeatCount", \.repeatCount, \.repeatCount, _KVCCoercion.float),
            key("repeatDuration", \.repeatDuration, \.repeatDuration, _KVCCoercion.timeInterval),
            key("autoreverses", \.autoreverses, \.autoreverses, _KVCCoercion.boolean),
            key("fillMode", \.fillMode, \.fillMode, { try _KVCCoercion.rawString($0, $1) }),
        ])
    }()
}

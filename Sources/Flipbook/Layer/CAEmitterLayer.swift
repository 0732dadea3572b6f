import Foundation
import FlipbookGraphics

/// A layer that emits particles (Apple's `CAEmitterLayer`): confetti, sparks, snow.
///
/// **Particles are a function of time.** Nothing is simulated frame to frame: particle `k` of
/// a cell is born at `beginTime + k / rate` (rate = cell `birthRate` × layer `birthRate`) and
/// every random quantity it has (lifetime, position on the emitter shape, direction, speed,
/// scale, spin, colour) comes from a counter-based hash of (`seed`, the cell's path in the cell
/// tree, `k`, the quantity) — SplitMix64 — so the particles on screen at time `t` are the same
/// whether the render started at frame 0 or at frame 5,000, and on any number of threads.
/// Positions follow closed forms: `p = p₀ + v·a + ½·g·a²` at age `a`; `scale + scaleSpeed·a`;
/// `spin·a`; colour `+ speed·a`, clamped. Chosen where Apple is silent: rates and multipliers are
/// read at the time drawn (an animated `birthRate` re-times all births; Core Animation
/// integrates it); at most 100,000 particles per cell are alive (the newest), so a hostile
/// `birthRate` costs bounded work.
///
/// **Emitter shapes** (`emitterPosition` is the centre, `emitterSize` the extent): `point`;
/// `line` along x; `rectangle` (and `cuboid`, flattened); `circle` (and `sphere`) of radius
/// `emitterSize.width / 2`. `emitterMode` `outline` emits from the outline of a rectangle or
/// circle, the other modes from the inside (`points` from the point).
///
/// **Drawing.** Each particle is its cell's `contents` image centred on the particle, sized
/// `image pixels / contentsScale × scale`, turned by its spin, its colours multiplied by the
/// particle colour, after the layer's own content and before its sublayers. `renderMode`:
/// `unordered` and `oldestFirst` draw cell by cell, oldest first; `oldestLast` newest first;
/// `backToFront` as `oldestFirst` (no depth); `additive` adds the particles' colours
/// (plus-lighter). Nested cells: each particle of a cell emits its sub-cells from where it is,
/// relative to its direction of travel at their birth.
open class CAEmitterLayer: CALayer {
    /// Presentation copies of this class and of your subclasses of it (see `CALayer.init(layer:)`).
    override package class func _makePresentationCopy(of model: CALayer) -> CALayer { CAEmitterLayer(layer: model) }

    final var _emitter: _EmitterState {
        get { _emitterState(in: _extras) }
        set { _extras[_EmitterState.storageKey] = newValue }
    }

    /// The emitter values stored in `extras` (this layer's, a presentation copy's or a committed
    /// state's), or the class's defaults: Apple's, overridden by a subclass's
    /// `defaultValue(forKey:)` for the emitter keys (as for the other built-in layer classes).
    final func _emitterState(in extras: [String: Any]) -> _EmitterState {
        if let s = extras[_EmitterState.storageKey] as? _EmitterState { return s }
        let cls = _modelClass   // a copy answers with the model's defaults
        guard cls != CAEmitterLayer.self else { return _EmitterState() }
        var s = _EmitterState()
        for (key, setState) in CAEmitterLayer._stateSetters {
            guard let v = cls.defaultValue(forKey: key) else { continue }
            try? setState(&s, v)
        }
        return s
    }

    final func _setEmitter<T: Equatable>(_ field: WritableKeyPath<_EmitterState, T>, _ new: T, key: String) {
        _setSubclassField(\CAEmitterLayer._emitter, field, new, key: key)
    }

    /// The cells emitted. Default nil.
    open var emitterCells: [CAEmitterCell]? {
        get { _emitter.cells }
        set { var s = _emitter; s.cells = newValue; _extras[_EmitterState.storageKey] = s }
    }
    /// Multiplies every cell's birth rate. Default 1. Animatable.
    open var birthRate: Float { get { _emitter.birthRate } set { _setEmitter(\.birthRate, newValue, key: "birthRate") } }
    /// Multiplies every cell's lifetime. Default 1. Animatable.
    open var lifetime: Float { get { _emitter.lifetime } set { _setEmitter(\.lifetime, newValue, key: "lifetime") } }
    open var emitterPosition: CGPoint { get { _emitter.position } set { _setEmitter(\.position, newValue, key: "emitterPosition") } }
    open var emitterZPosition: CGFloat { get { _emitter.zPosition } set { _setEmitter(\.zPosition, newValue, key: "emitterZPosition") } }
    open var emitterSize: CGSize { get { _emitter.size } set { _setEmitter(\.size, newValue, key: "emitterSize") } }
    open var emitterDepth: CGFloat { get { _emitter.depth } set { _setEmitter(\.depth, newValue, key: "emitterDepth") } }
    open var emitterShape: CAEmitterLayerEmitterShape { get { _emitter.shape } set { _setEmitter(\.shape, newValue, key: "emitterShape") } }
    open var emitterMode: CAEmitterLayerEmitterMode { get { _emitter.mode } set { _setEmitter(\.mode, newValue, key: "emitterMode") } }
    open var renderMode: CAEmitterLayerRenderMode { get { _emitter.renderMode } set { _setEmitter(\.renderMode, newValue, key: "renderMode") } }
    open var preservesDepth: Bool { get { _emitter.preservesDepth } set { _setEmitter(\.preservesDepth, newValue, key: "preservesDepth") } }
    /// Multiplies every cell's velocity. Default 1. Animatable.
    open var velocity: Float { get { _emitter.velocity } set { _setEmitter(\.velocity, newValue, key: "velocity") } }
    /// Multiplies every cell's scale. Default 1. Animatable.
    open var scale: Float { get { _emitter.scale } set { _setEmitter(\.scale, newValue, key: "scale") } }
    /// Multiplies every cell's spin. Default 1. Animatable.
    open var spin: Float { get { _emitter.spin } set { _setEmitter(\.spin, newValue, key: "spin") } }
    /// The seed of every random quantity. Default 0.
    open var seed: UInt32 { get { _emitter.seed } set { _setEmitter(\.seed, newValue, key: "seed") } }

    /// Apple's defaults for the emitter keys (CAEmitterLayer.h: `birthRate`, `lifetime`,
    /// `velocity`, `scale` and `spin` 1; `emitterShape` `point`, `emitterMode` `volume`,
    /// `renderMode` `unordered`; the rest zero, false or nil), then `CALayer`'s. Each value has
    /// its property's type (`Float` for the multipliers, `CGFloat`, `CGPoint`, `CGSize`,
    /// `UInt32` for `seed`, the mode structs).
    open override class func defaultValue(forKey key: String) -> Any? {
        if _keyEntries[key] != nil { return _EmitterState._default(forKey: key) }
        return super.defaultValue(forKey: key)
    }

    /// Writers of each emitter key into a bare `_EmitterState` (a subclass's defaults), with
    /// the coercions of the KVC entries.
    static let _stateSetters: [String: @Sendable (inout _EmitterState, Any?) throws -> Void] = [
        "birthRate": { s, v in s.birthRate = Float(try _number(v, "birthRate")) },
        "lifetime": { s, v in s.lifetime = Float(try _number(v, "lifetime")) },
        "velocity": { s, v in s.velocity = Float(try _number(v, "velocity")) },
        "scale": { s, v in s.scale = Float(try _number(v, "scale")) },
        "spin": { s, v in s.spin = Float(try _number(v, "spin")) },
        "emitterZPosition": { s, v in s.zPosition = CGFloat(try _number(v, "emitterZPosition")) },
        "emitterDepth": { s, v in s.depth = CGFloat(try _number(v, "emitterDepth")) },
        "seed": { s, v in s.seed = _EmitterState._seed(try _number(v, "seed")) },
        "emitterPosition": { s, v in s.position = try _KVCCoercion.exact(_AnimValue._unwrap(v), "emitterPosition", "CGPoint") },
        "emitterSize": { s, v in s.size = try _KVCCoercion.exact(_AnimValue._unwrap(v), "emitterSize", "CGSize") },
        "emitterShape": { s, v in s.shape = try _KVCCoercion.rawString(v, "emitterShape") },
        "emitterMode": { s, v in s.mode = try _KVCCoercion.rawString(v, "emitterMode") },
        "renderMode": { s, v in s.renderMode = try _KVCCoercion.rawString(v, "renderMode") },
        "preservesDepth": { s, v in s.preservesDepth = try _KVCCoercion.boolean(v, "preservesDepth") },
        "emitterCells": { s, v in s.cells = try _KVCCoercion.optional(v, "emitterCells", "[CAEmitterCell]") },
    ]

    /// A KVC number (any numeric type, `NSNumber`, optional-wrapped).
    static func _number(_ v: Any?, _ key: String) throws -> Double {
        guard let d = _KVCCoercion.double(_AnimValue._unwrap(v) as Any) else {
            throw LayerKVCError.wrongType(key: key, expected: "a number", got: v)
        }
        return d
    }

    /// KVC entries of the emitter's keys (through the properties; numbers coerced).
    static let _keyEntries: [String: _LayerKeyEntry] = {
        func num(_ key: String, _ set: @escaping (CAEmitterLayer, Double) -> Void, _ get: @escaping (CAEmitterLayer) -> Any) -> (String, _LayerKeyEntry) {
            (key, _LayerKeyEntry(get: { ($0 as? CAEmitterLayer).map(get) },
                                 set: { l, v in
                                     guard let d = _KVCCoercion.double(_AnimValue._unwrap(v) as Any) else {
                                         throw LayerKVCError.wrongType(key: key, expected: "a number", got: v)
                                     }
                                     if let e = l as? CAEmitterLayer { set(e, d) }
                                 }, getState: nil, setState: nil))
        }
        func value<T>(_ key: String, _ type: String, _ set: @escaping (CAEmitterLayer, T) -> Void, _ get: @escaping (CAEmitterLayer) -> Any?) -> (String, _LayerKeyEntry) {
            (key, _LayerKeyEntry(get: { ($0 as? CAEmitterLayer).flatMap(get) },
                                 set: { l, v in
                                     guard let t = _AnimValue._unwrap(v) as? T else { throw LayerKVCError.wrongType(key: key, expected: type, got: v) }
                                     if let e = l as? CAEmitterLayer { set(e, t) }
                                 }, getState: nil, setState: nil))
        }
        /// A string-valued mode: the struct or its raw `String`, as Apple's `NSString` constants.
        func mode<T: RawRepresentable>(_ key: String, _ set: @escaping (CAEmitterLayer, T) -> Void,
                                       _ get: @escaping (CAEmitterLayer) -> T) -> (String, _LayerKeyEntry) where T.RawValue == String {
            (key, _LayerKeyEntry(get: { ($0 as? CAEmitterLayer).map(get) },
                                 set: { l, v in
                                     let t: T = try _KVCCoercion.rawString(v, key)
                                     if let e = l as? CAEmitterLayer { set(e, t) }
                                 }, getState: nil, setState: nil))
        }
        return Dictionary(uniqueKeysWithValues: [
            num("birthRate", { $0.birthRate = Float($1) }, { $0.birthRate }),
            num("lifetime", { $0.lifetime = Float($1) }, { $0.lifetime }),
            num("velocity", { $0.velocity = Float($1) }, { $0.velocity }),
            num("scale", { $0.scale = Float($1) }, { $0.scale }),
            num("spin", { $0.spin = Float($1) }, { $0.spin }),
            num("emitterZPosition", { $0.emitterZPosition = CGFloat($1) }, { $0.emitterZPosition }),
            num("emitterDepth", { $0.emitterDepth = CGFloat($1) }, { $0.emitterDepth }),
            num("seed", { $0.seed = _EmitterState._seed($1) }, { $0.seed }),
            value("emitterPosition", "CGPoint", { (e: CAEmitterLayer, p: CGPoint) in e.emitterPosition = p }, { $0.emitterPosition }),
            value("emitterSize", "CGSize", { (e: CAEmitterLayer, p: CGSize) in e.emitterSize = p }, { $0.emitterSize }),
            value("emitterCells", "[CAEmitterCell]", { (e: CAEmitterLayer, c: [CAEmitterCell]) in e.emitterCells = c }, { $0.emitterCells }),
            mode("emitterShape", { (e: CAEmitterLayer, m: CAEmitterLayerEmitterShape) in e.emitterShape = m }, { $0.emitterShape }),
            mode("emitterMode", { (e: CAEmitterLayer, m: CAEmitterLayerEmitterMode) in e.emitterMode = m }, { $0.emitterMode }),
            mode("renderMode", { (e: CAEmitterLayer, m: CAEmitterLayerRenderMode) in e.renderMode = m }, { $0.renderMode }),
            ("preservesDepth", _LayerKeyEntry(get: { ($0 as? CAEmitterLayer)?.preservesDepth },
                                              set: { l, v in (l as? CAEmitterLayer)?.preservesDepth = try _KVCCoercion.boolean(v, "preservesDepth") },
                                              getState: nil, setState: nil)),
        ])
    }()

    package static let _emitterImplicitlyAnimatableKeys: Set<String> = [
        "birthRate", "lifetime", "emitterPosition", "emitterZPosition", "emitterSize", "emitterDepth",
        "velocity", "scale", "spin",
    ]
}

/// Emitter shapes (Apple's `CAEmitterLayerEmitterShape`).
public struct CAEmitterLayerEmitterShape: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let point = CAEmitterLayerEmitterShape(rawValue: "point")
    public static let line = CAEmitterLayerEmitterShape(rawValue: "line")
    public static let rectangle = CAEmitterLayerEmitterShape(rawValue: "rectangle")
    public static let cuboid = CAEmitterLayerEmitterShape(rawValue: "cuboid")
    public static let circle = CAEmitterLayerEmitterShape(rawValue: "circle")
    public static let sphere = CAEmitterLayerEmitterShape(rawValue: "sphere")
}

/// Where on the shape particles start (Apple's `CAEmitterLayerEmitterMode`).
public struct CAEmitterLayerEmitterMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let points = CAEmitterLayerEmitterMode(rawValue: "points")
    public static let outline = CAEmitterLayerEmitterMode(rawValue: "outline")
    public static let surface = CAEmitterLayerEmitterMode(rawValue: "surface")
    public static let volume = CAEmitterLayerEmitterMode(rawValue: "volume")
}

/// How particles are composited (Apple's `CAEmitterLayerRenderMode`).
public struct CAEmitterLayerRenderMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let unordered = CAEmitterLayerRenderMode(rawValue: "unordered")
    public static let oldestFirst = CAEmitterLayerRenderMode(rawValue: "oldestFirst")
    public static let oldestLast = CAEmitterLayerRenderMode(rawValue: "oldestLast")
    public static let backToFront = CAEmitterLayerRenderMode(rawValue: "backToFront")
    public static let additive = CAEmitterLayerRenderMode(rawValue: "additive")
}

/// The values of a `CAEmitterLayer`, with Apple's defaults. (`cells` compares by identity.)
struct _EmitterState: Equatable {
    static let storageKey = "\u{1}CAEmitterLayer.state"
    var cells: [CAEmitterCell]? = nil
    var birthRate: Float = 1
    var lifetime: Float = 1
    var position: CGPoint = .zero
    var zPosition: CGFloat = 0
    var size: CGSize = .zero
    var depth: CGFloat = 0
    var shape: CAEmitterLayerEmitterShape = .point
    var mode: CAEmitterLayerEmitterMode = .volume
    var renderMode: CAEmitterLayerRenderMode = .unordered
    var preservesDepth = false
    var velocity: Float = 1
    var scale: Float = 1
    var spin: Float = 1
    var seed: UInt32 = 0

    /// Apple's default for an emitter key, typed as its property; nil for other keys.
    static func _default(forKey key: String) -> Any? {
        let d = _EmitterState()
        switch key {
        case "emitterCells": return d.cells
        case "birthRate": return d.birthRate
        case "lifetime": return d.lifetime
        case "emitterPosition": return d.position
        case "emitterZPosition": return d.zPosition
        case "emitterSize": return d.size
        case "emitterDepth": return d.depth
        case "emitterShape": return d.shape
        case "emitterMode": return d.mode
        case "renderMode": return d.renderMode
        case "preservesDepth": return d.preservesDepth
        case "velocity": return d.velocity
        case "scale": return d.scale
        case "spin": return d.spin
        case "seed": return d.seed
        default: return nil
        }
    }

    /// A KVC number as a seed: rounded, wrapped to 32 bits (0 when not representable).
    static func _seed(_ d: Double) -> UInt32 {
        UInt32(truncatingIfNeeded: Int(exactly: d.rounded()) ?? 0)
    }

    static func == (a: _EmitterState, b: _EmitterState) -> Bool {
        a.cells.map { $0.map(ObjectIdentifier.init) } == b.cells.map { $0.map(ObjectIdentifier.init) }
            && a.birthRate == b.birthRate && a.lifetime == b.lifetime && a.position == b.position
            && a.zPosition == b.zPosition && a.size == b.size && a.depth == b.depth && a.shape == b.shape
            && a.mode == b.mode && a.renderMode == b.renderMode && a.preservesDepth == b.preservesDepth
            && a.velocity == b.velocity && a.scale == b.scale && a.spin == b.spin && a.seed == b.seed
    }
}

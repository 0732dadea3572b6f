import Foundation
import FlipbookGraphics

/// A layer that emits particles (Apple's `CAEmitterLayer`): confetti, sparks, snow.
///
/// **Particles are a function of time.** Nothing is simulated frame to frame: a cell's births
/// are numbered `k = 0, 1, 2, …` and particle `k` is born when the integral of the cell's rate
/// (cell `birthRate` × layer `birthRate`, from the cell's `beginTime` for its `duration`)
/// reaches `k` — at `beginTime + k / rate` while nothing changes — and every random quantity
/// it has (lifetime, position on the emitter shape, direction, speed, scale, spin, colour)
/// comes from a counter-based hash of (`seed`, the cell's path in the cell tree, `k`, the
/// quantity) — SplitMix64 — so the particles on screen at time `t` are the same whether the
/// render started at frame 0 or at frame 5,000, and on any number of threads. Positions follow
/// closed forms: `p = p₀ + v·a + ½·g·a²` at age `a`; `scale + scaleSpeed·a`; `spin·a`; colour
/// `+ speed·a`, clamped. At most 100,000 particles per cell are alive (the newest), so a
/// hostile `birthRate` costs bounded work.
///
/// **What a particle reads at its birth.** As on Apple, where the render server simulates each
/// particle from its birth, a particle reads the emitter as it was when it was born: the
/// layer's multipliers (`birthRate`, `lifetime`, `velocity`, `scale`, `spin`), `seed`, the
/// emitter's position, size, shape and mode, and its cell's values (its sub-cells' particles
/// read the values their parent was born with). Changing any of them later changes only later
/// births: SAConfettiView's `stopConfetti()` (`emitter.birthRate = 0`) stops new confetti and
/// lets the confetti already falling finish. `renderMode` is read at the time drawn, and a cell
/// disabled then (`isEnabled`) draws nothing. To stay a pure function of (tree, time), the
/// model keeps a **history** (custom-key storage, so presentation copies and the committed
/// state carry it): each emitter change — a setter above, `emitterCells` (set even to the same
/// array), a key path into a cell — made after the layer's first commit closes the segment of
/// values in effect, frozen, at the layer-local time of the change (the time of its
/// transaction's commit; Flipbook shows uncommitted changes, so a change made inside an
/// explicit transaction held open across `advance(to:)` counts from when it was made), and
/// births integrate the piecewise-constant rate across segments (numbering goes on; while the
/// rate and the cell's timing are unchanged, birth times do not move). Values set before the
/// first commit are the ones the emitter has always had. Changing the layer's own `beginTime`,
/// `speed` or `timeOffset` carries the history's times along (`emitter.beginTime =
/// CACurrentMediaTime()` restarts the clock; what happened keeps its moment); a change stamped
/// earlier than the last one (an ancestor's timing went back) starts the history again.
/// **Bound:** 256 segments; past that the oldest is dropped together with its particles (the
/// births counted before it are kept, so no later particle moves) — a scene changing its
/// emitter more than 256 times within a lifetime loses its oldest particles.
///
/// **Animations** of those values (explicit, or implicit: `birthRate` and the other
/// animatable keys animate implicitly on a live layer, 0.25 s) are recorded when committed and
/// kept after they are removed: births while one runs read its value at their birth, sampled
/// in equal steps across a finite active duration (60 a second, at most 64 steps), so an
/// implicit fade of `birthRate` to 0 thins the births out and the particles born during it
/// stay. Chosen where Apple is silent: an animation with an infinite active duration
/// (`repeatCount = .infinity`) gives the births since it began its value at the time drawn
/// (an animated `birthRate` then re-times them, as every animated multiplier did before the
/// history existed). At most 32 records (the oldest dropped: the births in its time read the
/// model's values).
///
/// **Key paths into cells** (Apple's `CAEmitterCell.name`: "the cell name is used when
/// constructing animation key paths"): `emitterCells.<name>.<key>`, nested
/// `emitterCells.<a>.emitterCells.<b>.<key>`, and struct components below a key
/// (`emitterCells.spark.contentsRect.size.width`); the first cell with each name. Read with
/// `value(forKeyPath:)`; set with `setValue(_:forKeyPath:)` — the cell object changes (as on
/// Apple), stamped into the history, and the action search runs for the whole key path (so an
/// `actions` entry or a delegate can animate it; there is no implicit animation); animated with
/// `CABasicAnimation(keyPath: "emitterCells.spark.birthRate")`, whose presentation value does
/// not change the model's cell. A cell changed directly (`cell.birthRate = 0`, not through the
/// layer) is read for the births since the layer's last stamped change: Flipbook cannot see
/// the change happen (on Apple too such a change is not promised to reach the render server;
/// set it through the layer's key path, or assign `emitterCells` again).
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
        return CALayer._state(_EmitterState(), withDefaultsOf: cls,
                              setters: CAEmitterLayer._stateSetters.lazy.map { (key: $0.key, set: $0.value) })
    }

    /// Sets an emitter value through the one change path, stamping the change into the
    /// history first (particles already born keep the values they were born with).
    final func _setEmitter<T: Equatable>(_ field: WritableKeyPath<_EmitterState, T>, _ new: T, key: String) {
        if _emitter[keyPath: field] != new { _stampEmitterChange() }
        _setSubclassField(\CAEmitterLayer._emitter, field, new, key: key)
    }

    /// The cells emitted. Default nil. Setting it (even to the same array, the way code
    /// refreshes cells it changed directly) is a change: the action search runs for
    /// `emitterCells`, and particles born before keep their cells' values.
    open var emitterCells: [CAEmitterCell]? {
        get { _emitter.cells }
        set {
            _stampEmitterChange()
            _change("emitterCells", old: _emitter.cells, new: newValue) { l in
                guard let e = l as? CAEmitterLayer else { return }
                var s = e._emitter
                s.cells = newValue
                e._extras[_EmitterState.storageKey] = s
            }
        }
    }

    /// `setValue(_:forKeyPath:)` for `emitterCells.<name>(.emitterCells.<name>)….<key>(.<component>)`:
    /// the first cell with each name; the key is one of the cell's (see
    /// ``CAEmitterCell/value(forKey:)``). On the model the cell object itself changes (as on
    /// Apple), stamped into the history like any emitter change, and the action search runs
    /// for the whole key path (so `actions["emitterCells.spark.birthRate"]` or a delegate can
    /// animate it; there is no implicit animation). On a presentation copy the cells on the
    /// path are copied first, so the model's cells never change.
    final func _trySetCellValue(_ value: Any?, path: ArraySlice<Substring>, keyPath: String) throws {
        func unknown(_ c: Substring) -> LayerKVCError { .unknownKeyPathComponent(keyPath: keyPath, component: String(c)) }
        // The chain of (cells, index) down to the cell, and the key components after it.
        var chain: [(cells: [CAEmitterCell], index: Int)] = []
        var cells = emitterCells ?? []
        var rest = path
        while true {
            guard let name = rest.first else { throw unknown("") }
            guard let i = cells.firstIndex(where: { $0.name == String(name) }) else { throw unknown(name) }
            chain.append((cells, i))
            rest = rest.dropFirst()
            guard let next = rest.first else { throw unknown(name) }
            if next == "emitterCells", rest.count >= 2 {
                cells = cells[i].emitterCells ?? []
                rest = rest.dropFirst()
                continue
            }
            break
        }
        let cell = chain[chain.count - 1].cells[chain[chain.count - 1].index]
        let key = String(rest.first!)
        // The new value of the whole key, coerced (a struct component is read-modify-write).
        var new = value
        if rest.count > 1 {
            guard let top = try cell._tryValue(forKey: key, keyPath: keyPath), _StructKeyPath.isStruct(top) else {
                throw unknown(rest[rest.index(after: rest.startIndex)])
            }
            new = try _StructKeyPath.set(top, rest.dropFirst(), to: value, keyPath: keyPath)
        }
        if let entry = _CellValues.keys[key] {
            var probe = cell._v
            try entry.set(&probe, new)
            new = entry.get(probe)
        }
        let old = cell.value(forKey: key)
        if _kvcEqual(old, new) { return }
        if _modelLayer != nil || _isStandingInForPresentation {
            // Copy on write: each cell on the path, from the bottom up.
            var replacement = cell._copy()
            try replacement._trySetValue(new, forKey: key)
            for level in chain.indices.reversed() {
                var list = chain[level].cells
                list[chain[level].index] = replacement
                if level == 0 {
                    var s = _emitter
                    s.cells = list
                    _extras[_EmitterState.storageKey] = s
                } else {
                    let parent = chain[level - 1].cells[chain[level - 1].index]._copy()
                    parent.emitterCells = list
                    replacement = parent
                }
            }
            return
        }
        _stampEmitterChange()
        _change(keyPath, old: old, new: new) { _ in try? cell._trySetValue(new, forKey: key) }
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

    // The layer's own timing: the history's times are carried to the new timing.
    open override var beginTime: CFTimeInterval {
        get { super.beginTime }
        set { _retimingHistory { super.beginTime = newValue } }
    }
    open override var speed: Float {
        get { super.speed }
        set { _retimingHistory { super.speed = newValue } }
    }
    open override var timeOffset: CFTimeInterval {
        get { super.timeOffset }
        set { _retimingHistory { super.timeOffset = newValue } }
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

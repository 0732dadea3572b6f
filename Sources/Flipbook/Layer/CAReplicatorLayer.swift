import Foundation
import FlipbookGraphics

/// A layer that draws its sublayers `instanceCount` times (Apple's `CAReplicatorLayer`): the
/// classic spinning-dots activity indicator is one dot sublayer, twelve instances, each turned
/// 30° further and starting its animation a twelfth of a period later.
///
/// **Instance `i`** (0 … `instanceCount − 1`) of each sublayer (with its subtree) is drawn
/// - with `instanceTransform` applied `i` times, about the centre of the replicator's bounds
///   (Apple: "applied relative to the center of the replicator layer");
/// - at the time `i · instanceDelay` seconds earlier: its animations (and its sublayers') are
///   evaluated at `t − i·instanceDelay`, so an animation starts `i · instanceDelay` later in
///   instance `i` (before that, the instance shows the animation's value before it starts,
///   as any layer does);
/// - with every colour multiplied by `instanceColor + i · (red, green, blue, alpha offsets)`,
///   each component clamped to 0…1 — instance 0 by `instanceColor` itself. Premultiplied pixels
///   `(r, g, b, a)` become `(r·R·A, g·G·A, b·B·A, a·A)`: an instance whose multiplier is not
///   opaque white is composited as one offscreen group, then tinted.
///
/// Instances are drawn in order (instance 0 first) after the replicator's own content; with
/// `preservesDepth` they are sorted by depth instead, as in a ``CATransformLayer``.
///
/// **Animatable**: `instanceCount` (integers: the count switches at the midpoint),
/// `instanceDelay`, `instanceTransform`, `instanceColor` and the four offsets, implicitly and
/// explicitly.
open class CAReplicatorLayer: CALayer {
    /// Presentation copies of this class and of your subclasses of it (see `CALayer.init(layer:)`).
    override package class func _makePresentationCopy(of model: CALayer) -> CALayer { CAReplicatorLayer(layer: model) }

    final var _replicator: _ReplicatorState {
        get { _replicatorState(in: _extras) }
        set { _extras[_ReplicatorState.storageKey] = newValue }
    }

    final func _replicatorState(in extras: [String: Any]) -> _ReplicatorState {
        if let s = extras[_ReplicatorState.storageKey] as? _ReplicatorState { return s }
        let cls = _modelClass   // a copy answers with the model's defaults
        guard cls != CAReplicatorLayer.self else { return _ReplicatorState() }
        return CALayer._state(_ReplicatorState(), withDefaultsOf: cls,
                              setters: CAReplicatorLayer._keyEntries.lazy.map { (key: $0.key, set: $0.value.setState) })
    }

    final func _setReplicator<T: Equatable>(_ field: WritableKeyPath<_ReplicatorState, T>, _ new: T, key: String) {
        _setSubclassField(\CAReplicatorLayer._replicator, field, new, key: key)
    }

    /// How many copies of the sublayers are drawn (instance 0 is the sublayers themselves).
    /// Default 1. Animatable. Values below 1 draw no sublayer at all.
    open var instanceCount: Int {
        get { _replicator.instanceCount }
        set { _setReplicator(\.instanceCount, newValue, key: "instanceCount") }
    }
    /// Seconds between the times of consecutive instances. Default 0. Animatable.
    open var instanceDelay: CFTimeInterval {
        get { _replicator.instanceDelay }
        set { _setReplicator(\.instanceDelay, newValue, key: "instanceDelay") }
    }
    /// The transform from one instance to the next, about the replicator's centre. Default
    /// identity. Animatable.
    open var instanceTransform: CATransform3D {
        get { _replicator.instanceTransform }
        set { _setReplicator(\.instanceTransform, newValue, key: "instanceTransform") }
    }
    /// The colour every instance's colours are multiplied by (before the offsets). Default
    /// opaque white; nil reads as opaque white. Animatable.
    open var instanceColor: CGColor? {
        get { _replicator.instanceColor }
        set { _setReplicator(\.instanceColor, newValue, key: "instanceColor") }
    }
    /// Added to the red component of the multiplier for each instance after the first. Default 0. Animatable.
    open var instanceRedOffset: Float {
        get { _replicator.instanceRedOffset }
        set { _setReplicator(\.instanceRedOffset, newValue, key: "instanceRedOffset") }
    }
    /// As ``instanceRedOffset`` for green.
    open var instanceGreenOffset: Float {
        get { _replicator.instanceGreenOffset }
        set { _setReplicator(\.instanceGreenOffset, newValue, key: "instanceGreenOffset") }
    }
    /// As ``instanceRedOffset`` for blue.
    open var instanceBlueOffset: Float {
        get { _replicator.instanceBlueOffset }
        set { _setReplicator(\.instanceBlueOffset, newValue, key: "instanceBlueOffset") }
    }
    /// As ``instanceRedOffset`` for alpha (a fading trail: −1/`instanceCount`).
    open var instanceAlphaOffset: Float {
        get { _replicator.instanceAlphaOffset }
        set { _setReplicator(\.instanceAlphaOffset, newValue, key: "instanceAlphaOffset") }
    }
    /// Whether the instances are sorted by depth (as a transform layer's sublayers) instead of
    /// drawn in order. Default false.
    open var preservesDepth: Bool {
        get { _replicator.preservesDepth }
        set { _setReplicator(\.preservesDepth, newValue, key: "preservesDepth") }
    }

    open override class func defaultValue(forKey key: String) -> Any? {
        if _keyEntries[key] != nil { return _ReplicatorState._default(forKey: key) }
        return super.defaultValue(forKey: key)
    }

    package static let _replicatorImplicitlyAnimatableKeys: Set<String> = [
        "instanceCount", "instanceDelay", "instanceTransform", "instanceColor",
        "instanceRedOffset", "instanceGreenOffset", "instanceBlueOffset", "instanceAlphaOffset",
    ]

    static let _keyEntries: [String: _ReplicatorKeyEntry] = {
        func field<T>(_ kp: WritableKeyPath<_ReplicatorState, T>, _ property: ReferenceWritableKeyPath<CAReplicatorLayer, T>,
                      _ key: String, _ coerce: @escaping (Any?, String) throws -> T) -> (String, _ReplicatorKeyEntry) {
            (key, _ReplicatorKeyEntry(
                entry: _LayerKeyEntry(
                    get: { l in (l as? CAReplicatorLayer).map { _flattenOptional($0[keyPath: property]) } ?? nil },
                    set: { l, v in
                        let t = try coerce(v, key)
                        (l as? CAReplicatorLayer)?[keyPath: property] = t
                    },
                    getState: nil, setState: nil),
                setState: { s, v in s[keyPath: kp] = try coerce(v, key) }))
        }
        func double(_ v: Any?, _ k: String) throws -> Double {
            guard let d = _KVCCoercion.double(_AnimValue._unwrap(v) as Any) else { throw LayerKVCError.wrongType(key: k, expected: "CFTimeInterval", got: v) }
            return d
        }
        func float(_ v: Any?, _ k: String) throws -> Float { Float(try double(v, k)) }
        func int(_ v: Any?, _ k: String) throws -> Int { _AnimValue._int(try double(v, k)) }
        func bool(_ v: Any?, _ k: String) throws -> Bool {
            guard let b = _AnimValue._unwrap(v) as? Bool else { throw LayerKVCError.wrongType(key: k, expected: "Bool", got: v) }
            return b
        }
        func transform(_ v: Any?, _ k: String) throws -> CATransform3D {
            guard let t = _AnimValue._unwrap(v) as? CATransform3D else { throw LayerKVCError.wrongType(key: k, expected: "CATransform3D", got: v) }
            return t
        }
        func color(_ v: Any?, _ k: String) throws -> CGColor? { try _KVCCoercion.optional(v, k, "CGColor") }
        return Dictionary(uniqueKeysWithValues: [
            field(\.instanceCount, \.instanceCount, "instanceCount", int),
            field(\.instanceDelay, \.instanceDelay, "instanceDelay", double),
            field(\.instanceTransform, \.instanceTransform, "instanceTransform", transform),
            field(\.instanceColor, \.instanceColor, "instanceColor", color),
            field(\.instanceRedOffset, \.instanceRedOffset, "instanceRedOffset", float),
            field(\.instanceGreenOffset, \.instanceGreenOffset, "instanceGreenOffset", float),
            field(\.instanceBlueOffset, \.instanceBlueOffset, "instanceBlueOffset", float),
            field(\.instanceAlphaOffset, \.instanceAlphaOffset, "instanceAlphaOffset", float),
            field(\.preservesDepth, \.preservesDepth, "preservesDepth", bool),
        ])
    }()

    /// The multiplier of instance `i`: `instanceColor + i · offsets`, clamped to 0…1.
    static func _multiplier(_ s: _ReplicatorState, instance i: Int) -> (Float, Float, Float, Float) {
        let c = s.instanceColor ?? CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        func clamp(_ v: Float) -> Float { v.isFinite ? min(max(v, 0), 1) : 0 }
        let k = Float(i)
        return (clamp(Float(c.red) + k * s.instanceRedOffset), clamp(Float(c.green) + k * s.instanceGreenOffset),
                clamp(Float(c.blue) + k * s.instanceBlueOffset), clamp(Float(c.alpha) + k * s.instanceAlphaOffset))
    }
}

/// A layer whose sublayers keep their 3-D positions (Apple's `CATransformLayer`, "used to
/// create true 3D layer hierarchies, rather than the flattened hierarchy rendering model used
/// by other layer types"): it does not flatten its sublayers into its plane, so six faces make
/// a cube, and a cube can sit among other layers.
///
/// **Where its sublayers are drawn.** Every other layer flattens its subtree: its sublayers
/// are drawn as one piece at its place among its siblings. A transform layer has no plane of
/// its own; its sublayers — and, through nested transform layers, theirs — are drawn in the
/// nearest flattening ancestor (the *rendering context*, usually the transform layer's
/// superlayer) and sorted by depth **together with the transform layer's siblings**. A
/// sublayer at `zPosition` 20 in a transform layer is in front of a sibling of the transform
/// layer at `zPosition` 0, even one added later; in a plain layer it would not be.
///
/// **Depth order** (chosen where Apple is silent): each member's anchor point is taken through
/// its full transform chain into the context's space — the context layer's sublayer space
/// after its `sublayerTransform` (so a sibling with a 2-D transform sorts by its `zPosition`),
/// or the device for a transform layer with no flattening layer above it (the root, a mask) — and the
/// members are drawn from the largest to the smallest distance from the eye, ascending
/// homogeneous depth `z / w`, ties in tree order. Faces are sorted whole (no splitting of
/// intersecting faces).
///
/// It draws nothing of its own — `backgroundColor`, `contents`, `border`, shadow, `mask` and
/// `masksToBounds` are ignored, as on Apple — and its `opacity` (and `isHidden`) applies to
/// each sublayer on its own (no group: where two faces overlap, both show through), as Apple's
/// documentation says.
///
/// Drawn as one piece after all (its sublayers sorted among themselves only): a transform
/// layer with a `CATransition` in flight (a transition's pictures are flat), and one in an
/// emitter that has particles. A replicator's instances after the first (and a coloured first)
/// are each drawn in a flattening wrapper, which is then their transform layers' context.
open class CATransformLayer: CALayer {
    /// Presentation copies of this class and of your subclasses of it (see `CALayer.init(layer:)`).
    override package class func _makePresentationCopy(of model: CALayer) -> CALayer { CATransformLayer(layer: model) }
}

struct _ReplicatorKeyEntry: @unchecked Sendable {
    let entry: _LayerKeyEntry
    let setState: (inout _ReplicatorState, Any?) throws -> Void
}

/// The values of a `CAReplicatorLayer`, with Apple's defaults.
struct _ReplicatorState: Equatable {
    static let storageKey = "\u{1}CAReplicatorLayer.state"
    var instanceCount = 1
    var instanceDelay: CFTimeInterval = 0
    var instanceTransform = CATransform3DIdentity
    var instanceColor: CGColor? = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
    var instanceRedOffset: Float = 0
    var instanceGreenOffset: Float = 0
    var instanceBlueOffset: Float = 0
    var instanceAlphaOffset: Float = 0
    var preservesDepth = false

    static func _default(forKey key: String) -> Any? {
        let d = _ReplicatorState()
        switch key {
        case "instanceCount": return d.instanceCount
        case "instanceDelay": return d.instanceDelay
        case "instanceTransform": return d.instanceTransform
        case "instanceColor": return d.instanceColor
        case "instanceRedOffset": return d.instanceRedOffset
        case "instanceGreenOffset": return d.instanceGreenOffset
        case "instanceBlueOffset": return d.instanceBlueOffset
        case "instanceAlphaOffset": return d.instanceAlphaOffset
        case "preservesDepth": return d.preservesDepth
        default: return nil
        }
    }
}

import Foundation
/// The receiver of an animation's start and stop notifications (Apple's `CAAnimationDelegate`).
/// Both methods have no-op defaults.
public protocol CAAnimationDelegate: AnyObject {
    /// The animation's active time began (delivered at its begin time by the run loop).
    func animationDidStart(_ anim: CAAnimation)
    /// The animation ended: `flag` is true when it ran its whole active duration, false when it
    /// was removed from its layer early.
    func animationDidStop(_ anim: CAAnimation, finished flag: Bool)
}

extension CAAnimationDelegate {
    public func animationDidStart(_ anim: CAAnimation) {}
    public func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {}
}

/// The abstract animation (Apple's `CAAnimation`): timing (``CAMediaTiming``), a timing
/// function, a delegate, and the ``CAAction`` behaviour of adding a copy of itself to a layer.
///
/// A layer never stores the object you pass to `add(_:forKey:)`: it stores a ``copy(with:)``,
/// and writes the resolved `beginTime` (commit time when 0) and `duration` (the transaction's
/// when ≤ 0) into that copy. The bookkeeping fields below (`_layer`, `_phase`, …) belong to such
/// stored copies and are never copied.
open class CAAnimation: NSObject, CAMediaTiming, CAAction, NSCopying {
    // MARK: CAMediaTiming (Apple's defaults)
    open var beginTime: CFTimeInterval = 0
    open var duration: CFTimeInterval = 0
    open var speed: Float = 1
    open var timeOffset: CFTimeInterval = 0
    open var repeatCount: Float = 0
    open var repeatDuration: CFTimeInterval = 0
    open var autoreverses: Bool = false
    open var fillMode: CAMediaTimingFillMode = .removed

    /// The pacing curve; nil is linear. Filled from the transaction when added with nil.
    open var timingFunction: CAMediaTimingFunction?
    /// Receives start/stop notifications. Strong, as on Apple.
    open var delegate: CAAnimationDelegate?
    /// When true (the default) the layer drops the animation once its active duration ends.
    open var isRemovedOnCompletion: Bool = true
    /// Accepted, no effect (Apple's frame-rate hint): frames are sampled at the recording's rate.
    /// Default `.default` (no preference).
    open var preferredFrameRateRange: CAFrameRateRange = .default

    /// Arbitrary key-value storage (``value(forKey:)``/``setValue(_:forKey:)``), copied with the animation.
    package var _kvcStorage: [String: Any] = [:]

    // MARK: Stored-copy bookkeeping (not copied)
    /// The layer this stored copy belongs to.
    weak var _layer: CALayer?
    /// The key it is stored under.
    var _key: String = ""
    /// Where the stored copy is in its life.
    var _phase: _AnimationPhase = .detached
    /// Completion groups waiting for this animation.
    var _groups: [_CompletionGroup] = []
    /// Event ids of the scheduled start / stop notifications (0 = none).
    var _startEvent = 0, _stopEvent = 0
    /// True for the animation made by the implicit-action step of the search.
    var _isImplicit = false

    public override required init() { super.init() }

    /// Apple's archive initializer (`NSSecureCoding`), so that ported subclasses compile. Flipbook
    /// does not archive animations: it always returns nil.
    public required init?(coder: NSCoder) {
        return nil
    }

    /// Whether `key`'s value would be archived (Apple's `shouldArchiveValue(forKey:)`): true, the
    /// default. Flipbook does not archive animations; the answer is for code that asks.
    open func shouldArchiveValue(forKey key: String) -> Bool { true }

    /// Copies every public property of `other` into self. Subclasses override, call super,
    /// then copy theirs.
    package func _copyState(from other: CAAnimation) {
        beginTime = other.beginTime; duration = other.duration; speed = other.speed
        timeOffset = other.timeOffset; repeatCount = other.repeatCount
        repeatDuration = other.repeatDuration; autoreverses = other.autoreverses
        fillMode = other.fillMode; timingFunction = other.timingFunction
        delegate = other.delegate; isRemovedOnCompletion = other.isRemovedOnCompletion
        preferredFrameRateRange = other.preferredFrameRateRange
        _kvcStorage = other._kvcStorage
    }

    /// `type(of: self).init()` + `_copyState(from: self)`.
    open func copy(with zone: NSZone? = nil) -> Any {
        let c = type(of: self).init()
        c._copyState(from: self)
        return c
    }

    /// Apple's default of each key the class declares (CAAnimation.h, CAMediaTiming.h): the
    /// timing keys (`speed` 1, `fillMode` `removed`, the rest 0 or false),
    /// `removedOnCompletion` true, `preferredFrameRateRange` `.default`; `timingFunction` and
    /// `delegate` nil. Typed as the property is. Subclasses add theirs and call `super`; nil for
    /// a key no class declares. (Informative: a new animation's properties already have these
    /// values; custom keys read through ``value(forKey:)`` fall back to it.)
    open class func defaultValue(forKey key: String) -> Any? {
        switch key {
        case "beginTime", "duration", "timeOffset", "repeatDuration": return CFTimeInterval(0)
        case "speed": return Float(1)
        case "repeatCount": return Float(0)
        case "autoreverses": return false
        case "fillMode": return CAMediaTimingFillMode.removed
        case "removedOnCompletion", "isRemovedOnCompletion": return true
        case "preferredFrameRateRange": return CAFrameRateRange.default
        default: return nil   // timingFunction, delegate
        }
    }

    /// A custom value stored with ``setValue(_:forKey:)``, else the class default.
    open func value(forKey key: String) -> Any? { _kvcStorage[key] ?? type(of: self).defaultValue(forKey: key) }

    /// Stores an arbitrary value on the animation (Apple code tags animations this way); it is
    /// copied along with the animation. Nil removes it. Timing properties are not reachable here.
    open func setValue(_ value: Any?, forKey key: String) { _kvcStorage[key] = value }

    // MARK: CAAction

    /// Adds a copy of the animation to `anObject` (when it is a `CALayer`) under `event`;
    /// a property animation with a nil `keyPath` takes `event` as its key path.
    open func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {
        (anObject as? CALayer)?.add(self, forKey: event)
    }
}

/// The life of a stored animation copy.
enum _AnimationPhase {
    /// Not stored on a layer (a user's animation object).
    case detached
    /// Added to a layer in a transaction that has not committed yet.
    case pending
    /// Committed: begin time resolved, start/stop events scheduled.
    case scheduled
    /// Its active duration ended (kept on the layer because `isRemovedOnCompletion` is false).
    case finished
    /// Removed from its layer.
    case removed
}

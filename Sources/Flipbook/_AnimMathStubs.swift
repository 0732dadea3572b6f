// ╔══════════════════════════════════════════════════════════════════════════════════════════╗
// ║  TEMPORARY STUBS — DELETE THIS FILE AT MERGE.                                             ║
// ║  The model branch (`model`) owns CAAction, CAAnimationDelegate, CAAnimation,              ║
// ║  CAPropertyAnimation, CABasicAnimation, CATransition. These stubs match the declarations  ║
// ║  in /work/ANIMATION_CONTRACT.md so the animation math (branch `animmath`) compiles.       ║
// ║  At merge:                                                                                ║
// ║   1. move `open func _evaluate(at:iteration:base:)` into the model's CAPropertyAnimation; ║
// ║   2. add to the body of the model's CABasicAnimation (Swift cannot override from an       ║
// ║      extension):                                                                          ║
// ║        open override func _evaluate(at t: CFTimeInterval, iteration: Int, base: Any?)     ║
// ║            -> Any? { _evaluateBasic(at: t, iteration: iteration, base: base) }            ║
// ╚══════════════════════════════════════════════════════════════════════════════════════════╝

public protocol CAAction { func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) }

public protocol CAAnimationDelegate: AnyObject {
    func animationDidStart(_ anim: CAAnimation)
    func animationDidStop(_ anim: CAAnimation, finished flag: Bool)
}

extension CAAnimationDelegate {
    public func animationDidStart(_ anim: CAAnimation) {}
    public func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {}
}

open class CAAnimation: NSObject, CAMediaTiming, CAAction, NSCopying {
    public override required init() { super.init() }
    open var beginTime: CFTimeInterval = 0
    open var duration: CFTimeInterval = 0
    open var speed: Float = 1
    open var timeOffset: CFTimeInterval = 0
    open var repeatCount: Float = 0
    open var repeatDuration: CFTimeInterval = 0
    open var autoreverses: Bool = false
    open var fillMode: CAMediaTimingFillMode = .removed
    open var timingFunction: CAMediaTimingFunction?
    open var delegate: CAAnimationDelegate?
    open var isRemovedOnCompletion: Bool = true

    open func _copyState(from other: CAAnimation) {
        beginTime = other.beginTime; duration = other.duration; speed = other.speed
        timeOffset = other.timeOffset; repeatCount = other.repeatCount
        repeatDuration = other.repeatDuration; autoreverses = other.autoreverses
        fillMode = other.fillMode; timingFunction = other.timingFunction
        delegate = other.delegate; isRemovedOnCompletion = other.isRemovedOnCompletion
    }

    open func copy(with zone: NSZone? = nil) -> Any {
        let c = type(of: self).init()
        c._copyState(from: self)
        return c
    }

    open class func defaultValue(forKey key: String) -> Any? { nil }

    open func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {}
}

open class CAPropertyAnimation: CAAnimation {
    public convenience init(keyPath path: String?) { self.init(); keyPath = path }
    open var keyPath: String?
    open var isAdditive: Bool = false
    open var isCumulative: Bool = false
    open var valueFunction: CAValueFunction?

    open override func _copyState(from other: CAAnimation) {
        super._copyState(from: other)
        guard let o = other as? CAPropertyAnimation else { return }
        keyPath = o.keyPath; isAdditive = o.isAdditive; isCumulative = o.isCumulative
        valueFunction = o.valueFunction
    }

    /// The animated value at iteration-local time `t` (0…duration, before the timing function),
    /// for iteration `iteration` (for isCumulative), given `base` — the presentation value so far.
    /// Returns the new presentation value; nil = leave base unchanged.
    open func _evaluate(at t: CFTimeInterval, iteration: Int, base: Any?) -> Any? { base }
}

open class CABasicAnimation: CAPropertyAnimation {
    open var fromValue: Any?
    open var toValue: Any?
    open var byValue: Any?

    open override func _copyState(from other: CAAnimation) {
        super._copyState(from: other)
        guard let o = other as? CABasicAnimation else { return }
        fromValue = o.fromValue; toValue = o.toValue; byValue = o.byValue
    }

    // MERGE: this one-line override moves into the model's CABasicAnimation body.
    open override func _evaluate(at t: CFTimeInterval, iteration: Int, base: Any?) -> Any? {
        _evaluateBasic(at: t, iteration: iteration, base: base)
    }
}

public struct CATransitionType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let fade = CATransitionType(rawValue: "fade")
    public static let moveIn = CATransitionType(rawValue: "moveIn")
    public static let push = CATransitionType(rawValue: "push")
    public static let reveal = CATransitionType(rawValue: "reveal")
}

public struct CATransitionSubtype: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let fromLeft = CATransitionSubtype(rawValue: "fromLeft")
    public static let fromRight = CATransitionSubtype(rawValue: "fromRight")
    public static let fromTop = CATransitionSubtype(rawValue: "fromTop")
    public static let fromBottom = CATransitionSubtype(rawValue: "fromBottom")
}

open class CATransition: CAAnimation {
    open var type: CATransitionType = .fade
    open var subtype: CATransitionSubtype?
    open var startProgress: Float = 0
    open var endProgress: Float = 1
}

public let kCAOnOrderIn = "onOrderIn", kCAOnOrderOut = "onOrderOut", kCATransition = "transition"

import Foundation
import FlipbookGraphics
import Synchronization
/// How a keyframe animation computes values between keyframes.
public struct CAAnimationCalculationMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let linear = CAAnimationCalculationMode(rawValue: "linear")
    public static let discrete = CAAnimationCalculationMode(rawValue: "discrete")
    public static let paced = CAAnimationCalculationMode(rawValue: "paced")
    public static let cubic = CAAnimationCalculationMode(rawValue: "cubic")
    public static let cubicPaced = CAAnimationCalculationMode(rawValue: "cubicPaced")
}

/// Whether an object moving along a path turns to follow it.
public struct CAAnimationRotationMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Rotate by the path's tangent angle.
    public static let rotateAuto = CAAnimationRotationMode(rawValue: "auto")
    /// The tangent angle plus π.
    public static let rotateAutoReverse = CAAnimationRotationMode(rawValue: "autoReverse")
}

/// A property animation through a list of values or along a path (Apple's
/// `CAKeyframeAnimation`). Evaluation is in `CAKeyframeAnimation+Evaluate.swift`; the rules for
/// malformed input are documented there and in `docs/interpolation.md`.
open class CAKeyframeAnimation: CAPropertyAnimation {
    /// The keyframe values (ignored when `path` is set).
    open var values: [Any]?
    /// A path for a point property (`position`); overrides `values`.
    open var path: CGPath?
    /// Where each keyframe sits in [0, 1] of the duration.
    open var keyTimes: [NSNumber]?
    /// One timing function per segment (values.count − 1).
    open var timingFunctions: [CAMediaTimingFunction]?
    open var calculationMode: CAAnimationCalculationMode = .linear
    /// Kochanek–Bartels parameters per keyframe for the cubic modes (missing entries are 0).
    open var tensionValues: [NSNumber]?
    open var continuityValues: [NSNumber]?
    open var biasValues: [NSNumber]?
    /// With a path: turn the layer along the path (read `_rotationAngle(at:)`).
    open var rotationMode: CAAnimationRotationMode?

    /// The boxed values and key times of the last evaluation (`CAKeyframeAnimation+Cache.swift`);
    /// never copied.
    let _cache = Mutex(_KeyframeCache())

    public required init() { super.init() }
    /// Archives are not supported: always nil (see `CAAnimation.init(coder:)`).
    public required init?(coder: NSCoder) { super.init(coder: coder) }

    /// Apple's default `calculationMode` (`linear`), then `CAPropertyAnimation`'s. The other
    /// keyframe keys (`values`, `path`, `keyTimes`, `timingFunctions`, the tension, continuity
    /// and bias values, `rotationMode`) default to nil.
    open override class func defaultValue(forKey key: String) -> Any? {
        key == "calculationMode" ? CAAnimationCalculationMode.linear : super.defaultValue(forKey: key)
    }

    package override func _copyState(from other: CAAnimation) {
        super._copyState(from: other)
        guard let o = other as? CAKeyframeAnimation else { return }
        values = o.values; path = o.path?._copy(); keyTimes = o.keyTimes; timingFunctions = o.timingFunctions
        calculationMode = o.calculationMode; tensionValues = o.tensionValues
        continuityValues = o.continuityValues; biasValues = o.biasValues; rotationMode = o.rotationMode
    }

    package override func _evaluate(at t: CFTimeInterval, iteration: Int, base: Any?) -> Any? {
        _evaluateKeyframes(at: t, iteration: iteration, base: base)
    }
}

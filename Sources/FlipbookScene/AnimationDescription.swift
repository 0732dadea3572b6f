import Flipbook
import Foundation
/// An explicit animation from a scene file: the `CAMediaTiming` fields every class shares,
/// plus the class-specific part in ``kind``. `nil` fields keep the class's defaults.
public struct AnimationDescription: Sendable, Equatable {
    /// The key for `layer.add(_:forKey:)` (`nil`: no key).
    public var key: String?
    public var kind: Kind

    // CAMediaTiming
    public var beginTime: Double?
    public var duration: Double?
    public var speed: Double?
    public var timeOffset: Double?
    /// May be `.infinity` (the file writes `"infinity"`).
    public var repeatCount: Double?
    public var repeatDuration: Double?
    public var autoreverses: Bool?
    public var fillMode: CAMediaTimingFillMode?

    // CAAnimation
    public var timingFunction: TimingFunctionDescription?
    public var isRemovedOnCompletion: Bool?

    public init(key: String? = nil, kind: Kind) { self.key = key; self.kind = kind }

    /// The animation class and its own properties.
    public enum Kind: Sendable, Equatable {
        case basic(BasicAnimation)
        case keyframe(KeyframeAnimation)
        case spring(SpringAnimation)
        case group([AnimationDescription])
        case transition(TransitionAnimation)
    }

    /// Fields of `CAPropertyAnimation` shared by basic, keyframe and spring animations.
    public struct PropertyFields: Sendable, Equatable {
        /// Canonical key path; `nil` only for an action's animation, which takes the event key.
        public var keyPath: String?
        public var isAdditive: Bool?
        public var isCumulative: Bool?
        /// `CAValueFunction` name (`rotateX`, `rotateY`, `rotateZ`, `scale`, `scaleX`, `scaleY`,
        /// `scaleZ`, `translate`, `translateX`, `translateY`, `translateZ`).
        public var valueFunction: CAValueFunctionName?

        public init(keyPath: String? = nil) { self.keyPath = keyPath }
    }

    /// `CABasicAnimation`.
    public struct BasicAnimation: Sendable, Equatable {
        public var property: PropertyFields
        public var fromValue: SceneValue?
        public var toValue: SceneValue?
        public var byValue: SceneValue?
        public init(property: PropertyFields) { self.property = property }
    }

    /// `CAKeyframeAnimation`.
    public struct KeyframeAnimation: Sendable, Equatable {
        public var property: PropertyFields
        public var values: [SceneValue]?
        /// A path for point-valued key paths (overrides `values`).
        public var path: CGPath?
        public var keyTimes: [Double]?
        public var timingFunctions: [TimingFunctionDescription]?
        /// `linear` (default), `discrete`, `paced`, `cubic`, `cubicPaced`.
        public var calculationMode: CAAnimationCalculationMode?
        /// `auto` or `autoReverse` (`nil`: no rotation).
        public var rotationMode: CAAnimationRotationMode?
        public var tensionValues: [Double]?
        public var continuityValues: [Double]?
        public var biasValues: [Double]?
        public init(property: PropertyFields) { self.property = property }
    }

    /// `CASpringAnimation` (a basic animation with spring physics).
    public struct SpringAnimation: Sendable, Equatable {
        public var basic: BasicAnimation
        public var mass: Double?
        public var stiffness: Double?
        public var damping: Double?
        public var initialVelocity: Double?
        public init(basic: BasicAnimation) { self.basic = basic }
    }

    /// `CATransition`.
    public struct TransitionAnimation: Sendable, Equatable {
        /// `fade` (default), `moveIn`, `push`, `reveal`.
        public var type: CATransitionType
        /// `fromLeft`, `fromRight`, `fromTop`, `fromBottom`, or `nil`.
        public var subtype: CATransitionSubtype?
        public var startProgress: Double?
        public var endProgress: Double?
        public init(type: CATransitionType) { self.type = type }
    }
}

/// A timing function: a predefined name or four control-point numbers.
public enum TimingFunctionDescription: Sendable, Equatable {
    case named(CAMediaTimingFunctionName)
    case controlPoints(Double, Double, Double, Double)

    /// The model's timing function.
    public var timingFunction: CAMediaTimingFunction {
        switch self {
        case let .named(n): return CAMediaTimingFunction(name: n)
        case let .controlPoints(a, b, c, d):
            return CAMediaTimingFunction(controlPoints: Float(a), Float(b), Float(c), Float(d))
        }
    }
}

import Foundation
import FlipbookGraphics
/// A basic animation driven by a damped spring instead of a timing curve (Apple's
/// `CASpringAnimation`). The value moves from the start to the end value as
///
///     value(t) = interpolate(from, to, 1 − x(t))
///
/// where `x` solves `m·x″ + c·x′ + k·x = 0` with `x(0) = 1` (all the way from the target) and
/// `x′(0) = −initialVelocity` (initialVelocity is in "distances per second" towards the target,
/// as on Apple). The closed forms are in `_displacement(at:)`. `t` is the iteration-local time
/// in seconds, unscaled: **the spring ignores `timingFunction`** (chosen: a timing curve would
/// distort the physics; Apple does not document it) and it is not stretched to `duration` —
/// `duration` only cuts the animation off (set it to ``settlingDuration``).
open class CASpringAnimation: CABasicAnimation {
    /// Mass of the object on the spring (> 0; default 1).
    open var mass: CGFloat = 1
    /// Spring constant k (> 0; default 100).
    open var stiffness: CGFloat = 100
    /// Damping coefficient c (≥ 0; default 10).
    open var damping: CGFloat = 10
    /// Initial velocity towards the target, in distances per second (default 0).
    open var initialVelocity: CGFloat = 0
    /// The perceptual duration passed to ``init(perceptualDuration:bounce:)`` (0 otherwise).
    open private(set) var perceptualDuration: CFTimeInterval = 0
    /// The bounce passed to ``init(perceptualDuration:bounce:)`` (0 otherwise).
    open private(set) var bounce: CGFloat = 0
    /// Whether a damping ratio above 1 is simulated as such (overdamped: a slow creep to the
    /// target). When false (the default, as Core Animation has always behaved and SwiftUI's
    /// `allowOverDamping: false` documents), an overdamped spring moves as a critically damped
    /// one: ζ = min(c / (2√(k·m)), 1). ``init(perceptualDuration:bounce:)`` with a negative
    /// bounce (an overdamped spring by construction) sets it to true.
    open var allowsOverdamping: Bool = false

    public required init() { super.init() }
    /// Archives are not supported: always nil (see `CAAnimation.init(coder:)`).
    public required init?(coder: NSCoder) { super.init(coder: coder) }

    /// Apple's (iOS 17) perceptual spring, the same mapping as SwiftUI's `Spring(duration:bounce:)`:
    ///
    ///     mass = 1,  stiffness = (2π / perceptualDuration)²
    ///     ζ = bounce ≥ 0 ? 1 − bounce : 1 / (1 + bounce),   damping = ζ · 2·√(stiffness·mass)
    ///
    /// bounce is clamped to [−0.99, 1] and perceptualDuration below 1e-3 s becomes 1e-3 s.
    /// `duration` is set to ``settlingDuration`` (chosen so that the animation is not cut short).
    public convenience init(perceptualDuration: CFTimeInterval, bounce: CGFloat) {
        self.init()
        let d = perceptualDuration.isFinite && perceptualDuration > 1e-3 ? perceptualDuration : 1e-3
        let b = bounce.isNaN ? 0 : min(max(bounce, -0.99), 1)
        let k = (2 * .pi / d) * (2 * .pi / d)
        let zeta = b >= 0 ? 1 - b : 1 / (1 + b)
        mass = 1; stiffness = k; damping = zeta * 2 * (k * 1).squareRoot()
        self.perceptualDuration = d; self.bounce = b
        allowsOverdamping = b < 0
        duration = settlingDuration
    }

    /// Apple's defaults (CAAnimation.h, "CASpringAnimation"): `mass` 1, `stiffness` 100,
    /// `damping` 10, `initialVelocity` 0, `allowsOverdamping` false; then
    /// `CABasicAnimation`'s. The read-only `perceptualDuration`, `bounce` and
    /// `settlingDuration` have no default to give (nil).
    open override class func defaultValue(forKey key: String) -> Any? {
        switch key {
        case "mass": return CGFloat(1)
        case "stiffness": return CGFloat(100)
        case "damping": return CGFloat(10)
        case "initialVelocity": return CGFloat(0)
        case "allowsOverdamping": return false
        default: return super.defaultValue(forKey: key)
        }
    }

    package override func _copyState(from other: CAAnimation) {
        super._copyState(from: other)
        guard let o = other as? CASpringAnimation else { return }
        mass = o.mass; stiffness = o.stiffness; damping = o.damping; initialVelocity = o.initialVelocity
        perceptualDuration = o.perceptualDuration; bounce = o.bounce; allowsOverdamping = o.allowsOverdamping
    }

    package override func _evaluate(at t: CFTimeInterval, iteration: Int, base: Any?) -> Any? {
        _evaluateBasic(at: t, iteration: iteration, base: base, progress: 1 - _displacement(at: t))
    }

    /// Undamped angular frequency ω₀ = √(k/m).
    package var _omega0: Double { (Double(stiffness) / Double(mass)).squareRoot() }
    /// Damping ratio ζ = c / (2√(k·m)), at most 1 unless ``allowsOverdamping``.
    package var _dampingRatio: Double {
        let z = Double(max(damping, 0)) / (2 * (Double(stiffness) * Double(mass)).squareRoot())
        return allowsOverdamping ? z : min(z, 1)
    }

    /// x(t), the remaining fraction of the distance (1 at t = 0, → 0). With ω₀, ζ as above and
    /// v₀ = initialVelocity:
    ///
    /// - under-damped (ζ < 1): ω_d = ω₀√(1−ζ²),  x = e^(−ζω₀t)·(cos ω_d t + (ζω₀ − v₀)/ω_d · sin ω_d t)
    /// - critical (ζ = 1):     x = e^(−ω₀t)·(1 + (ω₀ − v₀)·t)
    /// - over-damped (ζ > 1):  r₁,₂ = −ω₀(ζ ∓ √(ζ²−1)),  x = C₁e^(r₁t) + C₂e^(r₂t),
    ///                          C₂ = (−v₀ − r₁)/(r₂ − r₁),  C₁ = 1 − C₂
    ///
    /// Invalid parameters (mass or stiffness ≤ 0 or not finite) snap to the target: x = 0.
    /// t ≤ 0 gives 1.
    package func _displacement(at t: CFTimeInterval) -> Double {
        guard mass > 0, stiffness > 0, mass.isFinite, stiffness.isFinite, damping.isFinite, initialVelocity.isFinite else { return 0 }
        guard t > 0 else { return t.isNaN ? 0 : 1 }
        let w0 = _omega0, z = _dampingRatio, v0 = Double(initialVelocity)
        if abs(z - 1) < 1e-9 {
            return exp(-w0 * t) * (1 + (w0 - v0) * t)
        } else if z < 1 {
            let wd = w0 * (1 - z * z).squareRoot()
            return exp(-z * w0 * t) * (cos(wd * t) + (z * w0 - v0) / wd * sin(wd * t))
        } else {
            let s = (z * z - 1).squareRoot()
            let r1 = -w0 * (z - s), r2 = -w0 * (z + s)
            let c2 = (-v0 - r1) / (r2 - r1), c1 = 1 - c2
            return c1 * exp(r1 * t) + c2 * exp(r2 * t)
        }
    }

    /// The time after which |x(t)| stays below 0.001 of the distance (the threshold is our
    /// choice; Apple does not publish its own). From an envelope that bounds |x| and decreases:
    /// under-damped `√(1 + B²)·e^(−ζω₀t)` (solved in closed form), critical `(1 + |B|t)·e^(−ω₀t)`
    /// and over-damped `|C₁|e^(r₁t) + |C₂|e^(r₂t)` (bisection). Undamped springs: `.infinity`;
    /// invalid parameters: 0. Capped at 10⁴ s.
    open var settlingDuration: CFTimeInterval {
        let eps = 0.001
        guard mass > 0, stiffness > 0, mass.isFinite, stiffness.isFinite, damping.isFinite, initialVelocity.isFinite else { return 0 }
        let w0 = _omega0, z = _dampingRatio, v0 = Double(initialVelocity)
        if z == 0 { return .infinity }
        let envelope: (Double) -> Double
        if abs(z - 1) < 1e-9 {
            let b = abs(w0 - v0)
            envelope = { (1 + b * $0) * exp(-w0 * $0) }
        } else if z < 1 {
            let wd = w0 * (1 - z * z).squareRoot()
            let b = (z * w0 - v0) / wd
            return min(max(log((1 + b * b).squareRoot() / eps) / (z * w0), 0), 1e4)
        } else {
            let s = (z * z - 1).squareRoot()
            let r1 = -w0 * (z - s), r2 = -w0 * (z + s)
            let c2 = (-v0 - r1) / (r2 - r1), c1 = 1 - c2
            envelope = { abs(c1) * exp(r1 * $0) + abs(c2) * exp(r2 * $0) }
        }
        // The critical envelope peaks at t = 1/ω₀ − 1/b; both envelopes decrease after that.
        var lo = 0.0, hi = 1.0 / w0
        while envelope(hi) > eps && hi < 1e4 { lo = hi; hi *= 2 }
        if hi >= 1e4 { return 1e4 }
        for _ in 0..<60 { let mid = (lo + hi) / 2; if envelope(mid) > eps { lo = mid } else { hi = mid } }
        return hi
    }
}

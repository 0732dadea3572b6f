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

    public required override init() { super.init() }

    /// Apple's `emitterCell()` class method: a new cell with the defaults.
    public class func emitterCell() -> Self { self.init() }

    /// Apple's defaults for a cell's keys.
    open class func defaultValue(forKey key: String) -> Any? {
        switch key {
        case "isEnabled", "enabled": return true
        case "birthRate", "lifetime": return Float(0)
        case "scale", "contentsScale": return CGFloat(1)
        case "speed": return Float(1)
        case "color": return CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        case "contentsRect": return CGRect(x: 0, y: 0, width: 1, height: 1)
        default: return nil
        }
    }

    /// Whether `key`'s value would be archived: true (no archiving in Flipbook).
    open func shouldArchiveValue(forKey key: String) -> Bool { true }

    open func value(forKey key: String) -> Any? { _values[key] ?? Self.defaultValue(forKey: key) }
    open func setValue(_ value: Any?, forKey key: String) { _values[key] = value }
}

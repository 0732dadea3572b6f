import Foundation
/// What a timed object does outside its active duration (Apple's `CAMediaTimingFillMode`).
public struct CAMediaTimingFillMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Nothing outside the active time (the default).
    public static let removed = CAMediaTimingFillMode(rawValue: "removed")
    /// Holds the final value after the active time.
    public static let forwards = CAMediaTimingFillMode(rawValue: "forwards")
    /// Shows the initial value before the begin time.
    public static let backwards = CAMediaTimingFillMode(rawValue: "backwards")
    /// `forwards` and `backwards`.
    public static let both = CAMediaTimingFillMode(rawValue: "both")
}

/// The timing model shared by layers and animations (Apple's `CAMediaTiming`).
///
/// A timed object maps its parent's time to its local time:
///
///     t_local = (t_parent − beginTime) × speed + timeOffset
///
/// then repeats (`repeatCount`, `repeatDuration`), reverses (`autoreverses`) and fills
/// (`fillMode`) within its `duration`. `docs/timing.md` has the full model.
public protocol CAMediaTiming: AnyObject {
    /// Begin time in the parent's time space (0: for animations, resolved to the commit time).
    var beginTime: CFTimeInterval { get set }
    /// Basic duration of one iteration, in local time (animations: 0 means the transaction's).
    var duration: CFTimeInterval { get set }
    /// Rate of local time relative to the parent (2 = twice as fast, 0 = stopped, < 0 = backwards).
    var speed: Float { get set }
    /// Offset added to local time after scaling by `speed`.
    var timeOffset: CFTimeInterval { get set }
    /// Number of iterations, possibly fractional; `.infinity` repeats forever; 0 means 1.
    var repeatCount: Float { get set }
    /// Total time to repeat for, in local time; 0 means unused.
    var repeatDuration: CFTimeInterval { get set }
    /// Plays each iteration forwards then backwards.
    var autoreverses: Bool { get set }
    /// Behaviour outside the active time.
    var fillMode: CAMediaTimingFillMode { get set }
}

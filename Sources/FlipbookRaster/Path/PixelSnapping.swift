/// Whole-pixel bounds from device coordinates that may be anywhere in the finite `Double`
/// range.
///
/// `Int(x.rounded(.down))` traps when `x` is beyond ±9.2e18, and a finite coordinate can be as
/// large as 1.8e308 (a layer at `1e300`, a transform that scales by `1e200`). Every place that
/// turns device coordinates into pixel indices goes through these two functions, which clamp
/// on *both* sides first — the scene fuzz target found one-sided clamps (`max(x, -lim)`) that
/// let `+1e300` through.
///
/// The limit (±2³⁰ px) is far beyond any canvas (`docs/limits.md` caps a frame at 65,536 px a
/// side), so clamping never changes which pixels a shape touches.
@inlinable
package func pixelFloor(_ v: Double) -> Int {
    Int((v.isNaN ? 0 : Swift.min(Swift.max(v, -1_073_741_824), 1_073_741_824)).rounded(.down))
}

/// The ceiling of `v` as a pixel index, clamped like ``pixelFloor(_:)``.
@inlinable
package func pixelCeil(_ v: Double) -> Int {
    Int((v.isNaN ? 0 : Swift.min(Swift.max(v, -1_073_741_824), 1_073_741_824)).rounded(.up))
}

import CFlipbookKernels

/// How winding turns into coverage.
public enum FillRule: Sendable, Hashable {
    /// Inside where the winding number is not zero. With exact-area accumulation the rasterizer
    /// knows ∫ winding over each pixel, not the winding of each point, so a pixel's coverage is
    /// `min(1, |∫ winding|)`: exact wherever the winding inside the pixel has one sign and
    /// magnitude ≤ 1; where a shape overlaps itself inside one pixel (winding 2 next to winding 0
    /// in the same pixel) or windings of opposite sign meet inside one pixel, the pixel is
    /// over- or under-covered by the overlap's area (see docs/rasterizer.md).
    case nonZero
    /// Inside where the winding number is odd: `|∫ winding|` folded into [0, 1] with period 2.
    /// Exact for any winding that is constant across the pixel and for edges that do not cross
    /// inside it; the same caveat as non-zero for crossings inside one pixel.
    case evenOdd
}

/// The accumulation → coverage pass: a prefix sum over a row's cells, then abs/fold, clamp and
/// rounding to a byte.
///
/// Units: a cell value of 2^17 is one whole pixel of area (256 sub-pixel rows × 512, see
/// ``PathRasterizer``). For the running sum s:
///
///     non-zero:  v = max(0, min(|s|, 2^17))
///     even-odd:  v = s mod 2^18;  v = min(v, 2^18 − v)
///     byte     = (255·v + 2^16) >> 17          — round half up of 255·v/2^17
///
/// so a coverage of exactly 0.7 would give round(178.5) = 179, and a full pixel 255. The pass
/// also zeroes the cells it read, which is what keeps the rasterizer's buffer all-zero between
/// shapes with no separate clear.
public enum CoverageAccumulation {
    /// 2^17: one pixel of area in cell units.
    public static let one: Int32 = 1 << 17

    /// The coverage byte of a running sum `s` (the per-cell formula above).
    @inlinable @inline(__always)
    public static func coverageByte(_ s: Int32, evenOdd: Bool) -> UInt8 {
        var v: Int32
        if evenOdd {
            v = s & ((1 << 18) - 1)
            v = min(v, (1 << 18) - v)
        } else {
            v = s < 0 ? 0 &- s : s           // |Int32.min| wraps to Int32.min, clamped to 0 below
            v = max(0, min(v, 1 << 17))
        }
        return UInt8(truncatingIfNeeded: (v &* 255 &+ (1 << 16)) >> 17)
    }

    /// Runs the pass over `count` cells: `cov[i]` = coverage of the running sum through
    /// `acc[i]`, `acc[i]` = 0. Returns the running sum after the last cell.
    @inlinable
    public static func accumulate(_ acc: UnsafeMutablePointer<Int32>, coverage cov: UnsafeMutablePointer<UInt8>,
                                  count: Int, carry: Int32, rule: FillRule,
                                  backend: RasterBackend = .current) -> Int32 {
        if backend.effective == .native {
            return fbk_accumulate_avx2(acc, cov, count, carry, rule == .evenOdd ? 1 : 0)
        }
        return _accumulateScalar(acc, cov, count, carry, rule == .evenOdd)
    }

    /// The portable twin (the definition of the result).
    @inlinable
    package static func _accumulateScalar(_ acc: UnsafeMutablePointer<Int32>, _ cov: UnsafeMutablePointer<UInt8>,
                                          _ count: Int, _ carry: Int32, _ evenOdd: Bool) -> Int32 {
        var s = carry
        var i = 0
        while i < count {
            s = s &+ acc[i]
            acc[i] = 0
            cov[i] = coverageByte(s, evenOdd: evenOdd)
            i += 1
        }
        return s
    }
}

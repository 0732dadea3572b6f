#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A separable Gaussian blur of an 8-bit plane (a shadow's alpha), in integer arithmetic
/// (deterministic everywhere).
///
/// **Convention: the standard deviation `sigma` in pixels** — the compositor passes
/// `shadowRadius × device scale` (docs/compositor.md). The kernel spans `±⌈3·sigma⌉` taps.
/// Weights are `exp(−i² / (2·sigma²))` normalised to integers summing to exactly 65536 (the
/// rounding remainder goes to the centre tap), and each pass rounds once:
///
///     out = (Σ wᵢ · cᵢ + 32768) >> 16
///
/// Horizontal pass first (into a temporary plane), then vertical. Pixels outside the plane are
/// transparent (0), so callers pad it by ``padding(sigma:)`` to keep the whole shadow.
/// `sigma <= 0.01` (or not finite) is the identity.
public enum GaussianBlur {
    /// Integer weights for `sigma` (index 0 = offset −half), summing to 65536.
    public static func weights(sigma: Double) -> [UInt32] {
        guard sigma > 0.01, sigma.isFinite else { return [65536] }
        let half = Int((3 * sigma).rounded(.up))
        let raw = (-half...half).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = raw.reduce(0, +)
        var w = raw.map { UInt32(($0 / total * 65536).rounded()) }
        let sum = w.reduce(0, +)
        w[half] = w[half] &+ 65536 &- sum   // exact normalisation (remainder to the centre)
        return w
    }

    /// Pixels the blur extends beyond the shape: the kernel half-width `⌈3·sigma⌉`
    /// (0 for the identity).
    public static func padding(sigma: Double) -> Int { (weights(sigma: sigma).count - 1) / 2 }

    /// Blurs a one-byte-per-pixel plane in place: `plane.count == width · height`, rows of
    /// `width` bytes.
    public static func blurAlpha(_ plane: inout [UInt8], width: Int, height: Int, sigma: Double) {
        precondition(width >= 0 && height >= 0 && plane.count == width * height, "alpha buffer size mismatch")
        let w = weights(sigma: sigma)
        guard w.count > 1, width > 0, height > 0 else { return }
        let half = (w.count - 1) / 2
        var tmp = [UInt8](repeating: 0, count: width * height)
        w.withUnsafeBufferPointer { wt in
            plane.withUnsafeMutableBufferPointer { p in
                tmp.withUnsafeMutableBufferPointer { t in
                    // Horizontal: p → t.
                    for y in 0..<height {
                        let src = p.baseAddress! + y * width, dst = t.baseAddress! + y * width
                        for x in 0..<width {
                            var acc: UInt32 = 32768
                            for sx in max(0, x - half)...min(width - 1, x + half) {
                                acc &+= wt[sx - x + half] &* UInt32(src[sx])
                            }
                            dst[x] = UInt8(acc >> 16)
                        }
                    }
                    // Vertical: t → p.
                    for y in 0..<height {
                        let lo = max(0, y - half), hi = min(height - 1, y + half)
                        let dst = p.baseAddress! + y * width
                        for x in 0..<width {
                            var acc: UInt32 = 32768
                            for sy in lo...hi { acc &+= wt[sy - y + half] &* UInt32(t[sy * width + x]) }
                            dst[x] = UInt8(acc >> 16)
                        }
                    }
                }
            }
        }
    }
}

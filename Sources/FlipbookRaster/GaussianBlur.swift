#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FlipbookPixels
import Foundation

/// A separable Gaussian blur for shadows, in integer arithmetic (deterministic everywhere).
///
/// **Radius convention:** `sigma = radius / 2` (the common reading of Core Animation's
/// `shadowRadius`); the kernel spans `±⌈3·sigma⌉` taps. Weights are
/// `exp(−i² / (2·sigma²))` normalised to integers summing to exactly 65536 (the rounding
/// remainder goes to the centre tap), and each pass rounds once:
///
///     out = (Σ wᵢ · cᵢ + 32768) >> 16
///
/// Horizontal pass first (into a temporary 8-bit image), then vertical. Pixels outside the image
/// are transparent, so callers pad the image by ``padding(radius:)`` to keep the whole shadow.
/// Because every channel uses the same weights and rounding is monotone, premultiplied input
/// stays valid premultiplied. `radius <= 0` (or sigma < 0.25) is the identity.
public enum GaussianBlur {
    /// Integer weights for `radius` (index 0 = offset −half), summing to 65536.
    public static func weights(radius: Double) -> [UInt32] {
        let sigma = radius / 2
        guard sigma >= 0.25, sigma.isFinite else { return [65536] }
        let half = Int((3 * sigma).rounded(.up))
        let raw = (-half...half).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = raw.reduce(0, +)
        var w = raw.map { UInt32(($0 / total * 65536).rounded()) }
        let sum = w.reduce(0, +)
        w[half] = w[half] &+ 65536 &- sum   // exact normalisation (remainder to the centre)
        return w
    }

    /// Pixels the shadow extends beyond the shape: the kernel half-width `⌈3·radius/2⌉`.
    public static func padding(radius: Double) -> Int { (weights(radius: radius).count - 1) / 2 }

    /// Blurs a premultiplied RGBA8 buffer in place.
    public static func blur(_ buffer: inout PixelBuffer, radius: Double) {
        let w = weights(radius: radius)
        guard w.count > 1 else { return }
        let (width, height, stride) = (buffer.width, buffer.height, buffer.bytesPerRow)
        buffer.withUnsafeMutableBytes { raw in
            _blur(raw.baseAddress!.assumingMemoryBound(to: UInt8.self), width: width, height: height,
                  bytesPerRow: stride, channels: 4, weights: w)
        }
    }

    /// Blurs a one-byte-per-pixel alpha (coverage) buffer in place: `alpha.count == width · height`.
    public static func blurAlpha(_ alpha: inout [UInt8], width: Int, height: Int, radius: Double) {
        precondition(width >= 0 && height >= 0 && alpha.count == width * height, "alpha buffer size mismatch")
        let w = weights(radius: radius)
        guard w.count > 1, width > 0, height > 0 else { return }
        alpha.withUnsafeMutableBufferPointer {
            _blur($0.baseAddress!, width: width, height: height, bytesPerRow: width, channels: 1, weights: w)
        }
    }

    static func _blur(_ p: UnsafeMutablePointer<UInt8>, width: Int, height: Int, bytesPerRow: Int,
                      channels: Int, weights: [UInt32]) {
        let half = (weights.count - 1) / 2
        let rowBytes = width * channels
        var tmp = [UInt8](repeating: 0, count: rowBytes * height)
        weights.withUnsafeBufferPointer { wt in
            tmp.withUnsafeMutableBufferPointer { t in
                // Horizontal: source p (stride bytesPerRow) → t (stride rowBytes).
                for y in 0..<height {
                    let src = p + y * bytesPerRow, dst = t.baseAddress! + y * rowBytes
                    for x in 0..<width {
                        let lo = max(0, x - half), hi = min(width - 1, x + half)
                        for c in 0..<channels {
                            var acc: UInt32 = 32768
                            for sx in lo...hi { acc &+= wt[sx - x + half] &* UInt32(src[sx * channels + c]) }
                            dst[x * channels + c] = UInt8(acc >> 16)
                        }
                    }
                }
                // Vertical: t → p.
                for y in 0..<height {
                    let lo = max(0, y - half), hi = min(height - 1, y + half)
                    let dst = p + y * bytesPerRow
                    for i in 0..<rowBytes {
                        var acc: UInt32 = 32768
                        for sy in lo...hi { acc &+= wt[sy - y + half] &* UInt32(t[sy * rowBytes + i]) }
                        dst[i] = UInt8(acc >> 16)
                    }
                }
            }
        }
    }
}

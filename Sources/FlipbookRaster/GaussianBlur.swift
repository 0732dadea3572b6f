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
    /// The largest sigma used: larger values blur as this one (a kernel of at most ~98,000
    /// taps; callers bound it by their output first — the compositor by the frame size).
    public static let maximumSigma = 16_384.0

    public static func weights(sigma: Double) -> [UInt32] {
        guard sigma > 0.01, sigma.isFinite else { return [65536] }
        let sigma = min(sigma, maximumSigma)
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
    ///
    /// **Cost in proportion to the edges, not the area.** A shadow's plane is mostly constant:
    /// 0 outside the shape, often 255 inside. Where a pixel's whole window (the taps inside the
    /// plane) lies in one run of equal values `v`, and either the window is wholly inside the
    /// plane or `v == 0` (outside pixels are 0 too), the output is exactly `v`: the weights sum
    /// to 65536, so `(65536·v + 32768) >> 16 = v`. Only the other pixels are convolved. The
    /// vertical pass runs the same row routine over the transposed plane. The result is
    /// byte-identical to the direct convolution (``_blurAlphaReference(_:width:height:sigma:)``,
    /// which the tests compare against on random planes).
    public static func blurAlpha(_ plane: inout [UInt8], width: Int, height: Int, sigma: Double) {
        precondition(width >= 0 && height >= 0 && plane.count == width * height, "alpha buffer size mismatch")
        let w = weights(sigma: sigma)
        guard w.count > 1, width > 0, height > 0 else { return }
        var rowsOut = [UInt8](repeating: 0, count: width * height)
        var columns = [UInt8](repeating: 0, count: width * height)
        let half = (w.count - 1) / 2
        let longest = max(width, height)
        // Scratch for one row: the row with `half` zeros on each side, and the accumulators.
        let padded = UnsafeMutablePointer<UInt8>.allocate(capacity: longest + 2 * half)
        let acc = UnsafeMutablePointer<UInt32>.allocate(capacity: longest)
        defer { padded.deallocate(); acc.deallocate() }
        padded.initialize(repeating: 0, count: longest + 2 * half)
        let scratch = _RowScratch(padded: padded, acc: acc)
        w.withUnsafeBufferPointer { wt in
            plane.withUnsafeMutableBufferPointer { p in
                rowsOut.withUnsafeMutableBufferPointer { t in
                    columns.withUnsafeMutableBufferPointer { c in
                        // Horizontal: p → t.
                        for y in 0..<height { _blurRow(p.baseAddress! + y * width, t.baseAddress! + y * width, width, wt, scratch) }
                        // Vertical: t transposed → c, rows of c blurred → t (as columns), transposed back → p.
                        _transpose(t.baseAddress!, c.baseAddress!, width: width, height: height)
                        for x in 0..<width { _blurRow(c.baseAddress! + x * height, t.baseAddress! + x * height, height, wt, scratch) }
                        _transpose(t.baseAddress!, p.baseAddress!, width: height, height: width)
                    }
                }
            }
        }
    }

    struct _RowScratch {
        let padded: UnsafeMutablePointer<UInt8>
        let acc: UnsafeMutablePointer<UInt32>
    }

    /// One row (`n` bytes) blurred with weights `wt` (odd count, centre at `half`), out-of-row
    /// pixels 0. Constant windows are copied (see ``blurAlpha(_:width:height:sigma:)``); each
    /// maximal span of the other pixels is convolved tap by tap over the whole span,
    ///
    ///     acc[x] = 32768 + Σₖ wₖ · row[x + k − half]      (row zero-padded by `half`)
    ///
    /// an inner loop over contiguous `x` that the compiler vectorises. Integer sums: the order
    /// does not change the result, so this equals the per-pixel reference exactly.
    @inline(__always)
    static func _blurRow(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, _ n: Int,
                         _ wt: UnsafeBufferPointer<UInt32>, _ scratch: _RowScratch) {
        let half = (wt.count - 1) / 2
        let padded = scratch.padded, acc = scratch.acc
        var copied = false
        var spanStart = -1          // start of the pending span of pixels to convolve
        func flush(_ end: Int) {
            guard spanStart >= 0 else { return }
            if !copied {
                (padded + half).update(from: src, count: n)
                (padded + half + n).update(repeating: 0, count: half)
                copied = true
            }
            let a = spanStart, b = end
            for x in a..<b { acc[x] = 32768 }
            for k in 0..<wt.count {
                let wk = wt[k], s = padded + k
                for x in a..<b { acc[x] &+= wk &* UInt32(s[x]) }
            }
            for x in a..<b { dst[x] = UInt8(truncatingIfNeeded: acc[x] >> 16) }
            spanStart = -1
        }
        var runStart = 0
        while runStart < n {
            let v = src[runStart]
            var runEnd = runStart + 1
            while runEnd < n && src[runEnd] == v { runEnd += 1 }
            for x in runStart..<runEnd {
                let lo = max(0, x - half), hi = min(n - 1, x + half)
                if lo >= runStart && hi < runEnd && (v == 0 || (x - half >= 0 && x + half < n)) {
                    flush(x)
                    dst[x] = v
                } else if spanStart < 0 {
                    spanStart = x
                }
            }
            runStart = runEnd
        }
        flush(n)
        // The left padding stays zero for the next row: only `half ..< half + n + half` was written.
    }

    /// `dst[x · height + y] = src[y · width + x]`, in 32 × 32 tiles.
    static func _transpose(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, width: Int, height: Int) {
        let tile = 32
        var y0 = 0
        while y0 < height {
            let y1 = min(height, y0 + tile)
            var x0 = 0
            while x0 < width {
                let x1 = min(width, x0 + tile)
                for y in y0..<y1 { for x in x0..<x1 { dst[x * height + y] = src[y * width + x] } }
                x0 = x1
            }
            y0 = y1
        }
    }

    /// The direct two-pass convolution, every pixel: the definition ``blurAlpha(_:width:height:sigma:)``
    /// must reproduce byte for byte.
    package static func _blurAlphaReference(_ plane: inout [UInt8], width: Int, height: Int, sigma: Double) {
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

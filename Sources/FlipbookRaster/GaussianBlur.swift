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
        if sigma > exactSigmaLimit, sigma.isFinite, width > 0, height > 0 {
            _blurAlphaDecimated(&plane, width: width, height: height, sigma: sigma)
            return
        }
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

    /// Above this sigma (pixels) the blur runs on a reduced plane (``_blurAlphaDecimated``):
    /// the exact convolution costs (pixels not in constant windows) × (6σ + 1) taps, which
    /// for large shadows over large planes is seconds per blur (a 338 × 330 plane at σ = 48:
    /// ~30 ms; a fuzzed tree of 121 such shadows took minutes). At σ ≤ 24 (145 taps) every
    /// result is the exact convolution's.
    public static let exactSigmaLimit = 24.0

    /// The blur of a large sigma, approximated at 1/f resolution, f = ⌈σ / 8⌉:
    /// 1. average each f × f block into one cell (pixels outside the plane count as 0, as in the
    ///    convolution), into a reduced plane with a one-cell border of zeros on every side;
    /// 2. blur that plane exactly (``blurAlpha(_:width:height:sigma:)``) with
    ///    σᵣ = √(σ² − (f² − 1)/12 − f²/6) / f — the block average and the bilinear step add
    ///    variances of (f² − 1)/12 and f²/6 (a tent of half-width f), so the three together
    ///    have about the requested variance; σᵣ is in (5, 8];
    /// 3. interpolate back bilinearly: output pixel x (centre x + ½) sits at t = (x + ½)/f + ½
    ///    in bordered cell units, between cells ⌊t⌋ and ⌊t⌋ + 1 — weights in 1/256, one
    ///    rounding per output.
    /// Deterministic (integers after the weights); O(width × height) besides the small blur.
    /// Against the exact convolution on shadow-like planes (`decimatedBlurStaysCloseToTheConvolution`,
    /// σ = 24.5, 33, 48): at most 1 level off, 0.06–0.10 on average.
    static func _blurAlphaDecimated(_ plane: inout [UInt8], width: Int, height: Int, sigma: Double) {
        let sigma = min(sigma, maximumSigma)
        let f = Int((sigma / 8).rounded(.up))
        let ff = Double(f * f)
        let sr = max(sigma * sigma - (ff - 1) / 12 - ff / 6, 1).squareRoot() / Double(f)
        let sw = (width + f - 1) / f + 2, sh = (height + f - 1) / f + 2  // + the border cells
        // 1. Block sums → averages, rounded (no division per pixel: whole blocks of a row).
        var small = [UInt32](repeating: 0, count: sw * sh)
        plane.withUnsafeBufferPointer { p in
            small.withUnsafeMutableBufferPointer { s in
                for y in 0..<height {
                    let row = p.baseAddress! + y * width, srow = s.baseAddress! + (y / f + 1) * sw + 1
                    var x = 0, c = 0
                    while x < width {
                        let end = min(x + f, width)
                        var t: UInt32 = 0
                        while x < end { t &+= UInt32(row[x]); x += 1 }
                        srow[c] &+= t
                        c += 1
                    }
                }
            }
        }
        let area = UInt32(f * f)
        var reduced = small.map { UInt8(($0 + area / 2) / area) }
        // 2. The exact blur of the reduced plane.
        blurAlpha(&reduced, width: sw, height: sh, sigma: sr)
        // 3. Bilinear back. Output pixel x lies at t = (x + ½)/f + ½ cells (bordered units):
        //    cell ⌊t⌋, weight of the next cell round(256·frac(t)) — with n = 2x + 1 + f,
        //    ⌊t⌋ = n / 2f and the weight (256·(n mod 2f) + f) / 2f. Rows first into 16.8 fixed
        //    point, then columns: out = (Σ w·c + 2¹⁵) >> 16.
        let d = 2 * f
        let cols = UnsafeMutablePointer<Int>.allocate(capacity: width)
        let wts = UnsafeMutablePointer<UInt32>.allocate(capacity: width)
        defer { cols.deallocate(); wts.deallocate() }
        for x in 0..<width { let n = 2 * x + 1 + f; cols[x] = n / d; wts[x] = UInt32((256 * (n % d) + f) / d) }
        var mid = [UInt32](repeating: 0, count: sh * width)
        reduced.withUnsafeBufferPointer { r in
            mid.withUnsafeMutableBufferPointer { m in
                for j in 0..<sh {
                    let rrow = r.baseAddress! + j * sw, mrow = m.baseAddress! + j * width
                    for x in 0..<width {
                        let c = cols[x], w = wts[x]
                        mrow[x] = (256 &- w) &* UInt32(rrow[c]) &+ w &* UInt32(rrow[c + 1])  // ≤ 255 · 256
                    }
                }
            }
        }
        plane.withUnsafeMutableBufferPointer { p in
            mid.withUnsafeBufferPointer { m in
                for y in 0..<height {
                    let n = 2 * y + 1 + f, j = n / d, w = UInt32((256 * (n % d) + f) / d)
                    let a = m.baseAddress! + j * width, b = a + width, out = p.baseAddress! + y * width
                    for x in 0..<width {
                        let v = (256 &- w) &* a[x] &+ w &* b[x]   // ≤ 255 · 2¹⁶: no overflow (wrapping ops vectorise)
                        out[x] = UInt8(truncatingIfNeeded: min((v &+ 32768) >> 16, 255))
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

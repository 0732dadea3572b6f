/// How different an actual image may be from its reference and still pass.
///
/// The default, ``exact``, accepts only byte-identical pixels. The other options loosen it and
/// combine freely (`.perChannel(2).differingPixels(count: 10)`):
///
/// 1. **Per pixel**, a pixel *matches* when
///    - every channel (premultiplied R, G, B, A bytes) differs by at most ``maxChannelDelta``, **or**
///    - ``maxDeltaE`` is set and the pixel's perceptual difference (see ``ColorDifference``)
///      is at most ``maxDeltaE``.
///
///    Each option is an allowance: a pixel passes when any allowance covers it. With both unset
///    (`maxChannelDelta == 0`, `maxDeltaE == nil`), a pixel matches only when identical.
/// 2. **Per image**, the comparison passes when the number of pixels that do *not* match is at
///    most ``maxDifferingPixels`` (default 0), and the images have the same size.
///
/// Boundaries are inclusive everywhere: `.perChannel(3)` accepts a delta of 3 and rejects 4;
/// `.differingPixels(count: 5)` accepts 5 differing pixels and rejects 6.
public struct Tolerance: Sendable, Hashable, CustomStringConvertible {
    /// How many pixels may fail the per-pixel test.
    public enum PixelAllowance: Sendable, Hashable, CustomStringConvertible {
        /// At most this many pixels.
        case count(Int)
        /// At most this share of all pixels (`0...1`); the allowed count is
        /// `⌊fraction · width · height⌋` (rounded down, so `0.01` of 99 pixels allows none).
        case fraction(Double)

        /// The allowed number of differing pixels for an image of `pixelCount` pixels.
        public func allowedCount(pixelCount: Int) -> Int {
            switch self {
            case .count(let n): return max(0, n)
            case .fraction(let f):
                guard f.isFinite, f > 0 else { return 0 }
                // A tiny epsilon keeps exact decimal shares (0.5% of 1000 = 5) from landing on 4.999….
                return min(pixelCount, Int((f * Double(pixelCount) + 1e-9).rounded(.down)))
            }
        }

        public var description: String {
            switch self {
            case .count(let n): return "\(n) pixel\(n == 1 ? "" : "s")"
            case .fraction(let f): return "\(_formatPercent(f * 100))% of pixels"
            }
        }
    }

    /// The largest accepted difference of any one channel of a pixel, `0...255`.
    public var maxChannelDelta: Int
    /// The largest accepted CIEDE2000 ΔE of a pixel, or `nil` for no perceptual allowance.
    public var maxDeltaE: Double?
    /// How many pixels may fail the per-pixel test.
    public var maxDifferingPixels: PixelAllowance

    public init(maxChannelDelta: Int = 0, maxDeltaE: Double? = nil, maxDifferingPixels: PixelAllowance = .count(0)) {
        self.maxChannelDelta = min(max(maxChannelDelta, 0), 255)
        self.maxDeltaE = maxDeltaE.map { $0.isNaN ? 0 : max($0, 0) }
        self.maxDifferingPixels = maxDifferingPixels
    }

    /// Byte-identical images only.
    public static let exact = Tolerance()

    /// Each channel of each pixel may differ by up to `delta` (inclusive).
    public static func perChannel(_ delta: Int) -> Tolerance { Tolerance(maxChannelDelta: delta) }
    /// Up to `count` pixels may differ.
    public static func differingPixels(count: Int) -> Tolerance { Tolerance(maxDifferingPixels: .count(count)) }
    /// Up to `fraction` (0...1) of the pixels may differ.
    public static func differingPixels(fraction: Double) -> Tolerance { Tolerance(maxDifferingPixels: .fraction(fraction)) }
    /// A pixel matches when its CIEDE2000 ΔE is at most `deltaE` (≈1: just noticeable;
    /// ≈2–3: anti-aliasing and rounding noise; see ``ColorDifference``).
    public static func perceptual(_ deltaE: Double) -> Tolerance { Tolerance(maxDeltaE: deltaE) }

    /// This tolerance with a per-channel allowance of `delta`.
    public func perChannel(_ delta: Int) -> Tolerance {
        Tolerance(maxChannelDelta: delta, maxDeltaE: maxDeltaE, maxDifferingPixels: maxDifferingPixels)
    }
    /// This tolerance allowing `count` differing pixels.
    public func differingPixels(count: Int) -> Tolerance {
        Tolerance(maxChannelDelta: maxChannelDelta, maxDeltaE: maxDeltaE, maxDifferingPixels: .count(count))
    }
    /// This tolerance allowing a `fraction` of differing pixels.
    public func differingPixels(fraction: Double) -> Tolerance {
        Tolerance(maxChannelDelta: maxChannelDelta, maxDeltaE: maxDeltaE, maxDifferingPixels: .fraction(fraction))
    }
    /// This tolerance with a perceptual allowance of `deltaE`.
    public func perceptual(_ deltaE: Double) -> Tolerance {
        Tolerance(maxChannelDelta: maxChannelDelta, maxDeltaE: deltaE, maxDifferingPixels: maxDifferingPixels)
    }

    /// True when this is ``exact``.
    public var isExact: Bool { self == .exact }

    /// E.g. `exact`, or `channel Δ ≤ 2, ΔE00 ≤ 1.5, ≤ 10 pixels differing`.
    public var description: String {
        if isExact { return "exact" }
        var parts: [String] = []
        if maxChannelDelta > 0 { parts.append("channel Δ ≤ \(maxChannelDelta)") }
        if let e = maxDeltaE { parts.append("ΔE00 ≤ \(_formatNumber(e, digits: 2))") }
        if maxDifferingPixels != .count(0) { parts.append("≤ \(maxDifferingPixels) differing") }
        return parts.joined(separator: ", ")
    }
}

/// `x` with at most `digits` decimals, trailing zeros removed (deterministic, no Foundation).
@usableFromInline
func _formatNumber(_ x: Double, digits: Int) -> String {
    guard x.isFinite else { return x.isNaN ? "nan" : (x > 0 ? "∞" : "-∞") }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = (abs(x) * scale).rounded(.toNearestOrAwayFromZero)
    guard scaled < 1e15 else { return String(x) }
    let n = Int64(scaled)
    let whole = n / Int64(scale)
    var frac = String(n % Int64(scale))
    if digits > 0 {
        frac = String(repeating: "0", count: digits - frac.count) + frac
        while frac.hasSuffix("0") { frac.removeLast() }
    }
    let sign = (x < 0 && n != 0) ? "-" : ""
    return frac.isEmpty || digits == 0 ? "\(sign)\(whole)" : "\(sign)\(whole).\(frac)"
}

/// A percentage with up to 3 decimals: `0.5`, `12.25`, `100`.
@usableFromInline
func _formatPercent(_ p: Double) -> String { _formatNumber(p, digits: 3) }

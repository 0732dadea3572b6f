import FlipbookPixels
/// The measured difference between an actual image and its reference, judged against a
/// ``Tolerance``. Made by ``compare(_:to:tolerance:)``.
///
/// ## Measures (all on the premultiplied RGBA8 bytes, alpha included)
/// - ``maxChannelDelta``: the largest `|actual − expected|` of any channel of any pixel.
/// - ``changedPixelCount``: pixels whose four bytes are not all equal.
/// - ``differingPixelCount``: pixels that fail the tolerance's per-pixel test (see
///   ``Tolerance``); with ``Tolerance/exact`` this equals ``changedPixelCount``.
/// - ``psnr``: peak signal-to-noise ratio in dB over all four channels,
///   `10 · log₁₀(255² / MSE)` with `MSE = Σ (actual − expected)² / (4 · width · height)`;
///   `+∞` for identical images.
/// - ``maxDeltaE``: the largest perceptual difference (``ColorDifference/deltaE(_:_:)``);
///   computed only when the tolerance has a perceptual allowance, otherwise `nil`.
public struct ImageComparison: Sendable, Hashable {
    public let width: Int
    public let height: Int
    public let tolerance: Tolerance
    public let maxChannelDelta: Int
    public let changedPixelCount: Int
    public let differingPixelCount: Int
    /// The differing-pixel budget the tolerance gives this image.
    public let allowedDifferingPixels: Int
    public let psnr: Double
    public let maxDeltaE: Double?
    /// The smallest rectangle `(x, y, width, height)` holding every differing pixel, if any.
    public let differenceBounds: (x: Int, y: Int, width: Int, height: Int)?

    /// True when the images are within tolerance.
    public var passes: Bool { differingPixelCount <= allowedDifferingPixels }
    /// `width · height`.
    public var pixelCount: Int { width * height }
    /// ``differingPixelCount`` as a share of all pixels (`0...1`).
    public var differingFraction: Double { pixelCount == 0 ? 0 : Double(differingPixelCount) / Double(pixelCount) }
    /// True when every byte is equal.
    public var isIdentical: Bool { changedPixelCount == 0 }

    public static func == (l: Self, r: Self) -> Bool {
        l.width == r.width && l.height == r.height && l.tolerance == r.tolerance
            && l.maxChannelDelta == r.maxChannelDelta && l.changedPixelCount == r.changedPixelCount
            && l.differingPixelCount == r.differingPixelCount && l.psnr == r.psnr && l.maxDeltaE == r.maxDeltaE
            && l.differenceBounds.map { [$0.x, $0.y, $0.width, $0.height] } == r.differenceBounds.map { [$0.x, $0.y, $0.width, $0.height] }
    }
    public func hash(into h: inout Hasher) {
        h.combine(width); h.combine(height); h.combine(changedPixelCount); h.combine(differingPixelCount)
    }

    /// Why two images cannot be compared pixel by pixel.
    public struct SizeMismatch: Error, Sendable, Hashable, CustomStringConvertible {
        public let expected: (width: Int, height: Int)
        public let actual: (width: Int, height: Int)
        public static func == (l: Self, r: Self) -> Bool {
            l.expected == r.expected && l.actual == r.actual
        }
        public func hash(into h: inout Hasher) {
            h.combine(expected.width); h.combine(expected.height); h.combine(actual.width); h.combine(actual.height)
        }
        public var description: String {
            "size mismatch: expected \(expected.width)×\(expected.height), actual \(actual.width)×\(actual.height)"
        }
    }

    /// Compares `actual` with `expected`.
    ///
    /// - Throws: ``SizeMismatch`` when the sizes differ (no pixel can be matched then).
    /// - Complexity: one pass over both images; ΔE is evaluated only for changed pixels.
    public static func compare(_ actual: PixelBuffer, to expected: PixelBuffer,
                               tolerance: Tolerance = .exact) throws(SizeMismatch) -> ImageComparison {
        guard actual.width == expected.width, actual.height == expected.height else {
            throw SizeMismatch(expected: (expected.width, expected.height), actual: (actual.width, actual.height))
        }
        let w = actual.width, h = actual.height
        let perceptual = tolerance.maxDeltaE
        let allowDelta = tolerance.maxChannelDelta
        var maxDelta = 0, changed = 0, differing = 0
        var sumSquares: UInt64 = 0
        var maxE: Double = 0
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in 0..<h {
            let ra = actual.offset(x: 0, y: y), re = expected.offset(x: 0, y: y)
            for x in 0..<w {
                let oa = ra + x * 4, oe = re + x * 4
                var pixelMax = 0
                for c in 0..<4 {
                    let d = abs(Int(actual.bytes[oa + c]) - Int(expected.bytes[oe + c]))
                    sumSquares &+= UInt64(d * d)
                    pixelMax = max(pixelMax, d)
                }
                guard pixelMax > 0 else { continue }
                changed += 1
                maxDelta = max(maxDelta, pixelMax)
                var matches = pixelMax <= allowDelta
                if let limit = perceptual {
                    let e = ColorDifference.deltaE(actual[x, y], expected[x, y])
                    maxE = max(maxE, e)
                    if e <= limit { matches = true }
                }
                if !matches {
                    differing += 1
                    minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
                }
            }
        }
        let mse = Double(sumSquares) / Double(4 * w * h)
        let psnr = mse == 0 ? Double.infinity : 10 * _log10(255.0 * 255.0 / mse)
        return ImageComparison(
            width: w, height: h, tolerance: tolerance, maxChannelDelta: maxDelta,
            changedPixelCount: changed, differingPixelCount: differing,
            allowedDifferingPixels: tolerance.maxDifferingPixels.allowedCount(pixelCount: w * h),
            psnr: psnr, maxDeltaE: perceptual == nil ? nil : maxE,
            differenceBounds: maxX < 0 ? nil : (minX, minY, maxX - minX + 1, maxY - minY + 1))
    }

    /// One line of numbers, e.g.
    /// `max channel Δ 37, 12 of 4096 pixels differ (0.293%; allowed 0), PSNR 41.2 dB, bounds (3,4) 5×2`.
    public var summary: String {
        var s = "max channel Δ \(maxChannelDelta), \(differingPixelCount) of \(pixelCount) pixels differ "
        s += "(\(_formatPercent(differingFraction * 100))%; allowed \(allowedDifferingPixels))"
        if changedPixelCount != differingPixelCount { s += ", \(changedPixelCount - differingPixelCount) more changed within tolerance" }
        s += ", PSNR \(psnr.isInfinite ? "∞" : _formatNumber(psnr, digits: 2)) dB"
        if let e = maxDeltaE { s += ", max ΔE00 \(_formatNumber(e, digits: 2))" }
        if let b = differenceBounds { s += ", differences in (\(b.x),\(b.y)) \(b.width)×\(b.height)" }
        return s
    }
}

/// `log₁₀` through the C library.
@inline(__always) func _log10(_ x: Double) -> Double { _libmLog10(x) }

import FlipbookCompare
import FlipbookPixels
import FlipbookPNG
import Foundation

/// One comparison of a snapshot with its reference, judged as swift-snapshot-testing's image
/// diffing judges `UIImage`s and `NSImage`s on Apple platforms, with the figures behind the
/// verdict. ``compare(reference:snapshot:precision:perceptualPrecision:)`` is the one function
/// every strategy of this module compares with (through `Diffing<SnapshotImage>.image`).
///
/// ## The rules, in order
/// 1. A reference that is not a readable PNG fails: "Reference image could not be loaded."
/// 2. A snapshot that could not be drawn fails: "Newly-taken snapshot could not be loaded."
/// 3. A snapshot with zero width or height fails: "Newly-taken snapshot is empty." — checked
///    before the sizes, so an empty snapshot never passes, whatever the reference.
/// 4. Different sizes fail: "Newly-taken snapshot@(w, h) does not match reference@(w, h)."
/// 5. Identical pixels pass.
/// 6. Otherwise the snapshot is round-tripped through its PNG (encoded and decoded again, as
///    the reference was) and compared again: identical pixels pass.
/// 7. With `precision` and `perceptualPrecision` both 1, any difference fails.
/// 8. With `perceptualPrecision < 1`, a pixel fails when its CIE94 ΔE from the reference pixel
///    (``ColorDifference/deltaE94(_:_:)``: sRGB → CIELAB D65, what Core Image's `CILabDeltaE`
///    computes) is greater than `(1 − perceptualPrecision) × 100`; the image fails when the
///    share of pixels that do not fail, `1 − failing / all` (as `Float`), is below `precision`.
/// 9. With `perceptualPrecision` 1 and `precision < 1`, a pixel fails when any of its bytes
///    differs, and the image fails when that share is below `precision`.
///
/// Pixels are compared premultiplied, alpha included. Every failure message ends with the
/// line `N of M pixels differ` (plain integers: `1600 of 10000 pixels differ`); in rule 8,
/// the pixels that differ are those over the ΔE threshold.
///
/// Rule 9 counts pixels, where swift-snapshot-testing's Apple code counts bytes (a pixel whose
/// red and blue changed counts twice there): `precision` is documented there as "the
/// percentage of pixels that must match", and that is what is measured here.
public struct ImageSnapshotComparison: Sendable {
    /// Why the snapshot does not match, or nil when it does.
    public let message: String?
    /// The reference's pixels, when it could be read.
    public let reference: PixelBuffer?
    /// The snapshot's pixels (after the PNG round trip), when there are any.
    public let snapshot: PixelBuffer?
    /// Pixels counted as differing by the rule that decided (0 when the images match
    /// exactly); nil when no pixel was compared (rules 1–4).
    public let differingPixelCount: Int?
    /// `width × height` of the images compared; nil when no pixel was compared.
    public let pixelCount: Int?
    /// The largest `|snapshot − reference|` of any channel of any pixel; nil when no pixel
    /// was compared.
    public let maxChannelDelta: Int?
    /// Peak signal-to-noise ratio in dB over the four channels (`+∞` when identical); nil when
    /// no pixel was compared.
    public let psnr: Double?
    /// The largest CIE94 ΔE of any pixel, when `perceptualPrecision < 1` (rule 8).
    public let maxDeltaE: Double?

    /// True when the snapshot matches.
    public var passes: Bool { message == nil }

    /// Compares `snapshot` with `reference` by the rules above.
    public static func compare(reference: SnapshotImage, snapshot: SnapshotImage,
                               precision: Float = 1, perceptualPrecision: Float = 1) -> ImageSnapshotComparison {
        func fail(_ message: String, reference: PixelBuffer? = nil, snapshot: PixelBuffer? = nil) -> ImageSnapshotComparison {
            ImageSnapshotComparison(message: message, reference: reference, snapshot: snapshot, differingPixelCount: nil,
                                    pixelCount: nil, maxChannelDelta: nil, psnr: nil, maxDeltaE: nil)
        }
        guard case .pixels(let old) = reference.storage else {
            return fail("Reference image could not be loaded: \(reference.failureReason ?? "it holds no image").",
                        snapshot: snapshot.pixelBuffer)
        }
        let new: PixelBuffer
        switch snapshot.storage {
        case .pixels(let p):
            new = p
        case .unrenderable(let why), .unreadable(_, let why):
            return fail("Newly-taken snapshot could not be loaded: \(why).", reference: old)
        case .empty(let w, let h):
            return fail("Newly-taken snapshot is empty: it is \(w)×\(h) pixels. Give the layer (or path) a size "
                        + "of at least 1×1 in the test.", reference: old)
        }
        guard old.width == new.width, old.height == new.height else {
            return fail("Newly-taken snapshot@\(_sizeText(new)) does not match reference@\(_sizeText(old)).",
                        reference: old, snapshot: new)
        }
        let total = old.width * old.height
        if new == old { return .match(old, new) }
        // The PNG round trip: the reference went through PNG, so the snapshot does too.
        guard let data = try? PNG.encode(new), let newer = try? PNG.decode(data) else {
            return fail("Newly-taken snapshot's data could not be loaded.", reference: old, snapshot: new)
        }
        if newer == old { return .match(old, newer) }

        // The figures, whatever the rule.
        let figures = try? ImageComparison.compare(newer, to: old)
        let changed = figures?.changedPixelCount ?? total
        func result(_ message: String?, differing: Int, maxDeltaE: Double? = nil) -> ImageSnapshotComparison {
            ImageSnapshotComparison(
                message: message.map { "\($0)\n\(differing) of \(total) pixels differ" },
                reference: old, snapshot: newer, differingPixelCount: differing, pixelCount: total,
                maxChannelDelta: figures?.maxChannelDelta, psnr: figures?.psnr, maxDeltaE: maxDeltaE)
        }
        if precision >= 1, perceptualPrecision >= 1 {
            return result("Newly-taken snapshot does not match reference.", differing: changed)
        }
        if perceptualPrecision < 1 {
            let threshold: Float = (1 - perceptualPrecision) * 100
            var failing = 0
            var maxE = 0.0
            for y in 0..<old.height {
                for x in 0..<old.width {
                    let a = old[x, y], b = newer[x, y]
                    guard a != b else { continue }
                    let e = ColorDifference.deltaE94(a, b)
                    maxE = max(maxE, e)
                    if Float(e) > threshold { failing += 1 }
                }
            }
            let actual: Float = 1 - Float(failing) / Float(total)
            guard actual < precision else { return result(nil, differing: failing, maxDeltaE: maxE) }
            let lowest: Float = 1 - min(Float(maxE) / 100, 1)
            return result("""
                The percentage of pixels that match \(actual) is less than required \(precision)
                The lowest perceptual color precision \(lowest) is less than required \(perceptualPrecision)
                """, differing: failing, maxDeltaE: maxE)
        }
        let actual: Float = 1 - Float(changed) / Float(total)
        guard actual < precision else { return result(nil, differing: changed) }
        return result("Actual image precision \(actual) is less than required \(precision)", differing: changed)
    }

    /// A passing comparison of identical images.
    static func match(_ old: PixelBuffer, _ new: PixelBuffer) -> ImageSnapshotComparison {
        ImageSnapshotComparison(message: nil, reference: old, snapshot: new, differingPixelCount: 0,
                                pixelCount: old.width * old.height, maxChannelDelta: 0, psnr: .infinity, maxDeltaE: nil)
    }

    /// A size as Apple prints a `CGSize`: `(100.0, 100.0)`.
    static func _sizeText(_ p: PixelBuffer) -> String { "(\(Double(p.width)), \(Double(p.height)))" }

    /// The difference picture attached as `difference.png`: for each pixel, the largest
    /// `|snapshot − reference|` of its four channels as opaque gray, stretched so that the
    /// largest difference in the image is white (any difference shows; none is black). Images
    /// of different sizes are compared on the larger canvas, a missing pixel counting as
    /// transparent. Nil when neither side has pixels.
    public static func differenceImage(reference: PixelBuffer?, snapshot: PixelBuffer?) -> PixelBuffer? {
        let w = max(reference?.width ?? 0, snapshot?.width ?? 0)
        let h = max(reference?.height ?? 0, snapshot?.height ?? 0)
        guard w > 0, h > 0 else { return nil }
        func pixel(_ p: PixelBuffer?, _ x: Int, _ y: Int) -> RGBA8 {
            guard let p, x < p.width, y < p.height else { return .transparent }
            return p[x, y]
        }
        var deltas = [UInt8](repeating: 0, count: w * h)
        var largest = 0
        for y in 0..<h {
            for x in 0..<w {
                let a = pixel(reference, x, y), b = pixel(snapshot, x, y)
                let d = max(abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)),
                            abs(Int(a.b) - Int(b.b)), abs(Int(a.a) - Int(b.a)))
                deltas[y * w + x] = UInt8(d)
                largest = max(largest, d)
            }
        }
        var out = PixelBuffer(width: w, height: h)
        for y in 0..<h {
            for x in 0..<w {
                let d = Int(deltas[y * w + x])
                let v = largest == 0 ? 0 : UInt8((d * 255 + largest / 2) / largest)
                out[x, y] = RGBA8(r: v, g: v, b: v, a: 255)
            }
        }
        return out
    }
}

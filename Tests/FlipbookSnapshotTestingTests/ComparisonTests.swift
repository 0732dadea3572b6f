import FlipbookCompare
import FlipbookPixels
import FlipbookPNG
import FlipbookSnapshotTesting
import FlipbookTestSupport
import Foundation
import SnapshotTesting
import Testing

/// `Diffing<SnapshotImage>.image(precision:perceptualPrecision:)`: swift-snapshot-testing's
/// Apple image diffing, rule by rule (``ImageSnapshotComparison``).
@Suite struct ComparisonTests {
    static let gray = RGBA8(r: 128, g: 128, b: 128, a: 255)
    /// 100 × 100 gray, and the same with a 40 × 40 square (1600 pixels) changed to `color`.
    static let reference = Fixture.buffer(100, 100, gray)
    static func patched(_ color: RGBA8) -> PixelBuffer {
        Fixture.painting(reference, x: 30, y: 30, w: 40, h: 40, color)
    }

    @Test func identicalPixelsPass() {
        #expect(diff(SnapshotImage(pixelBuffer: Self.reference), SnapshotImage(pixelBuffer: Self.reference)) == nil)
        let c = ImageSnapshotComparison.compare(reference: SnapshotImage(pixelBuffer: Self.reference),
                                                snapshot: SnapshotImage(pixelBuffer: Self.reference))
        #expect(c.passes && c.differingPixelCount == 0 && c.pixelCount == 10_000)
    }

    @Test func exactComparisonFailsOnAnyDifferenceAndCountsThePixels() throws {
        let one = Fixture.painting(Self.reference, x: 99, y: 99, w: 1, h: 1, RGBA8(r: 129, g: 128, b: 128, a: 255))
        let r1 = try #require(diff(SnapshotImage(pixelBuffer: Self.reference), SnapshotImage(pixelBuffer: one)))
        #expect(r1.message == "Newly-taken snapshot does not match reference.\n1 of 10000 pixels differ")
        let r = try #require(diff(SnapshotImage(pixelBuffer: Self.reference),
                                  SnapshotImage(pixelBuffer: Self.patched(RGBA8(r: 255, g: 0, b: 0, a: 255)))))
        #expect(r.message.hasSuffix("\n1600 of 10000 pixels differ"))
    }

    @Test func theSnapshotIsRoundTrippedThroughPNGBeforeItFails() {
        // (200, 0, 0, 100) is not premultiplied (200 > 100): PNG stores it unpremultiplied as
        // (255, 0, 0, 100), which reads back as (100, 0, 0, 100), the reference.
        let reference = Fixture.buffer(4, 4, RGBA8(r: 100, g: 0, b: 0, a: 100))
        let odd = Fixture.buffer(4, 4, RGBA8(r: 200, g: 0, b: 0, a: 100))
        #expect(odd != reference)
        #expect(diff(SnapshotImage(pixelBuffer: reference), SnapshotImage(pixelBuffer: odd)) == nil)
        // A real difference survives the round trip.
        let other = Fixture.buffer(4, 4, RGBA8(r: 90, g: 0, b: 0, a: 100))
        #expect(diff(SnapshotImage(pixelBuffer: reference), SnapshotImage(pixelBuffer: other)) != nil)
    }

    @Test func precisionIsTheShareOfPixelsThatMustMatch() throws {
        let ref = SnapshotImage(pixelBuffer: Self.reference)
        let new = SnapshotImage(pixelBuffer: Self.patched(RGBA8(r: 255, g: 0, b: 0, a: 255)))   // 84% match
        #expect(diff(ref, new, precision: 0.84) == nil)
        #expect(diff(ref, new, precision: 0.5) == nil)
        let r = try #require(diff(ref, new, precision: 0.85))
        // `1 − 1600/10000` in Float, printed as Swift prints a Float (so as on Apple platforms).
        #expect(r.message == "Actual image precision 0.84000003 is less than required 0.85\n1600 of 10000 pixels differ")
        // Pixels, not bytes: a pixel whose red and blue both changed counts once.
        let twoChannels = SnapshotImage(pixelBuffer: Self.patched(RGBA8(r: 255, g: 128, b: 0, a: 255)))
        #expect(diff(ref, twoChannels, precision: 0.84) == nil)
        #expect(diff(ref, twoChannels, precision: 0.841) != nil)
    }

    @Test func perceptualPrecisionThresholdsEachPixelsCIE94DeltaE() throws {
        let ref = SnapshotImage(pixelBuffer: Self.reference)
        // (128,128,128) → (131,128,128): a small colour change.
        let near = RGBA8(r: 131, g: 128, b: 128, a: 255)
        let e = ColorDifference.deltaE94(Self.gray, near)
        #expect(e > 1 && e < 2, "ΔE94 \(e)")
        let slight = SnapshotImage(pixelBuffer: Self.patched(near))
        #expect(diff(ref, slight, perceptualPrecision: 0.98) == nil)      // threshold 2: every pixel matches
        let strict = try #require(diff(ref, slight, perceptualPrecision: 0.99))   // threshold 1: 1600 fail
        #expect(strict.message.hasPrefix("The percentage of pixels that match 0.84000003 is less than required 1.0\n"))
        #expect(strict.message.contains("The lowest perceptual color precision"))
        #expect(strict.message.hasSuffix("\n1600 of 10000 pixels differ"))
        // …and `precision` is the share of pixels within the threshold.
        #expect(diff(ref, slight, precision: 0.84, perceptualPrecision: 0.99) == nil)
        let r = try #require(diff(ref, slight, precision: 0.9, perceptualPrecision: 0.99))
        #expect(r.message.hasPrefix("The percentage of pixels that match 0.84000003 is less than required 0.9"))
        // Red against blue is ΔE94 70.57: within a threshold of 75, over one of 70.
        let red = SnapshotImage(pixelBuffer: Self.patched(RGBA8(r: 255, g: 0, b: 0, a: 255)))
        let blue = SnapshotImage(pixelBuffer: Self.patched(RGBA8(r: 0, g: 0, b: 255, a: 255)))
        #expect(diff(red, blue, perceptualPrecision: 0.25) == nil)
        #expect(diff(red, blue, perceptualPrecision: 0.3) != nil)
    }

    @Test(arguments: [
        // sRGB pairs and their CIE94 ΔE as colour-science 0.4.7 computes it
        // (`delta_E_CIE1994(XYZ_to_Lab(sRGB_to_XYZ(rgb / 255), D65), …)`).
        (RGBA8(r: 128, g: 128, b: 128, a: 255), RGBA8(r: 131, g: 128, b: 128, a: 255), 1.22068113463),
        (RGBA8(r: 255, g: 0, b: 0, a: 255), RGBA8(r: 0, g: 0, b: 255, a: 255), 70.5715972471),
        (RGBA8(r: 128, g: 128, b: 128, a: 255), RGBA8(r: 255, g: 0, b: 0, a: 255), 104.550980043),
    ])
    func deltaE94OfOpaqueColoursIsCIE94InCIELABD65(a: RGBA8, b: RGBA8, expected: Double) {
        // Within 0.02 % + 0.001: colour-science derives its sRGB matrix from the primaries, Flipbook
        // uses the published one (IEC 61966-2-1); saturated colours feel the last digits.
        #expect(abs(ColorDifference.deltaE94(a, b) - expected) <= expected * 2e-4 + 1e-3)
    }

    @Test func cie94MatchesPublishedValues() {
        // colour-science's documented example for `delta_E_CIE1994` (graphic arts weights).
        let a = ColorDifference.Lab(l: 100, a: 21.57210357, b: 272.22819350)
        let b = ColorDifference.Lab(l: 100, a: 426.67945353, b: 72.39590835)
        #expect(abs(ColorDifference.cie94(a, b) - 83.7792255) < 1e-6)
        // Lightness alone counts one for one; chroma is damped by the reference's chroma.
        #expect(abs(ColorDifference.cie94(.init(l: 50, a: 0, b: 0), .init(l: 53, a: 0, b: 0)) - 3) < 1e-12)
        // Alpha counts: transparent against opaque black differs over white.
        #expect(ColorDifference.deltaE94(.transparent, .black) > 99)
    }

    @Test func anEmptySnapshotFailsBeforeSizesAreCompared() throws {
        let ref = SnapshotImage(pixelBuffer: Fixture.buffer(10, 10, Self.gray))
        let r = try #require(diff(ref, SnapshotImage(storage: .empty(width: 0, height: 10))))
        #expect(r.message.contains("empty"))
        #expect(!r.message.contains("does not match reference@"))
        #expect(r.attachments.count == 3)
    }

    @Test func differentSizesFail() throws {
        let ref = SnapshotImage(pixelBuffer: Fixture.buffer(10, 10, Self.gray))
        let r = try #require(diff(ref, SnapshotImage(pixelBuffer: Fixture.buffer(10, 11, Self.gray)), precision: 0))
        #expect(r.message == "Newly-taken snapshot@(10.0, 11.0) does not match reference@(10.0, 10.0).")
    }

    @Test func anUnreadableReferenceFailsAndKeepsItsBytes() throws {
        let junk = Data("not a png".utf8)
        let ref = SnapshotImage(referenceData: junk)
        #expect(ref.pixelBuffer == nil && ref.pngData() == junk)
        let r = try #require(diff(ref, SnapshotImage(pixelBuffer: Self.reference)))
        #expect(r.message.hasPrefix("Reference image could not be loaded"))
    }

    @Test func failuresCarryTheThreeAttachmentsWithApplesNames() throws {
        let new = Self.patched(RGBA8(r: 255, g: 0, b: 0, a: 255))
        let r = try #require(diff(SnapshotImage(pixelBuffer: Self.reference), SnapshotImage(pixelBuffer: new)))
        var files: [String: PixelBuffer] = [:]
        for attachment in r.attachments {
            guard case .data(let data, let name) = attachment else { Issue.record("not data"); continue }
            files[name] = try PNG.decode(data)
        }
        #expect(files.keys.sorted() == ["difference.png", "failure.png", "reference.png"])
        #expect(files["reference.png"] == Self.reference)
        #expect(files["failure.png"] == new)
        let d = try #require(files["difference.png"])
        #expect(d[0, 0] == RGBA8(r: 0, g: 0, b: 0, a: 255))          // unchanged: black
        #expect(d[50, 50] == RGBA8(r: 255, g: 255, b: 255, a: 255))  // the largest change: white
    }

    @Test func theDiffingStoresPNGAndReadsItBack() throws {
        let diffing = Diffing<SnapshotImage>.image
        let image = SnapshotImage(pixelBuffer: Self.patched(RGBA8(r: 10, g: 20, b: 30, a: 40)))
        let data = diffing.toData(image)
        #expect(Array(data.prefix(8)) == PNGBytes.signature)
        #expect(diffing.fromData(data) == image)
        #expect(SnapshotImage(data: data) == image)
        #expect(SnapshotImage(data: Data([1, 2, 3])) == nil)
    }
}

import Testing
@testable import FlipbookTesting
@testable import FlipbookCompare
import FlipbookPixels

@Suite struct ImageComparisonTests {
    @Test func identicalImagesPassExactly() throws {
        let a = TestImages.gradient()
        let c = try ImageComparison.compare(a, to: a)
        #expect(c.passes && c.isIdentical)
        #expect(c.maxChannelDelta == 0 && c.differingPixelCount == 0)
        #expect(c.psnr == .infinity)
        #expect(c.differenceBounds == nil)
    }

    @Test func onePixelChangeIsMeasured() throws {
        let e = TestImages.gradient()
        let a = TestImages.nudged(e, x: 3, y: 5, red: 7)
        let c = try ImageComparison.compare(a, to: e)
        #expect(!c.passes)
        #expect(c.maxChannelDelta == 7)
        #expect(c.differingPixelCount == 1 && c.changedPixelCount == 1)
        #expect(c.allowedDifferingPixels == 0)
        // MSE = 49 / (4 · 64); PSNR = 10·log10(255² / MSE) = 10·log10(65025 · 256 / 49).
        let mse = 49.0 / 256.0
        #expect(abs(c.psnr - 10 * _libmLog10(65025 / mse)) < 1e-12)
        #expect(abs(c.psnr - 55.3112) < 1e-3)
        let b = try #require(c.differenceBounds)
        #expect(b.x == 3 && b.y == 5 && b.width == 1 && b.height == 1)
        #expect(c.summary.contains("max channel Δ 7, 1 of 64 pixels differ (1.563%; allowed 0)"))
    }

    @Test(arguments: [0, 1, 5, 254])
    func perChannelBoundaryIsInclusive(n: Int) throws {
        let e = TestImages.gradient()
        var a = e
        a[0, 0] = RGBA8(r: UInt8(n), g: 0, b: 100, a: 255)  // e[0,0] is (0, 0, 100, 255)
        #expect(try ImageComparison.compare(a, to: e, tolerance: .perChannel(n)).passes)
        a[0, 0].r = UInt8(n + 1)
        #expect(try !ImageComparison.compare(a, to: e, tolerance: .perChannel(n)).passes)
    }

    @Test func alphaCountsAsAChannel() throws {
        var e = PixelBuffer(width: 2, height: 1)
        e.fill(RGBA8(r: 0, g: 0, b: 0, a: 200))
        var a = e
        a[1, 0].a = 203
        let c = try ImageComparison.compare(a, to: e, tolerance: .perChannel(2))
        #expect(c.maxChannelDelta == 3 && !c.passes)
    }

    @Test func differingPixelCountBoundary() throws {
        let e = TestImages.gradient()
        var a = e
        for x in 0..<5 { a = TestImages.nudged(a, x: x, y: 0, red: 1) }
        #expect(try ImageComparison.compare(a, to: e, tolerance: .differingPixels(count: 5)).passes)
        #expect(try !ImageComparison.compare(a, to: e, tolerance: .differingPixels(count: 4)).passes)
        // 5 of 64 = 7.8125%: a fraction allowance rounds the budget down.
        #expect(try ImageComparison.compare(a, to: e, tolerance: .differingPixels(fraction: 0.078125)).passes)
        #expect(try !ImageComparison.compare(a, to: e, tolerance: .differingPixels(fraction: 0.078)).passes)
    }

    @Test func combinedAllowancesCountOnlyPixelsOutsideThePerPixelTest() throws {
        let e = TestImages.gradient()
        var a = TestImages.nudged(e, x: 1, y: 1, red: 2)      // within perChannel(2)
        a = TestImages.nudged(a, x: 2, y: 2, red: 9)          // outside it
        let t = Tolerance.perChannel(2).differingPixels(count: 1)
        let c = try ImageComparison.compare(a, to: e, tolerance: t)
        #expect(c.changedPixelCount == 2 && c.differingPixelCount == 1 && c.passes)
        #expect(t.description == "channel Δ ≤ 2, ≤ 1 pixel differing")
        #expect(try !ImageComparison.compare(a, to: e, tolerance: .perChannel(2)).passes)
    }

    @Test func perceptualToleranceIgnoresSmallColourShiftsButNotVisibleOnes() throws {
        var e = PixelBuffer(width: 2, height: 1)
        e.fill(RGBA8(r: 120, g: 120, b: 120, a: 255))
        var a = e
        a[0, 0] = RGBA8(r: 122, g: 121, b: 120, a: 255)   // ΔE00 ≈ 0.6
        #expect(try ImageComparison.compare(a, to: e, tolerance: .perceptual(1)).passes)
        a[1, 0] = RGBA8(r: 150, g: 120, b: 120, a: 255)   // clearly redder
        let c = try ImageComparison.compare(a, to: e, tolerance: .perceptual(1))
        #expect(!c.passes && c.differingPixelCount == 1)
        #expect(try #require(c.maxDeltaE) > 5)
    }

    @Test func perceptualDifferenceSeesAlpha() {
        // Transparent vs opaque white agree over white but not over black.
        #expect(ColorDifference.deltaE(.transparent, .white) > 99)
        #expect(ColorDifference.deltaE(.white, .white) == 0)
    }

    /// Reference values from Sharma, Wu & Dalal (2005), table 1 (pairs 1, 7, 17, 25).
    @Test(arguments: [
        (50.0, 2.6772, -79.7751, 50.0, 0.0, -82.7485, 2.0425),
        (50.0, 0.0, 0.0, 50.0, -1.0, 2.0, 2.3669),
        (50.0, 2.5, 0.0, 73.0, 25.0, -18.0, 27.1492),
        (60.2574, -34.0099, 36.2677, 60.4626, -34.1751, 39.4387, 1.2644),
    ])
    func ciede2000MatchesPublishedPairs(pair: (Double, Double, Double, Double, Double, Double, Double)) {
        let d = ColorDifference.ciede2000(.init(l: pair.0, a: pair.1, b: pair.2), .init(l: pair.3, a: pair.4, b: pair.5))
        #expect(abs(d - pair.6) < 1e-4)
    }

    @Test func labOfWhiteAndBlack() {
        let w = ColorDifference.lab(r: 255, g: 255, b: 255)
        #expect(abs(w.l - 100) < 1e-3 && abs(w.a) < 1e-2 && abs(w.b) < 1e-2)
        #expect(ColorDifference.lab(r: 0, g: 0, b: 0).l == 0)
    }

    @Test func sizeMismatchIsAnError() {
        #expect(throws: ImageComparison.SizeMismatch.self) {
            try ImageComparison.compare(TestImages.gradient(width: 8), to: TestImages.gradient(width: 9))
        }
    }

    @Test func diffImageHighlightsOverDimmedReference() throws {
        let e = TestImages.gradient()
        var a = TestImages.nudged(e, x: 3, y: 5, red: 1)
        a = TestImages.nudged(a, x: 4, y: 5, red: 100)
        a = TestImages.nudged(a, x: 0, y: 0, red: 1)      // tolerated below
        let d = try DiffImage.make(actual: a, expected: e, tolerance: Tolerance.perChannel(1).differingPixels(count: 0))
        #expect(d[0, 0] == RGBA8(r: 0, g: 160, b: 160, a: 255))
        #expect(d[4, 5] == RGBA8(r: 255, g: 0, b: UInt8(255 - 255 * 99 / 254), a: 255))
        let exact = try DiffImage.make(actual: a, expected: e)
        #expect(exact[3, 5] == RGBA8(r: 255, g: 0, b: 255, a: 255))
        // Unchanged (1,1) = (30, 30, 100): Y = (77·30 + 150·30 + 29·100 + 128) >> 8 = 38 → 64 + 14.
        #expect(exact[1, 1] == RGBA8(r: 78, g: 78, b: 78, a: 255))
    }
}

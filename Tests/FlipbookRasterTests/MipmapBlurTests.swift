import Testing
@testable import FlipbookRaster
import FlipbookPixels

@Suite struct MipmapBlurTests {
    @Test func downsampleAveragesWithRoundingAndClampsOddEdges() throws {
        // 3×1 image, values chosen so the sums hit a tie: (10 + 11 + 10 + 11 + 2) >> 2 = 11.
        let bytes: [UInt8] = [10, 20, 30, 40,  11, 21, 31, 41,  100, 100, 100, 200]
        let image = try PixelBuffer(width: 3, height: 1, bytes: bytes)
        let half = Mipmap.downsample2x(image)
        #expect(half.width == 2 && half.height == 1)
        #expect(half[0, 0] == RGBA8(r: 11, g: 21, b: 31, a: 41))   // 42/4 = 10.5 → 11 (ties up)
        #expect(half[1, 0] == RGBA8(r: 100, g: 100, b: 100, a: 200)) // odd column repeats the edge
        #expect(Mipmap.chain(image, count: 5).map(\.width) == [2, 1])
        #expect(Mipmap.level(forScale: 1) == 0 && Mipmap.level(forScale: 0.5) == 1 && Mipmap.level(forScale: 0.2) == 2)
    }

    @Test func blurWeightsAreNormalisedAndSymmetric() {
        let w = GaussianBlur.weights(radius: 6)            // sigma 3 → half-width 9
        #expect(w.count == 19 && w.reduce(0, +) == 65536)
        #expect(w == Array(w.reversed()) && w[9] == w.max())
        #expect(GaussianBlur.weights(radius: 0) == [65536] && GaussianBlur.padding(radius: 6) == 9)
    }

    @Test func blurSpreadsAPointAndStaysPremultiplied() {
        var image = PixelBuffer(width: 21, height: 21)
        image[10, 10] = RGBA8(r: 255, g: 128, b: 0, a: 255)
        let before = image
        GaussianBlur.blur(&image, radius: 0)
        #expect(image == before)
        GaussianBlur.blur(&image, radius: 4)
        #expect(image.isValidPremultiplied)
        #expect(image[10, 10].a < 255 && image[10, 10].a > 0 && image[12, 10].a > 0)
        #expect(image[10, 12] == image[12, 10] && image[8, 10] == image[12, 10])   // isotropic, symmetric
        #expect(image[0, 0] == .transparent)                                          // beyond 3 sigma
        var alpha = [UInt8](repeating: 0, count: 21 * 21)
        alpha[10 * 21 + 10] = 255
        GaussianBlur.blurAlpha(&alpha, width: 21, height: 21, radius: 4)
        #expect(alpha[10 * 21 + 10] == image[10, 10].a && alpha[10 * 21 + 12] == image[12, 10].a)
    }
}

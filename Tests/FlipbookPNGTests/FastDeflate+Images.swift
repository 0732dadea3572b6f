@testable import FlipbookPNG
import FlipbookPixels
import FlipbookTestSupport

/// Synthetic images like the frames Flipbook dumps.
enum FastDeflateImages {
    /// A valid premultiplied pixel from straight values: c' = round(c·a/255).
    static func premultiplied(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8) -> RGBA8 {
        func p(_ c: UInt8) -> UInt8 { UInt8((Int(c) * Int(a) + 127) / 255) }
        return RGBA8(r: p(r), g: p(g), b: p(b), a: a)
    }

    /// Like W1: smooth colour ramps with a little noise (bilinear-sampled content), opaque.
    static func w1Like(width: Int, height: Int) -> PixelBuffer {
        var rng = SplitMix64(seed: 42)
        var image = PixelBuffer(width: width, height: height)
        for y in 0..<height { for x in 0..<width {
            let n = Int(rng.byte() & 7)
            image[x, y] = RGBA8(r: UInt8(truncatingIfNeeded: x / 3 + n), g: UInt8(truncatingIfNeeded: y / 2 + (x >> 4)),
                                b: UInt8(truncatingIfNeeded: (x + y) / 5 + n / 2), a: 255)
        } }
        return image
    }

    /// A UI-like frame: dark background and two solid panels.
    static func flatUI(width: Int, height: Int) -> PixelBuffer {
        var image = PixelBuffer(width: width, height: height)
        for y in 0..<height { for x in 0..<width {
            let panel1 = x > width / 10 && x < width / 2 && y > height / 8 && y < height / 2
            let panel2 = x > width / 2 + 20 && y > height / 3
            image[x, y] = panel1 ? RGBA8(r: 230, g: 230, b: 235, a: 255)
                        : panel2 ? RGBA8(r: 40, g: 110, b: 200, a: 255) : RGBA8(r: 32, g: 32, b: 36, a: 255)
        } }
        return image
    }
}

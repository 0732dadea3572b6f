import FlipbookTesting
import FlipbookPixels

/// Small deterministic images for the comparison tests.
enum TestImages {
    /// An 8×8 opaque gradient: r = 30·x, g = 30·y, b = 100.
    static func gradient(width: Int = 8, height: Int = 8) -> PixelBuffer {
        var p = PixelBuffer(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                p[x, y] = RGBA8(r: UInt8(30 * x % 256), g: UInt8(30 * y % 256), b: 100, a: 255)
            }
        }
        return p
    }

    /// `image` with pixel (x, y)'s red channel moved by `delta`.
    static func nudged(_ image: PixelBuffer, x: Int, y: Int, red delta: Int) -> PixelBuffer {
        var p = image
        var c = p[x, y]
        c.r = UInt8(Int(c.r) + delta)
        p[x, y] = c
        return p
    }
}

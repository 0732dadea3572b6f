import Testing
@testable import FlipbookPixels

@Suite struct TestPatternTests {
    /// The formula, pixel by pixel, written out independently of the implementation.
    @Test func matchesTheFormula() {
        for (w, h, i) in [(300, 200, 16), (33, 517, 3), (1, 1, 0), (64, 64, 63)] {
            let p = PixelBuffer.testPattern(width: w, height: h, index: i)
            #expect(p.width == w && p.height == h)
            var bad = 0
            for y in 0..<h {
                for x in 0..<w {
                    let a = 255 - ((x % 256 + y % 256) / 4)
                    let b = ((x / 32) + (y / 32)) % 2 == 1 ? 255 : (4 * i) % 256
                    let expected = RGBA8(r: UInt8((x % 256 * a + 127) / 255), g: UInt8((y % 256 * a + 127) / 255),
                                         b: UInt8((b * a + 127) / 255), a: UInt8(a))
                    if p[x, y] != expected { bad += 1 }
                }
            }
            #expect(bad == 0, "P(\(w), \(h), \(i)): \(bad) pixels differ")
        }
    }

    @Test func isValidPremultipliedAndDeterministic() {
        let p = PixelBuffer.testPattern(width: 512, height: 300, index: 5)
        #expect(p.isValidPremultiplied)
        #expect(p == PixelBuffer.testPattern(width: 512, height: 300, index: 5))
        #expect(p != PixelBuffer.testPattern(width: 512, height: 300, index: 6))
    }
}

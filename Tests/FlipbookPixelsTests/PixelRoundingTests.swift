import Testing
@testable import FlipbookPixels

@Suite struct PixelRoundingTests {
    @Test func div255IsExactRoundToNearest() {
        for x in UInt32(0)...(255 * 255) {
            let exact = (Double(x) / 255).rounded()
            #expect(PixelRounding.div255(x) == UInt32(exact), "x = \(x)")
        }
    }

    @Test func unpremultiplyInvertsPremultiplyForEveryValueAndAlpha() {
        for a in 0...255 {
            for c in 0...255 {
                let p = PixelRounding.premultiply(UInt8(c), alpha: UInt8(a))
                #expect(p <= UInt8(a))
                let s = PixelRounding.unpremultiply(p, alpha: UInt8(a))
                if PixelRounding.premultiply(s, alpha: UInt8(a)) != p {
                    Issue.record("c=\(c) a=\(a): premul \(p) → straight \(s) → \(PixelRounding.premultiply(s, alpha: UInt8(a)))")
                }
            }
        }
    }

    @Test func opaquePixelsPassThrough() {
        for c in 0...255 {
            #expect(PixelRounding.unpremultiply(UInt8(c), alpha: 255) == UInt8(c))
            #expect(PixelRounding.premultiply(UInt8(c), alpha: 255) == UInt8(c))
        }
    }
}

@Suite struct PixelBufferTests {
    @Test func layoutAndSubscript() throws {
        var b = PixelBuffer(width: 3, height: 2)
        #expect(b.bytesPerRow == 12)
        #expect(b.bytes.count == 24)
        b[2, 1] = RGBA8(r: 1, g: 2, b: 3, a: 4)
        #expect(Array(b.bytes[20..<24]) == [1, 2, 3, 4])
        #expect(b[2, 1].packed == 0x0403_0201)
    }

    @Test func refusesBadSizesBeforeAllocating() {
        #expect(throws: PixelBufferError.emptySize(width: 0, height: 5)) {
            try PixelBuffer(validatingWidth: 0, height: 5)
        }
        #expect(throws: PixelBufferError.tooLarge(width: 100_000, height: 100_000, limit: 16_384)) {
            try PixelBuffer(validatingWidth: 100_000, height: 100_000)
        }
        #expect(throws: PixelBufferError.byteCountMismatch(expected: 16, actual: 3)) {
            try PixelBuffer(width: 2, height: 2, bytes: [1, 2, 3])
        }
    }

    @Test func fillAndValidity() {
        var b = PixelBuffer(width: 5, height: 4)
        b.fill(RGBA8(r: 10, g: 20, b: 30, a: 40))
        #expect(b[4, 3] == RGBA8(r: 10, g: 20, b: 30, a: 40))
        #expect(b.isValidPremultiplied)
        b[0, 0] = RGBA8(r: 50, g: 0, b: 0, a: 40)
        #expect(!b.isValidPremultiplied)
    }
}

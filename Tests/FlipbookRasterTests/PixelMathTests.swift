import Testing
@testable import FlipbookRaster
import FlipbookPixels
import FlipbookTestSupport

/// `PixelMath` works on two channels per word; these tests hold it to the per-channel
/// definitions of docs/rounding.md, and to the compositor's former private copies
/// (`FlipbookRender/Compositor/_PixelMath.swift`) on valid premultiplied input, which is all
/// the compositor ever feeds it.
@Suite struct PixelMathTests {
    static func channels(_ p: UInt32) -> [UInt32] { (0..<4).map { (p >> (8 * UInt32($0))) & 0xFF } }
    static func pack(_ c: [UInt32]) -> UInt32 { c[0] | c[1] << 8 | c[2] << 16 | c[3] << 24 }
    static func div255(_ x: UInt32) -> UInt32 { UInt32((Double(x) / 255).rounded()) }

    /// Random words: valid premultiplied pixels, and arbitrary (invalid) ones.
    static func samples(_ n: Int, seed: UInt64) -> [(UInt32, UInt32)] {
        var rng = SplitMix64(seed: seed)
        let edge: [UInt32] = [0, 0xFFFF_FFFF, 0xFF00_0000, 0x00FF_FFFF, 0x8080_8080, 0x01FF_01FF]
        var out: [(UInt32, UInt32)] = []
        for a in edge { for b in edge { out.append((a, b)) } }
        for i in 0..<n {
            let valid = i % 2 == 0
            out.append(valid ? (rng.premultiplied(), rng.premultiplied())
                             : (UInt32(truncatingIfNeeded: rng.next()), UInt32(truncatingIfNeeded: rng.next())))
        }
        return out
    }

    @Test func scaleAndMul8AreDiv255PerChannel() {
        for k in UInt32(0)...255 {
            for (p, _) in Self.samples(40, seed: UInt64(k)) {
                #expect(PixelMath.scale(p, k) == Self.pack(Self.channels(p).map { Self.div255($0 * k) }))
            }
            for b in UInt32(0)...255 { #expect(PixelMath.mul8(k, b) == Self.div255(k * b)) }
        }
    }

    @Test func overIsTheDocumentedRuleIncludingTheMin() {
        for (s, d) in Self.samples(50_000, seed: 7) {
            let ia = 255 - (s >> 24)
            let expected = Self.pack(zip(Self.channels(s), Self.channels(d)).map { min(255, $0 + Self.div255($1 * ia)) })
            #expect(PixelMath.over(s, d) == expected)
        }
    }

    @Test func plusSaturatesPerChannel() {
        for (s, d) in Self.samples(50_000, seed: 8) {
            #expect(PixelMath.plus(s, d) == Self.pack(zip(Self.channels(s), Self.channels(d)).map { min(255, $0 + $1) }))
        }
    }

    @Test func bilinearIsTheOneRoundingFormula() {
        var rng = SplitMix64(seed: 9)
        for i in 0..<50_000 {
            let p = (0..<4).map { _ in i % 2 == 0 ? rng.premultiplied() : UInt32(truncatingIfNeeded: rng.next()) }
            let fx = i < 256 ? UInt32(i) : UInt32(rng.byte()), fy = i < 256 ? UInt32(255 - i) : UInt32(rng.byte())
            let c = p.map(Self.channels)
            let expected = Self.pack((0..<4).map { ch in
                (c[0][ch] * (256 - fx) * (256 - fy) + c[1][ch] * fx * (256 - fy) + c[2][ch] * (256 - fx) * fy
                    + c[3][ch] * fx * fy + 32768) >> 16
            })
            #expect(PixelMath.bilinear(p[0], p[1], p[2], p[3], fx: fx, fy: fy) == expected)
        }
    }

    /// The compositor's former `over` (`s + scale(d, 255 − s.a)`, no saturation): the same bytes
    /// on valid premultiplied input.
    @Test func overMatchesTheCompositorsFormerCopyOnValidInput() {
        var rng = SplitMix64(seed: 10)
        for _ in 0..<50_000 {
            let s = rng.premultiplied(), d = rng.premultiplied()
            let ia = 255 - (s >> 24)
            let former = ia == 0 ? s : ia == 255 ? d : s &+ PixelMath.scale(d, ia)
            #expect(PixelMath.over(s, d) == former)
        }
    }

    @Test func premultipliedColorClampsAndRounds() {
        #expect(PixelMath.premultipliedColor(r: 1, g: 0.5, b: 0, a: 0.5) == RGBA8(straightR: 255, g: 128, b: 0, a: 128).packed)
        #expect(PixelMath.premultipliedColor(r: 2, g: -1, b: .nan, a: 1) == RGBA8(r: 255, g: 0, b: 0, a: 255).packed)
    }
}

@testable import FlipbookRaster
#if canImport(Glibc)
import Glibc
#endif
import FlipbookPixels

/// SplitMix64: a tiny seeded generator so every test run sees the same data.
struct SeededRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next()) }
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// A random valid premultiplied pixel; a quarter are transparent or opaque extremes.
    mutating func premultiplied() -> UInt32 {
        let pick = next() % 8
        let a: UInt32 = pick == 0 ? 0 : pick == 1 ? 255 : UInt32(byte())
        func ch(_ r: inout SeededRandom) -> UInt32 { a == 0 ? 0 : UInt32(r.next() % UInt64(a + 1)) }
        return ch(&self) | ch(&self) << 8 | ch(&self) << 16 | a << 24
    }

    /// Coverage bytes with many 0s and 255s (the fast-path values).
    mutating func coverage() -> UInt8 {
        switch next() % 4 { case 0: return 0; case 1: return 255; default: return byte() }
    }
}

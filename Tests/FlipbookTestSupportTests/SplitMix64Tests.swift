import Testing
import FlipbookTestSupport

@Suite struct SplitMix64Tests {
    /// The reference vectors of SplitMix64 (seed 0), as the peers' harness produces them.
    @Test func seedZeroGivesTheReferenceSequence() {
        var rng = SplitMix64(seed: 0)
        #expect(rng.next() == 0xE220_A839_7B1D_CDAF)
        #expect(rng.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(rng.next() == 0x06C4_5D18_8009_454F)
        #expect(rng.state == 3 &* 0x9E37_79B9_7F4A_7C15)
    }

    @Test func byteAndUnitAreTakenFromNext() {
        var a = SplitMix64(seed: 42), b = SplitMix64(seed: 42)
        #expect(a.byte() == UInt8(truncatingIfNeeded: b.next()))
        let u = a.unit()
        #expect(u == Double(b.next() >> 11) / 9_007_199_254_740_992)
        #expect(u >= 0 && u < 1)
    }

    @Test func drivesTheStandardLibrary() {
        var a = SplitMix64(seed: 7), b = SplitMix64(seed: 7)
        #expect((0..<20).shuffled(using: &a) == (0..<20).shuffled(using: &b))
        #expect(Int.random(in: 0..<1000, using: &a) == Int.random(in: 0..<1000, using: &b))
    }
}

/// SplitMix64 (Steele, Lea and Flood; the generator the peers' benchmark harness uses): a tiny
/// seeded generator, so every test run sees the same "random" data on every machine.
///
/// Seed 0 gives 0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F, …
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The generator's whole state; it advances by the golden-ratio increment on every call.
    public private(set) var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The low byte of the next value.
    public mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next()) }

    /// A double in [0, 1): the top 53 bits of the next value.
    public mutating func unit() -> Double { Double(next() >> 11) / Double(UInt64(1) << 53) }

    /// `a + (b − a) · unit()`: one multiply then one add (no fused multiply-add), as the peers'
    /// Python generator computes it.
    public mutating func uniform(_ a: Double, _ b: Double) -> Double { a + (b - a) * unit() }
}

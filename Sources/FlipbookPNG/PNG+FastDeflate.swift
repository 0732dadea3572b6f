import CFlipbookPNG

/// Test access to the internals of ``PNGCompressionStrategy/flipbookFast`` (`fast_deflate.c`).
enum _FastDeflate {
    /// The length-limited Huffman code lengths the encoder builds for these symbol counts
    /// (Huffman's, clamped and repaired when deeper than `maxBits`; 0 for unused symbols); `nil` when out of range
    /// (more than 288 symbols, `maxBits` outside 1…15, or more used symbols than 2^maxBits).
    static func huffmanLengths(_ frequencies: [UInt32], maxBits: Int) -> [UInt8]? {
        guard !frequencies.isEmpty, frequencies.count <= 288, (1...15).contains(maxBits) else { return nil }
        var lengths = [UInt8](repeating: 0, count: frequencies.count)
        let status = frequencies.withUnsafeBufferPointer { f in
            lengths.withUnsafeMutableBufferPointer { l in
                fbpng_huffman_lengths(f.baseAddress, Int32(f.count), Int32(maxBits), l.baseAddress)
            }
        }
        return status == 0 ? lengths : nil
    }
}

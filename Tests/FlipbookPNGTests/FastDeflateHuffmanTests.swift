import Testing
@testable import FlipbookPNG
import FlipbookTestSupport

/// The encoder's length-limited Huffman codes: always a complete prefix code within the limit,
/// and exactly as cheap as unlimited Huffman whenever that fits the limit.
@Suite struct FastDeflateHuffmanTests {
    /// Cost Σ f·len and maximum depth of an unlimited Huffman code (repeatedly merge the two
    /// lightest nodes; the cost is the sum of all merged weights).
    static func huffman(_ frequencies: [UInt32]) -> (cost: UInt64, depth: Int) {
        var nodes: [(w: UInt64, depth: Int)] = frequencies.filter { $0 > 0 }.map { (UInt64($0), 0) }
        var cost: UInt64 = 0
        while nodes.count > 1 {
            nodes.sort { $0.w < $1.w }
            let a = nodes.removeFirst(), b = nodes.removeFirst()
            cost += a.w + b.w
            nodes.append((a.w + b.w, max(a.depth, b.depth) + 1))
        }
        return (cost, nodes.first?.depth ?? 0)
    }

    /// Checks completeness (Kraft sum exactly 1), the limit, zero length ⇔ unused, and optimality.
    func check(_ f: [UInt32], maxBits: Int, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        guard let lengths = _FastDeflate.huffmanLengths(f, maxBits: maxBits) else {
            Issue.record("refused", sourceLocation: sourceLocation)
            return false
        }
        let used = f.filter { $0 > 0 }.count
        var kraft = 0  // Σ 2^(15 − len), complete code ⇔ 2^15
        var cost: UInt64 = 0
        for (freq, len) in zip(f, lengths) {
            #expect((freq == 0) == (len == 0), sourceLocation: sourceLocation)
            #expect(Int(len) <= maxBits, sourceLocation: sourceLocation)
            if len > 0 { kraft += 1 << (15 - Int(len)) }
            cost += UInt64(freq) * UInt64(len)
        }
        if used >= 2 { #expect(kraft == 1 << 15, sourceLocation: sourceLocation) }
        let unlimited = Self.huffman(f)
        #expect(cost >= unlimited.cost, sourceLocation: sourceLocation)
        if unlimited.depth <= maxBits { #expect(cost == unlimited.cost, sourceLocation: sourceLocation) }
        return unlimited.depth > maxBits
    }

    @Test func fibonacciCountsAreLimitedTo15And7Bits() {
        var fib: [UInt32] = [1, 1]
        while fib.count < 30 { fib.append(fib[fib.count - 1] + fib[fib.count - 2]) }
        #expect(check(fib, maxBits: 15))  // unlimited depth 29: the limit is exercised
        #expect(check(Array(fib.prefix(19)), maxBits: 7))
        #expect(check(fib + [UInt32](repeating: 0, count: 256) + [1], maxBits: 15))
    }

    @Test func randomCountsAreOptimalOrLimited() {
        var rng = SplitMix64(seed: 3)
        var limited = 0
        for trial in 0..<300 {
            let n = trial % 3 == 0 ? 19 : trial % 3 == 1 ? 30 : 286
            let maxBits = n == 19 ? 7 : 15
            let f: [UInt32] = (0..<n).map { _ in
                let r = rng.byte()
                return r < 80 ? 0 : trial % 2 == 0 ? UInt32(r) * UInt32(rng.byte()) : 1 << UInt32(rng.byte() % 18)
            }
            guard f.filter({ $0 > 0 }).count >= 2 else { continue }
            if check(f, maxBits: maxBits) { limited += 1 }
        }
        #expect(limited > 10)  // both branches of the check ran
    }

    @Test func singleAndRefusedInputs() {
        #expect(_FastDeflate.huffmanLengths([0, 5, 0], maxBits: 15) == [0, 1, 0])
        #expect(_FastDeflate.huffmanLengths([1, 1, 1], maxBits: 1) == nil)  // 3 codes do not fit in 1 bit
        #expect(_FastDeflate.huffmanLengths([1, 1], maxBits: 16) == nil)
    }
}

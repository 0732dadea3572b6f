import Testing
import FlipbookTestSupport
@testable import FlipbookRaster

/// The accumulation → coverage pass: the AVX2 kernel against the portable twin (never portable
/// against portable), and the portable twin against the formula.
@Suite struct CoverageAccumulationTests {
    /// Random cell values: mostly realistic deposits (|v| ≤ 2^17, many zeros), some large ones
    /// that exercise windings beyond ±1, the fold, and int32 wrap-around.
    static func cells(_ rng: inout SplitMix64, _ n: Int) -> [Int32] {
        (0..<n).map { _ in
            switch rng.next() % 8 {
            case 0, 1: return 0
            case 2: return Int32(truncatingIfNeeded: rng.next())                      // anything (wraps)
            case 3: return Int32(Int(rng.next() % 5) - 2) * (1 << 17)                 // whole windings
            default: return Int32(Int(rng.next() % (1 << 18)) - (1 << 17))
            }
        }
    }

    @Test(.enabled(if: RasterBackend.nativeAvailable))
    func nativeMatchesPortableOnEveryLength() {
        var rng = SplitMix64(seed: 7)
        var failures: [String] = []
        for count in 0...67 {
            for start in 0..<4 {
                for rule in [FillRule.nonZero, .evenOdd] {
                    for carry: Int32 in [0, 1 << 17, -(1 << 17) + 12345, Int32(truncatingIfNeeded: rng.next())] {
                        let base = Self.cells(&rng, count + start + 8)
                        var accA = base, accB = base
                        var covA = [UInt8](repeating: 0xAB, count: count + start + 8)
                        var covB = covA
                        let ca = accA.withUnsafeMutableBufferPointer { a in
                            covA.withUnsafeMutableBufferPointer { c in
                                CoverageAccumulation.accumulate(a.baseAddress! + start, coverage: c.baseAddress! + start,
                                                                count: count, carry: carry, rule: rule, backend: .portable)
                            }
                        }
                        let cb = accB.withUnsafeMutableBufferPointer { a in
                            covB.withUnsafeMutableBufferPointer { c in
                                CoverageAccumulation.accumulate(a.baseAddress! + start, coverage: c.baseAddress! + start,
                                                                count: count, carry: carry, rule: rule, backend: .native)
                            }
                        }
                        if ca != cb || accA != accB || covA != covB {
                            failures.append("n=\(count) start=\(start) \(rule) carry=\(carry)")
                        }
                        // guards untouched, cells zeroed
                        if covA[..<start].contains(where: { $0 != 0xAB }) || covA[(start + count)...].contains(where: { $0 != 0xAB })
                            || accA[start..<(start + count)].contains(where: { $0 != 0 }) {
                            failures.append("guards n=\(count) start=\(start)")
                        }
                    }
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }

    /// The portable pass against the formula evaluated independently in 64-bit arithmetic.
    @Test func portableMatchesTheFormula() {
        var rng = SplitMix64(seed: 8)
        for rule in [FillRule.nonZero, .evenOdd] {
            var acc = Self.cells(&rng, 300).map { $0 / 4 }          // no int32 wrap here
            var cov = [UInt8](repeating: 0, count: 300)
            let base = acc
            _ = acc.withUnsafeMutableBufferPointer { a in
                cov.withUnsafeMutableBufferPointer { c in
                    CoverageAccumulation._accumulateScalar(a.baseAddress!, c.baseAddress!, 300, 0, rule == .evenOdd)
                }
            }
            var s = 0
            for i in 0..<300 {
                s += Int(base[i])
                var a = Double(abs(s)) / 131072
                if rule == .evenOdd { a = a.truncatingRemainder(dividingBy: 2); if a > 1 { a = 2 - a } } else { a = min(a, 1) }
                let expected = UInt8((255 * a + 0.5).rounded(.down))
                #expect(cov[i] == expected, "i=\(i) s=\(s)")
            }
        }
    }

    @Test func roundingRule() {
        let one = Int32(1 << 17)
        #expect(CoverageAccumulation.coverageByte(one, evenOdd: false) == 255)
        #expect(CoverageAccumulation.coverageByte(-one, evenOdd: false) == 255)
        #expect(CoverageAccumulation.coverageByte(3 * one, evenOdd: false) == 255)
        #expect(CoverageAccumulation.coverageByte(one / 2, evenOdd: false) == 128)          // 127.5 → 128
        #expect(CoverageAccumulation.coverageByte(one / 4, evenOdd: false) == 64)           // 63.75 → 64
        #expect(CoverageAccumulation.coverageByte(514, evenOdd: false) == 1)                // 1.0000 → 1
        #expect(CoverageAccumulation.coverageByte(256, evenOdd: false) == 0)                // 0.498 → 0
        #expect(CoverageAccumulation.coverageByte(257, evenOdd: false) == 0)                // (257·255 + 2^16) >> 17 = 131071 >> 17 = 0
        #expect(CoverageAccumulation.coverageByte(258, evenOdd: false) == 1)                // 131326 >> 17 = 1
        #expect(CoverageAccumulation.coverageByte(2 * one, evenOdd: true) == 0)
        #expect(CoverageAccumulation.coverageByte(3 * one, evenOdd: true) == 255)
        #expect(CoverageAccumulation.coverageByte(-one, evenOdd: true) == 255)
        #expect(CoverageAccumulation.coverageByte(one + one / 4, evenOdd: true) == 191)     // folds to 0.75
        #expect(CoverageAccumulation.coverageByte(Int32.min, evenOdd: false) == 0)
    }
}

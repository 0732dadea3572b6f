import CFlipbookKernels
import Testing
@testable import FlipbookRaster
import FlipbookTestSupport

/// The AVX-512 source-overs must equal the AVX2 one bit for bit (which the backend twin tests
/// tie to the portable Swift kernels): span lengths 0...67 (blocks of 16 plus every tail),
/// unaligned starts, several opacities. Skipped (not failed) where the CPU lacks the ISA: each
/// kernel (`fbk_over_avx512bw`, `fbk_over_avx512vbmi`) is tested on its own, whichever one
/// `fbk_over_avx512` picks here.
@Suite struct AVX512TwinTests {
    typealias OverKernel = (UnsafeMutablePointer<UInt32>?, UnsafePointer<UInt32>?, Int, UInt32) -> Void

    @Test(.enabled(if: CPU.hasAVX512BW, "the CPU has no AVX-512BW (or no AVX2)"))
    func avx512SourceOverEqualsAVX2() {
        let bw = spanFailures(fbk_over_avx512bw), dispatched = spanFailures(fbk_over_avx512)
        #expect(bw.isEmpty, "\(bw.prefix(5))")
        #expect(dispatched.isEmpty, "\(dispatched.prefix(5))")
    }

    @Test(.enabled(if: CPU.hasAVX512VBMI, "the CPU has no AVX-512 VBMI"))
    func vbmiSourceOverEqualsAVX2() {
        let failures = spanFailures(fbk_over_avx512vbmi)
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }

    /// Every opacity through the VBMI kernel's byte table (0...255, two table halves), on
    /// random premultiplied bytes, 100 pixels (6 blocks and a tail).
    @Test(.enabled(if: CPU.hasAVX512VBMI, "the CPU has no AVX-512 VBMI"))
    func vbmiSourceOverEqualsAVX2AtEveryOpacity() {
        var rng = SplitMix64(seed: 515)
        let src = (0..<100).map { _ in rng.premultiplied() }
        let base = (0..<100).map { _ in rng.premultiplied() }
        var failures: [UInt32] = []
        for opacity: UInt32 in 0...255 {
            var a = base, b = base
            src.withUnsafeBufferPointer { s in
                a.withUnsafeMutableBufferPointer { fbk_over_avx2($0.baseAddress!, s.baseAddress!, nil, 100, opacity) }
                b.withUnsafeMutableBufferPointer { fbk_over_avx512vbmi($0.baseAddress!, s.baseAddress!, 100, opacity) }
            }
            if a != b { failures.append(opacity) }
        }
        #expect(failures.isEmpty, "opacities \(failures.prefix(8))")
    }

    private func spanFailures(_ kernel: OverKernel) -> [String] {
        var rng = SplitMix64(seed: 512)
        let src = (0..<80).map { _ in rng.premultiplied() }
        var failures: [String] = []
        for count in 0...67 {
            for start in 0..<4 {
                for opacity: UInt32 in [255, 204, 128, 1] {
                    let base = (0..<(count + start + 8)).map { _ in rng.premultiplied() }
                    var a = base, b = base
                    src.withUnsafeBufferPointer { s in
                        a.withUnsafeMutableBufferPointer { fbk_over_avx2($0.baseAddress! + start, s.baseAddress! + start, nil, count, opacity) }
                        b.withUnsafeMutableBufferPointer { kernel($0.baseAddress! + start, s.baseAddress! + start, count, opacity) }
                    }
                    if a != b { failures.append("n=\(count) start=\(start) op=\(opacity)") }
                }
            }
        }
        return failures
    }

    /// The kernels evaluate d' = s' + d − div255(d·s'a) or s' + div255(d·(255 − s'a)): the same
    /// number for every byte pair (div255 never meets an exact half there). Checked on bytes
    /// that are not premultiplied too (colour above alpha, where the sum saturates), and
    /// exhaustively over every (d, a) through a one-channel span.
    @Test(.enabled(if: CPU.hasAVX512BW, "the CPU has no AVX-512BW (or no AVX2)"))
    func avx512SourceOverEqualsAVX2OnAnyBytes() {
        var kernels: [(String, OverKernel)] = [("bw", fbk_over_avx512bw)]
        if CPU.hasAVX512VBMI { kernels.append(("vbmi", fbk_over_avx512vbmi)) }
        var failures: [String] = []
        for (name, kernel) in kernels {
            var rng = SplitMix64(seed: 513)
            for opacity: UInt32 in [255, 200, 128, 77] {
                let src = (0..<4096).map { _ in UInt32(truncatingIfNeeded: rng.next()) }
                let base = (0..<4096).map { _ in UInt32(truncatingIfNeeded: rng.next()) }
                var a = base, b = base
                src.withUnsafeBufferPointer { s in
                    a.withUnsafeMutableBufferPointer { fbk_over_avx2($0.baseAddress!, s.baseAddress!, nil, 4096, opacity) }
                    b.withUnsafeMutableBufferPointer { kernel($0.baseAddress!, s.baseAddress!, 4096, opacity) }
                }
                if a != b { failures.append("\(name): random bytes, op=\(opacity)") }
            }
            // Every destination byte d against every source alpha a (colour channels 0).
            let src = (0..<65536).map { UInt32($0 & 255) << 24 }
            let base = (0..<65536).map { UInt32($0 >> 8) * 0x0101_0101 }
            var a = base, b = base
            src.withUnsafeBufferPointer { s in
                a.withUnsafeMutableBufferPointer { fbk_over_avx2($0.baseAddress!, s.baseAddress!, nil, 65536, 255) }
                b.withUnsafeMutableBufferPointer { kernel($0.baseAddress!, s.baseAddress!, 65536, 255) }
            }
            if a != b { failures.append("\(name): exhaustive (d, a)") }
        }
        #expect(failures.isEmpty, "\(failures)")
    }

    /// The AVX-512BW solid-colour source-over (k-masked last block) equals the AVX2 one bit for
    /// bit: span lengths 0...67, unaligned starts, coverage nil or random bytes with runs of 0
    /// and 255, several colours (opaque, translucent, not premultiplied); the pixels after the
    /// span are untouched.
    @Test(.enabled(if: CPU.hasAVX512BW, "the CPU has no AVX-512BW (or no AVX2)"))
    func avx512SolidOverEqualsAVX2() {
        var rng = SplitMix64(seed: 514)
        var failures: [String] = []
        for count in 0...67 {
            for start in 0..<3 {
                for color: UInt32 in [0xFF10_2030, 0x8040_2010, 0x0101_0101, 0x40FF_FFFF] {
                    for useMask in [false, true] {
                        let base = (0..<(count + start + 20)).map { _ in rng.premultiplied() }
                        let mask: [UInt8] = (0..<(count + start + 20)).map { i in
                            let r = rng.next() % 4
                            return r == 0 ? 0 : r == 1 ? 255 : UInt8(truncatingIfNeeded: rng.next())
                        }
                        var a = base, b = base
                        mask.withUnsafeBufferPointer { m in
                            let mp = useMask ? m.baseAddress! + start : nil
                            a.withUnsafeMutableBufferPointer { fbk_solid_over_avx2($0.baseAddress! + start, color, mp, count) }
                            b.withUnsafeMutableBufferPointer { fbk_solid_over_avx512($0.baseAddress! + start, color, mp, count) }
                        }
                        if a != b { failures.append("n=\(count) start=\(start) color=\(color) mask=\(useMask)") }
                    }
                }
            }
        }
        #expect(failures.count == 0, "\(failures.prefix(5))")
    }

    /// Through the public API: native, which takes the AVX-512 kernel for a no-coverage
    /// source-over (``RasterBackend/avx512Available``), equals portable on a full W2 row. Where
    /// the AVX-512 kernel is not used, BackendTwinTests covers the AVX2 one.
    @Test(.enabled(if: RasterBackend.avx512Available, "AVX-512BW absent, or FLIPBOOK_AVX512=off"))
    func sourceOverUsesTheSameBytesWithAndWithoutAVX512() {
        var rng = SplitMix64(seed: 2)
        let src = (0..<1920).map { _ in rng.premultiplied() }
        let dst = (0..<1920).map { _ in rng.premultiplied() }
        var native = dst, portable = dst
        src.withUnsafeBufferPointer { s in
            native.withUnsafeMutableBufferPointer { SpanBlend.sourceOver($0.baseAddress!, source: s.baseAddress!, count: 1920, opacity: 128, backend: .native) }
            portable.withUnsafeMutableBufferPointer { SpanBlend.sourceOver($0.baseAddress!, source: s.baseAddress!, count: 1920, opacity: 128, backend: .portable) }
        }
        #expect(native == portable)
        #expect(native != dst)
    }
}

import CFlipbookKernels
import Testing
@testable import FlipbookRaster

/// The AVX-512BW source-over must equal the AVX2 one bit for bit (which the backend twin tests
/// tie to the portable Swift kernels): span lengths 0...67 (blocks of 16 plus every tail),
/// unaligned starts, several opacities. Skipped where the CPU lacks AVX-512BW.
@Suite struct AVX512TwinTests {
    @Test func avx512SourceOverEqualsAVX2() throws {
        try #require(RasterBackend.nativeAvailable && fbk_cpu_has_avx512bw() != 0, "no AVX-512BW on this CPU")
        var rng = SeededRandom(seed: 512)
        let src = (0..<80).map { _ in rng.premultiplied() }
        var failures: [String] = []
        for count in 0...67 {
            for start in 0..<4 {
                for opacity: UInt32 in [255, 204, 128, 1] {
                    let base = (0..<(count + start + 8)).map { _ in rng.premultiplied() }
                    var a = base, b = base
                    src.withUnsafeBufferPointer { s in
                        a.withUnsafeMutableBufferPointer { fbk_over_avx2($0.baseAddress! + start, s.baseAddress! + start, nil, count, opacity) }
                        b.withUnsafeMutableBufferPointer { fbk_over_avx512($0.baseAddress! + start, s.baseAddress! + start, count, opacity) }
                    }
                    if a != b { failures.append("n=\(count) start=\(start) op=\(opacity)") }
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }

    @Test func sourceOverUsesTheSameBytesWithAndWithoutAVX512() {
        // Through the public API: native (AVX-512 where present) equals portable on a full W2 row.
        var rng = SeededRandom(seed: 2)
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

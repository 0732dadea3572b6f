@testable import FlipbookRaster
import CFlipbookKernels
import FlipbookPixels
import FlipbookTestSupport

/// Random pixel data for the kernel tests, from the shared seeded generator.
extension SplitMix64 {
    /// A random valid premultiplied pixel; a quarter are transparent or opaque extremes.
    mutating func premultiplied() -> UInt32 {
        let pick = next() % 8
        let a: UInt32 = pick == 0 ? 0 : pick == 1 ? 255 : UInt32(byte())
        func ch(_ r: inout SplitMix64) -> UInt32 { a == 0 ? 0 : UInt32(r.next() % UInt64(a + 1)) }
        return ch(&self) | ch(&self) << 8 | ch(&self) << 16 | a << 24
    }

    /// Coverage bytes with many 0s and 255s (the fast-path values).
    mutating func coverage() -> UInt8 {
        switch next() % 4 { case 0: return 0; case 1: return 255; default: return byte() }
    }
}

/// What this CPU can run, for `.enabled(if:)`: a test that compares a native kernel with its
/// portable twin is skipped (and says so) where the native kernel cannot run, instead of
/// comparing the portable kernel with itself (`.native` falls back to `.portable` there).
enum CPU {
    /// AVX2: the native backend runs (``RasterBackend/nativeAvailable``).
    static let hasAVX2 = RasterBackend.nativeAvailable
    /// AVX-512F/BW on top of AVX2, whatever `FLIPBOOK_AVX512` says: the AVX-512 kernels can be
    /// called directly.
    static let hasAVX512BW = RasterBackend.nativeAvailable && fbk_cpu_has_avx512bw() != 0
    /// AVX-512 VBMI on top of that: `fbk_over_avx512vbmi` can be called directly.
    static let hasAVX512VBMI = hasAVX512BW && fbk_cpu_has_avx512vbmi() != 0
}

extension RasterBackend {
    /// The backends that really run on this machine: `.portable`, plus `.native` where the CPU
    /// has AVX2. Tests of known values run on each; without AVX2 the native case is left out
    /// rather than run as a second copy of the portable one.
    static let testedHere: [RasterBackend] = nativeAvailable ? [.portable, .native] : [.portable]
}

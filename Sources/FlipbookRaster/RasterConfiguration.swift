import FlipbookPixels
import CFlipbookKernels
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which implementation of the kernels runs.
///
/// - `portable`: the Swift scalar twins (`*+Scalar.swift`). Always available, the definition
///   of every kernel's result.
/// - `native`: the C AVX2 kernels in `CFlipbookKernels` (x86-64 with AVX2 only). Every native
///   kernel is **bit-identical** to its portable twin; tests check it on every span length
///   0...67 with unaligned starts.
public enum RasterBackend: Sendable, Hashable {
    case portable
    case native

    /// True when this machine can run the native kernels (x86-64 CPU with AVX2).
    /// (A cached C flag, inlined: kernels check it per span, and a lazy Swift global paid a
    /// `swift_once` call each time — 2.5 % of W7.)
    @inlinable public static var nativeAvailable: Bool { fbk_cpu_avx2_cached() != 0 }

    /// True when the native backend may also use its AVX-512BW kernels (source-over without
    /// coverage, e.g. an untransformed image layer; a solid colour with or without coverage;
    /// radial and conic gradient positions): the CPU has AVX-512F/BW and `FLIPBOOK_AVX512` is
    /// not `off`.
    /// They are bit-identical to the AVX2 ones (tested), so this changes speed only.
    /// (A cached C flag, inlined, as ``nativeAvailable``: the solid-colour kernel asks per span.)
    @inlinable public static var avx512Available: Bool { nativeAvailable && fbk_cpu_avx512_cached() != 0 }

    /// The backend every kernel uses when none is passed: resolved from
    /// ``RasterConfiguration/simd`` and ``nativeAvailable``.
    @inlinable public static var current: RasterBackend { RasterConfiguration.resolvedBackend }

    /// `self`, downgraded to `.portable` when native kernels cannot run here.
    @inlinable public var effective: RasterBackend {
        self == .native && RasterBackend.nativeAvailable ? .native : .portable
    }
}

/// The SIMD switch of FlipbookRaster.
///
/// `RasterConfiguration.simd` starts from the environment variable `FLIPBOOK_SIMD`:
/// `off` or `portable` → `.portable`; `native` → `.native`; anything else (or unset) → `.auto`.
/// It can be changed at any time (it is an atomic); kernels read it once per call.
public enum RasterConfiguration {
    /// The requested implementation.
    public enum SIMDMode: UInt8, Sendable, CaseIterable {
        /// Native kernels when the CPU supports them, else portable (the default).
        case auto
        /// Native kernels; falls back to portable when the CPU lacks AVX2.
        case native
        /// The portable Swift kernels only.
        case portable
    }

    @usableFromInline static let _mode = Atomic<UInt8>(_modeFromEnvironment().rawValue)

    static func _modeFromEnvironment() -> SIMDMode {
        guard let raw = getenv("FLIPBOOK_SIMD") else { return .auto }
        switch String(cString: raw).lowercased() {
        case "off", "portable", "0", "no": return .portable
        case "native", "avx2": return .native
        default: return .auto
        }
    }

    /// The requested mode (see the type's documentation).
    public static var simd: SIMDMode {
        get { SIMDMode(rawValue: _mode.load(ordering: .relaxed)) ?? .auto }
        set { _mode.store(newValue.rawValue, ordering: .relaxed) }
    }

    /// The backend kernels use by default, after resolving `.auto` against the CPU.
    @inlinable public static var resolvedBackend: RasterBackend {
        let m = _mode.load(ordering: .relaxed)
        if m == SIMDMode.portable.rawValue { return .portable }
        return RasterBackend.nativeAvailable ? .native : .portable
    }
}

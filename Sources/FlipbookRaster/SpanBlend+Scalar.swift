/// The portable (scalar Swift) twins of the ``SpanBlend`` kernels. They define the results; the
/// AVX2 kernels in `CFlipbookKernels/blend_avx2.c` reproduce them bit for bit.
extension SpanBlend {
    /// The scalar definition of ``sourceOver(_:source:count:opacity:coverage:backend:)`` (package
    /// access for twin tests and benchmarks in other modules).
    @inlinable
    package static func _sourceOverScalar(_ dst: UnsafeMutablePointer<UInt32>, source: UnsafePointer<UInt32>,
                                  count: Int, opacity: UInt32, coverage: UnsafePointer<UInt8>?) {
        if let coverage {
            for i in 0..<count {
                let k = PixelMath.mul8(opacity, UInt32(coverage[i]))   // k = div255(opacity · coverage)
                if k == 0 { continue }                           // Sca' = 0 leaves Dca unchanged
                dst[i] = PixelMath.over(PixelMath.scale(source[i], k), dst[i])
            }
        } else if opacity == 255 {
            for i in 0..<count { dst[i] = PixelMath.over(source[i], dst[i]) }
        } else {
            for i in 0..<count { dst[i] = PixelMath.over(PixelMath.scale(source[i], opacity), dst[i]) }
        }
    }

    @inlinable
    static func _solidOverScalar(_ dst: UnsafeMutablePointer<UInt32>, color: UInt32, count: Int,
                                 coverage: UnsafePointer<UInt8>?) {
        if let coverage {
            for i in 0..<count where coverage[i] != 0 {
                dst[i] = PixelMath.over(PixelMath.scale(color, UInt32(coverage[i])), dst[i])
            }
        } else {
            for i in 0..<count { dst[i] = PixelMath.over(color, dst[i]) }
        }
    }

    /// The scalar definition of ``modulate(_:count:tint:backend:)``.
    package static func _modulateScalar(_ p: UnsafeMutablePointer<UInt32>, count: Int, tint: UInt32) {
        for i in 0..<count { p[i] = PixelMath.modulate(p[i], tint) }
    }
}

/// Portable twins of the fused samplers (the definition the AVX2 kernels in
/// `CFlipbookKernels/sample_avx2.c` reproduce bit for bit).
extension ImageSampler {
    /// Applies opacity/coverage and source-over of sample `s` to `dst[i]`.
    @inlinable @inline(__always)
    static func _finish(_ dst: UnsafeMutablePointer<UInt32>, _ i: Int, _ s: UInt32, opacity: UInt32,
                        coverage: UnsafePointer<UInt8>?) {
        var k = opacity
        if let coverage { k = PixelMath.mul8(opacity, UInt32(coverage[i])) }
        if k == 0 { return }
        dst[i] = PixelMath.over(k == 255 ? s : PixelMath.scale(s, k), dst[i])
    }

    /// Bilinear at integer texel (tx, ty) with weights (fx, fy); decal or clamp (already clamped).
    @inlinable @inline(__always)
    static func _bilinearTaps(_ image: RasterImage, _ tx: Int32, _ ty: Int32, _ fx: UInt32, _ fy: UInt32,
                              clamp: Bool) -> UInt32 {
        if clamp {
            let x1 = min(tx + 1, Int32(image.width - 1)), y1 = min(ty + 1, Int32(image.height - 1))
            return PixelMath.bilinear(image.texel(tx, ty), image.texel(x1, ty), image.texel(tx, y1),
                                      image.texel(x1, y1), fx: fx, fy: fy)
        }
        return PixelMath.bilinear(image.texelDecal(tx, ty), image.texelDecal(tx + 1, ty),
                                  image.texelDecal(tx, ty + 1), image.texelDecal(tx + 1, ty + 1), fx: fx, fy: fy)
    }

    /// Clamps a 32.32 coordinate's integer part to `[0, limit − 1]`, zeroing the weight if clamped.
    @inlinable @inline(__always)
    static func _clamp(_ t: inout Int32, _ f: inout UInt32, _ limit: Int) {
        let c = min(max(t, 0), Int32(limit - 1))
        if c != t { f = 0; t = c }
    }

    @inlinable
    static func _affineScalar(_ dst: UnsafeMutablePointer<UInt32>, n: Int, image: RasterImage, u: Int64,
                              v: Int64, du: Int64, dv: Int64, bilinear: Bool, clamp: Bool, opacity: UInt32,
                              coverage: UnsafePointer<UInt8>?) {
        var U = u, V = v
        for i in 0..<n {
            defer { U &+= du; V &+= dv }
            var tx = Int32(truncatingIfNeeded: U >> 32), ty = Int32(truncatingIfNeeded: V >> 32)
            let s: UInt32
            if bilinear {
                var fx = UInt32(truncatingIfNeeded: U) >> 24, fy = UInt32(truncatingIfNeeded: V) >> 24
                if clamp { _clamp(&tx, &fx, image.width); _clamp(&ty, &fy, image.height) }
                s = _bilinearTaps(image, tx, ty, fx, fy, clamp: clamp)
            } else if clamp {
                s = image.texel(min(max(tx, 0), Int32(image.width - 1)), min(max(ty, 0), Int32(image.height - 1)))
            } else {
                s = image.texelDecal(tx, ty)
            }
            if s == 0 { continue }   // transparent: Dca' = Dca exactly
            _finish(dst, i, s, opacity: opacity, coverage: coverage)
        }
    }

    @inlinable
    static func _projectiveScalar(_ dst: UnsafeMutablePointer<UInt32>, n: Int, image: RasterImage, m0: Double,
                                  m3: Double, m6: Double, x0: Int, rowX: Double, rowY: Double, rowQ: Double,
                                  clamp: Bool, opacity: UInt32, coverage: UnsafePointer<UInt8>?) {
        let w = Double(image.width), h = Double(image.height)
        for i in 0..<n {
            let px = Double(x0 + i) + 0.5
            let X = m0 * px + rowX, Y = m3 * px + rowY, Q = m6 * px + rowQ
            let r = 1.0 / Q
            var sx = X * r - 0.5, sy = Y * r - 0.5
            guard Q > 0 else { continue }
            if clamp {
                guard !sx.isNaN, !sy.isNaN else { continue }
                sx = min(max(sx, 0), w - 1); sy = min(max(sy, 0), h - 1)
            } else {
                guard sx > -1, sy > -1, sx < w, sy < h else { continue }
            }
            let tx = Int32((sx * 256).rounded(.down)), ty = Int32((sy * 256).rounded(.down))
            let s = _bilinearTaps(image, tx >> 8, ty >> 8, UInt32(tx & 255), UInt32(ty & 255), clamp: clamp)
            if s == 0 { continue }
            _finish(dst, i, s, opacity: opacity, coverage: coverage)
        }
    }
}

import CFlipbookKernels
import FlipbookPixels

/// A read-only view of a premultiplied RGBA8 source image for the samplers: a pointer to pixel
/// (0, 0), the size, and the row stride in **pixels**.
///
/// The view does not own the memory: keep the buffer alive (e.g. inside
/// `PixelBuffer.withUnsafeBytes`) while kernels use it.
///
/// Invariants: `width, height >= 1`, `stridePixels >= width`, `stridePixels · height < 2³¹`
/// (the AVX2 gathers use 32-bit indices; `PixelBuffer.maximumDimension` keeps every buffer below).
public struct RasterImage: @unchecked Sendable {
    public let pixels: UnsafePointer<UInt32>
    public let width: Int
    public let height: Int
    public let stridePixels: Int

    /// - Precondition: the invariants above; `bytesPerRow` is a multiple of 4.
    public init(pixels: UnsafePointer<UInt32>, width: Int, height: Int, bytesPerRow: Int) {
        precondition(width >= 1 && height >= 1, "RasterImage needs a non-empty size, got \(width)×\(height)")
        precondition(bytesPerRow % 4 == 0 && bytesPerRow >= width * 4, "bytesPerRow \(bytesPerRow) must be a multiple of 4 and >= width·4")
        precondition((bytesPerRow / 4) * height < Int(Int32.max), "image too large for 32-bit texel indices")
        self.pixels = pixels
        self.width = width
        self.height = height
        self.stridePixels = bytesPerRow / 4
    }

    /// The texel at (x, y) or transparent (0) outside the image (the decal rule).
    @inlinable @inline(__always)
    func texelDecal(_ x: Int32, _ y: Int32) -> UInt32 {
        guard x >= 0, y >= 0, Int(x) < width, Int(y) < height else { return 0 }
        return pixels[Int(y) * stridePixels + Int(x)]
    }

    /// The texel at (x, y); the caller guarantees it is inside.
    @inlinable @inline(__always)
    func texel(_ x: Int32, _ y: Int32) -> UInt32 { pixels[Int(y) * stridePixels + Int(x)] }

    @usableFromInline
    var _c: fbk_image {
        fbk_image(pixels: pixels, width: Int32(width), height: Int32(height), stride: Int32(stridePixels))
    }
}

extension PixelBuffer {
    /// Calls `body` with a ``RasterImage`` view of this buffer.
    @inlinable
    public func withRasterImage<R>(_ body: (RasterImage) throws -> R) rethrows -> R {
        let (w, h, bpr) = (width, height, bytesPerRow)
        return try bytes.withUnsafeBytes { raw in
            try body(RasterImage(pixels: raw.baseAddress!.assumingMemoryBound(to: UInt32.self),
                                 width: w, height: h, bytesPerRow: bpr))
        }
    }
}

/// How a sampler reads texels outside the image.
public enum EdgeMode: Sendable, Hashable {
    /// Texels outside the image are transparent: a layer's edge fades over one texel (as
    /// `TileMode.decal` in Skia, `EXTEND_NONE` in cairo).
    case decal
    /// Texel coordinates are clamped to the image: use it when the compositor decides the edge
    /// with coverage (contents drawn inside layer bounds), so edges do not fade twice.
    case clamp
}

/// The image filter of the affine sampler.
public enum SampleFilter: Sendable, Hashable {
    /// Bilinear with 8-bit weights (ref-c's rule), texels around (u − 0.5, v − 0.5).
    case bilinear
    /// Nearest neighbour: the texel containing (u, v), i.e. (⌊u⌋, ⌊v⌋).
    case nearest
}

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
    /// Whether a one-texel border around the image repeats its edge texels (see
    /// ``BorderedTexture``): texels at x = −1 … width and y = −1 … height are readable. The
    /// clamp-to-edge bilinear kernels then read every footprint with two 8-byte loads instead of
    /// gathering at the image's edges; the bytes drawn are the same.
    public let hasRepeatedBorder: Bool

    /// - Precondition: the invariants above; `bytesPerRow` is a multiple of 4.
    public init(pixels: UnsafePointer<UInt32>, width: Int, height: Int, bytesPerRow: Int) {
        self.init(pixels: pixels, width: width, height: height, bytesPerRow: bytesPerRow, repeatedBorder: false)
    }

    /// A view whose memory also holds a one-texel border repeating the edge texels, when
    /// `repeatedBorder` is true: the caller promises that `pixels[(y)·stride + x]` is readable for
    /// x in −1…width, y in −1…height and equals the texel at the clamped coordinates.
    @usableFromInline
    package init(pixels: UnsafePointer<UInt32>, width: Int, height: Int, bytesPerRow: Int, repeatedBorder: Bool) {
        precondition(width >= 1 && height >= 1, "RasterImage needs a non-empty size, got \(width)×\(height)")
        precondition(bytesPerRow % 4 == 0 && bytesPerRow >= width * 4, "bytesPerRow \(bytesPerRow) must be a multiple of 4 and >= width·4")
        precondition((bytesPerRow / 4) * height < Int(Int32.max), "image too large for 32-bit texel indices")
        self.pixels = pixels
        self.width = width
        self.height = height
        self.stridePixels = bytesPerRow / 4
        self.hasRepeatedBorder = repeatedBorder
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
        fbk_image(pixels: pixels, width: Int32(width), height: Int32(height), stride: Int32(stridePixels),
                  border: hasRepeatedBorder ? 1 : 0)
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

/// A copy of an image with a one-texel border that repeats its edge texels: (width + 2) ×
/// (height + 2) pixels, the image at (1, 1). Clamp-to-edge sampling of the copy's interior
/// reads the same values as sampling the image; the border lets the bilinear kernels load
/// every 2×2 footprint as two pairs of adjacent texels, where the edge pixels of a small
/// rotated image (most of a 32×32 tile's blocks touch an edge) otherwise take the gather path.
public struct BorderedTexture: Sendable {
    /// The padded pixels; pixel (0, 0) of the image is pixel (1, 1) here.
    public let padded: PixelBuffer
    /// The image's size.
    public let width: Int, height: Int

    /// Copies `image` with the border.
    public init(_ image: PixelBuffer) {
        let w = image.width, h = image.height, pw = w + 2
        var out = PixelBuffer(width: pw, height: h + 2)
        out.bytes.withUnsafeMutableBytes { dst in
            image.bytes.withUnsafeBytes { src in
                let d = dst.baseAddress!.assumingMemoryBound(to: UInt32.self)
                for y in -1...h {
                    let sy = Swift.min(Swift.max(y, 0), h - 1)
                    let s = (src.baseAddress! + sy * image.bytesPerRow).assumingMemoryBound(to: UInt32.self)
                    let row = d + (y + 1) * pw
                    row[0] = s[0]
                    (row + 1).update(from: s, count: w)
                    row[w + 1] = s[w - 1]
                }
            }
        }
        padded = out; width = w; height = h
    }

    /// Calls `body` with a ``RasterImage`` of the image (its interior), marked as bordered.
    @inlinable
    public func withRasterImage<R>(_ body: (RasterImage) throws -> R) rethrows -> R {
        let (w, h, bpr) = (width, height, padded.bytesPerRow)
        return try padded.bytes.withUnsafeBytes { raw in
            let base = raw.baseAddress!.assumingMemoryBound(to: UInt32.self)
            return try body(RasterImage(pixels: base + (w + 2) + 1, width: w, height: h, bytesPerRow: bpr,
                                        repeatedBorder: true))
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

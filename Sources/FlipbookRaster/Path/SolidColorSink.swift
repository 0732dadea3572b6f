import FlipbookPixels

/// A ``CoverageSink`` that paints one premultiplied colour source-over through the coverage,
/// into rows of RGBA8 pixels: pixel (x, y) at `pixels[y · rowStride + x]`.
///
///     k  = coverage (0...255)
///     s' = div255(color · k)                          per channel
///     d' = min(255, s' + div255(d · (255 − s'.a)))    (SpanBlend.solidOver)
///
/// The common case of a drawing engine — a path filled or stroked with a flat colour — and
/// what the W7 benchmark paints with. On the native backend it takes the rasterizer's rows
/// whole (``prefersDenseRows``): with AVX-512 the sweep paints them as it goes
/// (``solidTarget``); with AVX2 the rows of a band come from C (`fbk_sweep_rows_avx2`) and are
/// painted by one kernel call per chunk of rows (`fbk_solid_spans_avx2`). Either way no span is
/// found, trimmed or handed over one by one. A row's gaps have coverage 0 there, and `k = 0`
/// leaves a pixel as it is, so the bytes are those of painting the spans (tested).
public struct SolidColorSink: CoverageSink {
    public let pixels: UnsafeMutablePointer<UInt32>
    /// Pixels from one row to the next.
    public let rowStride: Int
    public let color: RGBA8
    public let backend: RasterBackend

    public init(pixels: UnsafeMutablePointer<UInt32>, rowStride: Int, color: RGBA8, backend: RasterBackend = .current) {
        self.pixels = pixels; self.rowStride = rowStride; self.color = color; self.backend = backend
    }

    public mutating func coverageSpan(y: Int, x: Int, coverage: UnsafeBufferPointer<UInt8>) {
        SpanBlend.solidOver(pixels + y * rowStride + x, color: color, count: coverage.count,
                            coverage: coverage.baseAddress, backend: backend)
    }

    public mutating func constantSpan(y: Int, x: Int, count: Int, coverage: UInt8) {
        let c = coverage == 255 ? color : RGBA8(packed: PixelMath.scale(color.packed, UInt32(coverage)))
        SpanBlend.solidOver(pixels + y * rowStride + x, color: c, count: count, backend: backend)
    }

    /// Whole rows (the dense sweep: native backend only; elsewhere the spans above).
    public static var prefersDenseRows: Bool { true }

    /// With AVX-512 the native sweep paints as it goes (`fbk_sweep_rows_solid_avx512`): runs of
    /// cells through their coverage, a shape's interior with the colour scaled once, no coverage
    /// rows in between.
    public var solidTarget: SolidTarget? { SolidTarget(pixels: pixels, rowStride: rowStride, color: color) }

    public mutating func denseRows(y: Int, count: Int, x: Int, starts: UnsafePointer<Int>, counts: UnsafePointer<Int>,
                                   coverage: UnsafePointer<UInt8>, stride: Int) {
        SpanBlend.solidOverRows(pixels + y * rowStride + x, rowStride: rowStride, count: count, starts: starts,
                                counts: counts, coverage: coverage, stride: stride, color: color, backend: backend)
    }
}

/// RGBA8 rows painted with one premultiplied colour, source-over through the coverage: pixel
/// (x, y) at `pixels[y · rowStride + x]` (``CoverageSink/solidTarget``).
public struct SolidTarget {
    public let pixels: UnsafeMutablePointer<UInt32>
    public let rowStride: Int
    public let color: RGBA8
    public init(pixels: UnsafeMutablePointer<UInt32>, rowStride: Int, color: RGBA8) {
        self.pixels = pixels; self.rowStride = rowStride; self.color = color
    }
}

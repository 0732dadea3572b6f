import Foundation
import FlipbookPixels
import FlipbookRaster

/// A drawing destination (Apple's `CGContext`): a bitmap of premultiplied RGBA8 pixels with a
/// graphics state (transform, colours, line style, clip) and a current path.
///
/// Coordinates: the context's own space has its origin at the **top-left** of the bitmap and
/// y growing down (the space UIKit sets up for `CALayer.draw(in:)`, and the layer space of
/// Flipbook); the CTM maps user space into it.
///
/// Only 8-bit premultiplied RGBA (`CGImageAlphaInfo.premultipliedLast`) bitmaps are drawn;
/// other formats make the initializer return nil (with a message on standard error).
open class CGContext {
    /// The pixels drawn so far.
    package var _pixels: PixelBuffer
    /// Caller-owned memory the context draws into (`data:` of the initializer), or nil.
    let _data: UnsafeMutableRawPointer?
    let _bytesPerRow: Int
    /// The graphics state and its saved copies.
    package var _state = _GState()
    package var _saved: [_GState] = []

    public let width: Int
    public let height: Int
    public var bitsPerComponent: Int { 8 }
    public var bitsPerPixel: Int { 32 }
    public var bytesPerRow: Int { _bytesPerRow }
    public let colorSpace: CGColorSpace?
    public var bitmapInfo: CGBitmapInfo { CGBitmapInfo(rawValue: CGImageAlphaInfo.premultipliedLast.rawValue) }
    public var alphaInfo: CGImageAlphaInfo { .premultipliedLast }

    /// A bitmap context (Apple's `CGContext(data:width:height:bitsPerComponent:bytesPerRow:space:bitmapInfo:)`).
    /// `data` nil: the context owns zeroed memory; else it draws into `data` (`bytesPerRow`
    /// bytes per row, 0 = `4 · width`). Returns nil for a size or format it cannot draw.
    public init?(data: UnsafeMutableRawPointer?, width: Int, height: Int, bitsPerComponent: Int,
                 bytesPerRow: Int, space: CGColorSpace, bitmapInfo: UInt32) {
        let alpha = bitmapInfo & CGBitmapInfo.alphaInfoMask.rawValue
        guard bitsPerComponent == 8, space.numberOfComponents == 3,
              alpha == CGImageAlphaInfo.premultipliedLast.rawValue,
              bitmapInfo & (CGBitmapInfo.floatComponents.rawValue) == 0,
              (try? PixelBuffer.validateSize(width: width, height: height)) != nil,
              bytesPerRow == 0 || bytesPerRow >= width * 4 else {
            FileHandle.standardError.write(Data(
                "CGContext: unsupported bitmap \(width)×\(height), \(bitsPerComponent) bits per component, bitmapInfo \(bitmapInfo) (Flipbook draws 8-bit premultipliedLast RGB)\n".utf8))
            return nil
        }
        self.width = width; self.height = height
        self._data = data
        self._bytesPerRow = bytesPerRow == 0 ? width * 4 : bytesPerRow
        self.colorSpace = space
        self._pixels = PixelBuffer(width: width, height: height)
        if let data {
            let rowBytes = width * 4, stride = _bytesPerRow
            _pixels.withUnsafeMutableBytes { dst in
                for y in 0..<height { dst.baseAddress!.advanced(by: y * rowBytes).copyMemory(from: data + y * stride, byteCount: rowBytes) }
            }
        }
    }

    // MARK: Graphics state

    public func saveGState() { _saved.append(_state) }
    public func restoreGState() { if let s = _saved.popLast() { _state = s } }

    /// The current transformation matrix: user space → the bitmap's pixels (y down).
    public var ctm: CGAffineTransform { _state.ctm }
    public func translateBy(x: CGFloat, y: CGFloat) { _state.ctm = CGAffineTransform(translationX: x, y: y).concatenating(_state.ctm) }
    public func scaleBy(x: CGFloat, y: CGFloat) { _state.ctm = CGAffineTransform(scaleX: x, y: y).concatenating(_state.ctm) }
    public func rotate(by angle: CGFloat) { _state.ctm = CGAffineTransform(rotationAngle: angle).concatenating(_state.ctm) }
    public func concatenate(_ t: CGAffineTransform) { _state.ctm = t.concatenating(_state.ctm) }

    public func setFillColor(_ color: CGColor) { _state.fillColor = color }
    public func setStrokeColor(_ color: CGColor) { _state.strokeColor = color }

    // MARK: Drawing

    /// Fills `rect` (user space) with the fill colour.
    public func fill(_ rect: CGRect) {
        let p = CGMutablePath(); p.addRect(rect)
        _fill(RasterPath(p), rule: .nonZero, color: _state.fillColor)
    }

    /// Rasterizes `path` through the CTM and paints `color` source-over with the coverage.
    package func _fill(_ path: RasterPath, rule: FillRule, color: CGColor) {
        let c = PixelMath.premultipliedColor(r: Double(color.red), g: Double(color.green), b: Double(color.blue),
                                             a: Double(color.alpha) * Double(_state.alpha))
        guard c >> 24 != 0 else { return }
        let t = _state.ctm
        let rt = RasterTransform(a: Double(t.a), b: Double(t.b), c: Double(t.c), d: Double(t.d), tx: Double(t.tx), ty: Double(t.ty))
        let rasterizer = PathRasterizer()
        _pixels.withUnsafeMutableBytes { raw in
            var sink = _SolidSink(base: raw.baseAddress!.assumingMemoryBound(to: UInt32.self), stride: width, color: RGBA8(packed: c))
            rasterizer.fill(path, rule: rule, transform: rt, clip: RasterClip(width: width, height: height), into: &sink)
        }
        _flush()
    }

    /// Copies the pixels back to caller-owned memory, if any.
    func _flush() {
        guard let data = _data else { return }
        let rowBytes = width * 4, stride = _bytesPerRow
        _pixels.withUnsafeBytes { src in
            for y in 0..<height { (data + y * stride).copyMemory(from: src.baseAddress!.advanced(by: y * rowBytes), byteCount: rowBytes) }
        }
    }

    /// An image of what has been drawn so far (a copy: later drawing does not change it).
    public func makeImage() -> CGImage? { CGImage(pixelBuffer: _pixels) }
}

/// One graphics state (`saveGState` pushes a copy).
package struct _GState {
    package var ctm: CGAffineTransform = .identity
    package var fillColor: CGColor = .black
    package var strokeColor: CGColor = .black
    package var alpha: CGFloat = 1
}

/// Paints one premultiplied colour source-over through coverage spans.
struct _SolidSink: CoverageSink {
    let base: UnsafeMutablePointer<UInt32>
    let stride: Int
    let color: RGBA8
    mutating func coverageSpan(y: Int, x: Int, coverage: UnsafeBufferPointer<UInt8>) {
        SpanBlend.solidOver(base + y * stride + x, color: color, count: coverage.count, coverage: coverage.baseAddress)
    }
    mutating func constantSpan(y: Int, x: Int, count: Int, coverage: UInt8) {
        if coverage == 255 { SpanBlend.solidOver(base + y * stride + x, color: color, count: count); return }
        let cov = [UInt8](repeating: coverage, count: count)
        cov.withUnsafeBufferPointer { SpanBlend.solidOver(base + y * stride + x, color: color, count: count, coverage: $0.baseAddress) }
    }
}

import Foundation
import FlipbookPixels
import FlipbookRaster

/// A drawing destination (Apple's `CGContext`): a bitmap of premultiplied RGBA8 pixels with a
/// graphics state (transform, colours, line style, alpha, blend mode, shadow, clip) and a current
/// path.
///
/// ## Coordinates
/// As on Apple, a bitmap context's base (device) space has its origin at the **bottom-left** of
/// the bitmap with y growing **up**, and a new context's CTM is the identity: filling
/// `CGRect(x: 0, y: 0, width: w, height: 1)` paints the **last** row in memory, ``makeImage()``
/// takes the first memory row as the image's top, and `draw(image, in: bounds)` is upright.
/// Code that draws particle images, icons or rings into bitmap contexts therefore ports
/// unchanged — and code that flips the CTM first (`translateBy(x: 0, y: h)`,
/// `scaleBy(x: 1, y: -1)`, what `UIGraphicsImageRenderer` does) gets UIKit's top-left origin.
///
/// Only the context a layer's `draw(in:)` receives is set up y-down, as UIKit sets it up: its
/// CTM starts as the flip `(1, 0, 0, −1, 0, h)` (then scaled by `contentsScale`), so drawing
/// code works in the layer's top-left-origin points. ``ctm`` reports Apple's values in both.
///
/// Inside, pixels are stored top row first and drawing goes through `_state.ctm`, which maps
/// user space straight to those pixel rows (y down): the public CTM is
/// `_state.ctm × (1, 0, 0, −1, 0, height)`.
///
/// ## Rendering
/// Every shape is covered with the exact-area rasterizer of `FlipbookRaster` (docs/rasterizer.md)
/// and composited with THE rounding rule (docs/rounding.md). With antialiasing off
/// (``setShouldAntialias(_:)`` / ``setAllowsAntialiasing(_:)``) each coverage byte is thresholded:
/// ≥ 128 (half the pixel covered) becomes 255, anything less 0 — for shapes and clips alike.
///
/// ## Pixel formats
/// Core Graphics' 8-bit formats: premultiplied RGBA (`premultipliedLast`, Flipbook's own, drawn
/// straight into the caller's memory), BGRA and the other orders of premultiplied RGB
/// (`premultipliedFirst`, `byteOrder32Little`), the opaque `noneSkipFirst` / `noneSkipLast`,
/// 8-bit gray and 8-bit alpha only (see `_PixelLayout`: drawn in RGBA and written back into the
/// caller's memory after every drawing call). Anything else — 16 or 32 bits per component,
/// floats, straight alpha (which Core Graphics does not draw either), CMYK — makes the
/// initializer return nil with a message on standard error.
open class CGContext {
    /// Where drawing goes: the bitmap, or a transparency layer's backdrop.
    package final class _Surface {
        let base: UnsafeMutablePointer<UInt32>
        let stride: Int
        let width: Int, height: Int
        let owned: Bool
        init(width: Int, height: Int) {
            self.width = width; self.height = height; stride = max(width, 1); owned = true
            // calloc: large blocks come zeroed from the kernel, no memset pass over the bitmap.
            let n = max(width * height, 1)
            guard let raw = calloc(n, MemoryLayout<UInt32>.stride) else { fatalError("CGContext: out of memory for \(width)×\(height)") }
            base = raw.bindMemory(to: UInt32.self, capacity: n)
        }
        init(base: UnsafeMutablePointer<UInt32>, width: Int, height: Int, stride: Int) {
            self.base = base; self.width = width; self.height = height; self.stride = stride; owned = false
        }
        deinit { if owned { free(base) } }
        @inline(__always) func row(_ y: Int) -> UnsafeMutablePointer<UInt32> { base + y * stride }
    }

    package var _surface: _Surface
    /// The caller's memory when its layout is not premultiplied RGBA (nil otherwise).
    package var _foreign: _ForeignBitmap?
    let _layout: _PixelLayout
    let _bitmapInfo: UInt32
    /// Whether user space started y-up (a bitmap context made by the public initializer) rather
    /// than top-down (a layer's `draw(in:)` context, ``_orientTopDown()``). Decides the
    /// direction of shadow offsets (base space).
    package var _baseIsYUp = true
    /// Open transparency layers: the surface underneath and the state at `begin`.
    var _layers: [(surface: _Surface, state: _GState, savedDepth: Int)] = []
    let _bytesPerRow: Int
    /// The graphics state and its saved copies.
    package var _state = _GState()
    package var _saved: [_GState] = []
    /// The current path, in **device** space (points are mapped by the CTM when added, as on Apple).
    package var _path = CGMutablePath()
    /// Text space → user space for glyphs (Apple: not part of the graphics state). Identity.
    public var textMatrix: CGAffineTransform = .identity
    /// The text matrix's translation (Core Graphics keeps them as one: setting one changes the
    /// other).
    public var textPosition: CGPoint {
        get { CGPoint(x: textMatrix.tx, y: textMatrix.ty) }
        set { textMatrix.tx = newValue.x; textMatrix.ty = newValue.y }
    }
    var _allowsAntialiasing = true
    let _rasterizer = PathRasterizer()
    let _stroker = PathStroker()
    /// Reused per context so that a fill or stroke allocates nothing once the buffers have grown:
    /// the device path as a raster path, the user-space path being stroked, the stroke outline,
    /// and one row of coverage bytes for the solid painter (`_scratchCapacity` bytes).
    var _fillPath = RasterPath()
    var _strokeUser = RasterPath()
    var _outline = RasterPath()
    /// The last stroke outline's self-crossing corrections (``PathStroker/overlapCorrections(into:)``),
    /// handed to the fill of that outline.
    var _strokeCorrections: [SIMD3<Int32>] = []
    var _scratch: UnsafeMutablePointer<UInt8>
    var _scratchCapacity: Int
    /// Tests only: paint every solid fill through the general engine (a coverage buffer per
    /// shape, then the compositing loop) instead of straight into the bitmap.
    package var _generalPathOnly = false

    public let width: Int
    public let height: Int
    public var bitsPerComponent: Int { 8 }
    public var bitsPerPixel: Int { 8 * _layout.bytesPerPixel }
    public var bytesPerRow: Int { _bytesPerRow }
    public let colorSpace: CGColorSpace?
    public var bitmapInfo: CGBitmapInfo { CGBitmapInfo(rawValue: _bitmapInfo) }
    public var alphaInfo: CGImageAlphaInfo { CGImageAlphaInfo(rawValue: _bitmapInfo & CGBitmapInfo.alphaInfoMask.rawValue) ?? .premultipliedLast }

    /// A bitmap context (Apple's `CGContext(data:width:height:bitsPerComponent:bytesPerRow:space:bitmapInfo:)`).
    /// `data` nil: the context owns zeroed (transparent) memory; else it draws into `data`
    /// (`bytesPerRow` bytes per row, 0 = `4 · width`), which must stay valid while the context
    /// lives. Returns nil for a size or format it cannot draw (see "Pixel formats").
    public init?(data: UnsafeMutableRawPointer?, width: Int, height: Int, bitsPerComponent: Int,
                 bytesPerRow: Int, space: CGColorSpace, bitmapInfo: UInt32) {
        if width > 0, height > 0, (try? PixelBuffer.validateSize(width: width, height: height)) == nil {
            Self._sayOnce("CGContext: a \(width)×\(height) bitmap is larger than \(PixelBuffer.maximumDimension) pixels a side (docs/limits.md); no context\n")
            return nil
        }
        let layout = bitsPerComponent == 8 ? _PixelLayout.from(components: space.numberOfComponents, bitmapInfo: bitmapInfo) : nil
        let bpp = layout?.bytesPerPixel ?? 4
        // RGBA rows are drawn in place: whole pixels, 4-byte aligned.
        let rowOK = bytesPerRow == 0 || (bytesPerRow >= width * bpp && (layout != .rgba || bytesPerRow % 4 == 0))
        guard let layout, (try? PixelBuffer.validateSize(width: width, height: height)) != nil, rowOK else {
            Self._sayOnce(
                "CGContext: unsupported bitmap \(width)×\(height), \(bitsPerComponent) bits per component, \(space.numberOfComponents) colour components, bytesPerRow \(bytesPerRow), bitmapInfo \(bitmapInfo) (Flipbook draws Core Graphics' 8-bit formats: premultiplied RGB in any order, noneSkipFirst/Last, gray, alpha only; RGBA rows a multiple of 4 bytes)\n")
            return nil
        }
        self.width = width; self.height = height
        self._bytesPerRow = bytesPerRow == 0 ? width * bpp : bytesPerRow
        self.colorSpace = space
        self._layout = layout
        self._bitmapInfo = bitmapInfo
        _scratchCapacity = max(width, 1)
        _scratch = .allocate(capacity: _scratchCapacity)
        if layout == .rgba {
            if let data {
                _surface = _Surface(base: data.assumingMemoryBound(to: UInt32.self), width: width, height: height, stride: _bytesPerRow / 4)
            } else {
                _surface = _Surface(width: width, height: height)
            }
        } else {
            // Drawn in RGBA, written back in the caller's layout (`_ForeignBitmap`).
            _surface = _Surface(width: width, height: height)
            let f = _ForeignBitmap(base: data, bytesPerRow: _bytesPerRow, height: height, layout: layout)
            f.read(into: _surface)
            _foreign = f
        }
        _state.ctm = _deviceToPixels
    }

    /// Apple's device space (origin bottom-left, y up) → the pixel rows (top row first): the flip
    /// `(1, 0, 0, −1, 0, height)`. Its own inverse.
    package var _deviceToPixels: CGAffineTransform { CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: CGFloat(height)) }

    /// Sets the context up as UIKit sets up the one a layer's `draw(in:)` receives: user space is
    /// the bitmap's pixels with the origin at the **top-left** and y down (the CTM becomes
    /// `(1, 0, 0, −1, 0, height)`), the graphics state otherwise fresh. Shadow offsets then go down
    /// for a positive height, as in a UIKit context.
    package func _orientTopDown() {
        _state.ctm = .identity
        _baseIsYUp = false
    }

    deinit { _scratch.deallocate() }

    private static let _said = _SaidOnce()

    /// Writes `message` to standard error the first time it occurs in this process (a layer that
    /// cannot get a backing store asks again at every frame).
    static func _sayOnce(_ message: String) {
        if _said.first(message) { StandardStreams.error(message) }
    }

    /// A scratch row of at least `n` coverage bytes (grown, never shrunk).
    @inline(__always) func _scratchRow(_ n: Int) -> UnsafeMutablePointer<UInt8> {
        if n > _scratchCapacity {
            _scratch.deallocate()
            _scratchCapacity = n
            _scratch = .allocate(capacity: n)
        }
        return _scratch
    }

    /// A copy of the pixels drawn so far (what ``makeImage()`` wraps).
    package var _pixels: PixelBuffer { makeImage()!.pixelBuffer }

    /// An image of what has been drawn so far (a copy: later drawing does not change it). Inside
    /// a transparency layer: the bitmap under all layers.
    public func makeImage() -> CGImage? {
        let s = _layers.first?.surface ?? _surface
        let rowBytes = width * 4
        // One pass: the rows copied into uninitialised memory (no zero fill first).
        let bytes = [UInt8](unsafeUninitializedCapacity: rowBytes * height) { buf, count in
            let dst = UnsafeMutableRawPointer(buf.baseAddress!)
            if s.stride == width {
                dst.copyMemory(from: s.base, byteCount: rowBytes * height)
            } else {
                for y in 0..<height { (dst + y * rowBytes).copyMemory(from: s.row(y), byteCount: rowBytes) }
            }
            count = rowBytes * height
        }
        guard var pb = try? PixelBuffer(width: width, height: height, bytes: bytes) else { return nil }
        if _layout != .rgba { _imageOfLayout(&pb) }
        return CGImage(pixelBuffer: pb)
    }

    // MARK: Graphics state

    /// Pushes a copy of the whole graphics state (CTM, colours, line style, alpha, blend mode,
    /// shadow, antialiasing, interpolation quality, clip). The current path is not part of it.
    public func saveGState() { _saved.append(_state) }
    /// Pops the state saved last; does nothing if none is saved (Apple logs an error there).
    public func restoreGState() { if let s = _saved.popLast() { _state = s } }

    /// The current transformation matrix: user space → device space (Apple's: origin at the
    /// bitmap's bottom-left, y up). The identity for a new bitmap context; `(s, 0, 0, −s, 0, h)`
    /// in a layer's `draw(in:)` at `contentsScale` s, as on iOS.
    public var ctm: CGAffineTransform { _state.ctm.concatenating(_deviceToPixels) }
    public func translateBy(x: CGFloat, y: CGFloat) { _state.ctm = CGAffineTransform(translationX: x, y: y).concatenating(_state.ctm) }
    public func scaleBy(x: CGFloat, y: CGFloat) { _state.ctm = CGAffineTransform(scaleX: x, y: y).concatenating(_state.ctm) }
    /// Rotates user space by `angle` radians (positive: from +x towards +y, clockwise on screen here).
    public func rotate(by angle: CGFloat) { _state.ctm = CGAffineTransform(rotationAngle: angle).concatenating(_state.ctm) }
    public func concatenate(_ t: CGAffineTransform) { _state.ctm = t.concatenating(_state.ctm) }

    public func setFillColor(_ color: CGColor) { _state.fillColor = color }
    public func setStrokeColor(_ color: CGColor) { _state.strokeColor = color }
    public func setFillColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        _state.fillColor = CGColor(red: red, green: green, blue: blue, alpha: alpha)
    }
    public func setStrokeColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        _state.strokeColor = CGColor(red: red, green: green, blue: blue, alpha: alpha)
    }
    public func setFillColor(gray: CGFloat, alpha: CGFloat) { _state.fillColor = CGColor(gray: gray, alpha: alpha) }
    public func setStrokeColor(gray: CGFloat, alpha: CGFloat) { _state.strokeColor = CGColor(gray: gray, alpha: alpha) }

    /// Line width in user units (default 1). Negative values are ignored; 0 draws the thinnest
    /// line (a hairline: 1 device pixel at alpha × device width, see `PathStroker`).
    public func setLineWidth(_ width: CGFloat) { if width >= 0 { _state.lineWidth = width } }
    public func setLineCap(_ cap: CGLineCap) { _state.lineCap = cap }
    public func setLineJoin(_ join: CGLineJoin) { _state.lineJoin = join }
    public func setMiterLimit(_ limit: CGFloat) { _state.miterLimit = limit }
    /// Dash pattern in user units (on, off, …; an odd count repeats); `phase` is the distance into
    /// the pattern where each subpath starts. An empty `lengths` is a solid line.
    public func setLineDash(phase: CGFloat, lengths: [CGFloat]) { _state.dashPhase = phase; _state.dashLengths = lengths }
    /// The global alpha multiplied into everything drawn (clamped to 0…1).
    public func setAlpha(_ alpha: CGFloat) { _state.alpha = min(max(alpha, 0), 1) }
    public func setBlendMode(_ mode: CGBlendMode) { _state.blendMode = mode }
    /// Whether shapes are antialiased (part of the graphics state). Off: coverage ≥ 128 → 255, else 0.
    public func setShouldAntialias(_ shouldAntialias: Bool) { _state.shouldAntialias = shouldAntialias }
    /// Whether antialiasing is allowed at all (a context setting, not saved with the state).
    public func setAllowsAntialiasing(_ allowsAntialiasing: Bool) { _allowsAntialiasing = allowsAntialiasing }
    /// Image filtering for ``draw(_:in:)`` (saved with the state): `.none` is nearest-neighbour,
    /// everything else bilinear.
    public var interpolationQuality: CGInterpolationQuality {
        get { _state.interpolationQuality }
        set { _state.interpolationQuality = newValue }
    }

    /// A shadow under everything drawn from now on (Apple's `setShadow(offset:blur:color:)`).
    ///
    /// - `offset`: in **base space** — device pixels of this bitmap, not changed by the CTM (as on
    ///   Apple). In a bitmap context (y up) a positive `height` moves the shadow **up**; in a
    ///   layer's `draw(in:)` context it moves it **down**, as in a UIKit context on iOS. Offsets
    ///   are rounded to whole pixels.
    /// - `blur`: Core Graphics' blur amount, not a standard deviation. Flipbook blurs with a
    ///   Gaussian of **σ = blur / 2** device pixels (the CSS `box-shadow` convention), kernel
    ///   ±⌈3σ⌉ (`GaussianBlur`).
    /// - `color`: nil turns the shadow off. Its alpha multiplies the drawn alpha.
    ///
    /// The shadow is cast by the drawn shape's alpha (colour/image alpha × global alpha ×
    /// coverage, before the clip), blurred, tinted, composited with the blend mode under the
    /// clip, then the shape is drawn over it.
    public func setShadow(offset: CGSize, blur: CGFloat, color: CGColor?) {
        guard let color, color.alpha > 0 else { _state.shadow = nil; return }
        // Stored as a pixel-row offset (y down).
        let rows = CGSize(width: offset.width, height: _baseIsYUp ? -offset.height : offset.height)
        _state.shadow = _Shadow(offset: rows, blur: max(blur, 0), color: color)
    }

    /// A shadow in black at ⅓ alpha (Apple's default shadow colour).
    public func setShadow(offset: CGSize, blur: CGFloat) {
        setShadow(offset: offset, blur: blur, color: CGColor(gray: 0, alpha: 1.0 / 3.0))
    }

    var _antialias: Bool { _state.shouldAntialias && _allowsAntialiasing }

    /// The clip back to the whole bitmap (Apple's `resetClip()`).
    public func resetClip() { _state.clip = nil }

    /// The pixel memory (the caller's `data:`, or the context's own), premultiplied RGBA8 rows
    /// of ``bytesPerRow`` bytes — inside a transparency layer, the memory under all layers.
    public var data: UnsafeMutableRawPointer? {
        if let f = _foreign { return f.base }
        return UnsafeMutableRawPointer(_layers.first?.surface.base ?? _surface.base)
    }

    /// Drawing is immediate: nothing to flush (Apple's `flush()`).
    public func flush() {}

    /// User space → device space (Apple's, y up): the CTM.
    public var userSpaceToDeviceSpaceTransform: CGAffineTransform { ctm }
    public func convertToDeviceSpace(_ point: CGPoint) -> CGPoint { point.applying(ctm) }
    public func convertToUserSpace(_ point: CGPoint) -> CGPoint { point.applying(ctm.inverted()) }
    public func convertToDeviceSpace(_ size: CGSize) -> CGSize { size.applying(ctm) }
    public func convertToUserSpace(_ size: CGSize) -> CGSize { size.applying(ctm.inverted()) }
    public func convertToDeviceSpace(_ rect: CGRect) -> CGRect { rect.applying(ctm) }
    public func convertToUserSpace(_ rect: CGRect) -> CGRect { rect.applying(ctm.inverted()) }
}

/// One graphics state (`saveGState` pushes a copy).
package struct _GState {
    package var ctm: CGAffineTransform = .identity
    package var fillColor: CGColor = .black
    package var strokeColor: CGColor = .black
    package var alpha: CGFloat = 1
    package var lineWidth: CGFloat = 1
    package var lineCap: CGLineCap = .butt
    package var lineJoin: CGLineJoin = .miter
    package var miterLimit: CGFloat = 10
    package var dashPhase: CGFloat = 0
    package var dashLengths: [CGFloat] = []
    package var blendMode: CGBlendMode = .normal
    package var shadow: _Shadow? = nil
    package var shouldAntialias = true
    package var interpolationQuality: CGInterpolationQuality = .default
    package var font: CGFont? = nil
    package var fontSize: CGFloat = 0
    package var textDrawingMode: CGTextDrawingMode = .fill
    /// The clip as coverage (nil: the whole bitmap).
    package var clip: _ClipMask? = nil
}

package struct _Shadow {
    var offset: CGSize
    var blur: CGFloat
    var color: CGColor
}

/// The clip: one coverage byte per pixel of the context (255 inside, 0 outside, exact-area at
/// edges), and the pixel bounds outside which it is all 0. Intersecting multiplies bytes
/// (`div255(a·b)`). A value type: saving the state copies it (copy-on-write).
package struct _ClipMask {
    var bytes: [UInt8]
    var width: Int
    var bounds: _IRect
}

package struct _IRect: Equatable {
    var x0: Int, y0: Int, x1: Int, y1: Int
    var isEmpty: Bool { x1 <= x0 || y1 <= y0 }
    var width: Int { x1 - x0 }
    var height: Int { y1 - y0 }
    func intersection(_ o: _IRect) -> _IRect {
        _IRect(x0: max(x0, o.x0), y0: max(y0, o.y0), x1: min(x1, o.x1), y1: min(y1, o.y1))
    }
}

/// Messages already written (at most 256 kept; then every message is new again).
package final class _SaidOnce: @unchecked Sendable {
    private let lock = NSLock()
    private var seen = Set<String>()
    package init() {}
    package func first(_ m: String) -> Bool {
        lock.lock(); defer { lock.unlock() }
        if seen.count >= 256 { seen.removeAll() }
        return seen.insert(m).inserted
    }
    /// Whether `m` was written (tests).
    package func contains(_ m: String) -> Bool { lock.lock(); defer { lock.unlock() }; return seen.contains(m) }
    /// The messages written that contain `part` (tests).
    package func messages(containing part: String) -> [String] {
        lock.lock(); defer { lock.unlock() }; return seen.filter { $0.contains(part) }.sorted()
    }
}

import Foundation
import FlipbookPixels

/// The memory layouts of bitmap contexts other than Flipbook's own (8-bit premultiplied RGBA,
/// `premultipliedLast`), as Core Graphics takes them (Quartz 2D Programming Guide, "Supported
/// Pixel Formats", 8 bits per component): BGRA (`premultipliedFirst | byteOrder32Little`, the
/// layout `UIGraphicsBeginImageContext` uses), ARGB, ABGR, the opaque `noneSkipFirst` /
/// `noneSkipLast` layouts in either byte order, 8-bit gray (`CGColorSpaceCreateDeviceGray()`,
/// `.none`) and 8-bit alpha only (`.alphaOnly`).
///
/// **How they are drawn.** The context draws into its own premultiplied RGBA bitmap — every
/// kernel, the rounding rule and the exact-area coverage are the same as for RGBA — and writes
/// each drawn region back into the caller's memory in its layout as it is drawn, so the caller's
/// bytes are current after every call, as on Apple. The caller's pixels are read in once, when
/// the context is made; later changes made to that memory directly, while the context lives,
/// are not seen by later drawing (write them before making the context, or draw them).
///
/// Conversions (per pixel; `R G B A` the context's premultiplied values):
/// - RGB with alpha: the bytes reordered.
/// - RGB without alpha (`noneSkip…`): the destination is opaque — read in with A = 255 — and the
///   skipped byte is written as 255.
/// - Gray: read in as `R = G = B = g`, A = 255; written as `(77·R + 150·G + 29·B + 128) >> 8`
///   (exact for gray colours: the weights sum to 256).
/// - Alpha only: read in as `(0, 0, 0, a)`; written as A.
package struct _PixelLayout: Equatable, Sendable {
    /// Byte offsets of R, G, B and A within a pixel (nil: the byte is not there). Gray layouts
    /// use `gray`.
    var r: Int?, g: Int?, b: Int?, a: Int?
    /// Offset of the skipped byte of an opaque layout (written as 255).
    var skip: Int?
    var gray = false
    var bytesPerPixel: Int

    static let rgba = _PixelLayout(r: 0, g: 1, b: 2, a: 3, bytesPerPixel: 4)

    /// The layout for a `CGContext(…bitsPerComponent: 8, space:, bitmapInfo:)`, or nil when
    /// Core Graphics has no such 8-bit bitmap context.
    static func from(components: Int, bitmapInfo: UInt32) -> _PixelLayout? {
        guard bitmapInfo & CGBitmapInfo.floatComponents.rawValue == 0 else { return nil }
        let alpha = CGImageAlphaInfo(rawValue: bitmapInfo & CGBitmapInfo.alphaInfoMask.rawValue)
        let order = bitmapInfo & CGBitmapInfo.byteOrderMask.rawValue
        let little = order == CGBitmapInfo.byteOrder32Little.rawValue
        guard order == 0 || little || order == CGBitmapInfo.byteOrder32Big.rawValue else { return nil }
        switch (components, alpha) {
        case (1, .none?): return little ? nil : _PixelLayout(gray: true, bytesPerPixel: 1)
        case (1, .alphaOnly?), (0, .alphaOnly?): return little ? nil : _PixelLayout(a: 0, bytesPerPixel: 1)
        case (3, let info?):
            // The 32-bit pixel as Core Graphics names it, most significant byte first; a
            // little-endian order stores it reversed.
            let word: [Character]
            switch info {
            case .premultipliedLast: word = ["R", "G", "B", "A"]
            case .premultipliedFirst: word = ["A", "R", "G", "B"]
            case .noneSkipLast: word = ["R", "G", "B", "X"]
            case .noneSkipFirst: word = ["X", "R", "G", "B"]
            default: return nil                               // straight alpha, none, alphaOnly
            }
            let bytes = little ? Array(word.reversed()) : word
            var l = _PixelLayout(bytesPerPixel: 4)
            l.r = bytes.firstIndex(of: "R"); l.g = bytes.firstIndex(of: "G"); l.b = bytes.firstIndex(of: "B")
            l.a = bytes.firstIndex(of: "A"); l.skip = bytes.firstIndex(of: "X")
            return l
        default: return nil
        }
    }

    init(r: Int? = nil, g: Int? = nil, b: Int? = nil, a: Int? = nil, skip: Int? = nil, gray: Bool = false, bytesPerPixel: Int) {
        self.r = r; self.g = g; self.b = b; self.a = a; self.skip = skip; self.gray = gray; self.bytesPerPixel = bytesPerPixel
    }

    /// The gray level of a pixel: `(77·R + 150·G + 29·B + 128) >> 8` (the weights sum to 256, so
    /// a gray colour keeps its level exactly).
    static func luminance(_ p: RGBA8) -> UInt8 {
        let r: UInt32 = 77 * UInt32(p.r), g: UInt32 = 150 * UInt32(p.g), b: UInt32 = 29 * UInt32(p.b)
        return UInt8((r + g + b + 128) >> 8)
    }

    /// True for the layouts with no alpha: the destination is opaque.
    var isOpaque: Bool { a == nil && (skip != nil || gray) }
}

/// The caller's memory of a context with a layout other than RGBA (see ``_PixelLayout``).
package final class _ForeignBitmap {
    let base: UnsafeMutableRawPointer
    let bytesPerRow: Int
    let layout: _PixelLayout
    let owned: Bool

    init(base: UnsafeMutableRawPointer?, bytesPerRow: Int, height: Int, layout: _PixelLayout) {
        if let base {
            self.base = base; owned = false
        } else {
            // calloc: zero bytes are transparent (or black, for the opaque layouts), as Apple's.
            self.base = calloc(max(bytesPerRow * height, 1), 1)!
            owned = true
        }
        self.bytesPerRow = bytesPerRow
        self.layout = layout
    }
    deinit { if owned { free(base) } }

    /// Reads the caller's pixels into `surface` (premultiplied RGBA).
    func read(into surface: CGContext._Surface) {
        let l = layout
        for y in 0..<surface.height {
            let src = (base + y * bytesPerRow).assumingMemoryBound(to: UInt8.self)
            let dst = surface.row(y)
            for x in 0..<surface.width {
                let p = src + x * l.bytesPerPixel
                let px: RGBA8
                if l.gray {
                    px = RGBA8(r: p[0], g: p[0], b: p[0], a: 255)
                } else if let r = l.r, let g = l.g, let b = l.b {
                    let a = l.a.map { p[$0] } ?? 255
                    // Premultiplied input: a colour byte above its alpha is clamped (Apple's
                    // contexts never hold one).
                    px = RGBA8(r: min(p[r], a), g: min(p[g], a), b: min(p[b], a), a: a)
                } else {
                    px = RGBA8(r: 0, g: 0, b: 0, a: p[l.a ?? 0])
                }
                dst[x] = px.packed
            }
        }
    }

    /// Writes `rect` of `surface` (premultiplied RGBA) into the caller's memory.
    func write(_ rect: _IRect, from surface: CGContext._Surface) {
        let r = rect.intersection(_IRect(x0: 0, y0: 0, x1: surface.width, y1: surface.height))
        guard !r.isEmpty else { return }
        let l = layout
        for y in r.y0..<r.y1 {
            let dst = (base + y * bytesPerRow).assumingMemoryBound(to: UInt8.self)
            let src = surface.row(y)
            for x in r.x0..<r.x1 {
                let px = RGBA8(packed: src[x])
                let p = dst + x * l.bytesPerPixel
                if l.gray {
                    p[0] = _PixelLayout.luminance(px)
                } else if let r = l.r, let g = l.g, let b = l.b {
                    p[r] = px.r; p[g] = px.g; p[b] = px.b
                    if let a = l.a { p[a] = px.a }
                    if let s = l.skip { p[s] = 255 }
                } else {
                    p[l.a ?? 0] = px.a
                }
            }
        }
    }
}

extension CGContext {
    /// After drawing into `rect` (pixels) of the current surface: a context over memory of
    /// another layout writes the region back (only the base bitmap; a transparency layer is
    /// written when it ends). Every write to the bitmap calls this.
    @inline(__always)
    func _didDraw(_ rect: _IRect) {
        guard let f = _foreign, _layers.isEmpty else { return }
        f.write(rect, from: _surface)
    }

    /// `makeImage()` of a context of another layout: what its memory holds, as premultiplied
    /// RGBA — an opaque layout's image is opaque, a gray one gray, an alpha-only one black with
    /// the alpha.
    func _imageOfLayout(_ pb: inout PixelBuffer) {
        let l = _layout
        let alphaOnly = l.r == nil && !l.gray
        guard l.isOpaque || alphaOnly else { return }
        for y in 0..<pb.height {
            for x in 0..<pb.width {
                var p = pb[x, y]
                if alphaOnly {
                    p = RGBA8(r: 0, g: 0, b: 0, a: p.a)
                } else if l.gray {
                    let g = _PixelLayout.luminance(p)
                    p = RGBA8(r: g, g: g, b: g, a: 255)
                } else {
                    p.a = 255
                }
                pb[x, y] = p
            }
        }
    }
}

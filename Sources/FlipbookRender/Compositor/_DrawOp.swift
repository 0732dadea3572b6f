import CFlipbookKernels
import Flipbook
import FlipbookPixels
import FlipbookRaster

/// What a draw is clipped to: a closed device-space polyline path (a layer quad after the
/// homogeneous clip, a rounded rectangle whose arcs were flattened at plan time, a border ring),
/// filled by FlipbookRaster's exact-area `PathRasterizer` with `rule`.
///
/// Built once per draw at plan time (an immutable value in the op); per band the executor only
/// rasterizes it. Coverage of a pixel is the exact area of the pixel inside the path (24.8 fixed
/// point, see docs/rasterizer.md), so it is the same byte for any band containing the pixel.

struct _Shape: Sendable {
    var path: RasterPath
    var rule: FillRule
    /// Device pixels that may have non-zero coverage (already clipped to the frame).
    var bounds: _IRect
    /// Set when the path is an axis-aligned rectangle on whole pixels (∩ the frame): its
    /// coverage is exactly 255 inside and 0 outside, so the executor skips the rasterizer.
    var pixelRect: _IRect? = nil
    /// The rows only the two vertical sides of an axis-aligned (rounded) rectangle cross: the
    /// rasterizer writes them directly (`PathRasterizer.fill(_:rule:clip:straight:into:)`, same
    /// bytes). Nil for other shapes.
    var straight: StraightRows? = nil
    /// A polygon outline (a layer's, `_Planner.shape`) in the rasterizer's fixed point, filled
    /// as it is (`PathRasterizer.fill` of a `FixedPolygon`: the bytes of the polygon's path,
    /// without flattening and converting it per band); `path` is then empty. Nil: `path`.
    var fixed: FixedPolygon? = nil
    /// A curved path (a shape layer's fill, a stroke outline, a border ring) flattened once per
    /// frame into fixed point (`FixedPath`, culled to the frame), filled as it is in every band
    /// it meets: the bytes of `path`'s fill, which would flatten and convert it again per band.
    var flat: FixedPath? = nil
    /// Aliased edges (`allowsEdgeAntialiasing == false`): each coverage byte is thresholded,
    /// ≥ 128 → 255, else 0 — for a pixel crossed by one straight edge that is exactly "the
    /// pixel's centre is inside" (a square is centrally symmetric: the side of a line holding
    /// at least half its area is the side holding its centre). Executed through the mask path.
    var aliased = false
    /// Pixels certainly covered fully (coverage 255) — for an axis-aligned rectangle, the whole
    /// pixels inside it (∩ the frame); nil when not known. A clip that holds all its content
    /// inside this region changes nothing (`_Planner.endClipGroup`).
    var interior: _IRect? = nil
}

/// The image source of a draw.

struct _ImagePaint: Sendable {
    /// Premultiplied texels.
    var texture: PixelBuffer
    /// Device pixel-centre coordinates → texel coordinates (texel `k` covers `[k, k+1)`), or
    /// → layer coordinates when `ninePart` is set.
    var inverse: _Homography
    var nearest: Bool
    /// Texels that may be read: `[cx0, cx1) × [cy0, cy1)` (clamp-to-edge inside it).
    var cx0: Int, cy0: Int, cx1: Int, cy1: Int
    /// `contentsCenter` stretching (layer → texel), or nil.
    var ninePart: NinePartMap?
    /// A premultiplied colour multiplying every sampled texel (`PixelMath.modulate`): a tinted
    /// layer whose only drawing is its contents (an emitter particle), without a group.
    var tint: UInt32? = nil
    /// `texture` with a repeated one-texel border (`_MipLevel`), or nil: the fused samplers
    /// read it instead when the whole texture is drawn (`_ImagePaintBox.withFastRaster`).
    var bordered: BorderedTexture? = nil

    /// No nine-part map and the whole texture readable: what the fused samplers draw
    /// (`_FastImage.kind`).
    var isPlain: Bool {
        ninePart == nil && cx0 == 0 && cy0 == 0 && cx1 == texture.width && cy1 == texture.height
    }
}

/// An 8-bit alpha image in device space (a blurred shadow), tinted with a premultiplied colour.

struct _AlphaPaint: Sendable {
    var alpha: [UInt8]
    var rect: _IRect
    var color: UInt32
}


/// An image paint behind one reference of its own. Boxed: an image paint is ~150 bytes, and
/// every copy of a draw (the band executor reads each op out of the list per band) moved the
/// largest case's size. A class rather than an `indirect` case: matching `.image` copies the
/// box reference (this draw's own object) and the executor reads the paint in place, where
/// unboxing copied the paint out — retaining its texture, an object every particle of an
/// emitter shares, from every worker thread at once (a contended reference count).
final class _ImagePaintBox: Sendable {
    let paint: _ImagePaint
    /// `paint.isPlain`, decided once here (testing `paint.ninePart == nil` per draw and band
    /// copied the optional map out, ~2 % of W6a).
    let isPlain: Bool
    init(_ paint: _ImagePaint) {
        self.paint = paint
        isPlain = paint.isPlain
    }

    /// Calls `body` with the texture as a `RasterImage`: the bordered copy's view when there is
    /// one (the same texels; the clamp-to-edge bilinear kernels read it without gathers). The
    /// paint's fields are read in place, not copied out (a copy retains both buffers).
    @inline(__always)
    func withFastRaster<R>(_ body: (RasterImage) throws -> R) rethrows -> R {
        if paint.bordered != nil { return try paint.bordered!.withRasterImage(body) }
        return try paint.texture.withRasterImage(body)
    }
}

enum _Paint: Sendable {
    case solid(UInt32)
    case image(_ImagePaintBox)
    case alpha(_AlphaPaint)
    /// A gradient (`CAGradientLayer`), boxed like images.
    indirect case gradient(GradientPaint)
    /// Emitter particles, one tinted image draw each, in order (`_ParticleBatch`); the draw
    /// holding it has no shapes (each particle has its outline).
    case particles(_ParticleBatch)
}

/// One primitive: `paint × coverage(shapes) × alpha/255`, source-over. Several shapes (a draw
/// clipped by ancestors' `masksToBounds`) multiply: `c = div255(c₀ · c₁)` per further shape,
/// exact rounding (`PixelMath.mul8`); no shapes = the whole `bounds` (a shadow's alpha image).

///
/// A class (immutable): the band executor matches each op of its band out of the list, and
/// matching a struct payload copied it — its shapes array and paint retained and released per
/// draw and band; now one reference of the draw's own is.
final class _Draw: Sendable {
    let shapes: [_Shape]
    let paint: _Paint
    /// Opacity 0…255 (`round(opacity · 255)`).
    let alpha: UInt32
    /// Intersection of the shapes' bounds.
    let bounds: _IRect
    /// Where the executor's first reads of this draw go besides the object itself — the shapes'
    /// storage, the first shape's fixed-point outline, the image paint's box — for
    /// ``_BandExecutor`` to prefetch a draw or two ahead. With 10,000 small layers each of
    /// these is a cache miss per draw (a third of W6a's per-draw overhead in perf). Only
    /// addresses (as integers: never dereferenced): an address that went stale would make a
    /// useless prefetch, nothing else.
    let hints: (shapes: UInt, outline: UInt, box: UInt)
    /// Where this draw certainly paints whole pixels opaquely (``_Occluder``), or nil.
    let occluder: _Occluder?

    init(shapes: [_Shape], paint: _Paint, alpha: UInt32, bounds: _IRect) {
        self.shapes = shapes; self.paint = paint; self.alpha = alpha; self.bounds = bounds
        occluder = _Occluder.make(shapes: shapes, paint: paint, alpha: alpha, bounds: bounds)
        var box: UInt = 0
        if case .image(let b) = paint { box = UInt(bitPattern: Unmanaged.passUnretained(b).toOpaque()) }
        hints = (shapes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) },
                 shapes.first?.fixed?.points.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } ?? 0,
                 box)
    }

    /// Prefetches what ``hints`` names (the object itself is read to get them: call this once
    /// the object has been prefetched, a step or two earlier).
    @inline(__always)
    func prefetchContents() {
        let h = hints
        if let p = UnsafeRawPointer(bitPattern: h.shapes) { fbk_prefetch(p, 5) }    // a _Shape is ~240 bytes
        if let p = UnsafeRawPointer(bitPattern: h.outline) { fbk_prefetch(p - 32, 2) }   // with the count
        if let p = UnsafeRawPointer(bitPattern: h.box) { fbk_prefetch(p, 6) }       // _ImagePaint: read up to ~0x150
    }
}

/// How a finished offscreen group is put back: source-over, the saturating sum (`plus`, a
/// crossfade's halves, an additive particle, `plusLighter`), or another blend mode of
/// `BlendModes` (a layer's `compositingFilter`, `_Planner.groupMode`).

enum _GroupMode: Sendable, Equatable {
    case over, plus
    case blend(RasterBlendMode)
}

/// The flat, device-space program the planner produces and the band executor runs.

enum _Op: Sendable {
    case draw(_Draw)
    /// Start an offscreen group (transparent) over `bounds`.
    case push(bounds: _IRect)
    /// Composite the top group into the one below with `alpha` (0…255). With a `mask` mode, the
    /// stack is `[…, parent, mask, content]` and the content is also multiplied by the mask read
    /// that way (`_LayerMaskMode.factor`: its alpha, luminance, or their inverse); both are
    /// popped. Nil: no mask.
    /// `clip`: shapes whose coverage multiplies the content (a `masksToBounds` clip applied once).
    case pop(bounds: _IRect, alpha: UInt32, mode: _GroupMode, mask: _LayerMaskMode?, clip: [_Shape])
    /// Multiply the top group's pixels over `bounds` by a premultiplied tint `(tr, tg, tb, ta)`:
    /// `p' = (div255(r·tr), div255(g·tg), div255(b·tb), div255(a·ta))` — a replicator
    /// instance's colour multiplier (straight `(R, G, B, A)` → tint `(R·A, G·A, B·A, A)`).
    case tint(bounds: _IRect, color: UInt32)

    var bounds: _IRect {
        switch self {
        case .draw(let d): return d.bounds
        case .push(let b): return b
        case .pop(let b, _, _, _, _): return b
        case .tint(let b, _): return b
        }
    }
}

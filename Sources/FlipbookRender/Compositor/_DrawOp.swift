import Flipbook
import FlipbookPixels
import FlipbookRaster

/// A straight device-space edge `d(x, y) = nx·x + ny·y + c`: the signed distance in device
/// pixels from the edge line, positive inside the shape.

struct _Edge: Sendable {
    var nx: Double, ny: Double, c: Double
}

/// A rounded rectangle in some layer's own space, reached from the device by `inverse`.
/// Radii are per corner (top-left, top-right, bottom-right, bottom-left in y-down space).

struct _RoundedRect: Sendable {
    var inverse: _Homography
    var x0: Double, y0: Double, x1: Double, y1: Double
    var rTL: Double, rTR: Double, rBR: Double, rBL: Double
}

/// What a draw clips against: a convex device polygon (its anti-aliased edges) and, when the
/// rectangle has rounded corners, the rounded rectangle in layer space for the corner arcs.
///
/// Coverage of a pixel (centre `(x + ½, y + ½)`):
/// - straight part: `Π clamp(dᵢ + ½, 0, 1)` over the edges (exact for one edge crossing the
///   pixel; the product is the usual approximation at vertices);
/// - inside a corner square: `clamp((r − |p − c|) / g + ½, 0, 1)` where `p` is the pixel
///   centre mapped to layer space, `c` the arc centre and `g` the length of the device-space
///   gradient of `|p − c|` (so the distance is measured in device pixels under any transform).

struct _Shape: Sendable {
    var edges: [_Edge]
    /// Device pixels that may have non-zero coverage (already clipped to the frame).
    var bounds: _IRect
    var rounded: _RoundedRect?
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
}

/// An 8-bit alpha image in device space (a blurred shadow), tinted with a premultiplied colour.

struct _AlphaPaint: Sendable {
    var alpha: [UInt8]
    var rect: _IRect
    var color: UInt32
}


enum _Paint: Sendable {
    case solid(UInt32)
    case image(_ImagePaint)
    case alpha(_AlphaPaint)
}

/// One primitive: `paint × coverage(shapes) × (1 − coverage(hole)) × alpha/255`, source-over.

struct _Draw: Sendable {
    var shapes: [_Shape]
    var hole: _Shape?
    var paint: _Paint
    /// Opacity 0…255 (`round(opacity · 255)`).
    var alpha: UInt32
    /// Intersection of the shapes' bounds.
    var bounds: _IRect
}

/// How a finished offscreen group is put back.

enum _GroupMode: Sendable { case over, plus }

/// The flat, device-space program the planner produces and the band executor runs.

enum _Op: Sendable {
    case draw(_Draw)
    /// Start an offscreen group (transparent) over `bounds`.
    case push(bounds: _IRect)
    /// Composite the top group into the one below with `alpha` (0…255). When `masked`, the
    /// stack is `[…, parent, mask, content]` and the content is also multiplied by the mask's
    /// alpha; both are popped.
    case pop(bounds: _IRect, alpha: UInt32, mode: _GroupMode, masked: Bool)

    var bounds: _IRect {
        switch self {
        case .draw(let d): return d.bounds
        case .push(let b): return b
        case .pop(let b, _, _, _): return b
        }
    }
}

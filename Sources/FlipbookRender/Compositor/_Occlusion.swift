import Flipbook
import FlipbookPixels
import FlipbookRaster

/// Occlusion: where a later draw paints every pixel of an 8-pixel block opaquely, nothing
/// drawn there before it can show, so the frame's clear and earlier draws skip that block.
///
/// A draw is an **occluder** (``_Occluder/init(shapes:paint:alpha:)``) when its paint is
/// opaque at every pixel it can reach (a solid colour of alpha 255; a gradient whose ramp and
/// extended ends are all opaque, under an affine map of moderate size, so that no position is
/// NaN), its alpha is 255, and its coverage is one shape whose fully covered pixels are known:
/// a rectangle's ``_Shape/interior``, or a convex quadrilateral (a layer's quad) whose
/// interior is computed row by row from the rasterizer's own fixed-point points. A pixel
/// wholly inside that polygon has coverage exactly 255 (the exact-area accumulation of a full
/// pixel), and source-over of an opaque colour at coverage 255 and alpha 255 is a copy of the
/// colour: the pixel's bytes after the occluder do not depend on anything before it.
///
/// Per band, ``_OcclusionMap/build(ops:draws:indices:y0:y1:width:)`` records for each block
/// of each row the **owner**: the rank (1-based position in the band's op list) of the last
/// occluder at group depth 0 that wholly covers the block. A draw of rank `r` at depth 0 skips
/// the blocks whose owner is greater than `r`; the clear skips every owned block. Only blocks
/// are skipped, never rows split, so every pixel that is painted gets exactly the bytes it
/// would have had: the frame is byte-identical with and without occlusion
/// (`OcclusionTests` renders scenes both ways).
/// A class, held by reference from its draw: the values take ~190 bytes, and a draw object of
/// that size for every draw (10,000 small image layers, none an occluder) cost W6a ~2 %.
final class _Occluder: Sendable {
    /// Whole pixels certainly covered (an axis-aligned rectangle), when `isRect`.
    let rect: _IRect
    let isRect: Bool
    /// The quad's sides as x bounds of row `y` (pixels): `lo = max(leftA + leftQ·y)` and
    /// `hi = min(rightA + rightQ·y)` over the lanes — each side's line at the row's top or
    /// bottom, whichever binds, moved inwards by `margin`. Unused lanes hold ∓∞ and slope 0.
    /// (Plain values, no array: reading an occluder retains nothing.)
    let leftA: SIMD4<Double>, leftQ: SIMD4<Double>
    let rightA: SIMD4<Double>, rightQ: SIMD4<Double>
    /// Rows that may hold interior pixels.
    let y0: Int, y1: Int

    /// A margin (pixels) by which each side is moved inwards: the Double evaluation of a side
    /// from points within ±2^22 fixed-point units errs by far less (< 2^-13 px).
    static let margin = 1.0 / 1024

    /// The occluder of a draw, or nil. The cheap tests come first, before the object is
    /// allocated (a failable class initializer allocates before it can fail: W6b's 10,000
    /// opaque rounded rectangles paid an allocation each).
    static func make(shapes: [_Shape], paint: _Paint, alpha: UInt32, bounds: _IRect) -> _Occluder? {
        guard alpha == 255, shapes.count == 1, !bounds.isEmpty, isOpaque(paint) else { return nil }
        // The shape's fields read in place (`shapes[0].x` copies the whole shape out, retaining
        // its paths).
        let candidate = shapes.withUnsafeBufferPointer { b -> Bool in
            let p = b.baseAddress!
            if p.pointer(to: \.aliased)!.pointee { return false }
            if p.pointer(to: \.interior)!.pointee != nil || p.pointer(to: \.pixelRect)!.pointee != nil { return true }
            return p.pointer(to: \.fixed)!.pointee?.points.count == 8
        }
        return candidate ? _Occluder(shapes: shapes, paint: paint, alpha: alpha, bounds: bounds) : nil
    }

    /// The geometry of a draw `make` has found opaque, unaliased and of one shape.
    private init?(shapes: [_Shape], paint: _Paint, alpha: UInt32, bounds: _IRect) {
        let s = shapes[0]
        let none = SIMD4<Double>(repeating: 0)
        if let r = s.interior ?? s.pixelRect {
            let i = r.intersection(bounds)
            guard !i.isEmpty else { return nil }
            rect = i; isRect = true; y0 = i.y0; y1 = i.y1
            leftA = none; leftQ = none; rightA = none; rightQ = none
            return
        }
        guard let poly = s.fixed, poly.points.count == 8 else { return nil }
        let p = poly.points.map { Double($0) }
        let limit = Double(1 << 22)
        guard p.allSatisfy({ abs($0) < limit }) else { return nil }
        // Orientation (twice the signed area) and convexity: all four turns one strict sign.
        var area = 0.0
        for i in 0..<4 {
            let j = (i + 1) % 4
            area += p[2 * i] * p[2 * j + 1] - p[2 * j] * p[2 * i + 1]
        }
        guard area != 0 else { return nil }
        let sgn: Double = area > 0 ? 1 : -1
        for i in 0..<4 {
            let j = (i + 1) % 4, k = (i + 2) % 4
            let c = (p[2 * j] - p[2 * i]) * (p[2 * k + 1] - p[2 * j + 1]) - (p[2 * j + 1] - p[2 * i + 1]) * (p[2 * k] - p[2 * j])
            guard c * sgn > 0 else { return nil }
        }
        // Side i → j: inside when sgn·((x₂−x₁)(Y−y₁) − (y₂−y₁)(X−x₁)) ≥ 0, i.e. A·X + B·Y + C ≥ 0 with
        // A = −sgn·dy, B = sgn·dx, C = sgn·(dy·x₁ − dx·y₁) (fixed-point units, exact in Double).
        var la = SIMD4<Double>(repeating: -.infinity), lq = none
        var ra = SIMD4<Double>(repeating: .infinity), rq = none
        var top = poly.bounds.y.rounded(.up), bottom = poly.bounds.w.rounded(.down)
        for i in 0..<4 {
            let j = (i + 1) % 4
            let x1 = p[2 * i], y1 = p[2 * i + 1], dx = p[2 * j] - x1, dy = p[2 * j + 1] - y1
            let A = -sgn * dy, B = sgn * dx, C = sgn * (dy * x1 - dx * y1)
            if A == 0 {
                // A horizontal side bounds the rows: B·256y + C ≥ 0 at the row's top and bottom.
                let yb = -C / (256 * B)
                if B > 0 { top = max(top, (yb + Self.margin).rounded(.up)) } else { bottom = min(bottom, (yb - Self.margin).rounded(.down)) }
                continue
            }
            // X = 256·x on the side's line: x = p + q·y with p = −C/(256A), q = −B/A.
            let pp = -C / (256 * A), q = -B / A
            if A > 0 {
                la[i] = pp + max(0, q) + Self.margin; lq[i] = q     // x ≥ the larger of the row's two ends
            } else {
                ra[i] = pp + min(0, q) - Self.margin; rq[i] = q     // x + 1 ≤ the smaller
            }
        }
        let ry0 = max(Int(top), bounds.y0), ry1 = min(Int(bottom), bounds.y1)
        guard ry1 > ry0, la.max() > -.infinity, ra.min() < .infinity else { return nil }
        rect = .empty; isRect = false; y0 = ry0; y1 = ry1
        leftA = la; leftQ = lq; rightA = ra; rightQ = rq
    }

    /// The whole pixels of row `y` certainly covered, clipped to `[x0, x1)` (x0 ≥ 0; empty when
    /// the second is not greater).
    @inline(__always)
    func row(_ y: Int, x0: Int, x1: Int) -> (Int, Int) {
        if isRect { return (max(rect.x0, x0), min(rect.x1, x1)) }
        let fy = SIMD4<Double>(repeating: Double(y))
        // Pixel x is inside when x ≥ lo and x + 1 ≤ hi.
        let lo = Swift.max(Double(x0), (leftA + leftQ * fy).max())
        let hi = Swift.min(Double(x1), (rightA + rightQ * fy).min())
        guard hi - lo >= 1 else { return (0, 0) }
        // ceil(lo) and floor(hi) for values in [0, x1] (no libm call): truncation, then a step.
        let t = Int(lo), b = Int(hi)
        return (Double(t) < lo ? t + 1 : t, b)
    }

    /// Whether `paint` is opaque wherever it can paint (see the type's summary).
    @inline(__always)
    static func isOpaque(_ paint: _Paint) -> Bool {
        switch paint {
        case .solid(let c):
            return c >> 24 == 255
        case .gradient(let g):
            guard g.kind != .twoCircle, g.extendsBefore, g.extendsAfter else { return false }
            // Positions are numbers (never NaN, which paints nothing) when W = m6·x + m7·y + m8
            // stays well away from 0 over the frame (|x|, |y| < 2^15) and U, V are finite: a
            // rotated layer's map has m6, m7 of rounding size and m8 near 1.
            let m = g.m
            guard abs(m.6) <= 1e-6, abs(m.7) <= 1e-6, m.8 >= 0.5, m.8 <= 2 else { return false }
            // (NaN compares false: refused too.)
            guard abs(m.0) < 1e6, abs(m.1) < 1e6, abs(m.2) < 1e6, abs(m.3) < 1e6, abs(m.4) < 1e6, abs(m.5) < 1e6 else { return false }
            return g.ramp.isOpaque
        default:
            return false
        }
    }
}

/// A band's block owners seen by one draw: plain pointers (a painter holding the map object
/// would retain and release it per row).
struct _OcclusionView {
    let owner: UnsafeMutablePointer<UInt16>
    let rowMax: UnsafeMutablePointer<UInt16>
    let blocks: Int, y0: Int
    /// The draw's rank: blocks owned by a greater rank are hidden from it.
    let rank: UInt32

    /// Calls `body(a, b)` for the parts of `[x0, x1)` outside the blocks of `owner` (a row from
    /// ``hides(_:)``) that a later draw owns, in order.
    @inline(__always)
    func visibleRuns(_ owner: UnsafeMutablePointer<UInt16>, _ x0: Int, _ x1: Int, _ body: (Int, Int) -> Void) {
        var x = x0
        while x < x1 {
            // The next hidden block wholly inside [x, x1).
            var b = (x + 7) >> 3
            while 8 * b + 8 <= x1 && UInt32(owner[b]) <= rank { b += 1 }
            if 8 * b + 8 > x1 { body(x, x1); return }
            if 8 * b > x { body(x, 8 * b) }
            while 8 * b + 8 <= x1 && UInt32(owner[b]) > rank { b += 1 }
            x = 8 * b
        }
    }

    /// Row `y`'s owners when a later draw hides part of it from this one, else nil.
    @inline(__always)
    func hides(_ y: Int) -> UnsafeMutablePointer<UInt16>? {
        let i = y - y0
        return UInt32(rowMax[i]) > rank ? owner + i * blocks : nil
    }
}

/// A band's block owners (see ``_Occluder``), kept per band by the compositor with its plan.
final class _OcclusionMap: @unchecked Sendable {
    /// `rows × blocks` owners, row-major; 0 = no occluder.
    private(set) var owner: UnsafeMutablePointer<UInt16>
    /// Each row's largest owner (0: nothing occludes the row).
    private(set) var rowMax: UnsafeMutablePointer<UInt16>
    private var capacity = 0, rowCapacity = 0
    /// 8-pixel blocks per row (the last may be partial).
    private(set) var blocks = 0
    /// The band's first row.
    private(set) var y0 = 0
    /// Whether any block of the band is owned.
    private(set) var active = false
    /// Blocks the last ``build`` marked as owned (all rows), for tests and statistics.
    private(set) var ownedBlocks = 0

    init() {
        owner = .allocate(capacity: 1)
        rowMax = .allocate(capacity: 1)
    }

    deinit {
        owner.deallocate()
        rowMax.deallocate()
    }

    /// The owners of row `y` (absolute row), or nil when nothing there is owned.
    @inline(__always)
    func row(_ y: Int) -> UnsafeMutablePointer<UInt16>? {
        guard active else { return nil }
        let i = y - y0
        return rowMax[i] == 0 ? nil : owner + i * blocks
    }

    /// The map as plain values for a draw of `rank` (nil when nothing is owned).
    @inline(__always)
    func view(rank: UInt32) -> _OcclusionView? {
        guard active, rank != 0 else { return nil }
        return _OcclusionView(owner: owner, rowMax: rowMax, blocks: blocks, y0: y0, rank: rank)
    }

    /// Records the owners of rows `y0 ..< y1` from the band's ops (`indices`, as the band
    /// executor runs them). Ranks past `UInt16.max − 1` are not recorded (those draws then
    /// neither occlude nor are skipped: ``_BandExecutor`` gives them rank 0).
    func build(ops: [_Op], draws: [Unmanaged<_Draw>?], indices: [Int32], y0: Int, y1: Int, width: Int) {
        self.y0 = y0
        active = false
        ownedBlocks = 0
        let rows = y1 - y0
        blocks = (width + 7) / 8
        // Is there any occluder at depth 0? Most frames of image layers have none: no map.
        var depth = 0, any = false
        for (k, j) in indices.enumerated() where k < Int(UInt16.max) - 1 {
            if let u = draws[Int(j)] {
                if depth == 0 && u._withUnsafeGuaranteedRef({ $0.occluder != nil }) { any = true; break }
                continue
            }
            depth += Self.depthChange(ops[Int(j)])
        }
        guard any else { return }
        if capacity < rows * blocks {
            owner.deallocate(); capacity = rows * blocks; owner = .allocate(capacity: capacity)
        }
        if rowCapacity < rows {
            rowMax.deallocate(); rowCapacity = rows; rowMax = .allocate(capacity: rowCapacity)
        }
        owner.update(repeating: 0, count: rows * blocks)
        rowMax.update(repeating: 0, count: rows)
        depth = 0
        let fullEnd = blocks * 8        // a partial last block counts as whole when covered to the edge
        for (k, j) in indices.enumerated() where k < Int(UInt16.max) - 1 {
            guard let u = draws[Int(j)] else { depth += Self.depthChange(ops[Int(j)]); continue }
            guard depth == 0 else { continue }
            u._withUnsafeGuaranteedRef { d in
                guard let o = d.occluder else { return }
                let rank = UInt16(k + 1)
                let ry0 = max(o.y0, y0), ry1 = min(o.y1, y1)
                if ry1 <= ry0 { return }
                for y in ry0..<ry1 {
                    var (a, b) = o.row(y, x0: d.bounds.x0, x1: d.bounds.x1)
                    if b >= width { b = fullEnd }
                    let b0 = (a + 7) >> 3, b1 = b >> 3
                    if b1 <= b0 { continue }
                    let i = y - y0
                    (owner + i * blocks + b0).update(repeating: rank, count: b1 - b0)
                    rowMax[i] = rank
                    ownedBlocks += b1 - b0
                    active = true
                }
            }
        }
    }

    /// The change of group depth an op makes (a masked pop closes the mask's group too).
    @inline(__always)
    static func depthChange(_ op: _Op) -> Int {
        switch op {
        case .push: return 1
        case .pop(_, _, _, let mask, _): return mask == nil ? -1 : -2
        default: return 0
        }
    }

    /// Fills the pixels of row `y` in blocks whose owner is at most `rank` with `color` (the
    /// clear: rank 0, every unowned block).
    func fill(_ row: UnsafeMutablePointer<UInt32>, y: Int, width: Int, color: RGBA8, rank: UInt16 = 0) {
        guard let own = self.row(y) else { SpanBlend.fill(row, count: width, color: color); return }
        var b = 0
        while b < blocks {
            while b < blocks && own[b] > rank { b += 1 }
            let s = b
            while b < blocks && own[b] <= rank { b += 1 }
            if b > s {
                let x0 = s * 8, x1 = min(width, b * 8)
                SpanBlend.fill(row + x0, count: x1 - x0, color: color)
            }
        }
    }
}

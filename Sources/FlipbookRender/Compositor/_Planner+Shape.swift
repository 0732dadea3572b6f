import Flipbook
import FlipbookGraphics
import FlipbookRaster
import Foundation

/// `CAShapeLayer` (issue 13): the layer's `RenderShape` drawn by the vector core directly — its
/// path filled (`fillRule`), then the part between `strokeStart` and `strokeEnd` stroked — as
/// device-space `_Shape`s of ordinary draws, between the layer's contents and its first
/// sublayer (Apple's order). No intermediate bitmap: the executor rasterizes the fill path and
/// the stroke outline with the exact-area rasterizer, band by band.
///
/// - **Affine** layer → device maps: the fill is the path's curves mapped to the device
///   (flattened there, at the rasterizer's tolerance); the stroke is built by `PathStroker`
///   with the map as its transform (so caps, joins, dashes and widths are in layer units and the
///   outline is exact to the tolerance in device pixels; device widths below 1 px are hairlines
///   drawn 1 px wide at reduced alpha, the stroker's rule).
/// - **Perspective**: fill path and stroke outline are built in layer space, flattened there
///   with the tolerance divided by the largest local scale, clipped in homogeneous space
///   (`w ≥ ε` and a guard band around the frame) and divided (`_Planner.projected`, the same
///   path as `shadowPath`). The hairline rule uses the largest local scale (a stroke thinner
///   than 1 px even where the layer is nearest is drawn 1 px wide there at reduced alpha).
/// - **Opacity**: with both a fill and a stroke and an opacity below 1, the two are composited
///   as one picture (an offscreen group) so the fill does not show through the stroke's inner
///   half — the layer's shape looks the same at any opacity, as its contents would.
///
/// The shape is clipped by the ancestors' `masksToBounds` like the contents, and by the layer's
/// own `masksToBounds` (Apple clips a shape layer's path to its bounds then).
extension _Planner {
    /// Whether the layer has a shape that draws something (for the draw counts).
    static func drawsShape(_ l: RenderLayer) -> Bool {
        guard let s = l.shape, let p = s.path, !p.isEmpty else { return false }
        return color(s.fillColor) != nil || (color(s.strokeColor) != nil && s.lineWidth > 0 && s.strokeEnd > s.strokeStart)
    }

    /// Plans the layer's shape (fill, then stroke) under `h` (layer → device).
    mutating func shapeLayer(_ l: RenderLayer, _ h: _Homography, clips: [_Shape], opacity: Double) {
        guard let shape = l.shape, let path = shape.path, !path.isEmpty, h.isFinite, Self.alpha(opacity) > 0 else { return }
        let fill = Self.color(shape.fillColor).flatMap { c in self.fillShape(path, shape, h).map { ($0, c) } }
        let stroke = Self.color(shape.strokeColor).flatMap { c in self.strokeShape(path, shape, h).map { ($0, c) } }
        guard fill != nil || stroke != nil else { return }
        let grouped = fill != nil && stroke != nil && Self.alpha(opacity) < 255
        let g = grouped ? beginGroup() : nil
        let drawOpacity = grouped ? 1 : opacity
        if let (s, c) = fill { emit(s, clips: clips, paint: .solid(c), opacity: drawOpacity) }
        if let ((s, k), c) = stroke { emit(s, clips: clips, paint: .solid(c), opacity: drawOpacity * k) }
        if let g { endGroup(g, alpha: Self.alpha(opacity), mode: .over) }
    }

    /// The device fill of the path, or nil when nothing of it is near the frame.
    func fillShape(_ path: CGPath, _ shape: RenderShape, _ h: _Homography) -> _Shape? {
        let rule: FillRule = shape.fillRule == .evenOdd ? .evenOdd : .nonZero
        let layerPath = RasterPath(path)
        let device: RasterPath
        if h.isAffine {
            device = layerPath.applying(Self.affine(h))
        } else {
            device = Self.projected(layerPath, h, guardRect: frame)
        }
        return deviceShape(device, rule: rule)
    }

    /// The device stroke outline (non-zero) and its coverage scale (1, or the device width of a
    /// hairline), or nil when nothing is stroked.
    func strokeShape(_ path: CGPath, _ shape: RenderShape, _ h: _Homography) -> (_Shape, Double)? {
        let width = Double(shape.lineWidth)
        guard width > 0, width.isFinite else { return nil }
        let start = Double(shape.strokeStart), end = Double(shape.strokeEnd)
        var trimmed = path._trimmed(from: start.isFinite ? start : 0, to: end.isFinite ? end : 1)
        guard !trimmed.isEmpty else { return nil }
        // Butt and square caps on curve ends perpendicular to the curve (see
        // `CGPath._withFineEnds`): the end curves split 0.05 px from the ends.
        if shape.lineCap != .round {
            let s = h.isAffine ? Self.affine(h).maxScale : Self.largestLocalScale(RasterPath(trimmed), h)
            if s > 0, s.isFinite { trimmed = trimmed._withFineEnds(length: 0.05 / s) }
        }
        let style = StrokeStyle(
            width: width,
            cap: shape.lineCap == .round ? .round : shape.lineCap == .square ? .square : .butt,
            join: shape.lineJoin == .round ? .round : shape.lineJoin == .bevel ? .bevel : .miter,
            miterLimit: Double(shape.miterLimit),
            dashes: shape.lineDashPattern.map(Double.init),
            dashPhase: shape.lineDashPhase.isFinite ? Double(shape.lineDashPhase) : 0)
        let stroker = _StrokerPool.shared.take()
        defer { _StrokerPool.shared.give(stroker) }
        if h.isAffine {
            // The outline straight into fixed point (the bytes of flattening it as a path).
            var flat = FixedPath()
            let k = stroker.stroke(RasterPath(trimmed), style: style, transform: Self.affine(h),
                                   visible: RasterClip(x0: frame.x0, y0: frame.y0, x1: frame.x1, y1: frame.y1), into: &flat)
            guard k > 0, !flat.isEmpty else { return nil }
            guard let b = shapeBounds(flat.bounds.x, flat.bounds.y, flat.bounds.z, flat.bounds.w) else { return nil }
            // where the stroke crosses itself, the lens counted once (`PathStroker.overlapCorrections`)
            stroker.overlapCorrections(into: &flat.corrections)
            return (_Shape(path: RasterPath(), rule: .nonZero, bounds: b, flat: flat), min(k, 1))
        }
        var outline = RasterPath()
        // Perspective: the outline is built in layer space as if scaled by the largest local
        // scale `s` (so the flattening tolerance and the hairline rule are those of the nearest
        // part of the layer), mapped back by 1/s, then projected.
        let layerPath = RasterPath(trimmed)
        let scale = Self.largestLocalScale(layerPath, h)
        guard scale > 0, scale.isFinite else { return nil }
        let k = stroker.stroke(layerPath, style: style, transform: .scale(scale, scale), into: &outline)
        guard k > 0 else { return nil }
        let layerOutline = outline.applying(.scale(1 / scale, 1 / scale))
        guard let s = deviceShape(Self.projected(layerOutline, h, guardRect: frame), rule: .nonZero) else { return nil }
        return (s, min(k, 1))
    }

    /// A device path as a draw shape: bounds from its control points (grown by 1 px) ∩ the frame.
    func deviceShape(_ device: RasterPath, rule: FillRule) -> _Shape? {
        guard let cb = device.controlBounds, cb.minX.isFinite, cb.minY.isFinite, cb.maxX.isFinite, cb.maxY.isFinite
        else { return nil }
        guard let b = shapeBounds(cb.minX, cb.minY, cb.maxX, cb.maxY) else { return nil }
        return _Shape(path: device, rule: rule, bounds: b, flat: Self.flattened(device, frame: frame))
    }

    /// The pixels a shape with these device bounds may cover: grown by 1 px (rounding can never
    /// push a point outside) ∩ the frame; nil when empty.
    func shapeBounds(_ minX: Double, _ minY: Double, _ maxX: Double, _ maxY: Double) -> _IRect? {
        let b = _IRect(x0: pixelFloor(minX) - 1, y0: pixelFloor(minY) - 1, x1: pixelCeil(maxX) + 1, y1: pixelCeil(maxY) + 1)
            .intersection(frame)
        return b.isEmpty ? nil : b
    }

    /// `device` flattened once into fixed point, culled to the frame (grown by a pixel, as the
    /// rasterizer grows its clip), or nil when a point is not finite (the path fill draws
    /// nothing then either, and `path` is kept for it).
    static func flattened(_ device: RasterPath, frame: _IRect) -> FixedPath? {
        var f = FixedPath()
        let cull = FlattenCull(minY: Double(frame.y0 - 1), maxY: Double(frame.y1 + 1), maxX: Double(frame.x1 + 1))
        return f.set(device, cull: cull) ? f : nil
    }

    /// The affine part of `h` as a raster transform (only for `h.isAffine`).
    static func affine(_ h: _Homography) -> RasterTransform {
        RasterTransform(a: h.m.0, b: h.m.3, c: h.m.1, d: h.m.4, tx: h.m.2, ty: h.m.5)
    }

    /// The largest local scale (device px per layer unit) of `h` at the path's control points
    /// in front of the eye (0 when none is).
    static func largestLocalScale(_ p: RasterPath, _ h: _Homography) -> Double {
        var s = 0.0
        for q in p.points {
            let (x, y, w) = h.apply(q.x, q.y)
            guard w > _HomogeneousClip.epsilon else { continue }
            let ju = ((h.m.0 - x / w * h.m.6) / w, (h.m.3 - y / w * h.m.6) / w)
            let jv = ((h.m.1 - x / w * h.m.7) / w, (h.m.4 - y / w * h.m.7) / w)
            s = max(s, (ju.0 * ju.0 + ju.1 * ju.1).squareRoot(), (jv.0 * jv.0 + jv.1 * jv.1).squareRoot())
        }
        return s
    }
}

import Flipbook
import FlipbookRaster
import Foundation

extension _Planner {
    // MARK: Shadows

    /// The shadow: the layer's own background, contents and border, moved by `shadowOffset`
    /// (layer space, y-down: the default `(0, −3)` casts upwards, as on iOS), rasterised to
    /// alpha, blurred with a Gaussian of σ = `shadowRadius` × device scale (`GaussianBlur`,
    /// recomputed every frame the shadow is drawn: nothing is cached), tinted with
    /// `shadowColor` × `shadowOpacity`. Drawn below the layer. `shadowPath` is not in the
    /// render snapshot yet, so the shape always comes from the layer's own content.
    mutating func shadow(_ l: RenderLayer, _ h: _Homography, clips: [_Shape], opacity: Double) {
        guard l.shadowOpacity > 0, let color = Self.color(l.shadowColor) else { return }
        let ox = Double(l.shadowOffset.width), oy = Double(l.shadowOffset.height)
        let sigma = Double(l.shadowRadius) * scale
        guard ox.isFinite, oy.isFinite, sigma.isFinite, sigma >= 0 else { return }
        let hs = h * _Homography.scaleTranslate(sx: 1, sy: 1, tx: ox, ty: oy)
        var sub = _Planner(width: width, height: height, scale: scale, mips: mips)
        sub.background(l, hs, clips: [], opacity: 1)
        sub.contents(l, hs, clips: [], opacity: 1)
        sub.border(l, hs, clips: [], opacity: 1)
        var rect = _IRect.empty
        for op in sub.ops { rect = rect.union(op.bounds) }
        let pad = GaussianBlur.padding(sigma: sigma) + 1
        rect = rect.outset(pad).intersection(frame)
        guard !rect.isEmpty else { return }
        let w = rect.x1 - rect.x0, hgt = rect.y1 - rect.y0
        var pixels = [UInt32](repeating: 0, count: w * hgt)
        let scratch = _WorkerScratch()
        pixels.withUnsafeMutableBufferPointer { buf in
            let t = _Target(base: buf.baseAddress!, stride: w, rect: rect)
            for op in sub.ops { if case .draw(let d) = op { _BandExecutor.draw(d, into: t, scratch: scratch) } }
        }
        var alpha = pixels.map { UInt8(truncatingIfNeeded: $0 >> 24) }
        GaussianBlur.blurAlpha(&alpha, width: w, height: hgt, sigma: sigma)
        var b = rect
        for c in clips { b = b.intersection(c.bounds) }
        let a = Self.alpha(opacity * Double(min(l.shadowOpacity, 1)))
        guard a > 0, !b.isEmpty else { return }
        ops.append(.draw(_Draw(shapes: clips, paint: .alpha(_AlphaPaint(alpha: alpha, rect: rect, color: color)),
                               alpha: a, bounds: b)))
    }

    // MARK: Transitions

    /// A `CATransition` in flight: the old rendering (`t.from`) and the current one, combined
    /// in an offscreen group according to type and subtype at `t.progress` (clamped to 0…1).
    ///
    /// - `fade`: `from · (1 − p) + to · p` (premultiplied, `plus`), weights `255 − k` and `k`,
    ///   `k = round(p · 255)`, so 0 % is exactly `from` and 100 % exactly `to`.
    /// - `moveIn`: `to` slides in over a still `from`; `push`: both slide; `reveal`: `from`
    ///   slides out uncovering a still `to`. Offsets are in the layer's own space, by its
    ///   bounds size; `fromLeft` means the new content enters from the left (minX) edge,
    ///   `fromTop` from the top (minY) edge. Sliding content is clipped to the layer's bounds.
    /// - Unknown types render as `fade`; a nil subtype is `fromLeft`.
    mutating func transition(_ l: RenderLayer, _ t: RenderTransition, parent: CATransform3D, clips: [_Shape],
                             opacity: Double, offset: (Double, Double)) {
        let p = t.progress.isFinite ? min(max(t.progress, 0), 1) : 1
        let k = Self.alpha(p)
        let g = beginGroup()
        let w = Double(l.bounds.width), h = Double(l.bounds.height)
        let dir: (Double, Double)
        switch t.subtype {
        case .fromRight?: dir = (w, 0)
        case .fromTop?: dir = (0, -h)
        case .fromBottom?: dir = (0, h)
        default: dir = (-w, 0)
        }
        let toOff = (offset.0 + dir.0 * (1 - p), offset.1 + dir.1 * (1 - p))
        let fromOff = (offset.0 - dir.0 * p, offset.1 - dir.1 * p)
        var boxClips = clips
        let m = Self.local(l, offset: offset) * parent
        if m.isFinite, let s = shape(l.bounds, _Homography(planeOf: m)) { boxClips.append(s) }
        switch t.type {
        case .moveIn:
            layer(t.from, parent: parent, clips: clips, opacity: 1, offset: offset, ignoreTransition: true)
            layer(l, parent: parent, clips: boxClips, opacity: 1, offset: toOff, ignoreTransition: true)
        case .push:
            layer(t.from, parent: parent, clips: boxClips, opacity: 1, offset: fromOff, ignoreTransition: true)
            layer(l, parent: parent, clips: boxClips, opacity: 1, offset: toOff, ignoreTransition: true)
        case .reveal:
            layer(l, parent: parent, clips: clips, opacity: 1, offset: offset, ignoreTransition: true)
            layer(t.from, parent: parent, clips: boxClips, opacity: 1, offset: fromOff, ignoreTransition: true)
        default:
            let a = beginGroup()
            layer(t.from, parent: parent, clips: clips, opacity: 1, offset: offset, ignoreTransition: true)
            endGroup(a, alpha: 255 - k, mode: .plus)
            let b = beginGroup()
            layer(l, parent: parent, clips: clips, opacity: 1, offset: offset, ignoreTransition: true)
            endGroup(b, alpha: k, mode: .plus)
        }
        endGroup(g, alpha: Self.alpha(opacity), mode: .over)
    }
}

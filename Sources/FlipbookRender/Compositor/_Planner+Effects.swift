import Flipbook
import FlipbookRaster
import Foundation

extension _Planner {
    // Shadows: `_Planner+Shadow.swift`.

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
        // The layer's compositing filter applies to the combined picture (its pictures were
        // planned without it).
        endGroup(g, alpha: Self.alpha(opacity), mode: Self.filterMode(l))
    }
}

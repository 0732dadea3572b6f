import Foundation
import FlipbookGraphics
/// Derived geometry: `frame`, coordinate conversion, hit testing.
///
/// Conventions (row vectors, `p' = p · M`, y down). A point `p` of a layer's bounds maps into
/// its superlayer's coordinates by
///
///     toSuperlayer = Tr(−a) · transform · Tr(position.x, position.y, zPosition)
///                    · [Tr(−pa) · superlayer.sublayerTransform · Tr(pa)]      (when not identity)
///
/// where `a = (bounds.minX + anchorPoint.x · width, bounds.minY + anchorPoint.y · height,
/// anchorPointZ)` is the anchor in bounds coordinates and `pa` the superlayer's (z = 0).
/// A mask maps into the coordinates of the layer it masks (no sublayer transform).
/// Results go through the homogeneous divide; nothing is validated (NaN in, NaN out).
extension CALayer {
    /// The anchor point in the layer's own (bounds) coordinates.
    final var _anchorInBounds: (x: CGFloat, y: CGFloat, z: CGFloat) {
        let b = _state.bounds
        return (b.minX + _state.anchorPoint.x * b.width, b.minY + _state.anchorPoint.y * b.height, _state.anchorPointZ)
    }

    /// Bounds coordinates → superlayer (or masked layer) coordinates, without the superlayer's
    /// sublayer transform.
    final var _toParentLocal: CATransform3D {
        let a = _anchorInBounds
        var m = CATransform3DMakeTranslation(-a.x, -a.y, -a.z)
        if !CATransform3DIsIdentity(_state.transform) { m = m * _state.transform }
        // The anchor point (x, y, anchorPointZ) lands on (position, zPosition): the z analogue of
        // the x/y rule, and what the compositor draws.
        return m * CATransform3DMakeTranslation(_state.position.x, _state.position.y, _state.zPosition)
    }

    /// Bounds coordinates → superlayer coordinates (sublayer transform included).
    package var _toSuperlayer: CATransform3D {
        var m = _toParentLocal
        if let p = _superlayer, !CATransform3DIsIdentity(p._state.sublayerTransform) || p._state.isGeometryFlipped {
            let pa = p._anchorInBounds
            m = m * CATransform3DMakeTranslation(-pa.x, -pa.y, 0) * p._state.effectiveSublayerTransform
                * CATransform3DMakeTranslation(pa.x, pa.y, 0)
        }
        return m
    }

    /// Bounds coordinates → the coordinates the root layer's `position` is given in.
    final var _toWorld: CATransform3D {
        var m = _toSuperlayer
        var l: CALayer = self
        while let up = l._superlayer ?? l._maskOwner {
            m = m * up._toSuperlayer
            l = up
        }
        return m
    }

    /// The layer's rectangle in its superlayer's coordinates: the bounding box of the bounds
    /// under `transform` about the anchor point, placed at `position`. Setting it sets
    /// `bounds.size` (through the transform when it maps axes to axes; as given otherwise) and
    /// then `position` so that the frame's origin lands where asked; both trigger their actions.
    final var _frame: CGRect {
        get { CALayer._boundingBox(of: CGRect(origin: _state.bounds.origin, size: _state.bounds.size), _toParentLocal) }
        set {
            var size = newValue.size
            let t = _state.transform
            if !CATransform3DIsIdentity(t), t.m12 == 0, t.m21 == 0, t.m11 != 0, t.m22 != 0 {
                size = CGSize(width: size.width / abs(t.m11), height: size.height / abs(t.m22))
            }
            bounds = CGRect(origin: _state.bounds.origin, size: size)
            // Where the frame lands with position = 0; shift so its origin is newValue's.
            let a = _anchorInBounds
            var m = CATransform3DMakeTranslation(-a.x, -a.y, -a.z)
            if !CATransform3DIsIdentity(t) { m = m * t }
            let r0 = CALayer._boundingBox(of: _state.bounds, m)
            position = CGPoint(x: newValue.minX - r0.minX, y: newValue.minY - r0.minY)
        }
    }

    static func _map(_ p: CGPoint, _ m: CATransform3D) -> CGPoint {
        let h = m.apply(x: p.x, y: p.y)
        return h.w == 1 ? CGPoint(x: h.x, y: h.y) : CGPoint(x: h.x / h.w, y: h.y / h.w)
    }

    static func _boundingBox(of r: CGRect, _ m: CATransform3D) -> CGRect {
        let corners = [CGPoint(x: r.minX, y: r.minY), CGPoint(x: r.maxX, y: r.minY),
                       CGPoint(x: r.minX, y: r.maxY), CGPoint(x: r.maxX, y: r.maxY)].map { _map($0, m) }
        let xs = corners.map(\.x), ys = corners.map(\.y)
        let minX = xs.min()!, minY = ys.min()!
        return CGRect(x: minX, y: minY, width: xs.max()! - minX, height: ys.max()! - minY)
    }

    /// Converts `p` from `l`'s coordinates (nil: the root's superlayer space) to this layer's.
    final func _convert(_ p: CGPoint, from l: CALayer?) -> CGPoint {
        let from = l?._toWorld ?? CATransform3DIdentity
        return CALayer._map(p, from * CATransform3DInvert(_toWorld))
    }

    /// Converts `p` from this layer's coordinates to `l`'s (nil: the root's superlayer space).
    final func _convert(_ p: CGPoint, to l: CALayer?) -> CGPoint {
        let to = l.map { CATransform3DInvert($0._toWorld) } ?? CATransform3DIdentity
        return CALayer._map(p, _toWorld * to)
    }

    /// Converts `r` from `l`'s coordinates (the bounding box of its mapped corners).
    final func _convert(_ r: CGRect, from l: CALayer?) -> CGRect {
        let from = l?._toWorld ?? CATransform3DIdentity
        return CALayer._boundingBox(of: r, from * CATransform3DInvert(_toWorld))
    }

    /// Converts `r` to `l`'s coordinates (the bounding box of its mapped corners).
    final func _convert(_ r: CGRect, to l: CALayer?) -> CGRect {
        let to = l.map { CATransform3DInvert($0._toWorld) } ?? CATransform3DIdentity
        return CALayer._boundingBox(of: r, _toWorld * to)
    }


    /// The implementation of ``CALayer/hitTest(_:)``: the farthest descendant (front-most sublayer first) containing `p`, given in the
    /// superlayer's coordinates; hidden layers are skipped and `masksToBounds` clips.
    package final func _hitTest(_ p: CGPoint) -> CALayer? {
        if _state.isHidden { return nil }
        let local = CALayer._map(p, CATransform3DInvert(_toSuperlayer))
        if _state.masksToBounds, !contains(local) { return nil }
        for s in _sublayers.reversed() {
            if let hit = s.hitTest(local) { return hit }
        }
        return contains(local) ? self : nil
    }
}

import Foundation
import FlipbookRaster

/// The current path. As on Apple, points are mapped through the CTM **when they are added**:
/// changing the CTM later does not move them, and the path is stored in device space. The
/// queries (``path``, ``currentPointOfPath``, ``boundingBoxOfPath``) answer in the *current*
/// user space (the stored path mapped back by the inverse of the current CTM).
extension CGContext {
    /// Empties the current path.
    public func beginPath() { _clearPath() }

    /// Empties the current path, keeping its storage for the next one. The path object never
    /// leaves the context (``path`` hands out copies), so emptying it in place is safe.
    func _clearPath() { _path.elements.removeAll(keepingCapacity: true) }

    /// `path`'s elements as a raster path in `out` (emptied first, capacity kept), each point
    /// mapped through `t` unless it is the identity — the same numbers as
    /// `RasterPath(CGPath(elements: path._mapped(t)))`, without the intermediate copies.
    static func _loadRaster(_ path: CGPath, mapping t: CGAffineTransform = .identity, into out: inout RasterPath) {
        out.removeAll(keepingCapacity: true)
        let identity = t == .identity
        @inline(__always) func rp(_ p: CGPoint) -> RasterPoint {
            let q = identity ? p : p.applying(t)
            return RasterPoint(Double(q.x), Double(q.y))
        }
        for e in path.elements {
            switch e {
            case let .moveToPoint(p): out.move(to: rp(p))
            case let .addLineToPoint(p): out.line(to: rp(p))
            case let .addQuadCurveToPoint(c, p): out.quad(to: rp(p), control: rp(c))
            case let .addCurveToPoint(c1, c2, p): out.cubic(to: rp(p), control1: rp(c1), control2: rp(c2))
            case .closeSubpath: out.close()
            }
        }
    }

    public func move(to point: CGPoint) { _path.move(to: point, transform: _state.ctm) }

    public func addLine(to point: CGPoint) { _path.addLine(to: point, transform: _state.ctm) }

    public func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint) {
        _path.addCurve(to: end, control1: control1, control2: control2, transform: _state.ctm)
    }

    public func addQuadCurve(to end: CGPoint, control: CGPoint) {
        _path.addQuadCurve(to: end, control: control, transform: _state.ctm)
    }

    /// An arc as ``CGMutablePath/addArc(center:radius:startAngle:endAngle:clockwise:transform:)``
    /// in user space: `clockwise: true` means decreasing angle, which in this y-down space turns
    /// counter-clockwise on screen (as the same call in a UIKit context on iOS).
    public func addArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool) {
        _path.addArc(center: center, radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: clockwise,
                     transform: _state.ctm)
    }

    /// A tangent arc as ``CGMutablePath/addArc(tangent1End:tangent2End:radius:transform:)``.
    public func addArc(tangent1End: CGPoint, tangent2End: CGPoint, radius: CGFloat) {
        _path.addArc(tangent1End: tangent1End, tangent2End: tangent2End, radius: radius, transform: _state.ctm)
    }

    public func addRect(_ rect: CGRect) { _path.addRect(rect, transform: _state.ctm) }

    public func addRects(_ rects: [CGRect]) { _path.addRects(rects, transform: _state.ctm) }

    public func addLines(between points: [CGPoint]) { _path.addLines(between: points, transform: _state.ctm) }

    public func addEllipse(in rect: CGRect) { _path.addEllipse(in: rect, transform: _state.ctm) }

    /// Appends `path` (in user space) through the CTM.
    public func addPath(_ path: CGPath) { _path.addPath(path, transform: _state.ctm) }

    public func closePath() { _path.closeSubpath() }

    public var isPathEmpty: Bool { _path.isEmpty }

    /// The current point in user space (`.zero` when the path is empty, as on Apple).
    public var currentPointOfPath: CGPoint {
        _path.isEmpty ? .zero : _path.currentPoint.applying(_deviceToUser)
    }

    /// The tight bounds of the current path in user space (`.null` when empty): the device-space
    /// bounds of the curves mapped back by the inverse CTM (the bounding box of that mapped box
    /// under a rotation).
    public var boundingBoxOfPath: CGRect {
        let b = _path.boundingBoxOfPath
        return b.isNull ? b : b.applying(_deviceToUser)
    }

    /// A copy of the current path in user space, or nil when it is empty.
    public var path: CGPath? {
        _path.isEmpty ? nil : _path.copy(using: [_deviceToUser])
    }

    /// Replaces the current path with the outline of its stroke under the current line width,
    /// cap, join, miter limit and dash (filled with the winding rule it is the stroke). A
    /// hairline (device width < 1) becomes a 1-pixel-wide outline.
    public func replacePathWithStrokedPath() {
        guard let (outline, _) = _strokeOutline() else { _path = CGMutablePath(); return }
        let m = CGMutablePath(); m.addPath(CGPath(outline)); _path = m
    }

    /// Whether `point` (user space) is inside the current path painted with `mode` (Apple's
    /// `pathContains(_:mode:)`): fill modes test the fill rule, stroke modes the stroke outline.
    public func pathContains(_ point: CGPoint, mode: CGPathDrawingMode) -> Bool {
        let p = point.applying(_state.ctm)
        switch mode {
        case .fill: return _path.contains(p, using: .winding)
        case .eoFill: return _path.contains(p, using: .evenOdd)
        case .stroke, .fillStroke, .eoFillStroke:
            if mode == .fillStroke, _path.contains(p, using: .winding) { return true }
            if mode == .eoFillStroke, _path.contains(p, using: .evenOdd) { return true }
            guard let (outline, _) = _strokeOutline() else { return false }
            return CGPath(outline).contains(p, using: .winding)
        }
    }

    var _deviceToUser: CGAffineTransform { _state.ctm.inverted() }

    var _rasterCTM: RasterTransform {
        let t = _state.ctm
        return RasterTransform(a: Double(t.a), b: Double(t.b), c: Double(t.c), d: Double(t.d), tx: Double(t.tx), ty: Double(t.ty))
    }

    /// The stroke style of the current state (user units).
    var _strokeStyle: StrokeStyle {
        StrokeStyle(width: Double(_state.lineWidth), cap: _state.lineCap._raster, join: _state.lineJoin._raster,
                    miterLimit: Double(_state.miterLimit), dashes: _state.dashLengths.map(Double.init),
                    dashPhase: Double(_state.dashPhase))
    }

    /// The device-space stroke outline of the current path and its coverage scale (< 1 for
    /// hairlines); nil when nothing is drawn (empty path, singular CTM). The stored device path is
    /// mapped back to user space and stroked through the CTM, so the width, dashes and joins are
    /// in the user space current at stroke time (Apple's rule).
    ///
    /// `forDrawing`: only the surface's pixels will be filled, so dashes off the surface are
    /// skipped (see ``PathStroker/stroke(_:style:transform:visible:into:)``); path queries
    /// (`replacePathWithStrokedPath`, `pathContains`) keep the whole outline.
    func _strokeOutline(of devicePath: CGPath? = nil, forDrawing: Bool = false) -> (RasterPath, Double)? {
        guard let scale = _strokeIntoOutline(devicePath ?? _path, forDrawing: forDrawing) else { return nil }
        return (_outline, scale)
    }

    /// Strokes the device path `p` into the context's reused ``_outline`` (emptied first);
    /// returns the coverage scale, or nil when nothing is drawn. See ``_strokeOutline(of:)``.
    func _strokeIntoOutline(_ p: CGPath, forDrawing: Bool) -> Double? {
        guard !p.isEmpty, _state.ctm._isInvertible else { return nil }
        Self._loadRaster(p, mapping: _deviceToUser, into: &_strokeUser)
        var style = _strokeStyle
        if style.width == 0 { style.width = 1e-6 }   // Core Graphics: width 0 is the thinnest line
        _outline.removeAll(keepingCapacity: true)
        let scale = _stroker.stroke(_strokeUser, style: style, transform: _rasterCTM,
                                    visible: forDrawing ? RasterClip(width: width, height: height) : nil, into: &_outline)
        guard scale > 0, !_outline.isEmpty else { return nil }
        _strokeCorrections.removeAll(keepingCapacity: true)
        if forDrawing { _stroker.overlapCorrections(into: &_strokeCorrections) }
        return scale
    }
}

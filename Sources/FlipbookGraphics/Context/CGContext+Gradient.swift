import Foundation
import FlipbookRaster

extension CGContext {
    /// Fills the clip with a linear gradient from `start` to `end` (user space), perpendicular
    /// bands, as Core Graphics' `drawLinearGradient`. Outside the two points the end colours
    /// fill only with the matching `options`. Uses the global alpha, blend mode, shadow and clip.
    /// Equal points draw nothing.
    public func drawLinearGradient(_ gradient: CGGradient, start: CGPoint, end: CGPoint, options: CGGradientDrawingOptions) {
        let dx = Double(end.x - start.x), dy = Double(end.y - start.y)
        let l2 = dx * dx + dy * dy
        guard l2 > 0, l2.isFinite else { return }
        let sx = Double(start.x), sy = Double(start.y)
        // user → gradient: u = ((x − sx)·dx + (y − sy)·dy)/|d|², v perpendicular.
        let g = [dx / l2, dy / l2, -(sx * dx + sy * dy) / l2, -dy / l2, dx / l2, (sx * dy - sy * dx) / l2, 0, 0, 1]
        _drawGradient(gradient, kind: .axial, userToGradient: g, circles: nil, options: options)
    }

    /// Fills the clip with Core Graphics' radial gradient between the circle
    /// (`startCenter`, `startRadius`) and (`endCenter`, `endRadius`) in user space: each point
    /// takes the colour of the last circle of the family through it (PDF's rule), so offset
    /// centres make a cone of light. Outside the family, only with the matching `options`.
    public func drawRadialGradient(_ gradient: CGGradient, startCenter: CGPoint, startRadius: CGFloat,
                                   endCenter: CGPoint, endRadius: CGFloat, options: CGGradientDrawingOptions) {
        let values = [startCenter.x, startCenter.y, startRadius, endCenter.x, endCenter.y, endRadius].map(Double.init)
        guard values.allSatisfy(\.isFinite), startRadius >= 0, endRadius >= 0 else { return }
        _drawGradient(gradient, kind: .twoCircle, userToGradient: [1, 0, 0, 0, 1, 0, 0, 0, 1],
                      circles: values, options: options)
    }

    /// The shared engine: the device → gradient map (inverse CTM, then `userToGradient`), the
    /// paint, and the whole bitmap ∩ clip composited through it.
    func _drawGradient(_ gradient: CGGradient, kind: GradientPaint.Kind, userToGradient g: [Double], circles: [Double]?,
                       options: CGGradientDrawingOptions) {
        let ctm = _state.ctm
        let det = Double(ctm.a * ctm.d - ctm.b * ctm.c)
        guard det != 0, det.isFinite else { return }
        let inv = ctm.inverted()
        // device → user (affine, row-major), then user → gradient.
        let d = [Double(inv.a), Double(inv.c), Double(inv.tx), Double(inv.b), Double(inv.d), Double(inv.ty)]
        let m = [g[0] * d[0] + g[1] * d[3], g[0] * d[1] + g[1] * d[4], g[0] * d[2] + g[1] * d[5] + g[2],
                 g[3] * d[0] + g[4] * d[3], g[3] * d[1] + g[4] * d[4], g[3] * d[2] + g[4] * d[5] + g[5],
                 0, 0, 1]
        guard m.allSatisfy(\.isFinite) else { return }
        var paint = GradientPaint(kind: kind, deviceToGradient: m, ramp: gradient._ramp,
                                  extendsBefore: options.contains(.drawsBeforeStartLocation),
                                  extendsAfter: options.contains(.drawsAfterEndLocation))
        if let c = circles { paint.circles = (Float(c[0]), Float(c[1]), Float(c[2]), Float(c[3]), Float(c[4]), Float(c[5])) }
        let alpha8 = UInt8((Double(_state.alpha) * 255).rounded())
        guard alpha8 > 0 else { return }
        var full = RasterPath(); full.addRect(x: 0, y: 0, width: Double(width), height: Double(height))
        let within = _state.shadow == nil ? _surfaceRect : _shadowSourceRect(_state.shadow!)
        guard let cov = _shapeCoverage(full, rule: .nonZero, scale: 1, within: within, antialias: true) else { return }
        _composite(cov, source: .gradient(paint, alpha8), mode: _state.blendMode._raster, shadow: _state.shadow)
    }
}

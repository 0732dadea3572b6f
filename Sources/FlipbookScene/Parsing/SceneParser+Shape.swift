import Flipbook
import Foundation

/// Shape-layer paths in scene files.
extension SceneParser {
    /// A `CAShapeLayer.path`, written one of four ways:
    ///
    /// - SVG path data, as design tools export it: `"M10 10 C 20 0, 40 0, 50 10 Z"` (``SVGPathData``);
    /// - the keyframe path syntax: `[{"move": [x, y]}, {"line": [x, y]}, {"quad": […]}, {"curve": […]}, "close"]`;
    /// - a primitive, as the `CGPath` initializers make it: `{"rect": [x, y, w, h]}`,
    ///   `{"ellipse": [x, y, w, h]}` (`CGPath(ellipseIn:)`), `{"roundedRect": [x, y, w, h],
    ///   "cornerRadius": r}` (or `"cornerWidth"` + `"cornerHeight"`: `CGPath(roundedRect:…)`),
    ///   `{"arc": {"center": [x, y], "radius": r, "startAngle": a, "endAngle": b, "clockwise": false}}`
    ///   with angles in radians or `{"degrees": d}` (`CGMutablePath.addArc(center:…)`: the
    ///   ring of a progress indicator).
    static func shapePath(_ n: _SceneNode) throws(SceneError) -> CGPath {
        switch n.json.value {
        case .string, .array: return try path(n)
        case .object:
            let o = try n.object(allowed: ["rect", "ellipse", "roundedRect", "cornerRadius", "cornerWidth", "cornerHeight", "arc"])
            let kinds = ["rect", "ellipse", "roundedRect", "arc"].filter { o.has($0) }
            guard kinds.count == 1 else {
                throw n.fail(kinds.isEmpty ? "expected SVG path data, a list of path elements, or one of rect, ellipse, roundedRect, arc"
                                           : "expected one primitive, got \(kinds.joined(separator: " and "))")
            }
            for k in ["cornerRadius", "cornerWidth", "cornerHeight"] where o.has(k) && kinds[0] != "roundedRect" {
                throw o[k]!.fail("\"\(k)\" goes with \"roundedRect\" only")
            }
            let v = o[kinds[0]]!
            switch kinds[0] {
            case "rect": return CGPath(rect: try rect(v), transform: nil)
            case "ellipse": return CGPath(ellipseIn: try rect(v), transform: nil)
            case "roundedRect":
                let r = try rect(v)
                let radius = try nonNegative(o["cornerRadius"])
                if radius != nil, o.has("cornerWidth") || o.has("cornerHeight") {
                    throw o["cornerRadius"]!.fail("give \"cornerRadius\" or \"cornerWidth\"/\"cornerHeight\", not both")
                }
                let w = try nonNegative(o["cornerWidth"]) ?? radius ?? 0
                let h = try nonNegative(o["cornerHeight"]) ?? radius ?? 0
                guard 2 * w <= r.width, 2 * h <= r.height else {
                    throw v.fail("corner size \(_SceneNode.format(w))×\(_SceneNode.format(h)) does not fit in a \(_SceneNode.format(r.width))×\(_SceneNode.format(r.height)) rectangle (CGPath requires 2 × corner ≤ side)")
                }
                return CGPath(roundedRect: r, cornerWidth: CGFloat(w), cornerHeight: CGFloat(h), transform: nil)
            default:
                let a = try v.object(allowed: ["center", "radius", "startAngle", "endAngle", "clockwise"])
                let center = try point(a.required("center", "the arc's centre [x, y]"))
                let radius = try nonNegative(a.required("radius", "the arc's radius"))!
                let start = try scalar(a.required("startAngle", "the start angle (radians or {\"degrees\": d})"))
                let end = try scalar(a.required("endAngle", "the end angle (radians or {\"degrees\": d})"))
                let clockwise = try a["clockwise"]?.bool() ?? false
                let p = CGMutablePath()
                p.addArc(center: center, radius: CGFloat(radius), startAngle: CGFloat(start), endAngle: CGFloat(end), clockwise: clockwise)
                return p._copy()
            }
        default:
            throw n.expected("a path (SVG path data, a list of path elements, or a primitive object)")
        }
    }
}

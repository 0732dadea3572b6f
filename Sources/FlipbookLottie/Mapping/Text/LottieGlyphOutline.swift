import Foundation
import Flipbook

/// A glyph of the file's `chars` as one path: its shape items flattened, in the glyph's own
/// units (100 to the em, y down, the baseline at y = 0), which the text mapper scales by
/// `size / 100` (as lottie-web and ThorVG do; the glyph's `size` field is not used).
///
/// Glyph shapes are static outlines (After Effects exports each character's contours as `sh`
/// paths in a group), so they are flattened here rather than mapped to layers: groups apply
/// their transform (`T(p) · R(r) · skew · S(s) · T(−a)` at their first keyframe), paths
/// (`sh`), rectangles (`rc`) and ellipses (`el`) add their outline, hidden items are skipped.
/// Styles inside the glyph are ignored (the text document's fill and stroke colour it); other
/// items are listed in ``unsupported`` for a warning.
package struct LottieGlyphOutline {
    package var path: CGMutablePath
    /// The `ty` names of items that were not drawn.
    package var unsupported: [String] = []

    package init(_ items: [LottieShapeItem]) {
        path = CGMutablePath()
        add(items, transform: .identity)
    }

    private mutating func add(_ items: [LottieShapeItem], transform t: CGAffineTransform) {
        // Items are listed top-most first; the union of outlines does not depend on the order,
        // but the path keeps After Effects' drawing order (bottom-most first).
        for item in items.reversed() where !item.hidden {
            switch item.kind {
            case let .group(inner, transform):
                let m = transform.map(Self.matrix) ?? .identity
                add(inner, transform: m.concatenating(t))
            case let .path(bezier, _):
                bezier.initialValue.append(to: path, transform: t)
            case let .rectangle(r):
                let p = r.position.initialValue, s = r.size.initialValue
                guard p.count >= 2, s.count >= 2 else { continue }
                let rect = CGRect(x: p[0] - s[0] / 2, y: p[1] - s[1] / 2, width: s[0], height: s[1])
                let radius = min(r.roundness.initialValue.first ?? 0, abs(s[0]) / 2, abs(s[1]) / 2)
                if radius > 0 {
                    path.addRoundedRect(in: rect, cornerWidth: radius, cornerHeight: radius, transform: t)
                } else {
                    path.addRect(rect, transform: t)
                }
            case let .ellipse(e):
                let p = e.position.initialValue, s = e.size.initialValue
                guard p.count >= 2, s.count >= 2 else { continue }
                path.addEllipse(in: CGRect(x: p[0] - s[0] / 2, y: p[1] - s[1] / 2, width: s[0], height: s[1]), transform: t)
            case .fill, .stroke, .gradientFill, .gradientStroke, .transform:
                continue
            case .polystar: unsupported.append("sr")
            case .trim: unsupported.append("tm")
            case .roundedCorners: unsupported.append("rd")
            case .repeater: unsupported.append("rp")
            case .merge: unsupported.append("mm")
            case .offsetPath: unsupported.append("op")
            case .puckerBloat: unsupported.append("pb")
            case .zigZag: unsupported.append("zz")
            case let .unknown(type): unsupported.append(type)
            }
        }
    }

    /// A Lottie transform's matrix at its first keyframe, After Effects' order: anchor, scale,
    /// skew, rotation, position (as lottie-web's `TransformProperty`).
    package static func matrix(_ tr: LottieTransform) -> CGAffineTransform {
        func v(_ p: LottieAnimated<LottieVector>?, _ i: Int, _ d: Double) -> Double {
            guard let p, i < p.initialValue.count, p.initialValue[i].isFinite else { return d }
            return p.initialValue[i]
        }
        let position: (Double, Double)
        switch tr.position {
        case let .combined(p): position = (v(p, 0, 0), v(p, 1, 0))
        case let .split(x, y): position = (v(x, 0, 0), v(y, 0, 0))
        }
        var m = CGAffineTransform(translationX: -v(tr.anchor, 0, 0), y: -v(tr.anchor, 1, 0))
        m = m.concatenating(CGAffineTransform(scaleX: v(tr.scale, 0, 100) / 100, y: v(tr.scale, 1, 100) / 100))
        let sk = v(tr.skew, 0, 0)
        if sk != 0 {
            let sa = v(tr.skewAxis, 0, 0) * .pi / 180
            let shear = CGAffineTransform(a: 1, b: 0, c: tan(-sk * .pi / 180), d: 1, tx: 0, ty: 0)
            m = m.concatenating(CGAffineTransform(rotationAngle: sa)).concatenating(shear)
                .concatenating(CGAffineTransform(rotationAngle: -sa))
        }
        m = m.concatenating(CGAffineTransform(rotationAngle: v(tr.rotation, 0, 0) * .pi / 180))
        return m.concatenating(CGAffineTransform(translationX: position.0, y: position.1))
    }
}

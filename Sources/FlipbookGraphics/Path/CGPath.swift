import Foundation
import Synchronization
/// One drawing command of a path as Flipbook stores it: a Swift enum with its points. The
/// public view of an element is Apple's ``CGPathElement`` (a `type` and a `points` pointer),
/// handed out by ``CGPath/applyWithBlock(_:)``.
package enum _PathElement: Hashable, Sendable {
    case moveToPoint(CGPoint)
    case addLineToPoint(CGPoint)
    case addQuadCurveToPoint(control: CGPoint, to: CGPoint)
    case addCurveToPoint(control1: CGPoint, control2: CGPoint, to: CGPoint)
    case closeSubpath
}

/// An immutable graphics path: a list of subpaths made of lines, quadratic and cubic Bézier
/// curves (Apple's `CGPath`). Build one with ``CGMutablePath``.
///
/// Invariants: every element after a `closeSubpath` that is not a move starts a new subpath at
/// the closed subpath's start point (as Core Graphics); a line or curve with no current point
/// starts at (0, 0) — Core Graphics logs an error there, we stay total instead.
///
/// `@unchecked Sendable`, as Core Graphics' path types are in Swift: a `CGPath` never changes,
/// so it can be shared between threads. A ``CGMutablePath`` can, and is not safe to mutate
/// while another thread reads it (Apple's rule too); Flipbook's render snapshots copy mutable
/// paths (``copy()``) so rendering never reads one.
public class CGPath: Hashable, CustomStringConvertible, @unchecked Sendable {
    package internal(set) var elements: [_PathElement]
    /// The subpaths measured for trimming (`CGPath+Trim.swift`), kept once computed — only for
    /// an immutable path, whose elements never change. Not part of the value (equality, hash).
    let _trimMeasure = Mutex<[_TrimSubpath]?>(nil)

    package init(elements: [_PathElement]) { self.elements = elements }

    /// Flipbook's value-transform twin of Apple's `CGPath(rect:transform:)` (which takes a pointer,
    /// also available: `CGPath(rect: r, transform: nil)`, `CGPath(rect: r, transform: &t)`).
    public convenience init(rect: CGRect, transform: CGAffineTransform) {
        let m = CGMutablePath(); m.addRect(rect, transform: transform)
        self.init(elements: m.elements)
    }

    /// Value-transform twin of Apple's pointer-taking `CGPath(ellipseIn:transform:)`.
    public convenience init(ellipseIn rect: CGRect, transform: CGAffineTransform) {
        let m = CGMutablePath(); m.addEllipse(in: rect, transform: transform)
        self.init(elements: m.elements)
    }

    /// Value-transform twin of Apple's pointer-taking `CGPath(roundedRect:cornerWidth:cornerHeight:transform:)`.
    public convenience init(roundedRect rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat, transform: CGAffineTransform) {
        let m = CGMutablePath()
        m.addRoundedRect(in: rect, cornerWidth: cornerWidth, cornerHeight: cornerHeight, transform: transform)
        self.init(elements: m.elements)
    }

    public var isEmpty: Bool { elements.isEmpty }

    /// The point the next element would start from (`.zero` for an empty path).
    public var currentPoint: CGPoint {
        var cur = CGPoint.zero, start = CGPoint.zero
        for e in elements { e._advance(current: &cur, subpathStart: &start) }
        return cur
    }

    /// The smallest rectangle containing every point *and control point* (Apple's
    /// `boundingBox`); `.null` for an empty path.
    public var boundingBox: CGRect {
        var pts: [CGPoint] = []
        for e in elements {
            switch e {
            case let .moveToPoint(p), let .addLineToPoint(p): pts.append(p)
            case let .addQuadCurveToPoint(c, p): pts += [c, p]
            case let .addCurveToPoint(c1, c2, p): pts += [c1, c2, p]
            case .closeSubpath: break
            }
        }
        return CGPath._bounds(pts)
    }

    /// The tight bounds of the drawn curves (Apple's `boundingBoxOfPath`), from the flattened
    /// path at tolerance 1e-3.
    public var boundingBoxOfPath: CGRect {
        CGPath._bounds(_flattened(tolerance: 1e-3).flatMap { $0 })
    }

    static func _bounds(_ pts: [CGPoint]) -> CGRect {
        guard let f = pts.first else { return .null }
        var (x0, y0, x1, y1) = (f.x, f.y, f.x, f.y)
        for p in pts { x0 = min(x0, p.x); y0 = min(y0, p.y); x1 = max(x1, p.x); y1 = max(y1, p.y) }
        return CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// An immutable copy (Apple's `copy()`: optional in the Swift API, never nil here).
    public func copy() -> CGPath? { _copy() }
    /// A mutable copy (Apple's `mutableCopy()`: optional in the Swift API, never nil here).
    public func mutableCopy() -> CGMutablePath? { _mutableCopy() }
    /// ``copy()`` without the optional, for Flipbook's own use.
    package func _copy() -> CGPath { CGPath(elements: elements) }
    package func _mutableCopy() -> CGMutablePath { let m = CGMutablePath(); m.elements = elements; return m }

    /// Calls `block` with each element in order (Apple's `applyWithBlock`): the element's
    /// `type` and its `points` (1 point for a move or line, 2 for a quadratic — control, end —,
    /// 3 for a cubic — control 1, control 2, end —, none for a close). As on Apple, the pointers
    /// are valid only during the call.
    public func applyWithBlock(_ block: (UnsafePointer<CGPathElement>) -> Void) {
        let buffer = UnsafeMutablePointer<CGPoint>.allocate(capacity: 3)
        defer { buffer.deallocate() }
        buffer.initialize(repeating: .zero, count: 3)
        for e in elements {
            let type: CGPathElementType
            switch e {
            case let .moveToPoint(p): type = .moveToPoint; buffer[0] = p
            case let .addLineToPoint(p): type = .addLineToPoint; buffer[0] = p
            case let .addQuadCurveToPoint(c, p): type = .addQuadCurveToPoint; buffer[0] = c; buffer[1] = p
            case let .addCurveToPoint(c1, c2, p): type = .addCurveToPoint; buffer[0] = c1; buffer[1] = c2; buffer[2] = p
            case .closeSubpath: type = .closeSubpath
            }
            var element = CGPathElement(type: type, points: buffer)
            withUnsafePointer(to: &element) { block($0) }
        }
    }

    /// Calls `function` with `info` and each element in order (Apple's `apply(info:function:)`,
    /// the C-callback form of ``applyWithBlock(_:)``; the element pointer is valid only during
    /// the call).
    public func apply(info: UnsafeMutableRawPointer?, function: CGPathApplierFunction) {
        applyWithBlock { function(info, $0) }
    }

    public static func == (a: CGPath, b: CGPath) -> Bool { a.elements == b.elements }
    public func hash(into h: inout Hasher) { h.combine(elements) }
    public var description: String { "CGPath(\(elements.count) elements)" }
}

/// A path you build command by command (Apple's `CGMutablePath`). Every `add…` takes an
/// optional affine `transform` applied to its points, as in the Swift overlay.
public final class CGMutablePath: CGPath, @unchecked Sendable {
    public init() { super.init(elements: []) }

    public func move(to p: CGPoint, transform: CGAffineTransform = .identity) {
        elements.append(.moveToPoint(p.applying(transform)))
    }

    public func addLine(to p: CGPoint, transform: CGAffineTransform = .identity) {
        elements.append(.addLineToPoint(p.applying(transform)))
    }

    public func addQuadCurve(to p: CGPoint, control: CGPoint, transform: CGAffineTransform = .identity) {
        elements.append(.addQuadCurveToPoint(control: control.applying(transform), to: p.applying(transform)))
    }

    public func addCurve(to p: CGPoint, control1: CGPoint, control2: CGPoint, transform: CGAffineTransform = .identity) {
        elements.append(.addCurveToPoint(control1: control1.applying(transform), control2: control2.applying(transform), to: p.applying(transform)))
    }

    public func closeSubpath() { elements.append(.closeSubpath) }

    /// A closed rectangle: move to (minX, minY), then clockwise in y-down space.
    public func addRect(_ r0: CGRect, transform: CGAffineTransform = .identity) {
        let r = r0.standardized
        move(to: CGPoint(x: r.minX, y: r.minY), transform: transform)
        addLine(to: CGPoint(x: r.maxX, y: r.minY), transform: transform)
        addLine(to: CGPoint(x: r.maxX, y: r.maxY), transform: transform)
        addLine(to: CGPoint(x: r.minX, y: r.maxY), transform: transform)
        closeSubpath()
    }

    public func addRects(_ rects: [CGRect], transform: CGAffineTransform = .identity) {
        rects.forEach { addRect($0, transform: transform) }
    }

    /// A polyline through `points` (a move, then lines); nothing for an empty array.
    public func addLines(between points: [CGPoint], transform: CGAffineTransform = .identity) {
        guard let first = points.first else { return }
        move(to: first, transform: transform)
        for p in points.dropFirst() { addLine(to: p, transform: transform) }
    }

    /// An ellipse inscribed in `rect`: four cubic quarter-arcs (control distance κ = 0.5522847498
    /// of the radius, max radial error 0.027 %), starting at (maxX, midY), closed.
    public func addEllipse(in r0: CGRect, transform: CGAffineTransform = .identity) {
        let r = r0.standardized
        let k: CGFloat = 0.5522847498
        let (cx, cy, rx, ry) = (r.midX, r.midY, r.width / 2, r.height / 2)
        let (ox, oy) = (rx * k, ry * k)
        move(to: CGPoint(x: cx + rx, y: cy), transform: transform)
        addCurve(to: CGPoint(x: cx, y: cy + ry), control1: CGPoint(x: cx + rx, y: cy + oy), control2: CGPoint(x: cx + ox, y: cy + ry), transform: transform)
        addCurve(to: CGPoint(x: cx - rx, y: cy), control1: CGPoint(x: cx - ox, y: cy + ry), control2: CGPoint(x: cx - rx, y: cy + oy), transform: transform)
        addCurve(to: CGPoint(x: cx, y: cy - ry), control1: CGPoint(x: cx - rx, y: cy - oy), control2: CGPoint(x: cx - ox, y: cy - ry), transform: transform)
        addCurve(to: CGPoint(x: cx + rx, y: cy), control1: CGPoint(x: cx + ox, y: cy - ry), control2: CGPoint(x: cx + rx, y: cy - oy), transform: transform)
        closeSubpath()
    }

    /// A rectangle with elliptical corners; corner sizes are clamped to half the width / height
    /// (negative → 0, which gives a plain rectangle).
    public func addRoundedRect(in r0: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat, transform: CGAffineTransform = .identity) {
        let r = r0.standardized
        let cw = min(max(cornerWidth, 0), r.width / 2), ch = min(max(cornerHeight, 0), r.height / 2)
        guard cw > 0, ch > 0 else { addRect(r, transform: transform); return }
        let k: CGFloat = 0.5522847498
        let (ox, oy) = (cw * (1 - k), ch * (1 - k))
        move(to: CGPoint(x: r.minX + cw, y: r.minY), transform: transform)
        addLine(to: CGPoint(x: r.maxX - cw, y: r.minY), transform: transform)
        addCurve(to: CGPoint(x: r.maxX, y: r.minY + ch), control1: CGPoint(x: r.maxX - ox, y: r.minY), control2: CGPoint(x: r.maxX, y: r.minY + oy), transform: transform)
        addLine(to: CGPoint(x: r.maxX, y: r.maxY - ch), transform: transform)
        addCurve(to: CGPoint(x: r.maxX - cw, y: r.maxY), control1: CGPoint(x: r.maxX, y: r.maxY - oy), control2: CGPoint(x: r.maxX - ox, y: r.maxY), transform: transform)
        addLine(to: CGPoint(x: r.minX + cw, y: r.maxY), transform: transform)
        addCurve(to: CGPoint(x: r.minX, y: r.maxY - ch), control1: CGPoint(x: r.minX + ox, y: r.maxY), control2: CGPoint(x: r.minX, y: r.maxY - oy), transform: transform)
        addLine(to: CGPoint(x: r.minX, y: r.minY + ch), transform: transform)
        addCurve(to: CGPoint(x: r.minX + cw, y: r.minY), control1: CGPoint(x: r.minX, y: r.minY + oy), control2: CGPoint(x: r.minX + ox, y: r.minY), transform: transform)
        closeSubpath()
    }

    /// Appends another path's elements (mapped through `transform`).
    public func addPath(_ path: CGPath, transform: CGAffineTransform = .identity) {
        for e in path.elements {
            switch e {
            case let .moveToPoint(p): move(to: p, transform: transform)
            case let .addLineToPoint(p): addLine(to: p, transform: transform)
            case let .addQuadCurveToPoint(c, p): addQuadCurve(to: p, control: c, transform: transform)
            case let .addCurveToPoint(c1, c2, p): addCurve(to: p, control1: c1, control2: c2, transform: transform)
            case .closeSubpath: closeSubpath()
            }
        }
    }
}

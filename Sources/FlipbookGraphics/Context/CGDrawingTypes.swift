import Foundation

/// How the ends of an open subpath are drawn (Apple's `CGLineCap`; raw values as in Core Graphics).
public enum CGLineCap: Int32, Sendable, Hashable {
    case butt = 0
    case round = 1
    case square = 2
}

/// How two segments of a stroked path meet (Apple's `CGLineJoin`; raw values as in Core Graphics).
public enum CGLineJoin: Int32, Sendable, Hashable {
    case miter = 0
    case round = 1
    case bevel = 2
}

/// Which areas of a path are its interior (Apple's `CGPathFillRule`).
public enum CGPathFillRule: Int, Sendable, Hashable {
    /// Non-zero winding number.
    case winding = 0
    /// Odd winding number.
    case evenOdd = 1
}

/// What `CGContext.drawPath(using:)` paints (Apple's `CGPathDrawingMode`; raw values as in Core
/// Graphics).
public enum CGPathDrawingMode: Int32, Sendable, Hashable {
    case fill = 0
    case eoFill = 1
    case stroke = 2
    case fillStroke = 3
    case eoFillStroke = 4
}

/// Image filtering for `CGContext.draw(_:in:)` (Apple's `CGInterpolationQuality`; raw values as
/// in Core Graphics). Flipbook: `.none` samples the nearest texel; every other value is bilinear
/// (8-bit weights, docs/rounding.md). There is no mipmapping in context drawing: strong
/// minification aliases.
public enum CGInterpolationQuality: Int32, Sendable, Hashable {
    case `default` = 0
    case none = 1
    case low = 2
    case high = 3
    case medium = 4
}

/// How drawing combines with what is already in the context (Apple's `CGBlendMode`; raw values
/// as in Core Graphics). The formulas (premultiplied colour, per channel) are in
/// `FlipbookRaster`'s `BlendModes` and the Drawing article. Every mode is implemented: the
/// Porter–Duff operators and the separable modes with integer formulas rounded once (exact), and
/// colorDodge, colorBurn, softLight, hue, saturation, color and luminosity (the W3C
/// Compositing and Blending formulas, in floating point, rounded once to nearest).
public enum CGBlendMode: Int32, Sendable, Hashable, CaseIterable {
    case normal = 0
    case multiply = 1
    case screen = 2
    case overlay = 3
    case darken = 4
    case lighten = 5
    case colorDodge = 6
    case colorBurn = 7
    case softLight = 8
    case hardLight = 9
    case difference = 10
    case exclusion = 11
    case hue = 12
    case saturation = 13
    case color = 14
    case luminosity = 15
    case clear = 16
    case copy = 17
    case sourceIn = 18
    case sourceOut = 19
    case sourceAtop = 20
    case destinationOver = 21
    case destinationIn = 22
    case destinationOut = 23
    case destinationAtop = 24
    case xor = 25
    case plusDarker = 26
    case plusLighter = 27
}

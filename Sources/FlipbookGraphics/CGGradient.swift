import Foundation
import FlipbookRaster

/// A colour gradient definition (Apple's `CGGradient`): colours at locations along 0…1, drawn
/// by ``CGContext/drawLinearGradient(_:start:end:options:)`` and
/// ``CGContext/drawRadialGradient(_:startCenter:startRadius:endCenter:endRadius:options:)``
/// with the same gradient paint as `CAGradientLayer` (FlipbookRaster's `GradientPaint`: straight
/// alpha interpolation, a 1024-step ramp, no dithering).
///
/// Colour spaces: every RGB or gray space draws as sRGB (as everywhere in Flipbook).
public final class CGGradient: @unchecked Sendable {   // immutable after init
    /// `(location, straight r, g, b, a)` per stop, in the order given.
    package let _stops: [GradientStop]
    package let _ramp: GradientRamp

    init?(stops: [GradientStop]) {
        guard !stops.isEmpty, stops.allSatisfy({ [$0.location, $0.r, $0.g, $0.b, $0.a].allSatisfy(\.isFinite) }) else { return nil }
        _stops = stops
        _ramp = GradientRamp.cached(stops)
    }

    /// A gradient of `colors` at `locations` (nil: evenly spaced from 0 to 1; else one location
    /// per colour): Apple's `init?(colorsSpace:colors:locations:)`, whose colours are a `CFArray`
    /// of `CGColor`s — `[c1, c2] as CFArray` compiles as it does on Apple. Returns nil for no
    /// colours, or for an array holding anything but `CGColor`s.
    public convenience init?(colorsSpace space: CGColorSpace?, colors: CFArray, locations: UnsafePointer<CGFloat>?) {
        var cs: [CGColor] = []
        for c in colors {
            guard let color = c as? CGColor else { return nil }
            cs.append(color)
        }
        self.init(colorsSpace: space, colors: cs, locations: locations)
    }

    /// The same from a Swift `[CGColor]` (Flipbook's convenience: no `as CFArray` needed).
    public convenience init?(colorsSpace space: CGColorSpace?, colors: [CGColor], locations: UnsafePointer<CGFloat>?) {
        let n = colors.count
        let stops = colors.enumerated().map { i, c -> GradientStop in
            let loc = locations.map { Double($0[i]) } ?? (n > 1 ? Double(i) / Double(n - 1) : 0)
            return GradientStop(location: loc, r: Double(c.red), g: Double(c.green), b: Double(c.blue), a: Double(c.alpha))
        }
        self.init(stops: stops)
    }

    /// A gradient from raw components: `count` colours of `space.numberOfComponents + 1` values
    /// each (gray + alpha, or r, g, b + alpha), at `locations` (nil: evenly spaced).
    public convenience init?(colorSpace space: CGColorSpace, colorComponents components: UnsafePointer<CGFloat>,
                             locations: UnsafePointer<CGFloat>?, count: Int) {
        guard count > 0 else { return nil }
        let k = space.numberOfComponents + 1
        let stops = (0..<count).map { i -> GradientStop in
            let c = components + i * k
            let loc = locations.map { Double($0[i]) } ?? (count > 1 ? Double(i) / Double(count - 1) : 0)
            if k == 2 { return GradientStop(location: loc, r: Double(c[0]), g: Double(c[0]), b: Double(c[0]), a: Double(c[1])) }
            return GradientStop(location: loc, r: Double(c[0]), g: Double(c[1]), b: Double(c[2]), a: Double(c[3]))
        }
        self.init(stops: stops)
    }
}

/// Whether a gradient drawing extends its end colours (Apple's `CGGradientDrawingOptions`).
public struct CGGradientDrawingOptions: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// The first colour also fills before the start (the start circle's inside, or before the
    /// start line).
    public static let drawsBeforeStartLocation = CGGradientDrawingOptions(rawValue: 1)
    /// The last colour also fills after the end.
    public static let drawsAfterEndLocation = CGGradientDrawingOptions(rawValue: 2)
}

import Foundation
/// A colour: sRGB components and alpha, as Core Graphics' `CGColor` in the sRGB or generic gray
/// colour space.
///
/// Immutable and `Sendable`, like the CF type it mirrors. Components are *straight* (not
/// premultiplied) and not clamped (extended-range values survive interpolation overshoot;
/// the renderer clamps to [0, 1] when converting to pixels).
public final class CGColor: Hashable, Sendable, CustomStringConvertible {
    /// The colour model the colour was created in (it decides ``components``).
    public enum Model: Sendable, Hashable { case rgb, gray }

    public let model: Model
    public let red: CGFloat, green: CGFloat, blue: CGFloat
    /// The opacity, 0 (transparent) … 1 (opaque).
    public let alpha: CGFloat

    /// An sRGB colour.
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        model = .rgb; self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }

    /// An sRGB colour (Apple's explicit-colour-space spelling).
    public convenience init(srgbRed red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.init(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// A gray in the generic gray space (`gray` 0 = black, 1 = white).
    public init(gray: CGFloat, alpha: CGFloat) {
        model = .gray; red = gray; green = gray; blue = gray; self.alpha = alpha
    }

    public static let black = CGColor(gray: 0, alpha: 1)
    public static let white = CGColor(gray: 1, alpha: 1)
    public static let clear = CGColor(gray: 0, alpha: 0)

    /// The components including alpha: `[r, g, b, a]` for RGB colours, `[gray, a]` for gray.
    public var components: [CGFloat]? {
        model == .gray ? [red, alpha] : [red, green, blue, alpha]
    }

    public var numberOfComponents: Int { model == .gray ? 2 : 4 }

    /// The same colour with another alpha.
    public func copy(alpha: CGFloat) -> CGColor? {
        model == .gray ? CGColor(gray: red, alpha: alpha) : CGColor(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// `[r, g, b, a]` whatever the model.
    public var rgba: [CGFloat] { [red, green, blue, alpha] }

    /// Colours are equal when their models and components are (as `CFEqual` on Apple).
    public static func == (lhs: CGColor, rhs: CGColor) -> Bool {
        lhs.model == rhs.model && lhs.red == rhs.red && lhs.green == rhs.green
            && lhs.blue == rhs.blue && lhs.alpha == rhs.alpha
    }

    public func hash(into h: inout Hasher) {
        h.combine(model); h.combine(red); h.combine(green); h.combine(blue); h.combine(alpha)
    }

    public var description: String {
        model == .gray ? "CGColor(gray: \(red), alpha: \(alpha))"
            : "CGColor(red: \(red), green: \(green), blue: \(blue), alpha: \(alpha))"
    }
}

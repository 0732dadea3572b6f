import Flipbook
import Foundation

/// The text of `Snapshotting<CGPath, String>.elementsDescription`, byte for byte as
/// swift-snapshot-testing writes it on Apple platforms.
///
/// ## Format
/// For each element of the path, in order (`applyWithBlock`):
/// - a `moveToPoint` that is not the first element is preceded by an empty line (`"\n"`);
/// - the element's name — `MoveTo`, `LineTo`, `QuadCurveTo`, `CurveTo`, `Close` — then a space,
///   then its points (1, 1, 2, 3 and 0 of them) as `(x, y)` joined by single spaces, then `"\n"`.
///   So `Close` is written `"Close \n"`, with the space.
///
/// Numbers go through the formatter. The default one is swift-snapshot-testing's: decimal
/// separator `.`, 1 to 3 fraction digits (`60.0`, `83.284`), rounded half to even, no grouping,
/// here with the `en_US_POSIX` locale so that the text does not depend on the machine's.
public enum PathElementsDescription {
    /// The description of `path`, numbers written by `numberFormatter`.
    public static func describe(_ path: CGPath, numberFormatter: NumberFormatter) -> String {
        var string = ""
        path.applyWithBlock { pointer in
            let element = pointer.pointee
            let name: String
            let count: Int
            switch element.type {
            case .moveToPoint: (name, count) = ("MoveTo", 1)
            case .addLineToPoint: (name, count) = ("LineTo", 1)
            case .addQuadCurveToPoint: (name, count) = ("QuadCurveTo", 2)
            case .addCurveToPoint: (name, count) = ("CurveTo", 3)
            case .closeSubpath: (name, count) = ("Close", 0)
            }
            if element.type == .moveToPoint && !string.isEmpty { string += "\n" }
            string += name
            let points = UnsafeBufferPointer(start: element.points, count: count)
            string += " " + points.map { p in
                "(\(format(Double(p.x), with: numberFormatter)), \(format(Double(p.y), with: numberFormatter)))"
            }.joined(separator: " ")
            string += "\n"
        }
        return string
    }

    /// swift-snapshot-testing's default formatter (`.` separator, 1…3 fraction digits), with
    /// the POSIX locale.
    public static func defaultNumberFormatter() -> NumberFormatter {
        let f = NumberFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.decimalSeparator = "."
        f.minimumFractionDigits = 1
        f.maximumFractionDigits = 3
        return f
    }

    /// `x` formatted as `formatter` formats it on Apple platforms.
    ///
    /// The Linux pitfall: Foundation's `NumberFormatter` here ignores `maximumFractionDigits`
    /// once `minimumFractionDigits` is above 0 — with the default style it writes exactly the
    /// minimum (`83.284…` with 1…3 digits comes out `83.3`), with `.decimal` always up to 3.
    /// With a minimum of 0 the maximum is honoured. So for the plain styles (`.none`,
    /// `.decimal`, `.percent`) with a minimum above 0, the number is formatted by a copy with a
    /// minimum of 0 and the maximum (at least the minimum, as Apple raises it), then padded
    /// with zeros to the minimum — `60` → `60.0` — adding the decimal separator if there was
    /// none. Other styles and formatters with a minimum of 0 are used as they are.
    public static func format(_ x: Double, with formatter: NumberFormatter) -> String {
        let minimum = formatter.minimumFractionDigits
        let plain: [NumberFormatter.Style] = [.none, .decimal, .percent]
        guard minimum > 0, plain.contains(formatter.numberStyle),
              let copy = formatter.copy() as? NumberFormatter else {
            return formatter.string(from: NSNumber(value: x)) ?? "\(x)"
        }
        copy.minimumFractionDigits = 0
        copy.maximumFractionDigits = max(formatter.maximumFractionDigits, minimum)
        guard let text = copy.string(from: NSNumber(value: x)) else { return "\(x)" }
        return pad(text, toFractionDigits: minimum, separator: copy.decimalSeparator ?? ".")
    }

    /// `text` with zeros added after its last run of digits until that run, read as the
    /// fraction (after `separator`), has `minimum` digits. Text without digits (`NaN`, `∞`)
    /// is returned as it is.
    static func pad(_ text: String, toFractionDigits minimum: Int, separator: String) -> String {
        let chars = Array(text)
        guard let last = chars.lastIndex(where: \.isNumber) else { return text }
        var first = last
        while first > 0 && chars[first - 1].isNumber { first -= 1 }
        let sep = Array(separator)
        let hasSeparator = !sep.isEmpty && first >= sep.count && Array(chars[(first - sep.count)..<first]) == sep
        let fractionDigits = hasSeparator ? last - first + 1 : 0
        guard fractionDigits < minimum else { return text }
        let insert = (hasSeparator ? "" : separator) + String(repeating: "0", count: minimum - fractionDigits)
        return String(chars[...last]) + insert + String(chars[(last + 1)...])
    }
}

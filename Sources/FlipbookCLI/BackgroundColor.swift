import Flipbook
import FlipbookPixels

/// `--background COLOR`: what a Lottie file's frames are drawn over (default: nothing —
/// transparent). The colours scene files take: `#rrggbb`, `#rrggbbaa` (straight sRGB, hex),
/// `white`, `black`, `clear` (also `transparent`, `none`).
///
/// Kept as the eight-bit straight components the user wrote, so a manifest can record it
/// exactly (``hex``) and `verify --sample` redraw it.
struct BackgroundColor: Equatable, Sendable {
    var r: UInt8, g: UInt8, b: UInt8, a: UInt8

    /// Parses the option's value; nil when it is not one of the forms above.
    init?(_ text: String) {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        switch t {
        case "white": (r, g, b, a) = (255, 255, 255, 255); return
        case "black": (r, g, b, a) = (0, 0, 0, 255); return
        case "clear", "transparent", "none": (r, g, b, a) = (0, 0, 0, 0); return
        default: break
        }
        let digits = t.hasPrefix("#") ? String(t.dropFirst()) : t
        guard digits.count == 6 || digits.count == 8, digits.allSatisfy(\.isHexDigit),
              let v = UInt32(digits, radix: 16) else { return nil }
        let rgba = digits.count == 6 ? v << 8 | 0xFF : v
        (r, g, b, a) = (UInt8(rgba >> 24), UInt8(rgba >> 16 & 0xFF), UInt8(rgba >> 8 & 0xFF), UInt8(rgba & 0xFF))
    }

    /// `#rrggbbaa`, lower case.
    var hex: String {
        "#" + [r, g, b, a].map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    /// The colour for `RecordingSettings.background`.
    var cgColor: CGColor {
        CGColor(srgbRed: Double(r) / 255, green: Double(g) / 255, blue: Double(b) / 255, alpha: Double(a) / 255)
    }
}

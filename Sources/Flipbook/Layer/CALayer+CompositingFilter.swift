import Foundation
import FlipbookGraphics
import FlipbookPixels
/// `CALayer.compositingFilter` names → the blend mode the compositor applies.
///
/// On Apple, `compositingFilter` takes a Core Image filter (or its name, the usual form in iOS
/// code: `layer.compositingFilter = "multiplyBlendMode"`) that composites the layer — its whole
/// subtree, as one group — onto what is behind it. Flipbook has no Core Image: it reads the
/// **name** and maps the blend modes and compositing operators onto `CGBlendMode` (formulas in
/// `FlipbookRaster`'s `BlendModes`, the W3C Compositing and Blending Level 1 ones).
///
/// Accepted names, case-insensitively, with or without the `CI` prefix and the `BlendMode` /
/// `Compositing` suffix (`"multiplyBlendMode"`, `"CIMultiplyBlendMode"`, `"multiply"`):
///
/// - blend modes: multiply, screen, overlay, darken, lighten, colorDodge, colorBurn, hardLight,
///   softLight, difference, exclusion, hue, saturation, color, luminosity;
/// - additive: `plusL` / `plusLighter` / `addition` (`CIAdditionCompositing`) — the sum,
///   clamped; `plusD` / `plusDarker`;
/// - Porter–Duff: sourceOver (= normal; also `normal`), sourceIn, sourceOut, sourceAtop,
///   destinationIn, destinationOut, destinationOver, destinationAtop (also `destIn`, `destOut`,
///   `destOver`, `destAtop`, Core Animation's own spellings), xor, copy, clear.
///
/// Anything else — another string, a non-string value — composites normally (as before
/// Flipbook read the property) and says so once per process on standard error.
package enum _CompositingFilter {
    package static let said = _SaidOnce()

    /// The mode for a `compositingFilter` value; nil gives `.normal` silently.
    package static func blendMode(_ filter: Any?) -> CGBlendMode {
        guard let filter else { return .normal }
        guard let name = filter as? String else {
            sayOnce("compositingFilter value of type \(type(of: filter)) is not a filter name Flipbook reads "
                    + "(Core Image is not available); the layer is composited normally")
            return .normal
        }
        if let mode = mode(named: name) { return mode }
        sayOnce("compositingFilter \"\(name)\" is not a blend mode or compositing operator Flipbook knows; "
                + "the layer is composited normally")
        return .normal
    }

    /// The mode a filter name stands for, or nil (see the type's list).
    package static func mode(named name: String) -> CGBlendMode? {
        var n = Substring(name)
        // "CIMultiplyBlendMode": the Core Image prefix, only before a capital (not "clear").
        if n.hasPrefix("CI"), let third = n.dropFirst(2).first, third.isUppercase { n = n.dropFirst(2) }
        var key = n.lowercased()
        for suffix in ["blendmode", "compositing"] where key.hasSuffix(suffix) && key.count > suffix.count {
            key.removeLast(suffix.count)
        }
        return names[key]
    }

    static let names: [String: CGBlendMode] = [
        "normal": .normal, "sourceover": .normal,
        "multiply": .multiply, "screen": .screen, "overlay": .overlay, "darken": .darken, "lighten": .lighten,
        "colordodge": .colorDodge, "colorburn": .colorBurn, "hardlight": .hardLight, "softlight": .softLight,
        "difference": .difference, "exclusion": .exclusion,
        "hue": .hue, "saturation": .saturation, "color": .color, "luminosity": .luminosity,
        "plusl": .plusLighter, "pluslighter": .plusLighter, "addition": .plusLighter,
        "plusd": .plusDarker, "plusdarker": .plusDarker,
        "sourcein": .sourceIn, "sourceout": .sourceOut, "sourceatop": .sourceAtop,
        "destinationin": .destinationIn, "destin": .destinationIn,
        "destinationout": .destinationOut, "destout": .destinationOut,
        "destinationover": .destinationOver, "destover": .destinationOver,
        "destinationatop": .destinationAtop, "destatop": .destinationAtop,
        "xor": .xor, "copy": .copy, "clear": .clear,
    ]

    static func sayOnce(_ message: String) {
        if said.first(message) { StandardStreams.error("Flipbook: \(message)\n") }
    }
}

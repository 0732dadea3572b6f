import Foundation
import Flipbook

/// How a layer reads its `mask` (track mattes, grayscale masks): Flipbook's `_maskMode`.
package enum LottieMaskMode: Sendable, Hashable {
    case alpha, alphaInverted, luminance, luminanceInverted
}

package enum LottieMaskModes {
    /// The key the mode is kept under until the compositor reads it.
    static let key = "lottieMaskMode"

    /// Sets how `layer` reads its mask.
    package static func set(_ mode: LottieMaskMode, on layer: CALayer) {
        layer.setValue("\(mode)", forKey: key)
    }

    /// The mode set on `layer` (alpha when none).
    package static func mode(of layer: CALayer) -> LottieMaskMode {
        switch layer.value(forKey: key) as? String {
        case "alphaInverted": return .alphaInverted
        case "luminance": return .luminance
        case "luminanceInverted": return .luminanceInverted
        default: return .alpha
        }
    }
}

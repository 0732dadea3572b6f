import Foundation
import Flipbook

/// How a layer reads its `mask`: Flipbook's `_maskMode` (alpha, inverted alpha, luminance,
/// inverted luminance — After Effects' track matte kinds). Track mattes and grayscale masks
/// set it on the layer that owns the mask.
package typealias LottieMaskMode = _LayerMaskMode

package enum LottieMaskModes {
    /// Sets how `layer` reads its mask.
    package static func set(_ mode: LottieMaskMode, on layer: CALayer) { layer._maskMode = mode }
}

import Foundation
import Flipbook

/// Shape items (a shape layer's `shapes`, a glyph's shapes) → the layers that draw them.
package enum LottieShapeMapper {
    /// The layers drawing `items`, bottom-most first, in the Lottie layer's own coordinate
    /// space (y down, before the layer's transform). `path` is the items' JSON path
    /// (`layers[3].shapes`), for warnings; animations are registered on `context` on `clock`'s
    /// timeline.
    package static func makeLayers(for items: [LottieShapeItem], path: String, clock: LottieClock,
                                   context: LottieMappingContext) -> [CALayer] {
        []   // Written by the shapes work (docs/lottie.md).
    }
}

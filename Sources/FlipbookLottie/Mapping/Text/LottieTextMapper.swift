import Foundation
import Flipbook

/// A text layer's `t` → the layers that draw it.
package enum LottieTextMapper {
    /// The layers drawing `text`, in the Lottie layer's own coordinate space (y down, before
    /// its transform). `path` is the layer's JSON path (`layers[3]`).
    package static func makeLayers(for text: LottieTextData, path: String, clock: LottieClock,
                                   context: LottieMappingContext) -> [CALayer] {
        []   // Written by the text work (docs/lottie.md).
    }
}

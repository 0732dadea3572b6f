import Foundation

/// What one parse collects besides the values: the warnings, the precomposition references to
/// check once every asset is known, and where images come from.
final class _LottieParseContext {
    let file: String
    let limits: LottieLimits
    let images: _LottieImageSource
    var warnings: [LottieWarning] = []
    /// Every precomposition layer (`ty` 0) seen: which composition it is in (nil: the main
    /// one, else the asset id), the id it refers to and its `refId` node (for errors).
    var precompReferences: [(owner: String?, refId: String, node: _LottieNode)] = []
    /// The image layers (`ty` 2): checked against the image assets (a missing one warns).
    var imageReferences: [(refId: String, node: _LottieNode)] = []
    /// The main composition's `layers` (for errors about the whole list).
    var rootLayers: _LottieNode?
    /// The composition's size and in/out points, defaults for layers that omit theirs.
    var compositionWidth = 0.0, compositionHeight = 0.0
    var compositionInPoint = 0.0, compositionOutPoint = 0.0

    init(file: String, limits: LottieLimits, images: _LottieImageSource) {
        self.file = file; self.limits = limits; self.images = images
    }

    func warn(_ feature: String, _ node: _LottieNode, _ message: String) {
        warnings.append(LottieWarning(feature: feature, path: node.path, message: message))
    }
}

/// Where the bytes of image assets that are not embedded come from.
enum _LottieImageSource {
    /// Nowhere (a document parsed from memory): such images are left out with a warning.
    case none
    /// Files beside the JSON document: `u` + `p` relative to this directory.
    case directory(URL)
    /// A dotLottie archive's image entries.
    case archive(_DotLottieArchive)
}

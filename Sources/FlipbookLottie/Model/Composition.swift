import Foundation
import Flipbook

/// A parsed Bodymovin document (the root object): the main composition, its assets, fonts,
/// glyphs and markers. Pure values; ``LottieAnimation`` wraps it for the public API.
package struct LottieComposition: Sendable, Equatable {
    /// `v`: the Bodymovin version string (informational).
    package var version: String?
    package var name: String?
    /// `w`, `h`: the composition size in points.
    package var width: Double
    package var height: Double
    /// `fr`: frames per second.
    package var frameRate: Double
    /// `ip`, `op`: the first frame and the frame after the last (`op` is exclusive).
    package var inPoint: Double
    package var outPoint: Double
    /// `ddd`: 3D layers in the composition.
    package var is3D: Bool = false
    /// `layers`: top-most first (as in the file).
    package var layers: [LottieLayer]
    /// `assets`: precompositions (by id) and images.
    package var assets: [LottieAsset] = []
    /// `fonts.list`.
    package var fonts: [LottieFont] = []
    /// `chars`: glyph shapes for text layers that use them.
    package var glyphs: [LottieGlyph] = []
    /// `markers`.
    package var markers: [LottieMarker] = []

    package init(width: Double, height: Double, frameRate: Double, inPoint: Double, outPoint: Double, layers: [LottieLayer]) {
        self.width = width; self.height = height; self.frameRate = frameRate
        self.inPoint = inPoint; self.outPoint = outPoint; self.layers = layers
    }
}

/// `assets[]`: a precomposition (`layers`) or an image (`p`, `u`, `e`).
package struct LottieAsset: Sendable, Equatable {
    package var id: String
    package var kind: Kind
    package enum Kind: Sendable, Equatable {
        /// A precomposition's layers (and its own frame rate `fr` when given).
        case precomposition(layers: [LottieLayer], frameRate: Double?)
        /// An image: `w`, `h`, the directory `u`, the file name or data URI `p`; `e: 1` when `p`
        /// is embedded (a `data:` URI). ``data`` holds the bytes once resolved (embedded, a file
        /// beside the JSON, or a dotLottie's `images/`); nil when not found.
        case image(width: Double, height: Double, directory: String, path: String, embedded: Bool, data: Data?)
    }
    package init(id: String, kind: Kind) { self.id = id; self.kind = kind }
}

/// `markers[]`: `cm` (name/comment), `tm` (start frame), `dr` (duration in frames).
package struct LottieMarker: Sendable, Equatable {
    package var name: String
    package var frame: Double
    package var duration: Double
    package init(name: String, frame: Double, duration: Double) { self.name = name; self.frame = frame; self.duration = duration }
}

/// `fonts.list[]`.
package struct LottieFont: Sendable, Equatable {
    /// `fName`: the name text documents refer to (`f`).
    package var name: String
    /// `fFamily`, `fStyle`: what to look the font up by.
    package var family: String
    package var style: String
    /// `ascent` (percent of size), `fPath`, `origin`.
    package var ascent: Double?
    package var path: String?
    package var origin: Int?
    package init(name: String, family: String, style: String, ascent: Double? = nil, path: String? = nil, origin: Int? = nil) {
        self.name = name; self.family = family; self.style = style; self.ascent = ascent; self.path = path; self.origin = origin
    }
}

/// `chars[]`: one glyph drawn as shapes (text layers with glyph data).
package struct LottieGlyph: Sendable, Equatable {
    /// `ch`, `fFamily`, `style`, `size` (the size the shapes are drawn at), `w` (advance, in
    /// 1/100 of `size`... as the file gives it).
    package var character: String
    package var family: String
    package var style: String
    package var size: Double
    package var advance: Double
    /// `data.shapes`.
    package var shapes: [LottieShapeItem]
    package init(character: String, family: String, style: String, size: Double, advance: Double, shapes: [LottieShapeItem]) {
        self.character = character; self.family = family; self.style = style; self.size = size; self.advance = advance; self.shapes = shapes
    }
}

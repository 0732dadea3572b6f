import Foundation
import Flipbook

/// `layers[]`: one After Effects layer.
package struct LottieLayer: Sendable, Equatable {
    /// `ty`.
    package enum Kind: Sendable, Equatable {
        /// 0: a precomposition instance (`refId`, `w`, `h`, `tm`).
        case precomposition(refId: String, width: Double, height: Double)
        /// 1: a solid (`sc` colour `#rrggbb`, `sw`, `sh`).
        case solid(color: String, width: Double, height: Double)
        /// 2: an image (`refId`).
        case image(refId: String)
        /// 3: a null (transform only; a parent for others).
        case null
        /// 4: a shape layer (`shapes`).
        case shape([LottieShapeItem])
        /// 5: a text layer (`t`).
        case text(LottieTextData)
        /// 6 audio, 13 camera, and anything else: not drawn (the number kept for warnings).
        case other(type: Int)
    }

    package var kind: Kind
    /// `nm`, `ind`, `parent`.
    package var name: String?
    package var index: Int?
    package var parent: Int?
    /// `ip`, `op`: visible from `ip` to before `op`, in the containing composition's frames.
    package var inPoint: Double
    package var outPoint: Double
    /// `st`: the frame of the containing composition at which this layer's time 0 falls.
    package var startTime: Double = 0
    /// `sr`: time stretch (2 = plays at half speed).
    package var timeStretch: Double = 1
    /// `hd`: hidden.
    package var hidden: Bool = false
    /// `bm`: blend mode (0 normal, 1 multiply, 2 screen, 3 overlay, 4 darken, 5 lighten,
    /// 6 colour dodge, 7 colour burn, 8 hard light, 9 soft light, 10 difference, 11 exclusion,
    /// 12 hue, 13 saturation, 14 colour, 15 luminosity, 16 add, 17 hard mix).
    package var blendMode: Int = 0
    /// `ddd`: a 3D layer.
    package var is3D: Bool = false
    /// `ao`: auto-orient along the position path.
    package var autoOrient: Bool = false
    /// `ks`.
    package var transform: LottieTransform
    /// `masksProperties` (applied in order; `hasMask`).
    package var masks: [LottieMask] = []
    /// `tt`: this layer is matted by the layer above it (or by `tp`): 1 alpha, 2 alpha inverted,
    /// 3 luma, 4 luma inverted.
    package var matteMode: Int?
    /// `tp`: the index (`ind`) of the matte layer (newer files); nil: the layer just above.
    package var matteParent: Int?
    /// `td`: this layer is a matte source (not drawn itself).
    package var isMatteSource: Bool = false
    /// `tm`: time remapping, in seconds of the precomposition's time.
    package var timeRemap: LottieAnimated<LottieVector>?
    /// `ef`: effects (not drawn; listed for warnings): their `ty` numbers and names.
    package var effects: [LottieEffect] = []
    /// `cl`: the layer's class name (AE export), informational.
    package var className: String?

    package init(kind: Kind, inPoint: Double, outPoint: Double, transform: LottieTransform) {
        self.kind = kind; self.inPoint = inPoint; self.outPoint = outPoint; self.transform = transform
    }
}

/// `ef[]`: an effect (drawn where the mapper says so: drop shadow and fill; the others are
/// warned about).
package struct LottieEffect: Sendable, Equatable {
    package var type: Int
    package var name: String?
    package var enabled: Bool
    /// The values of the effect's controls (its own `ef[]`, each entry's `v`), in order; nil
    /// for a control whose value is not a number or list of numbers (a layer or point picker,
    /// a group). Which index means what depends on the effect (After Effects' control order).
    package var values: [LottieAnimated<LottieVector>?]
    package init(type: Int, name: String?, enabled: Bool, values: [LottieAnimated<LottieVector>?] = []) {
        self.type = type; self.name = name; self.enabled = enabled; self.values = values
    }

    /// Control `i`'s value at `frame`, dimension `d`, or `fallback`.
    package func value(_ i: Int, atFrame frame: Double, dimension d: Int = 0, _ fallback: Double) -> Double {
        guard i < values.count, let v = values[i]?.value(atFrame: frame), d < v.count, v[d].isFinite else { return fallback }
        return v[d]
    }
}

/// `ks` of a layer, `tr` of a group, or a repeater's transform.
package struct LottieTransform: Sendable, Equatable {
    /// `a`: anchor point [x, y(, z)].
    package var anchor: LottieAnimated<LottieVector> = LottieAnimated([0, 0])
    /// `p`: position, one property, or split into `px`, `py` (`p.s: true`).
    package var position: Position = .combined(LottieAnimated([0, 0]))
    package enum Position: Sendable, Equatable {
        case combined(LottieAnimated<LottieVector>)
        case split(x: LottieAnimated<LottieVector>, y: LottieAnimated<LottieVector>)
    }
    /// `s`: scale in percent [sx, sy(, sz)].
    package var scale: LottieAnimated<LottieVector> = LottieAnimated([100, 100])
    /// `r` (or `rz`): rotation in degrees, clockwise on screen.
    package var rotation: LottieAnimated<LottieVector> = LottieAnimated([0])
    /// `rx`, `ry`, `or` (3D layers): kept, drawn as rotation about x/y.
    package var rotationX: LottieAnimated<LottieVector>?
    package var rotationY: LottieAnimated<LottieVector>?
    /// `o`: opacity 0–100.
    package var opacity: LottieAnimated<LottieVector> = LottieAnimated([100])
    /// `sk`: skew in degrees; `sa`: skew axis in degrees.
    package var skew: LottieAnimated<LottieVector>?
    package var skewAxis: LottieAnimated<LottieVector>?
    /// Repeater transforms only: `so`, `eo` start and end opacity 0–100.
    package var startOpacity: LottieAnimated<LottieVector>?
    package var endOpacity: LottieAnimated<LottieVector>?

    package init() {}
}

/// `masksProperties[]`.
package struct LottieMask: Sendable, Equatable {
    /// `mode`: "a" add, "s" subtract, "i" intersect, "l" lighten, "d" darken, "f" difference,
    /// "n" none.
    package var mode: String
    /// `inv`.
    package var inverted: Bool = false
    /// `pt`.
    package var path: LottieAnimated<LottieBezier>
    /// `o`: 0–100.
    package var opacity: LottieAnimated<LottieVector> = LottieAnimated([100])
    /// `x`: expansion in points.
    package var expansion: LottieAnimated<LottieVector> = LottieAnimated([0])
    /// `f`: feather [x, y] in points (newer files).
    package var feather: LottieAnimated<LottieVector>?
    package var name: String?
    package init(mode: String, path: LottieAnimated<LottieBezier>) { self.mode = mode; self.path = path }
}

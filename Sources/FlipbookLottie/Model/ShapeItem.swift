import Foundation
import Flipbook

/// One entry of a shape layer's `shapes` or a group's `it`: a shape, a style, a modifier, a
/// group or a group transform. Items are listed top-most first, as in After Effects.
package struct LottieShapeItem: Sendable, Equatable {
    /// `nm`, `hd`.
    package var name: String?
    package var hidden: Bool = false
    package var kind: Kind

    package init(name: String? = nil, hidden: Bool = false, kind: Kind) { self.name = name; self.hidden = hidden; self.kind = kind }

    package indirect enum Kind: Sendable, Equatable {
        // MARK: Shapes (each has `d`: 3 = drawn counter-clockwise / reversed)
        /// `gr`: items (`it`); its transform is the `tr` item among them, pulled out here.
        case group(items: [LottieShapeItem], transform: LottieTransform?)
        /// `rc`: position `p` (centre), size `s`, roundness `r`.
        case rectangle(LottieRectangle)
        /// `el`: position `p` (centre), size `s`.
        case ellipse(LottieEllipse)
        /// `sr`: star (`sy` 1) or polygon (`sy` 2).
        case polystar(LottiePolystar)
        /// `sh`: a free bezier path `ks`.
        case path(LottieAnimated<LottieBezier>, reversed: Bool)

        // MARK: Styles
        /// `fl`.
        case fill(LottieFill)
        /// `st`.
        case stroke(LottieStroke)
        /// `gf`.
        case gradientFill(LottieGradientFill)
        /// `gs`.
        case gradientStroke(LottieGradientStroke)

        // MARK: Modifiers
        /// `tm`.
        case trim(LottieTrim)
        /// `rd`: `r` radius.
        case roundedCorners(radius: LottieAnimated<LottieVector>)
        /// `rp`.
        case repeater(LottieRepeater)
        /// `mm`: `mm` mode 1 merge, 2 add, 3 subtract, 4 intersect, 5 exclude intersections.
        case merge(mode: Int)
        /// `op` offset path (`a` amount, `lj`, `ml`), `pb` pucker/bloat (`a`).
        case offsetPath(amount: LottieAnimated<LottieVector>, lineJoin: Int, miterLimit: LottieAnimated<LottieVector>)
        case puckerBloat(amount: LottieAnimated<LottieVector>)
        /// `zz`: zig-zag, `s` amplitude (size), `r` ridges per segment, `pt` points (1 corner,
        /// 2 smooth).
        case zigZag(amplitude: LottieAnimated<LottieVector>, ridges: LottieAnimated<LottieVector>,
                    pointType: LottieAnimated<LottieVector>)
        /// `tr` outside a group's last position (rare): a transform item.
        case transform(LottieTransform)
        /// Any other `ty` (kept for warnings: `ty` string).
        case unknown(type: String)
    }
}

package struct LottieRectangle: Sendable, Equatable {
    package var position: LottieAnimated<LottieVector>
    package var size: LottieAnimated<LottieVector>
    package var roundness: LottieAnimated<LottieVector>
    package var reversed: Bool
    package init(position: LottieAnimated<LottieVector>, size: LottieAnimated<LottieVector>, roundness: LottieAnimated<LottieVector>, reversed: Bool) {
        self.position = position; self.size = size; self.roundness = roundness; self.reversed = reversed
    }
}

package struct LottieEllipse: Sendable, Equatable {
    package var position: LottieAnimated<LottieVector>
    package var size: LottieAnimated<LottieVector>
    package var reversed: Bool
    package init(position: LottieAnimated<LottieVector>, size: LottieAnimated<LottieVector>, reversed: Bool) {
        self.position = position; self.size = size; self.reversed = reversed
    }
}

package struct LottiePolystar: Sendable, Equatable {
    /// `sy`: 1 star, 2 polygon.
    package var isStar: Bool
    /// `p`, `or` outer radius, `os` outer roundness (percent), `ir`, `is` (stars only),
    /// `r` rotation (degrees), `pt` number of points.
    package var position: LottieAnimated<LottieVector>
    package var outerRadius: LottieAnimated<LottieVector>
    package var outerRoundness: LottieAnimated<LottieVector>
    package var innerRadius: LottieAnimated<LottieVector>?
    package var innerRoundness: LottieAnimated<LottieVector>?
    package var rotation: LottieAnimated<LottieVector>
    package var points: LottieAnimated<LottieVector>
    package var reversed: Bool
    package init(isStar: Bool, position: LottieAnimated<LottieVector>, outerRadius: LottieAnimated<LottieVector>,
                 outerRoundness: LottieAnimated<LottieVector>, innerRadius: LottieAnimated<LottieVector>?,
                 innerRoundness: LottieAnimated<LottieVector>?, rotation: LottieAnimated<LottieVector>,
                 points: LottieAnimated<LottieVector>, reversed: Bool) {
        self.isStar = isStar; self.position = position; self.outerRadius = outerRadius; self.outerRoundness = outerRoundness
        self.innerRadius = innerRadius; self.innerRoundness = innerRoundness; self.rotation = rotation
        self.points = points; self.reversed = reversed
    }
}

package struct LottieFill: Sendable, Equatable {
    /// `c`: colour 0–1 [r, g, b(, a)]; `o`: opacity 0–100; `r`: fill rule 1 non-zero, 2 even-odd.
    package var color: LottieAnimated<LottieVector>
    package var opacity: LottieAnimated<LottieVector>
    package var evenOdd: Bool
    package init(color: LottieAnimated<LottieVector>, opacity: LottieAnimated<LottieVector>, evenOdd: Bool) {
        self.color = color; self.opacity = opacity; self.evenOdd = evenOdd
    }
}

/// The stroke parameters shared by `st` and `gs`.
package struct LottieStrokeStyle: Sendable, Equatable {
    /// `w`: width.
    package var width: LottieAnimated<LottieVector>
    /// `lc`: 1 butt, 2 round, 3 square. `lj`: 1 miter, 2 round, 3 bevel. `ml` (or `ml2`): miter limit.
    package var lineCap: Int
    package var lineJoin: Int
    package var miterLimit: Double
    /// `d`: dash pattern entries in order (`n`: "d" dash, "g" gap, "o" offset).
    package var dashes: [Dash]
    package struct Dash: Sendable, Equatable {
        package var kind: String
        package var value: LottieAnimated<LottieVector>
        package init(kind: String, value: LottieAnimated<LottieVector>) { self.kind = kind; self.value = value }
    }
    package init(width: LottieAnimated<LottieVector>, lineCap: Int, lineJoin: Int, miterLimit: Double, dashes: [Dash]) {
        self.width = width; self.lineCap = lineCap; self.lineJoin = lineJoin; self.miterLimit = miterLimit; self.dashes = dashes
    }
}

package struct LottieStroke: Sendable, Equatable {
    package var color: LottieAnimated<LottieVector>
    package var opacity: LottieAnimated<LottieVector>
    package var style: LottieStrokeStyle
    package init(color: LottieAnimated<LottieVector>, opacity: LottieAnimated<LottieVector>, style: LottieStrokeStyle) {
        self.color = color; self.opacity = opacity; self.style = style
    }
}

/// The gradient of `gf` and `gs`.
package struct LottieGradient: Sendable, Equatable {
    /// `t`: 1 linear, 2 radial.
    package var isRadial: Bool
    /// `s`, `e`: start and end points.
    package var start: LottieAnimated<LottieVector>
    package var end: LottieAnimated<LottieVector>
    /// `h`: highlight length (percent), `a`: highlight angle (degrees); radial only.
    package var highlightLength: LottieAnimated<LottieVector>?
    package var highlightAngle: LottieAnimated<LottieVector>?
    /// `g.p`: number of colour stops; `g.k`: `[offset, r, g, b] × p` then optionally
    /// `[offset, alpha] × m` opacity stops.
    package var colorStopCount: Int
    package var stops: LottieAnimated<LottieVector>
    package init(isRadial: Bool, start: LottieAnimated<LottieVector>, end: LottieAnimated<LottieVector>,
                 highlightLength: LottieAnimated<LottieVector>?, highlightAngle: LottieAnimated<LottieVector>?,
                 colorStopCount: Int, stops: LottieAnimated<LottieVector>) {
        self.isRadial = isRadial; self.start = start; self.end = end; self.highlightLength = highlightLength
        self.highlightAngle = highlightAngle; self.colorStopCount = colorStopCount; self.stops = stops
    }
}

package struct LottieGradientFill: Sendable, Equatable {
    package var gradient: LottieGradient
    package var opacity: LottieAnimated<LottieVector>
    package var evenOdd: Bool
    package init(gradient: LottieGradient, opacity: LottieAnimated<LottieVector>, evenOdd: Bool) {
        self.gradient = gradient; self.opacity = opacity; self.evenOdd = evenOdd
    }
}

package struct LottieGradientStroke: Sendable, Equatable {
    package var gradient: LottieGradient
    package var opacity: LottieAnimated<LottieVector>
    package var style: LottieStrokeStyle
    package init(gradient: LottieGradient, opacity: LottieAnimated<LottieVector>, style: LottieStrokeStyle) {
        self.gradient = gradient; self.opacity = opacity; self.style = style
    }
}

package struct LottieTrim: Sendable, Equatable {
    /// `s`, `e`: start and end in percent; `o`: offset in degrees (360 = the whole length).
    package var start: LottieAnimated<LottieVector>
    package var end: LottieAnimated<LottieVector>
    package var offset: LottieAnimated<LottieVector>
    /// `m`: 1 simultaneously (each path trimmed on its own), 2 individually (the paths as one
    /// sequence).
    package var individually: Bool
    package init(start: LottieAnimated<LottieVector>, end: LottieAnimated<LottieVector>, offset: LottieAnimated<LottieVector>, individually: Bool) {
        self.start = start; self.end = end; self.offset = offset; self.individually = individually
    }
}

package struct LottieRepeater: Sendable, Equatable {
    /// `c`: copies, `o`: offset (in copies), `m`: composite 1 above, 2 below, `tr`: the
    /// transform applied once per copy (with `so`/`eo`).
    package var copies: LottieAnimated<LottieVector>
    package var offset: LottieAnimated<LottieVector>
    package var stacksAbove: Bool
    package var transform: LottieTransform
    package init(copies: LottieAnimated<LottieVector>, offset: LottieAnimated<LottieVector>, stacksAbove: Bool, transform: LottieTransform) {
        self.copies = copies; self.offset = offset; self.stacksAbove = stacksAbove; self.transform = transform
    }
}

import Foundation
import Flipbook

/// A Lottie property that may be animated (`{"a": 0|1, "k": …}` in Bodymovin JSON).
///
/// Every animated property is stored as keyframes: a static property is one keyframe at
/// frame 0. Values are kept as the file wrote them, in the file's units (degrees, percent,
/// 0–100 opacities, 0–1 colours): the mapper converts. (The parser scales colours written
/// 0–255 — r, g and b all above 1, lottie-ios's test — to 0–1, so colours are 0–1 here.)
///
/// Segment `k → k+1` is described by keyframe `k`: its ``Keyframe/outEase`` (Bodymovin `o`),
/// ``Keyframe/inEase`` (`i`), ``Keyframe/spatialOut`` (`to`) and ``Keyframe/spatialIn`` (`ti`),
/// and by ``Keyframe/hold`` (`h: 1`: the value jumps at the next keyframe's time). The old
/// format's end value `e` is folded into the next keyframe (added when missing).
package struct LottieAnimated<Value: Sendable & Equatable>: Sendable, Equatable {
    package var keyframes: [LottieKeyframe<Value>]
    /// The expression source (`x`), when the property has one. Expressions are not evaluated:
    /// the keyframes (or static value) are used and a warning names the property.
    package var expression: String?

    package init(keyframes: [LottieKeyframe<Value>], expression: String? = nil) {
        self.keyframes = keyframes; self.expression = expression
    }

    /// A static value.
    package init(_ value: Value) { self.keyframes = [LottieKeyframe(time: 0, value: value)]; self.expression = nil }

    /// True when more than one keyframe (the value changes with time).
    package var isAnimated: Bool { keyframes.count > 1 }

    /// The first keyframe's value (the static value of a static property).
    package var initialValue: Value { keyframes[0].value }
}

/// One keyframe (`{"t": frame, "s": value, "i": …, "o": …, "h": 0|1, "to": …, "ti": …}`).
package struct LottieKeyframe<Value: Sendable & Equatable>: Sendable, Equatable {
    /// The keyframe's time, in frames of the layer's local time (after `st`/`sr`).
    package var time: Double
    package var value: Value
    /// `h: 1`: hold this value until the next keyframe.
    package var hold: Bool = false
    /// Easing handles of the segment that starts here (`o` then `i`), normalised 0…1 in x
    /// (time) and y (progress, may overshoot). One entry per dimension when the file gives
    /// arrays (`"o": {"x": [a, b], "y": [c, d]}`), else one entry for all. Empty when absent
    /// (linear).
    package var outEase: [CGPoint] = []
    package var inEase: [CGPoint] = []
    /// Spatial tangents of the segment that starts here (`to`, `ti`), relative to the start and
    /// end values; nil when absent. Only position-like properties use them.
    package var spatialOut: [Double]? = nil
    package var spatialIn: [Double]? = nil

    package init(time: Double, value: Value, hold: Bool = false, outEase: [CGPoint] = [], inEase: [CGPoint] = [],
                 spatialOut: [Double]? = nil, spatialIn: [Double]? = nil) {
        self.time = time; self.value = value; self.hold = hold
        self.outEase = outEase; self.inEase = inEase; self.spatialOut = spatialOut; self.spatialIn = spatialIn
    }
}

/// Numbers, vectors, colours and gradient stop lists: a flat list of numbers (a scalar is one
/// number; `[x, y]`, `[r, g, b, a]`, gradient `[p, r, g, b, …, p, a, …]`).
package typealias LottieVector = [Double]

/// A Bodymovin bezier shape (`{"c": closed, "v": vertices, "i": in tangents, "o": out tangents}`):
/// tangents are relative to their vertex.
package struct LottieBezier: Sendable, Equatable {
    package var closed: Bool
    package var vertices: [CGPoint]
    package var inTangents: [CGPoint]
    package var outTangents: [CGPoint]

    package init(closed: Bool, vertices: [CGPoint], inTangents: [CGPoint], outTangents: [CGPoint]) {
        self.closed = closed; self.vertices = vertices; self.inTangents = inTangents; self.outTangents = outTangents
    }
}

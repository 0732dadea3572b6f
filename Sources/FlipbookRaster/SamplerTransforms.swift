/// The inverse of a layer's affine transform: maps a destination (canvas) point (x, y) to the
/// layer's source position (u, v), both in pixel units with pixel centres at +0.5:
///
///     u = a·x + b·y + c
///     v = d·x + e·y + f
///
/// (the first two rows of the inverse 3×3 matrix, row-major).
public struct AffineInverse: Sendable, Hashable {
    public var a, b, c, d, e, f: Double

    public init(a: Double, b: Double, c: Double, d: Double, e: Double, f: Double) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.e = e; self.f = f
    }
}

/// The inverse of a layer's projective transform (a homography), row-major 3×3, mapping a
/// destination point (x, y) to the source position:
///
///     [X Y Q] = M⁻¹ [x y 1],  u = X / Q,  v = Y / Q      (only where Q > 0)
public struct ProjectiveInverse: Sendable, Hashable {
    /// The nine entries, stored inline: the type holds no reference, so a painter holding one is
    /// copied as plain bytes (an array here made every image painter's copy a retain and a
    /// value-witness call, ~2 % of a W6a frame).
    @usableFromInline var _m: (Double, Double, Double, Double, Double, Double, Double, Double, Double)

    /// Row-major `m[0] m[1] m[2] / m[3] m[4] m[5] / m[6] m[7] m[8]`.
    public var m: [Double] {
        get { [_m.0, _m.1, _m.2, _m.3, _m.4, _m.5, _m.6, _m.7, _m.8] }
        set {
            precondition(newValue.count == 9, "a homography has 9 entries, got \(newValue.count)")
            _m = (newValue[0], newValue[1], newValue[2], newValue[3], newValue[4], newValue[5], newValue[6], newValue[7], newValue[8])
        }
    }

    /// - Precondition: `m.count == 9`.
    public init(_ m: [Double]) {
        precondition(m.count == 9, "a homography has 9 entries, got \(m.count)")
        _m = (m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8])
    }

    /// The nine entries without an array.
    @inlinable
    public init(_ m0: Double, _ m1: Double, _ m2: Double, _ m3: Double, _ m4: Double, _ m5: Double,
                _ m6: Double, _ m7: Double, _ m8: Double) {
        _m = (m0, m1, m2, m3, m4, m5, m6, m7, m8)
    }

    public static func == (a: Self, b: Self) -> Bool { a.m == b.m }
    public func hash(into h: inout Hasher) { h.combine(m) }
}

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
    /// Row-major `m[0] m[1] m[2] / m[3] m[4] m[5] / m[6] m[7] m[8]`.
    public var m: [Double]

    /// - Precondition: `m.count == 9`.
    public init(_ m: [Double]) {
        precondition(m.count == 9, "a homography has 9 entries, got \(m.count)")
        self.m = m
    }
}

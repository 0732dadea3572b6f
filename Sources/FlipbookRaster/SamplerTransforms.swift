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

    /// The inverse of the *forward* map `x = a·u + b·v + c, y = d·u + e·v + f` (layer → canvas);
    /// `nil` when it is singular or not finite.
    public init?(invertingForward m: (a: Double, b: Double, c: Double, d: Double, e: Double, f: Double)) {
        let det = m.a * m.e - m.b * m.d
        guard det != 0, det.isFinite else { return nil }
        let k = 1 / det
        self.init(a: m.e * k, b: -m.b * k, c: (m.b * m.f - m.c * m.e) * k,
                  d: -m.d * k, e: m.a * k, f: (m.c * m.d - m.a * m.f) * k)
        guard [a, b, c, d, e, f].allSatisfy(\.isFinite) else { return nil }
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

    /// The inverse of a forward (layer → canvas) homography; `nil` when singular / not finite.
    public init?(invertingForward f: [Double]) {
        guard f.count == 9 else { return nil }
        let (a, b, c, d, e, ff, g, h, i) = (f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8])
        let A = e * i - ff * h, B = -(d * i - ff * g), C = d * h - e * g
        let det = a * A + b * B + c * C
        guard det != 0, det.isFinite else { return nil }
        let k = 1 / det
        let r = [A * k, -(b * i - c * h) * k, (b * ff - c * e) * k,
                 B * k, (a * i - c * g) * k, -(a * ff - c * d) * k,
                 C * k, -(a * h - b * g) * k, (a * e - b * d) * k]
        guard r.allSatisfy(\.isFinite) else { return nil }
        self.m = r
    }
}

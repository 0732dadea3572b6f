/// The reference coverage of a stroke with round caps and round joins: the share of
/// `samples × samples` points of each pixel within `halfWidth` of the polyline (the Minkowski sum
/// of the polyline with a disk). Slow and plain, for small frames in tests.
public enum SupersampledStroke {
    /// Row-major coverage in 0...1 of the `width × height` pixels (pixel (x, y) spans
    /// [x, x + 1) × [y, y + 1)).
    public static func coverage(_ points: [(x: Double, y: Double)], halfWidth h: Double, width: Int, height: Int,
                                samples n: Int = 32) -> [Double] {
        var out = [Double](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                var inside = 0
                for sy in 0..<n {
                    for sx in 0..<n {
                        let px = Double(x) + (Double(sx) + 0.5) / Double(n), py = Double(y) + (Double(sy) + 0.5) / Double(n)
                        var near = false
                        for k in 0..<(points.count - 1) where distance(px, py, points[k], points[k + 1]) <= h {
                            near = true; break
                        }
                        if near { inside += 1 }
                    }
                }
                out[y * width + x] = Double(inside) / Double(n * n)
            }
        }
        return out
    }

    /// The distance from (px, py) to the segment ab.
    public static func distance(_ px: Double, _ py: Double, _ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y, l2 = dx * dx + dy * dy
        let t = l2 > 0 ? min(1, max(0, ((px - a.x) * dx + (py - a.y) * dy) / l2)) : 0
        let ex = px - (a.x + t * dx), ey = py - (a.y + t * dy)
        return (ex * ex + ey * ey).squareRoot()
    }
}

import FlipbookRaster

/// A Swift port of the peers' random workloads (`../shared/peers/workloads.py`, README "Random
/// numbers", "W6" and "W7"): same SplitMix64 stream, same derived values, same draw order. The
/// benchmarks' one copy of the generator; `PeersVectorScenes.checkVectors()` checks it against
/// the README's test vectors every time the suite builds one of these scenes.
struct PeersRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// (next() >> 11) · 2^-53, exact.
    mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }
    /// a + (b − a)·unit(): one multiply then one add, no FMA (as Python computes it).
    mutating func uniform(_ a: Double, _ b: Double) -> Double {
        let t = (b - a) * unit()
        return a + t
    }
    mutating func byte() -> UInt8 { UInt8(next() >> 56) }
}

struct VectorItem {
    enum Kind { case fill, stroke }
    var kind: Kind
    var path: RasterPath
    /// Straight colour; alpha 204 (W6b), 179 (W7 fills), 230 (W7 strokes).
    var r: UInt8, g: UInt8, b: UInt8, a: UInt8
    var width: Double = 0
    /// The first point (the README's test vectors).
    var p0: RasterPoint
    /// The generator's points (W7: P0 then C1 C2 P per cubic) or W6b's (x0, y0, w, h).
    var raw: [Double] = []
}

enum PeersVectorScenes {
    static let width = 1920, height = 1080

    /// W6a: 10,000 image layers `P(32, 32, i)` at `(cx, cy)` turned clockwise by `angle` degrees
    /// about their centres, in draw order.
    static func w6a() -> [(cx: Double, cy: Double, angle: Double)] {
        var rng = PeersRandom(seed: 0x573661)
        return (0..<10_000).map { _ in
            let cx = rng.uniform(0, 1920), cy = rng.uniform(0, 1080)
            return (cx, cy, rng.uniform(0, 360))
        }
    }

    /// The README's test vectors; a mismatch stops the suite (a wrong scene would be timed
    /// otherwise). Cheap: it builds W6b and W7 once.
    static func checkVectors() throws {
        var rng = PeersRandom(seed: 0)
        var ok = rng.next() == 0xE220A8397B1DCDAF && rng.next() == 0x6E789E6AA1B965F4 && rng.next() == 0x06C45D188009454F
        let a = w6a()[0]
        ok = ok && (a.cx, a.cy, a.angle) == (1805.4083918116726, 468.37204018481236, 325.9057207908702)
        let b = w6b()[0]
        ok = ok && b.raw == [172.42848495427276, 62.64365574295868, 37.312848137102904, 12.825476673566085]
            && (b.r, b.g, b.b, b.a) == (165, 17, 29, 204)
        let w7 = w7()
        ok = ok && w7[0].p0 == RasterPoint(1795.8417182093083, 995.8050708275831)
            && w7[1].p0 == RasterPoint(1610.2742470532849, 143.74443684893566)
            && w7[1000].p0 == RasterPoint(1704.4535764539896, 185.59420594013181)
            && w7[1000].width == 4.542032452331197
        if !ok { throw BenchFailure("the SplitMix64 port does not reproduce the peers README's test vectors") }
    }

    /// W6b: 10,000 rounded rectangles, w, h ∈ [8, 48), centre anywhere, radius 4, alpha 204.
    static func w6b() -> [VectorItem] {
        var rng = PeersRandom(seed: 0x573662)
        var items: [VectorItem] = []
        items.reserveCapacity(10_000)
        for _ in 0..<10_000 {
            let w = rng.uniform(8, 48), h = rng.uniform(8, 48)
            let cx = rng.uniform(0, 1920), cy = rng.uniform(0, 1080)
            let r = rng.byte(), g = rng.byte(), b = rng.byte()
            let x0 = cx - 0.5 * w, y0 = cy - 0.5 * h
            var p = RasterPath()
            p.addRoundedRect(x: x0, y: y0, width: w, height: h, radius: 4)
            items.append(VectorItem(kind: .fill, path: p, r: r, g: g, b: b, a: 204, p0: RasterPoint(x0, y0), raw: [x0, y0, w, h]))
        }
        return items
    }

    /// W7: 1,000 filled closed shapes (even i: circle, odd i: blob), then 500 stroked open curves
    /// (round caps and joins), one stream.
    static func w7() -> [VectorItem] {
        var rng = PeersRandom(seed: 0x5737)
        var items: [VectorItem] = []
        let kappa = 4.0 * (2.0.squareRoot() - 1.0) / 3.0
        for i in 0..<1000 {
            let cx = rng.uniform(0, 1920), cy = rng.uniform(0, 1080)
            var pts: [RasterPoint] = []
            if i % 2 == 0 {
                let r = rng.uniform(8, 64)
                let k = kappa * r
                pts = [RasterPoint(cx + r, cy),
                       RasterPoint(cx + r, cy + k), RasterPoint(cx + k, cy + r), RasterPoint(cx, cy + r),
                       RasterPoint(cx - k, cy + r), RasterPoint(cx - r, cy + k), RasterPoint(cx - r, cy),
                       RasterPoint(cx - r, cy - k), RasterPoint(cx - k, cy - r), RasterPoint(cx, cy - r),
                       RasterPoint(cx + k, cy - r), RasterPoint(cx + r, cy - k), RasterPoint(cx + r, cy)]
            } else {
                let s = rng.uniform(64, 160)
                let bx = cx - 0.5 * s, by = cy - 0.5 * s
                for _ in 0..<12 {
                    let x = bx + s * rng.unit()
                    let y = by + s * rng.unit()
                    pts.append(RasterPoint(x, y))
                }
                pts.append(pts[0])
            }
            let r = rng.byte(), g = rng.byte(), b = rng.byte()
            items.append(VectorItem(kind: .fill, path: cubicPath(pts, closed: true), r: r, g: g, b: b, a: 179, p0: pts[0],
                                    raw: pts.flatMap { [$0.x, $0.y] }))
        }
        for _ in 0..<500 {
            let cx = rng.uniform(0, 1920), cy = rng.uniform(0, 1080)
            let bx = cx - 150, by = cy - 150
            var pts: [RasterPoint] = []
            for _ in 0..<10 {
                let x = bx + 300 * rng.unit()
                let y = by + 300 * rng.unit()
                pts.append(RasterPoint(x, y))
            }
            let width = rng.uniform(1, 6)
            let r = rng.byte(), g = rng.byte(), b = rng.byte()
            items.append(VectorItem(kind: .stroke, path: cubicPath(pts, closed: false), r: r, g: g, b: b, a: 230,
                                    width: width, p0: pts[0], raw: pts.flatMap { [$0.x, $0.y] }))
        }
        return items
    }

    /// P0, then (C1 C2 P) per cubic.
    static func cubicPath(_ pts: [RasterPoint], closed: Bool) -> RasterPath {
        var p = RasterPath()
        p.move(to: pts[0])
        var i = 1
        while i + 2 < pts.count {
            p.cubic(to: pts[i + 2], control1: pts[i], control2: pts[i + 1])
            i += 3
        }
        if closed { p.close() }
        return p
    }
}

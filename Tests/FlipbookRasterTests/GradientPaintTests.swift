import Testing
@testable import FlipbookRaster
import FlipbookPixels
import FlipbookTestSupport

/// The gradient paint: the colour ramp's exact values, and the SIMD path bit for bit against
/// the scalar reference for every kind, spans 0…67 long, affine and projective maps.
@Suite struct GradientPaintTests {
    static let redToBlue = GradientRamp(stops: [GradientStop(location: 0, r: 1, g: 0, b: 0, a: 1),
                                                GradientStop(location: 1, r: 0, g: 0, b: 1, a: 1)])

    @Test func rampEndsAndMiddle() {
        let t = Self.redToBlue.table
        #expect(t.count == 1027)
        #expect(t[1024] == t[0] && t[1025] == t[1023] && t[1026] == 0)   // before, after, transparent
        #expect(RGBA8(packed: t[0]) == RGBA8(r: 255, g: 0, b: 0, a: 255))
        #expect(RGBA8(packed: t[1023]) == RGBA8(r: 0, g: 0, b: 255, a: 255))
        // Entry 511: x = 511/1023, red = round(255·(1 − x)) = 128, blue = round(255·x) = 127.
        #expect(RGBA8(packed: t[511]) == RGBA8(r: 128, g: 0, b: 127, a: 255))
    }

    /// Straight-alpha interpolation, as Core Graphics: opaque red → transparent black is a
    /// darker, half-transparent red in the middle (not a lighter one).
    @Test func rampInterpolatesUnpremultiplied() {
        let ramp = GradientRamp(stops: [GradientStop(location: 0, r: 1, g: 0, b: 0, a: 1),
                                        GradientStop(location: 1, r: 0, g: 0, b: 0, a: 0)])
        let mid = RGBA8(packed: ramp.table[511])
        // straight (0.5005, 0, 0, 0.5005) → a = 128, r = premultiply(128, 128) = 64
        #expect(mid.a == 128 && mid.r == 64)
    }

    /// Stops beyond 0…1 and out of order: sorted, the ends hold before and after.
    @Test func rampSortsStopsAndHoldsEnds() {
        let ramp = GradientRamp(stops: [GradientStop(location: 0.75, r: 0, g: 0, b: 1, a: 1),
                                        GradientStop(location: 0.25, r: 1, g: 0, b: 0, a: 1)])
        #expect(RGBA8(packed: ramp.table[0]) == RGBA8(r: 255, g: 0, b: 0, a: 255))
        #expect(RGBA8(packed: ramp.table[255]) == RGBA8(r: 255, g: 0, b: 0, a: 255))
        #expect(RGBA8(packed: ramp.table[1023]) == RGBA8(r: 0, g: 0, b: 255, a: 255))
        // A hard edge: two stops at one location.
        let hard = GradientRamp(stops: [GradientStop(location: 0, r: 1, g: 0, b: 0, a: 1), GradientStop(location: 0.5, r: 1, g: 0, b: 0, a: 1),
                                        GradientStop(location: 0.5, r: 0, g: 1, b: 0, a: 1), GradientStop(location: 1, r: 0, g: 1, b: 0, a: 1)])
        #expect(RGBA8(packed: hard.table[511]) == RGBA8(r: 255, g: 0, b: 0, a: 255))
        #expect(RGBA8(packed: hard.table[512]) == RGBA8(r: 0, g: 255, b: 0, a: 255))
    }

    /// An axial paint from x = 10 to x = 20 on a row: before → first colour, after → last,
    /// and transparent outside when the ends do not extend.
    @Test func axialValuesAndExtension() {
        let m: [Double] = [0.1, 0, -1, 0, 0.1, 0, 0, 0, 1]   // u = (x − 10)/10
        var out = [UInt32](repeating: 1, count: 30)
        GradientPaint(kind: .axial, deviceToGradient: m, ramp: Self.redToBlue).shade(y: 0, x0: 0, count: 30, into: &out)
        #expect(RGBA8(packed: out[0]) == RGBA8(r: 255, g: 0, b: 0, a: 255))
        #expect(RGBA8(packed: out[29]) == RGBA8(r: 0, g: 0, b: 255, a: 255))
        // pixel 15: centre 15.5, u = 0.55, index round(0.55·1023) = 563 → red round(255·(1 − 563/1023)) = 115
        #expect(RGBA8(packed: out[15]) == RGBA8(r: 115, g: 0, b: 140, a: 255))
        GradientPaint(kind: .axial, deviceToGradient: m, ramp: Self.redToBlue, extendsBefore: false, extendsAfter: false)
            .shade(y: 0, x0: 0, count: 30, into: &out)
        #expect(out[5] == 0 && out[25] == 0 && out[15] != 0)
    }

    /// Conic: a quarter turn clockwise on screen from +x lands at +y (t = ¼).
    @Test func conicTurnsTowardsPositiveY() {
        let ramp = GradientRamp(stops: (0...4).map { i in GradientStop(location: Double(i) / 4, r: Double(i) / 4, g: 0, b: 0, a: 1) })
        let m: [Double] = [1, 0, -50, 0, 1, -50, 0, 0, 1]   // centred at (50, 50)
        var px = [UInt32](repeating: 0, count: 1)
        let p = GradientPaint(kind: .conic, deviceToGradient: m, ramp: ramp)
        p.shade(y: 90, x0: 49, count: 1, into: &px)      // straight below the centre: t ≈ ¼
        #expect(abs(Int(RGBA8(packed: px[0]).r) - 64) <= 1)
        p.shade(y: 49, x0: 10, count: 1, into: &px)      // straight left: t ≈ ½
        #expect(abs(Int(RGBA8(packed: px[0]).r) - 128) <= 1)
    }

    /// Pixels at and around the horizon (W = 0: infinite and NaN positions) agree too, and a
    /// NaN position paints nothing (conic: the first colour).
    @Test(arguments: [GradientPaint.Kind.axial, .radial, .conic])
    func horizonAgrees(_ kind: GradientPaint.Kind) {
        // W = 0.01·(x + ½) − 1.005 is 0 at x = 100; U = V = 0 there too at x = 100 (0/0 = NaN).
        let m: [Double] = [0.01, 0, -1.005, 0.02, 0, -2.01, 0.01, 0, -1.005]
        for ext in [false, true] {
            let paint = GradientPaint(kind: kind, deviceToGradient: m, ramp: Self.redToBlue, extendsBefore: ext, extendsAfter: ext)
            var a = [UInt32](repeating: 7, count: 40), b = a, c = a
            paint.shade(y: 0, x0: 80, count: 40, into: &a, backend: .portable)
            paint.shadeScalar(y: 0, x0: 80, count: 40, into: &b)
            #expect(a == b)
            if RasterBackend.nativeAvailable {
                paint.shade(y: 0, x0: 80, count: 40, into: &c, backend: .native)
                #expect(c == b)
            }
            #expect(b[20] == (kind == .conic ? Self.redToBlue.table[0] : 0))
        }
    }

    /// Orange → green (alpha `middleAlpha`, at `middle`) → blue.
    static func threeStops(middleAlpha: Double, middle: Double) -> GradientRamp {
        GradientRamp(stops: [GradientStop(location: 0, r: 1, g: 0.2, b: 0, a: 1),
                             GradientStop(location: middle, r: 0, g: 1, b: 0.5, a: middleAlpha),
                             GradientStop(location: 1, r: 0.1, g: 0, b: 1, a: 1)])
    }

    /// A random device → gradient map: small linear terms, offsets within ±2, projective on
    /// every third trial.
    static func randomMap(_ rng: inout SplitMix64, trial: Int) -> [Double] {
        func r(_ s: Double) -> Double { (Double(rng.next() % 20001) / 10000 - 1) * s }
        var m = [r(0.05), r(0.05), r(2), r(0.05), r(0.05), r(2), 0, 0, 1]
        if trial % 3 == 0 { m[6] = r(0.001); m[7] = r(0.001) }   // projective
        return m
    }

    /// The SIMD paths (Swift SIMD and, where the CPU has it, the AVX2 kernel) equal the scalar
    /// reference bit for bit. (`.enabled(if:)` is not used: the portable half runs everywhere.)
    @Test(arguments: [GradientPaint.Kind.axial, .radial, .conic])
    func simdMatchesScalar(_ kind: GradientPaint.Kind) {
        var rng = SplitMix64(seed: 0x9e37_79b9 &+ UInt64(kind == .axial ? 1 : kind == .radial ? 2 : 3))
        let ramp = Self.threeStops(middleAlpha: 0.5, middle: 0.3)
        for trial in 0..<40 {
            let m = Self.randomMap(&rng, trial: trial)
            let paint = GradientPaint(kind: kind, deviceToGradient: m, ramp: ramp,
                                      extendsBefore: trial % 2 == 0, extendsAfter: trial % 4 < 2)
            let y = Int(rng.next() % 500), x0 = Int(rng.next() % 500)
            for count in 0...67 {
                var a = [UInt32](repeating: 7, count: count + 1), b = a, c = a
                paint.shade(y: y, x0: x0, count: count, into: &a, backend: .portable)
                paint.shadeScalar(y: y, x0: x0, count: count, into: &b)
                #expect(a == b, "portable: kind \(kind) trial \(trial) count \(count)")
                if RasterBackend.nativeAvailable {
                    paint.shade(y: y, x0: x0, count: count, into: &c, backend: .native)
                    #expect(c == b, "native: kind \(kind) trial \(trial) count \(count)")
                }
                if a != b || (RasterBackend.nativeAvailable && c != b) { return }
            }
        }
    }

    /// `shadeOver` (the fused AVX2 kernel on `.native`) equals the scalar colours followed by
    /// the portable source-over, bit for bit: spans 0…67, with and without coverage (runs of
    /// 0, 255 and other values), opacity 255 and less, an opaque ramp (its blocks are stored
    /// without reading the destination) and a translucent one.
    @Test(arguments: [GradientPaint.Kind.axial, .radial, .conic])
    func shadeOverMatchesShadeThenBlend(_ kind: GradientPaint.Kind) {
        var rng = SplitMix64(seed: 0x5eed_0f0a &+ UInt64(kind == .axial ? 1 : kind == .radial ? 2 : 3))
        let translucent = Self.threeStops(middleAlpha: 0.5, middle: 0.3)
        let opaque = Self.threeStops(middleAlpha: 1, middle: 0.5)
        for trial in 0..<48 {
            let m = Self.randomMap(&rng, trial: trial)
            let paint = GradientPaint(kind: kind, deviceToGradient: m, ramp: trial % 4 < 2 ? opaque : translucent,
                                      extendsBefore: trial % 2 == 0, extendsAfter: trial % 5 < 3)
            let opacity: UInt8 = trial % 3 == 1 ? UInt8(rng.next() % 255) : 255
            let masked = trial % 2 == 1
            let y = Int(rng.next() % 500), x0 = Int(rng.next() % 500)
            for count in 0...67 {
                let dst0 = (0..<(count + 1)).map { _ in
                    let a = UInt32(rng.next() % 256)
                    return (a << 24) | (UInt32(rng.next() % (UInt64(a) + 1)) << 16) | (UInt32(rng.next() % (UInt64(a) + 1)) << 8)
                        | UInt32(rng.next() % (UInt64(a) + 1))
                }
                var cov = [UInt8](repeating: 255, count: count + 1)
                var k = 0
                while k < count {   // runs of one value (0, 255 or any) 1…12 long
                    let len = Int(rng.next() % 12) + 1, pick = rng.next() % 4
                    let v: UInt8 = pick == 0 ? 0 : pick == 3 ? UInt8(rng.next() % 256) : 255
                    for j in k..<min(count, k + len) { cov[j] = masked && pick == 3 ? UInt8(rng.next() % 256) : v }
                    k += len
                }
                var expected = dst0, colors = [UInt32](repeating: 0, count: count + 1)
                paint.shadeScalar(y: y, x0: x0, count: count, into: &colors)
                cov.withUnsafeBufferPointer { c in
                    SpanBlend.sourceOver(&expected, source: colors, count: count, opacity: opacity,
                                         coverage: masked ? c.baseAddress! : nil, backend: .portable)
                }
                // Each backend, and both builds of the fused kernel (the AVX-512 one only where
                // the CPU has it).
                typealias Run = (UnsafePointer<UInt8>?, inout [UInt32]) -> Void
                let backends = [RasterBackend.portable] + (RasterBackend.nativeAvailable ? [.native] : [])
                let builds = RasterBackend.nativeAvailable ? [false] + (RasterBackend.avx512Available ? [true] : []) : []
                let runs: [(String, Run)] =
                    backends.map { b in ("\(b)", { c, got in
                        paint.shadeOver(y: y, x0: x0, count: count, onto: &got, opacity: opacity, coverage: c, backend: b) }) }
                    + builds.map { v in ("avx512 \(v)", { c, got in
                        paint._shadeOverNative(y: y, x0: x0, count: count, onto: &got, opacity: opacity, coverage: c, avx512: v) }) }
                for (label, run) in runs {
                    var got = dst0
                    cov.withUnsafeBufferPointer { c in run(masked ? c.baseAddress! : nil, &got) }
                    #expect(got == expected, "\(label): kind \(kind) trial \(trial) count \(count)")
                    if got != expected { return }
                }
            }
        }
    }

    /// Gentle affine maps whose positions stay inside [0, 1] over the whole span (the kernels'
    /// clamp-free path for axial and conic) and ones that leave it near the ends: the native
    /// colours and `shadeOver` equal the scalar reference.
    @Test(arguments: [GradientPaint.Kind.axial, .radial, .conic])
    func gentleMapsMatchScalar(_ kind: GradientPaint.Kind) {
        var rng = SplitMix64(seed: 0x6e47_1e00 &+ UInt64(kind == .axial ? 1 : kind == .radial ? 2 : 3))
        for trial in 0..<60 {
            func r(_ s: Double) -> Double { (Double(rng.next() % 20001) / 10000 - 1) * s }
            let m = [r(0.008), r(0.002), 0.5 + r(trial % 2 == 0 ? 0.2 : 0.7), r(0.008), r(0.002), r(0.5), 0, 0, 1]
            let paint = GradientPaint(kind: kind, deviceToGradient: m, ramp: Self.redToBlue,
                                      extendsBefore: trial % 3 != 0, extendsAfter: trial % 5 != 0)
            let y = Int(rng.next() % 100), x0 = Int(rng.next() % 100)
            for count in 0...67 {
                var b = [UInt32](repeating: 7, count: count + 1), c = b
                paint.shadeScalar(y: y, x0: x0, count: count, into: &b)
                guard RasterBackend.nativeAvailable else { continue }
                paint.shade(y: y, x0: x0, count: count, into: &c, backend: .native)
                #expect(c == b, "native: kind \(kind) trial \(trial) count \(count)")
                var dst = [UInt32](repeating: 0xFF20_4060, count: count + 1), expected = dst
                SpanBlend.sourceOver(&expected, source: b, count: count, backend: .portable)
                paint.shadeOver(y: y, x0: x0, count: count, onto: &dst, backend: .native)
                #expect(dst == expected, "shadeOver: kind \(kind) trial \(trial) count \(count)")
                var dst2 = [UInt32](repeating: 0xFF20_4060, count: count + 1)
                paint._shadeOverNative(y: y, x0: x0, count: count, onto: &dst2, opacity: 255, coverage: nil, avx512: false)
                #expect(dst2 == expected, "AVX2 build: kind \(kind) trial \(trial) count \(count)")
                if c != b || dst != expected || dst2 != expected { return }
            }
        }
    }
}

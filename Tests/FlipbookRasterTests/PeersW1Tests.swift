#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import FlipbookRaster
import FlipbookPixels
import Foundation

/// The peers' W1 scene (64 rotated/scaled 256×256 layers at opacity 0.8 over dark gray) drawn
/// with the kernels alone, checked against pixels of the reference compositor ref-c
/// (/work/shared/peers/c/peers.c, built with gcc -O2; values copied from its 1920×1080 frame).
@Suite struct PeersW1Tests {
    /// (x, y) → ref-c's RGBA at that pixel.
    static let reference: [((Int, Int), RGBA8)] = [
        ((120, 67), RGBA8(r: 45, g: 68, b: 210, a: 255)), ((240, 135), RGBA8(r: 59, g: 136, b: 32, a: 255)),
        ((300, 200), RGBA8(r: 53, g: 189, b: 53, a: 255)), ((961, 540), RGBA8(r: 201, g: 28, b: 219, a: 255)),
        ((1000, 300), RGBA8(r: 161, g: 193, b: 129, a: 255)), ((1800, 1000), RGBA8(r: 83, g: 89, b: 166, a: 255)),
        ((5, 5), RGBA8(r: 32, g: 32, b: 32, a: 255)), ((130, 20), RGBA8(r: 103, g: 54, b: 12, a: 255)),
        ((250, 70), RGBA8(r: 12, g: 110, b: 12, a: 255)), ((1500, 640), RGBA8(r: 79, g: 60, b: 181, a: 255)),
        ((700, 900), RGBA8(r: 134, g: 100, b: 109, a: 255)), ((480, 400), RGBA8(r: 129, g: 103, b: 51, a: 255)),
    ]

    /// Layer i's pattern P(256, 256, i) and inverse transform, exactly as the peers README.
    static func layer(_ i: Int) -> (PixelBuffer, AffineInverse) {
        let col = i % 8, row = i / 8
        let cx = (Double(col) + 0.5) * 240, cy = (Double(row) + 0.5) * 135
        let s = 0.75 + 0.5 * (Double(i % 5) / 4), t = Double(i * 7) * Double.pi / 180
        let e = cx - 128 * s * (cos(t) - sin(t)), f = cy - 128 * s * (sin(t) + cos(t))
        return (PixelBuffer.testPattern(width: 256, height: 256, index: i),
                invert(a: s * cos(t), b: -s * sin(t), c: e, d: s * sin(t), e: s * cos(t), f: f))
    }

    /// The inverse of the forward map `x = a·u + b·v + c, y = d·u + e·v + f` (layer → canvas).
    static func invert(a: Double, b: Double, c: Double, d: Double, e: Double, f: Double) -> AffineInverse {
        let k = 1 / (a * e - b * d)
        return AffineInverse(a: e * k, b: -b * k, c: (b * f - c * e) * k, d: -d * k, e: a * k, f: (c * d - a * f) * k)
    }

    /// Built once for the whole suite.
    static let layers = (0..<64).map(layer)

    static let opacity = UInt8((0.8 * 255).rounded())   // 204, ref-c's lround(opacity · 255)
    static let background = RGBA8(r: 32, g: 32, b: 32, a: 255)

    @Test(arguments: RasterBackend.testedHere)
    func w1PixelsMatchRefC(backend: RasterBackend) {
        let layers = Self.layers
        var worst = 0
        for ((x, y), expected) in Self.reference {
            var row = [UInt32](repeating: Self.background.packed, count: 1920)
            row.withUnsafeMutableBufferPointer { r in
                for (image, inverse) in layers {
                    image.withRasterImage { img in
                        ImageSampler.drawAffineSpan(row: r.baseAddress!, y: y, x0: x, x1: x + 1, image: img,
                                                    inverse: inverse, opacity: Self.opacity, backend: backend)
                    }
                }
            }
            let got = RGBA8(packed: row[x])
            let diff = max(abs(Int(got.r) - Int(expected.r)), abs(Int(got.g) - Int(expected.g)),
                           abs(Int(got.b) - Int(expected.b)), abs(Int(got.a) - Int(expected.a)))
            #expect(diff <= 1, "(\(x), \(y)): \(got) vs ref-c \(expected)")
            worst = max(worst, diff)
        }
        #expect(worst <= 1)
    }

    /// A whole row through many layers, as one span per layer: backends agree, and the pixel
    /// on it matches ref-c. Skipped where the CPU lacks AVX2 (no native backend to agree with).
    @Test(.enabled(if: CPU.hasAVX2, "no AVX2: the native kernels do not run on this CPU"))
    func w1FullRowBackendsAgree() {
        let layers = Self.layers
        let y = 540
        var rows: [[UInt32]] = []
        for backend in [RasterBackend.portable, .native] {
            var row = [UInt32](repeating: Self.background.packed, count: 1920)
            row.withUnsafeMutableBufferPointer { r in
                for (image, inverse) in layers {
                    image.withRasterImage { img in
                        ImageSampler.drawAffineSpan(row: r.baseAddress!, y: y, x0: 0, x1: 1920, image: img,
                                                    inverse: inverse, opacity: Self.opacity, backend: backend)
                    }
                }
            }
            rows.append(row)
        }
        #expect(rows[0] == rows[1])
        #expect(RGBA8(packed: rows[1][961]) == RGBA8(r: 201, g: 28, b: 219, a: 255))
    }
}

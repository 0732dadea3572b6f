#if canImport(Glibc)
import Glibc
#endif
import FlipbookPixels
import Foundation

/// The input of `flipbook-benchmarks png`: the peers' W1 frame (`/work/shared/peers`) rendered
/// by a straight scalar port of `ref-c` (`peers.c`: `ref_frame` / `ref_layer` / `bilinear`).
/// This is a benchmark input generator, not Flipbook's compositor; it stays small and literal
/// on purpose.
extension PeerWorkloads {
    /// The W1 `layers` frame: 64 × `P(256, 256, i)`, opacity 0.8, bilinear, source-over on
    /// opaque (32, 32, 32), 1920×1080: ref-c's arithmetic (8-bit bilinear weights, div255
    /// rounding); the inverse matrix is computed in closed form, so a rare edge pixel may differ.
    static func w1ReferenceFrame() -> PixelBuffer {
        let W = 1920, H = 1080
        var canvas = PixelBuffer(width: W, height: H)
        canvas.fill(RGBA8(r: 32, g: 32, b: 32, a: 255))
        let op: UInt32 = 204  // lround(0.8 * 255)
        canvas.withUnsafeMutableBytes { dst in
            let d = dst.baseAddress!
            for i in 0..<64 {
                let layer = PixelBuffer.testPattern(width: 256, height: 256, index: i)
                let col = Double(i % 8), row = Double(i / 8)
                let cx = (col + 0.5) * 240, cy = (row + 0.5) * 135
                let s = 0.75 + 0.5 * (Double(i % 5) / 4)
                let t = Double(i * 7) * Double.pi / 180
                let a = s * cos(t), b = s * sin(t), c = -s * sin(t), dd = s * cos(t)
                let e = cx - (a * 128 + c * 128), f = cy - (b * 128 + dd * 128)
                // Forward M = [[a, c, e], [b, dd, f], [0, 0, 1]]; its inverse (affine).
                let det = a * dd - c * b
                let i0 = dd / det, i1 = -c / det, i2 = (c * f - dd * e) / det
                let i3 = -b / det, i4 = a / det, i5 = (b * e - a * f) / det
                // Bounding box of the corners, grown by one pixel, clipped.
                var x0 = 1e30, y0 = 1e30, x1 = -1e30, y1 = -1e30
                for (u, v) in [(0.0, 0.0), (256.0, 0.0), (256.0, 256.0), (0.0, 256.0)] {
                    let X = a * u + c * v + e, Y = b * u + dd * v + f
                    x0 = min(x0, X); x1 = max(x1, X); y0 = min(y0, Y); y1 = max(y1, Y)
                }
                let bx0 = max(Int(x0.rounded(.down)) - 1, 0), by0 = max(Int(y0.rounded(.down)) - 1, 0)
                let bx1 = min(Int(x1.rounded(.up)) + 1, W), by1 = min(Int(y1.rounded(.up)) + 1, H)
                layer.withUnsafeBytes { src in
                    for y in by0..<max(by0, by1) {
                        let py = Double(y) + 0.5
                        for x in bx0..<max(bx0, bx1) {
                            let px = Double(x) + 0.5
                            let sx = i0 * px + i1 * py + i2 - 0.5, sy = i3 * px + i4 * py + i5 - 0.5
                            if sx <= -1 || sy <= -1 || sx >= 256 || sy >= 256 { continue }
                            var p = _bilinear(src, sx, sy)
                            p = _scale(p, op)
                            let o = (y * W + x) * 4
                            let dp = d.load(fromByteOffset: o, as: UInt32.self)
                            d.storeBytes(of: p &+ _scale(dp, 255 - (p >> 24)), toByteOffset: o, as: UInt32.self)
                        }
                    }
                }
            }
        }
        return canvas
    }

    /// Bilinear sample of a 256×256 layer at texel position (sx, sy), 8-bit weights (ref-c).
    private static func _bilinear(_ src: UnsafeRawBufferPointer, _ sx: Double, _ sy: Double) -> UInt32 {
        let x0 = Int(sx + 1) - 1, y0 = Int(sy + 1) - 1
        let fx = min(UInt32((sx - Double(x0)) * 256), 255), fy = min(UInt32((sy - Double(y0)) * 256), 255)
        func texel(_ x: Int, _ y: Int) -> UInt32 {
            guard x >= 0, x < 256, y >= 0, y < 256 else { return 0 }
            return src.load(fromByteOffset: (y * 256 + x) * 4, as: UInt32.self)
        }
        let p00 = texel(x0, y0), p10 = texel(x0 + 1, y0), p01 = texel(x0, y0 + 1), p11 = texel(x0 + 1, y0 + 1)
        var out: UInt32 = 0
        for sh: UInt32 in [0, 8, 16, 24] {
            let c00 = (p00 >> sh) & 255, c10 = (p10 >> sh) & 255, c01 = (p01 >> sh) & 255, c11 = (p11 >> sh) & 255
            let top = c00 * (256 - fx) + c10 * fx, bot = c01 * (256 - fx) + c11 * fx
            out |= ((top * (256 - fy) + bot * fy + 32768) >> 16) << sh
        }
        return out
    }

    /// Every channel of `p` times k/255, rounded (`div255`).
    private static func _scale(_ p: UInt32, _ k: UInt32) -> UInt32 {
        var out: UInt32 = 0
        for sh: UInt32 in [0, 8, 16, 24] { out |= PixelRounding.div255(((p >> sh) & 255) * k) << sh }
        return out
    }
}

extension PixelBuffer {
    /// A deterministic test image `P(width, height, index)`: the layer image of the benchmark
    /// scenes (`Benchmarks/`), of `flipbook pattern`, and of tests that need varied colour and
    /// alpha. Same arguments, same bytes, on every machine.
    ///
    /// For the pixel at `(x, y)` (straight colour, then premultiplied with
    /// ``PixelRounding/premultiply(_:alpha:)``, `c' = (c·A + 127) / 255`):
    /// - `R = x mod 256`, `G = y mod 256`;
    /// - `B = 255` on the odd squares of a 32-px checkerboard (`(x/32 xor y/32)` odd), else
    ///   `(4 · index) mod 256`;
    /// - `A = 255 − ((x mod 256 + y mod 256) >> 2)`: 255 at the top-left of each 256-px tile,
    ///   falling to 128 at its bottom-right.
    public static func testPattern(width: Int, height: Int, index: Int) -> PixelBuffer {
        var buffer = PixelBuffer(width: width, height: height)
        let stride = buffer.bytesPerRow
        let blue = UInt8((4 * index) & 255)
        buffer.withUnsafeMutableBytes { raw in
            for y in 0..<height {
                let row = y * stride, ym = y & 255
                for x in 0..<width {
                    let xm = x & 255
                    let a = UInt8(255 - ((xm + ym) >> 2))
                    let b: UInt8 = ((x >> 5) ^ (y >> 5)) & 1 == 1 ? 255 : blue
                    let o = row + x * 4
                    raw[o] = PixelRounding.premultiply(UInt8(xm), alpha: a)
                    raw[o + 1] = PixelRounding.premultiply(UInt8(ym), alpha: a)
                    raw[o + 2] = PixelRounding.premultiply(b, alpha: a)
                    raw[o + 3] = a
                }
            }
        }
        return buffer
    }
}

import FlipbookPixels
/// Premultiplied RGBA8 → planar Y′CbCr 8-bit, BT.709 matrix, limited ("TV") range, for Y4M.
///
/// ## Steps, per pixel (all integer, deterministic)
/// 1. Composite over the opaque background `B` (premultiplied source `s`, alpha `a`):
///    `c = s + div255(B · (255 − a))` for each of R, G, B (``PixelRounding/div255(_:)``). Frames
///    are normally opaque, which makes this the identity.
/// 2. Luma with 16-bit fixed-point coefficients `round(219/255 · K · 65536)`
///    (`Kr = 0.2126, Kg = 0.7152, Kb = 0.0722`):
///
///        Y = (11966·R + 40254·G + 4064·B + 16·65536 + 32768) >> 16        → 16 … 235
///
/// 3. Chroma from the *sums* `ΣR, ΣG, ΣB` over the `n` pixels that share a chroma sample
///    (`n = 1` for 4:4:4; the 2×2 block, fewer at odd right/bottom edges, for 4:2:0 — JPEG/MPEG-1
///    siting, i.e. the sample sits at the block's centre), coefficients
///    `round(224/255 · 65536 · …)` adjusted so each row sums to exactly 0 (grey → 128):
///
///        Cb = ⌊(−6596·ΣR − 22188·ΣG + 28784·ΣB + n·(128·65536 + 32768)) / (n·65536)⌋   → 16 … 240
///        Cr = ⌊( 28784·ΣR − 26145·ΣG −  2639·ΣB + n·(128·65536 + 32768)) / (n·65536)⌋   → 16 … 240
///
///    The numerators are always positive, so integer division is the floor and `+ 32768·n`
///    makes it round-to-nearest (halves up).
///
/// White gives (235, 128, 128), black (16, 128, 128), pure red Cr = 240, pure blue Cb = 240.
public enum Y4MConversion {
    public static let yR = 11966, yG = 40254, yB = 4064
    public static let cbR = -6596, cbG = -22188, cbB = 28784
    public static let crR = 28784, crG = -26145, crB = -2639

    /// Bytes of one frame's planes for `chroma` at `width × height`.
    public static func frameSize(width: Int, height: Int, chroma: Y4MChroma) -> Int {
        let (cw, ch) = chromaSize(width: width, height: height, chroma: chroma)
        return width * height + 2 * cw * ch
    }

    /// Chroma plane size: full for 4:4:4, `⌈w/2⌉ × ⌈h/2⌉` for 4:2:0.
    public static func chromaSize(width: Int, height: Int, chroma: Y4MChroma) -> (Int, Int) {
        chroma == .c444 ? (width, height) : ((width + 1) / 2, (height + 1) / 2)
    }

    /// Converts `image` composited over `background` into `out` (Y plane, then Cb, then Cr),
    /// appending to `out` after its current contents.
    public static func convert(_ image: PixelBuffer, background: RGBA8, chroma: Y4MChroma, into out: inout [UInt8]) {
        let w = image.width, h = image.height, stride = image.bytesPerRow
        let (cw, ch) = chromaSize(width: w, height: h, chroma: chroma)
        let base = out.count
        out.append(contentsOf: repeatElement(0, count: w * h + 2 * cw * ch))
        let step = chroma == .c444 ? 1 : 2
        let bgR = UInt32(background.r), bgG = UInt32(background.g), bgB = UInt32(background.b)
        image.withUnsafeBytes { src in
            out.withUnsafeMutableBufferPointer { dst in
                let yPlane = dst.baseAddress! + base
                let cbPlane = yPlane + w * h, crPlane = cbPlane + cw * ch
                for cy in 0..<ch {
                    for cx in 0..<cw {
                        var sr = 0, sg = 0, sb = 0, n = 0
                        for y in (cy * step)..<min(cy * step + step, h) {
                            let row = src.baseAddress! + y * stride
                            for x in (cx * step)..<min(cx * step + step, w) {
                                let p = row + x * 4
                                let inv = 255 - UInt32(p.load(fromByteOffset: 3, as: UInt8.self))
                                let r = Int(UInt32(p.load(as: UInt8.self)) + PixelRounding.div255(bgR * inv))
                                let g = Int(UInt32(p.load(fromByteOffset: 1, as: UInt8.self)) + PixelRounding.div255(bgG * inv))
                                let b = Int(UInt32(p.load(fromByteOffset: 2, as: UInt8.self)) + PixelRounding.div255(bgB * inv))
                                yPlane[y * w + x] = UInt8((yR * r + yG * g + yB * b + 16 * 65536 + 32768) >> 16)
                                sr += r; sg += g; sb += b; n += 1
                            }
                        }
                        let bias = n * (128 * 65536 + 32768), d = n * 65536
                        cbPlane[cy * cw + cx] = UInt8((cbR * sr + cbG * sg + cbB * sb + bias) / d)
                        crPlane[cy * cw + cx] = UInt8((crR * sr + crG * sg + crB * sb + bias) / d)
                    }
                }
            }
        }
    }
}

/// Chroma subsampling of a Y4M stream.
public enum Y4MChroma: String, Sendable, Hashable, CaseIterable {
    /// 4:2:0, chroma centred in each 2×2 block (`C420jpeg`): what video encoders want; the default.
    case c420jpeg
    /// 4:4:4, no subsampling (`C444`): lossless chroma, 2× the bytes of 4:2:0.
    case c444

    /// The header token.
    public var headerToken: String { self == .c444 ? "C444" : "C420jpeg" }
}

import Flipbook
import FlipbookPixels
import Foundation

/// `text-warm`, `text-cold`: issue 16's text workload, defined here and in
/// `Benchmarks/peers-text.py` identically — 60 lines of 80 characters at 14 px plus a 48 px
/// title, DejaVu Sans (the bundled copy; the peers read the same file, DejaVuSans.ttf 2.37), black
/// on a 1920×1080 white canvas cleared every frame, re-rendered every frame:
///
/// - title: `"Flipbook text benchmark: the quick brown fox jumps over the lazy dog"` at 48 px,
///   its line's top at y = 20, left x = 40;
/// - line `i` (0…59): 80 characters of `textBenchCorpus` starting at offset `(i × 37) mod n`
///   (wrapping), 14 px, its line's top at y = 90 + 16 i, x = 40.
///
/// Flipbook: one `CATextLayer` per line (bounds 1840 wide, the line's top as origin), each frame
/// `draw(in:)` of every layer into one 1920×1080 `CGContext` — the typesetter (HarfBuzz shaping,
/// ICU segmentation) and the rasterizer, no layer compositing. Warm: the font's outlines cached
/// from the previous frame. Cold: a new `CGFont` from the same bytes every frame (empty outline
/// cache). Skia (peers-text.py): `canvas.drawString` per line, antialiased, subpixel positioning,
/// no hinting — no shaping (Skia's drawString maps characters to glyphs one to one), so the
/// comparison favours it.
extension BenchWorkloads {
    static let textBenchCorpus = "The quick brown fox jumps over the lazy dog. Pack my box with five dozen liquor jugs! "
        + "How vexingly quick daft zebras jump; sphinx of black quartz, judge my vow. 0123456789 (AV Wa To fi fl) "

    static func textBenchLines() -> [(String, Double, Double)] {
        let c = Array(textBenchCorpus)
        var out: [(String, Double, Double)] = [("Flipbook text benchmark: the quick brown fox jumps over the lazy dog", 48, 20)]
        for i in 0..<60 {
            let start = (i * 37) % c.count
            let s = String((0..<80).map { c[(start + $0) % c.count] })
            out.append((s, 14, 90 + 16 * Double(i)))
        }
        return out
    }

    func text() throws -> [BenchResult] {
        var rows: [BenchResult] = []
        // The cold variant loads the font's bytes anew each frame (the installed copy of the
        // bundled file, the one the peers read).
        let fontData = try Data(contentsOf: URL(fileURLWithPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"))
        for cold in [false, true] {
            let loop = VirtualRunLoop()
            let layers: [CATextLayer] = loop.run {
                Self.textBenchLines().map { s, size, top in
                    let t = CATextLayer()
                    t.bounds = CGRect(x: 0, y: 0, width: 1840, height: 1060 - top)
                    t.position = CGPoint(x: 40, y: top)
                    t.anchorPoint = .zero
                    t.string = s
                    t.fontSize = CGFloat(size)
                    t.foregroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
                    t.font = CGFont.bundledDefault
                    return t
                }
            }
            let ctx = CGContext(data: nil, width: 1920, height: 1080, bitsPerComponent: 8, bytesPerRow: 0,
                                space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
            // UIKit's orientation (top-left origin, y down), as UIGraphicsImageRenderer sets it up.
            ctx.translateBy(x: 0, y: 1080)
            ctx.scaleBy(x: 1, y: -1)
            let white = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
            let s = try benchLoop(warmups: warmups, frames: frames) {
                if cold {
                    let f = CGFont(CGDataProvider(data: fontData))!
                    loop.run { for l in layers { l.font = f } }
                }
                ctx.setFillColor(white)
                ctx.fill(CGRect(x: 0, y: 0, width: 1920, height: 1080))
                for l in layers {
                    ctx.saveGState()
                    ctx.translateBy(x: l.position.x, y: l.position.y)       // the line's top-left
                    l.draw(in: ctx)
                    ctx.restoreGState()
                }
            }
            save(cold ? "text-cold" : "text-warm", ctx.makeImage()!.pixelBuffer)
            rows.append(result(cold ? "text-cold" : "text-warm", s, pixels: 1920 * 1080, threads: 1,
                               note: "60 lines × 80 chars at 14 px + a 48 px title, DejaVu Sans, shaped and drawn every frame"
                                   + (cold ? "; a new CGFont (empty outline cache) every frame" : "")))
        }
        return rows
    }
}

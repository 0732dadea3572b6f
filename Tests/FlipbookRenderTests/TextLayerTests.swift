import Testing
import FlipbookTesting
@testable import FlipbookRender
@testable import Flipbook
@testable import FlipbookGraphics
import FlipbookPixels
import Foundation

/// `CATextLayer` drawn through the display cycle and the compositor: reference images for Latin
/// with kerning and ligatures, Arabic, a Devanagari conjunct, combining accents, wrapping at
/// three widths, each truncation mode and each alignment; thread independence; animated
/// `fontSize` and `foregroundColor`; attributed strings; KVC and defaults.
/// References: `__Snapshots__/TextLayerTests/…` (recorded with `FLIPBOOK_RECORD=missing`).
@Suite struct TextLayerTests {
    static let black = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
    static let white = CGColor(red: 1, green: 1, blue: 1, alpha: 1)

    static func text(_ s: Any?, _ frame: CGRect, size: CGFloat = 20, _ configure: (CATextLayer) -> Void = { _ in }) -> CATextLayer {
        let t = CATextLayer()
        t.frame = frame
        t.string = s
        t.fontSize = size
        t.foregroundColor = black
        configure(t)
        return t
    }

    /// A white root of `size` holding `layers`, attached to `loop` and committed (displayed).
    static func page(_ loop: VirtualRunLoop, _ size: CGSize, _ layers: [CALayer]) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: size)
        root.backgroundColor = white
        for l in layers { root.addSublayer(l) }
        loop.attach(root)
        loop.endTurn()
        return root
    }

    @Test func defaultsAndKVC() {
        VirtualRunLoop().run {
            let t = CATextLayer()
            #expect(t.string == nil && t.font == nil)
            #expect(t.fontSize == 36)
            #expect(t.foregroundColor?.red == 1 && t.foregroundColor?.alpha == 1)
            #expect(t.isWrapped == false)
            #expect(t.truncationMode == .none)
            #expect(t.alignmentMode == .natural)
            #expect(!t.allowsFontSubpixelQuantization)         // CATextLayer.h: "Defaults to NO."
            #expect(t.needsDisplayOnBoundsChange)
            #expect(CATextLayer.needsDisplay(forKey: "string") && CATextLayer.needsDisplay(forKey: "fontSize"))
            #expect(!CATextLayer.needsDisplay(forKey: "opacity"))
            t.setValue(true, forKey: "wrapped")
            #expect(t.isWrapped)
            t.setValue(Double(12), forKey: "fontSize")        // a scene or animation may store a Double
            #expect(t.fontSize == 12)
            t.font = "DejaVu Sans" as CFTypeRef
            #expect(t.font as? String == "DejaVu Sans")
            let copy = CATextLayer(layer: t)
            #expect(copy.fontSize == 12 && copy.isWrapped)
        }
    }

    @Test func scripts() {
        let loop = VirtualRunLoop()
        loop.run {
            let size = CGSize(width: 260, height: 168)
            let root = Self.page(loop, size, [
                Self.text("AVATAR office fi Wa Tö", CGRect(x: 6, y: 4, width: 250, height: 32), size: 24),
                Self.text("مرحبا بالعالم", CGRect(x: 6, y: 44, width: 250, height: 36), size: 24),
                Self.text("क्षत्रिय नमस्ते", CGRect(x: 6, y: 84, width: 250, height: 40), size: 24),
                Self.text("a\u{301} e\u{308} q\u{301} n\u{303} o\u{328}\u{301}", CGRect(x: 6, y: 128, width: 250, height: 36), size: 24),
            ])
            assertRendering(of: root, at: loop.currentTime, size: size, named: "scripts")
        }
    }

    @Test func wrappingAtThreeWidths() {
        let loop = VirtualRunLoop()
        loop.run {
            let s = "The quick brown fox jumps over the lazy dog, then naps in the sun."
            let size = CGSize(width: 420, height: 130)
            let root = Self.page(loop, size, [
                Self.text(s, CGRect(x: 4, y: 4, width: 200, height: 120), size: 14) { $0.isWrapped = true },
                Self.text(s, CGRect(x: 212, y: 4, width: 120, height: 120), size: 14) { $0.isWrapped = true },
                Self.text(s, CGRect(x: 340, y: 4, width: 76, height: 120), size: 14) { $0.isWrapped = true },
            ])
            assertRendering(of: root, at: loop.currentTime, size: size, named: "wrapping")
        }
    }

    @Test func truncationModes() {
        let loop = VirtualRunLoop()
        loop.run {
            let s = "Flipbook renders Core Animation offline"
            let modes: [CATextLayerTruncationMode] = [.none, .start, .middle, .end]
            var layers: [CALayer] = modes.enumerated().map { i, m in
                Self.text(s, CGRect(x: 4, y: 4 + CGFloat(i) * 22, width: 160, height: 20), size: 14) { $0.truncationMode = m }
            }
            // wrapped and out of height: the last line that fits ends in an ellipsis
            layers.append(Self.text(s + " " + s, CGRect(x: 4, y: 92, width: 160, height: 36), size: 14) {
                $0.isWrapped = true; $0.truncationMode = .end
            })
            let root = Self.page(loop, CGSize(width: 168, height: 132), layers)
            assertRendering(of: root, at: loop.currentTime, size: CGSize(width: 168, height: 132), named: "truncation")
        }
    }

    @Test func alignmentModes() {
        let loop = VirtualRunLoop()
        loop.run {
            let s = "Align these words within the box, please."
            let modes: [CATextLayerAlignmentMode] = [.natural, .left, .right, .center, .justified]
            let layers: [CALayer] = modes.enumerated().map { i, m in
                Self.text(s, CGRect(x: 4, y: 4 + CGFloat(i) * 44, width: 180, height: 40), size: 14) {
                    $0.isWrapped = true; $0.alignmentMode = m; $0.borderWidth = 1; $0.borderColor = CGColor(gray: 0.8, alpha: 1)
                }
            }
            let size = CGSize(width: 188, height: 224)
            let root = Self.page(loop, size, layers)
            assertRendering(of: root, at: loop.currentTime, size: size, named: "alignment")
            // Right alignment: the ink of each line ends near the right edge; left: starts at the left.
            let px = try! Compositor(threadCount: 1).render(root.makeRenderTree(), width: 188, height: 224)
            func inkColumns(_ y0: Int, _ y1: Int) -> (Int, Int) {
                var lo = Int.max, hi = Int.min
                for y in y0..<y1 { for x in 6..<182 where px[x, y].r < 128 { lo = min(lo, x); hi = max(hi, x) } }
                return (lo, hi)
            }
            let left = inkColumns(50, 84), right = inkColumns(94, 128)
            #expect(left.0 <= 6 && right.1 >= 180)
        }
    }

    /// The same text, the same bytes with 1 and 2 threads (and at scale 2).
    @Test func threadIndependent() throws {
        let loop = VirtualRunLoop()
        try loop.run {
            let root = Self.page(loop, CGSize(width: 300, height: 120), [
                Self.text("Deterministic text مرحبا नमस्ते", CGRect(x: 4, y: 4, width: 292, height: 112), size: 28) {
                    $0.isWrapped = true; $0.contentsScale = 2
                },
            ])
            let tree = root.makeRenderTree()
            let one = try Compositor(threadCount: 1).render(tree, width: 600, height: 240, scale: 2)
            let two = try Compositor(threadCount: 2).render(tree, width: 600, height: 240, scale: 2)
            #expect(one == two)
            #expect((0..<600).contains { x in (0..<240).contains { y in one[x, y].r < 100 } })
        }
    }

    /// `fontSize` and `foregroundColor` animate implicitly: mid-flight the presentation copy
    /// draws the text at the in-between size and colour.
    @Test func fontSizeAndColourAnimate() {
        let loop = VirtualRunLoop()
        loop.run {
            let t = Self.text("H", CGRect(x: 0, y: 0, width: 120, height: 120), size: 20)
            t.foregroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            let root = Self.page(loop, CGSize(width: 120, height: 120), [t])
            func ink(_ time: Double) -> (height: Int, red: UInt8, green: UInt8) {
                let px = try! Compositor(threadCount: 1).render(root.makeRenderTree(at: time), width: 120, height: 120)
                var rows = Set<Int>()
                var best = (UInt8(0), UInt8(255))
                for y in 0..<120 { for x in 0..<120 where px[x, y].b < 60 {
                    rows.insert(y)
                    if px[x, y].r >= best.0 || px[x, y].g >= best.0 { best = (px[x, y].r, px[x, y].g) }
                } }
                return (rows.count, best.0, best.1)
            }
            let before = ink(loop.currentTime)
            CATransaction.begin()
            CATransaction.setAnimationDuration(1)
            CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
            t.fontSize = 80
            t.foregroundColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
            CATransaction.commit()
            loop.endTurn()
            let t0 = loop.currentTime
            let mid = ink(t0 + 0.5), end = ink(t0 + 1.5)
            #expect(before.height > 10 && before.height < 20)          // "H" at 20 pt: cap height ≈ 14.6
            #expect(mid.height > before.height + 15 && mid.height < end.height - 15)
            #expect(end.height > 52 && end.height < 62)                 // at 80 pt: ≈ 58
            #expect(mid.red > 80 && mid.green > 80)                     // between red and green
        }
    }

    /// Attributed strings: per-range fonts (CTFont), colours and kerning.
    @Test func attributedString() throws {
        let loop = VirtualRunLoop()
        try loop.run {
            let s = NSMutableAttributedString(string: "red green")
            s.addAttribute(.foregroundColor, value: CGColor(red: 1, green: 0, blue: 0, alpha: 1), range: NSRange(location: 0, length: 3))
            s.addAttribute(.foregroundColor, value: CGColor(red: 0, green: 0.8, blue: 0, alpha: 1), range: NSRange(location: 4, length: 5))
            s.addAttribute(.font, value: CTFontCreateWithName("DejaVu Sans", 30, nil), range: NSRange(location: 4, length: 5))
            let t = Self.text(s, CGRect(x: 0, y: 0, width: 240, height: 40), size: 16)
            let root = Self.page(loop, CGSize(width: 240, height: 40), [t])
            let px = try Compositor(threadCount: 1).render(root.makeRenderTree(), width: 240, height: 40)
            var reds = 0, greens = 0
            for y in 0..<40 { for x in 0..<240 {
                let p = px[x, y]
                if p.r > 200 && p.g < 60 && p.b < 60 { reds += 1 }
                if p.g > 150 && p.r < 60 && p.b < 60 { greens += 1 }
            } }
            #expect(reds > 20 && greens > reds * 2)                    // the green word is bigger
            // kerning widens the line
            let plain = NSAttributedString(string: "spacing")
            let kerned = NSMutableAttributedString(string: "spacing")
            kerned.addAttribute(.kern, value: 4.0, range: NSRange(location: 0, length: 7))
            let w0 = Self.text(plain, CGRect(x: 0, y: 0, width: 400, height: 40))._layout()!.lines[0].width
            let w1 = Self.text(kerned, CGRect(x: 0, y: 0, width: 400, height: 40))._layout()!.lines[0].width
            #expect(abs(w1 - w0 - 28) < 1e-9)
        }
    }

    /// The layout is kept while its inputs are unchanged and remade when any changes; the string
    /// is copied when set (Apple's `copy` property), so mutating the original changes nothing.
    @Test func layoutCacheFollowsTheInputs() {
        VirtualRunLoop().run {
            let m = NSMutableAttributedString(string: "abc")
            let t = Self.text(m, CGRect(x: 0, y: 0, width: 300, height: 50))
            let a = t._layout()!
            #expect(a.glyphs.count == 3)
            m.append(NSAttributedString(string: "def"))
            #expect(t._layout()!.glyphs.count == 3)                  // the layer holds a copy
            t.fontSize = 40
            #expect(t._layout()!.glyphs[0].size == 40)
            t.string = "abcdef"
            #expect(t._layout()!.glyphs.count == 6)
            t.alignmentMode = .right
            #expect(abs(t._layout()!.lines[0].x + t._layout()!.lines[0].width - 300) < 1e-9)
            t.bounds = CGRect(x: 0, y: 0, width: 200, height: 50)
            #expect(abs(t._layout()!.lines[0].x + t._layout()!.lines[0].width - 200) < 1e-9)
        }
    }

    /// A font name nothing has falls back to the bundled default (and says so on stderr);
    /// a CGFont and a CTFont are both accepted.
    @Test func fontValues() {
        VirtualRunLoop().run {
            let t = Self.text("x", CGRect(x: 0, y: 0, width: 50, height: 50))
            t.font = "No Such Font Flipbook 5678" as CFTypeRef
            #expect(t._layout()!.glyphs[0].font === CGFont.bundledDefault)
            t.font = CGFont.bundledDevanagari
            #expect(t._layout()!.glyphs[0].font === CGFont.bundledDefault)   // Devanagari font lacks "x": fallback
            t.string = "क"
            #expect(t._layout()!.glyphs[0].font === CGFont.bundledDevanagari)
            t.font = CTFontCreateWithName("DejaVu Sans", 99, nil)
            #expect(t._layout()!.glyphs[0].size == 20)                       // a CTFont's size is ignored, as on Apple
        }
    }
}

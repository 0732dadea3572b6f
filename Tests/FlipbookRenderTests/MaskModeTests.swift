import Testing
@testable import FlipbookRender
import Flipbook
import FlipbookPixels
import Foundation

/// `CALayer._maskMode` (a Flipbook extension for Lottie track mattes) in pixels: the mask read
/// by its alpha, one minus its alpha, its luminance or one minus it — and the model carrying
/// the mode to presentation copies, `init(layer:)` and snapshots.
@Suite struct MaskModeTests {
    /// An opaque white `w × h` layer masked by `mask` (its frame and colour), over a transparent
    /// frame: each pixel is `(m, m, m, m)` with `m` the mask's factor there.
    static func masked(_ mode: _LayerMaskMode, mask rect: CGRect, _ color: CGColor, w: Int = 8, h: Int = 4) -> PixelBuffer {
        VirtualRunLoop().run {
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: w, height: h)
            let l = CALayer()
            l.frame = root.bounds
            l.backgroundColor = .white
            let mask = CALayer()
            mask.frame = rect
            mask.backgroundColor = color
            l.mask = mask
            l._maskMode = mode
            root.addSublayer(l)
            return try! Compositor(threadCount: 1).render(root.makeRenderTree(), width: w, height: h, background: .transparent)
        }
    }

    /// The premultiplied pixel `color` becomes.
    static func pixel(_ color: CGColor) -> RGBA8 {
        VirtualRunLoop().run {
            let l = CALayer()
            l.frame = CGRect(x: 0, y: 0, width: 1, height: 1)
            l.backgroundColor = color
            return try! Compositor(threadCount: 1).render(l.makeRenderTree(), width: 1, height: 1, background: .transparent)[0, 0]
        }
    }

    /// Rec. 709 luma (0.2125, 0.7154, 0.0721) of the premultiplied pixel, as a real number.
    static func luma(_ p: RGBA8) -> Double { 0.2125 * Double(p.r) + 0.7154 * Double(p.g) + 0.0721 * Double(p.b) }

    static func expectGrey(_ p: RGBA8, _ m: Double, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for c in [p.r, p.g, p.b, p.a] {
            #expect(abs(Double(c) - m) <= 1, "\(what): \(p), want \(m)", sourceLocation: sourceLocation)
        }
    }

    /// A translucent coloured mask covering the whole layer, read four ways.
    @Test func eachModeReadsTheMaskItsWay() {
        let grey = CGColor(red: 0.2, green: 0.6, blue: 0.9, alpha: 0.8)
        let mp = Self.pixel(grey)
        let whole = CGRect(x: 0, y: 0, width: 8, height: 4)
        let y = Self.luma(mp)
        let cases: [(_LayerMaskMode, Double)] = [
            (.alpha, Double(mp.a)), (.alphaInverted, 255 - Double(mp.a)),
            (.luminance, y), (.luminanceInverted, 255 - y),
        ]
        for (mode, want) in cases {
            Self.expectGrey(Self.masked(mode, mask: whole, grey)[3, 2], want, "\(mode)")
        }
        // The luminance weights are not the alpha: a saturated blue mask is dark, green bright.
        let blue = Self.masked(.luminance, mask: whole, CGColor(red: 0, green: 0, blue: 1, alpha: 1))[0, 0]
        let green = Self.masked(.luminance, mask: whole, CGColor(red: 0, green: 1, blue: 0, alpha: 1))[0, 0]
        #expect(blue.a == 18 && green.a == 182)   // round(0.0721·255) = 18, round(0.7154·255) = 182
        // Opaque white is exactly 255 (the weights sum to 1); black 0.
        #expect(Self.masked(.luminance, mask: whole, .white)[0, 0] == .white)
        #expect(Self.masked(.luminance, mask: whole, .black)[0, 0] == .transparent)
        #expect(Self.masked(.luminanceInverted, mask: whole, .black)[0, 0] == .white)
    }

    /// Grey levels: the luminance of `(v, v, v, 1)` is `v`, and of a half-transparent grey the
    /// premultiplied value (luminance × alpha).
    @Test func greyLevels() {
        let whole = CGRect(x: 0, y: 0, width: 8, height: 4)
        for v in [0.0, 0.25, 0.5, 0.75, 1.0] {
            let opaque = CGColor(gray: v, alpha: 1), half = CGColor(gray: v, alpha: 0.5)
            let po = Self.pixel(opaque), ph = Self.pixel(half)
            Self.expectGrey(Self.masked(.luminance, mask: whole, opaque)[1, 1], Double(po.g), "luminance \(v)")
            Self.expectGrey(Self.masked(.luminanceInverted, mask: whole, opaque)[1, 1], 255 - Double(po.g), "inverted \(v)")
            Self.expectGrey(Self.masked(.luminance, mask: whole, half)[1, 1], Double(ph.g), "luminance \(v) at alpha ½")
            Self.expectGrey(Self.masked(.alpha, mask: whole, half)[1, 1], Double(ph.a), "alpha \(v) at alpha ½")
        }
    }

    /// A mask over the left half only: the plain modes show the layer there and nothing on the
    /// right; the inverted ones hide it there and show it **fully** on the right, outside the
    /// mask layer altogether.
    @Test func invertedMasksShowTheLayerOutsideTheMask() {
        let left = CGRect(x: 0, y: 0, width: 4, height: 4)
        for (mode, color) in [(_LayerMaskMode.alphaInverted, CGColor.black), (.luminanceInverted, .white)] {
            let img = Self.masked(mode, mask: left, color)
            #expect(img[1, 1] == .transparent && img[3, 3] == .transparent, "\(mode) under the mask")
            #expect(img[4, 0] == .white && img[7, 3] == .white, "\(mode) outside the mask")
        }
        for (mode, color) in [(_LayerMaskMode.alpha, CGColor.black), (.luminance, .white)] {
            let img = Self.masked(mode, mask: left, color)
            #expect(img[1, 1] == .white && img[7, 3] == .transparent, "\(mode)")
        }
        // A mask entirely off the frame: inverted shows everything, plain nothing.
        let away = CGRect(x: 40, y: 40, width: 4, height: 4)
        #expect(Self.masked(.alphaInverted, mask: away, .black)[2, 2] == .white)
        #expect(Self.masked(.alpha, mask: away, .black)[2, 2] == .transparent)
    }

    /// Masks and blend modes together, in bands of several heights: the same bytes.
    @Test func invertedMaskIsThreadIndependent() throws {
        let tree: RenderLayer = VirtualRunLoop().run {
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 23, height: 19)
            let l = CALayer()
            l.frame = CGRect(x: 1, y: 1, width: 21, height: 17)
            l.backgroundColor = CGColor(red: 0.9, green: 0.4, blue: 0.1, alpha: 0.9)
            l.compositingFilter = "screenBlendMode"
            let mask = CALayer()
            mask.frame = CGRect(x: 3.5, y: 6.25, width: 9, height: 7)
            mask.backgroundColor = CGColor(red: 0.3, green: 0.8, blue: 0.2, alpha: 0.7)
            mask.transform = CATransform3DMakeRotation(0.4, 0, 0, 1)
            l.mask = mask
            l._maskMode = .luminanceInverted
            root.addSublayer(l)
            return root.makeRenderTree()
        }
        #expect(tree.sublayers[0].maskMode == .luminanceInverted && tree.sublayers[0].compositingMode == .screen)
        try TestScene.renderExpectingThreadIndependence(tree, 23, 19)
    }

    /// The model: default alpha; kept by presentation copies (also while animating), by
    /// `init(layer:)` and by snapshots; and the compositing filter with it.
    @Test func presentationCopiesKeepTheModes() {
        let loop = VirtualRunLoop()
        loop.run {
            let l = CALayer()
            #expect(l._maskMode == .alpha)
            l._maskMode = .luminanceInverted
            l.compositingFilter = "multiplyBlendMode"
            #expect(CALayer(layer: l)._maskMode == .luminanceInverted)
            #expect(CALayer(layer: l).compositingFilter as? String == "multiplyBlendMode")
            let a = CABasicAnimation(keyPath: "opacity")
            a.fromValue = 0.2; a.toValue = 1; a.duration = 10
            l.add(a, forKey: "fade")
            loop.endTurn()
            loop.advance(to: 1)
            let p = l.presentation()
            #expect(p?._maskMode == .luminanceInverted)
            #expect(p?.compositingFilter as? String == "multiplyBlendMode")
            let node = l.makeRenderTree()
            #expect(node.maskMode == .luminanceInverted && node.compositingMode == .multiply)
            #expect(node.opacity < 1)   // the animation is in the snapshot: the modes came through the copy
            l._maskMode = .alpha
            l.compositingFilter = nil
            let plain = l.makeRenderTree()
            #expect(plain.maskMode == .alpha && plain.compositingMode == .normal)
        }
    }
}

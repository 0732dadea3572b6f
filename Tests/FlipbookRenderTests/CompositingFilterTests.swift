import Testing
@testable import FlipbookRender
import Flipbook
import FlipbookPixels
import FlipbookTestSupport
import Foundation

/// `CALayer.compositingFilter` in pixels: each blend mode and compositing operator against its
/// formula written out independently (`BlendReference`, floating point; the compositor rounds
/// once, so within one level), group isolation, operators inside a mask, unknown names.
@Suite struct CompositingFilterTests {
    /// Renders a `w × h` root (transparent frame) that `build` fills, on one thread.
    static func render(_ w: Int, _ h: Int, _ build: (CALayer) -> Void) -> PixelBuffer {
        VirtualRunLoop().run {
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: w, height: h)
            build(root)
            return try! Compositor(threadCount: 1).render(root.makeRenderTree(), width: w, height: h, background: .transparent)
        }
    }

    /// A layer with frame `rect` and background `color`, added to `parent`.
    @discardableResult
    static func box(_ parent: CALayer, _ rect: CGRect, _ color: CGColor?, filter: Any? = nil) -> CALayer {
        let l = CALayer()
        l.frame = rect
        l.backgroundColor = color
        l.compositingFilter = filter
        parent.addSublayer(l)
        return l
    }

    static func unit(_ p: RGBA8) -> [Double] { [p.r, p.g, p.b, p.a].map { Double($0) / 255 } }

    /// Expects `got` within one level of `want` (0…1 per channel, clamped).
    static func expectNear(_ got: RGBA8, _ want: [Double], _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let g = [got.r, got.g, got.b, got.a].map(Double.init)
        for i in 0..<4 {
            let w = min(max(want[i], 0), 1) * 255
            #expect(abs(g[i] - w) <= 1, "\(what) channel \(i): got \(g[i]), want \(w)", sourceLocation: sourceLocation)
        }
    }

    /// Source and backdrop colours: both translucent, both opaque, and a mix (straight colours;
    /// channels near 0, ½ and 1 reach the modes' branches).
    static let pairs: [(source: CGColor, backdrop: CGColor)] = [
        (CGColor(red: 0.8, green: 0.3, blue: 0.1, alpha: 0.7), CGColor(red: 0.2, green: 0.6, blue: 0.9, alpha: 0.5)),
        (CGColor(red: 0.9, green: 0.5, blue: 0.2, alpha: 1), CGColor(red: 0.3, green: 0.7, blue: 0.6, alpha: 1)),
        (CGColor(red: 0.1, green: 1, blue: 0.45, alpha: 0.4), CGColor(red: 1, green: 0.2, blue: 0, alpha: 0.9)),
        (CGColor(red: 0.05, green: 0.95, blue: 0.6, alpha: 1), CGColor(red: 0.15, green: 0.1, blue: 0.85, alpha: 0.8)),
    ]

    /// Each mode and the name it is set by (the spellings vary: Core Image's with and without
    /// the prefix, Core Animation's short ones).
    static let names: [(BlendReference.Mode, String)] = [
        (.multiply, "multiplyBlendMode"), (.screen, "CIScreenBlendMode"), (.overlay, "overlayBlendMode"),
        (.darken, "CIDarkenBlendMode"), (.lighten, "lightenBlendMode"), (.colorDodge, "colorDodgeBlendMode"),
        (.colorBurn, "CIColorBurnBlendMode"), (.hardLight, "hardLightBlendMode"), (.softLight, "CISoftLightBlendMode"),
        (.difference, "differenceBlendMode"), (.exclusion, "CIExclusionBlendMode"), (.hue, "hueBlendMode"),
        (.saturation, "CISaturationBlendMode"), (.color, "colorBlendMode"), (.luminosity, "CILuminosityBlendMode"),
        (.plusLighter, "plusL"), (.plusDarker, "plusD"), (.normal, "CISourceOverCompositing"),
        (.sourceIn, "CISourceInCompositing"), (.sourceOut, "sourceOut"), (.sourceAtop, "CISourceAtopCompositing"),
        (.destinationIn, "destinationIn"), (.destinationOut, "destinationOut"), (.destinationOver, "destinationOver"),
        (.destinationAtop, "destinationAtop"), (.xor, "xor"), (.copy, "copy"), (.clear, "clear"),
    ]

    /// The backdrop fills a 4 × 2 frame; the filtered layer covers its right half. Right: the
    /// formula on the backdrop's and source's pixels. Left, where the layer draws nothing: the
    /// backdrop as it was — or cleared, for the operators that clear where the source is
    /// transparent (they act on the whole backdrop group).
    @Test(arguments: names)
    func modeMatchesItsFormula(_ mode: BlendReference.Mode, _ name: String) {
        for (s, d) in Self.pairs {
            let backdrop = Self.render(4, 2) { Self.box($0, CGRect(x: 0, y: 0, width: 4, height: 2), d) }[3, 1]
            let source = Self.render(4, 2) { Self.box($0, CGRect(x: 2, y: 0, width: 2, height: 2), s) }[3, 1]
            let img = Self.render(4, 2) { root in
                Self.box(root, CGRect(x: 0, y: 0, width: 4, height: 2), d)
                Self.box(root, CGRect(x: 2, y: 0, width: 2, height: 2), s, filter: name)
            }
            let want = BlendReference.composite(Self.unit(source), onto: Self.unit(backdrop), mode)
            Self.expectNear(img[3, 1], want, "\(name) \(s) onto \(d)")
            Self.expectNear(img[2, 0], want, "\(name) \(s) onto \(d), top left of the layer")
            let outside = BlendReference.composite([0, 0, 0, 0], onto: Self.unit(backdrop), mode)
            Self.expectNear(img[0, 1], outside, "\(name) outside the layer")
        }
    }

    /// The modes are not normal in disguise: on the first pair each differs from source-over.
    @Test func modesDifferFromNormal() {
        let (s, d) = Self.pairs[0]
        func draw(_ filter: String?) -> RGBA8 {
            Self.render(2, 1) { root in
                Self.box(root, CGRect(x: 0, y: 0, width: 2, height: 1), d)
                Self.box(root, CGRect(x: 0, y: 0, width: 2, height: 1), s, filter: filter)
            }[1, 0]
        }
        let normal = draw(nil)
        for (mode, name) in Self.names where mode != .normal {
            #expect(draw(name) != normal, "\(name)")
        }
    }

    /// The layer and its sublayers are one group: the children are composited normally with each
    /// other first, and the group is multiplied onto the backdrop once (not each child). The
    /// group's opacity applies to the group before the blend.
    @Test func subtreeIsBlendedAsOneIsolatedGroup() {
        let backdrop = CGColor(red: 0.8, green: 0.8, blue: 0.8, alpha: 1)
        let a = CGColor(red: 1, green: 0.5, blue: 0.5, alpha: 1)
        let b = CGColor(red: 0.5, green: 1, blue: 0.25, alpha: 0.5)
        func scene(opacity: Float) -> PixelBuffer {
            Self.render(6, 2) { root in
                Self.box(root, CGRect(x: 0, y: 0, width: 6, height: 2), backdrop)
                let g = Self.box(root, CGRect(x: 0, y: 0, width: 6, height: 2), nil, filter: "multiplyBlendMode")
                g.opacity = opacity
                Self.box(g, CGRect(x: 0, y: 0, width: 4, height: 2), a)
                Self.box(g, CGRect(x: 2, y: 0, width: 4, height: 2), b)
            }
        }
        // The pixels of each part as drawn alone.
        let D = Self.unit(Self.render(1, 1) { Self.box($0, CGRect(x: 0, y: 0, width: 1, height: 1), backdrop) }[0, 0])
        let A = Self.unit(Self.render(1, 1) { Self.box($0, CGRect(x: 0, y: 0, width: 1, height: 1), a) }[0, 0])
        let B = Self.unit(Self.render(1, 1) { Self.box($0, CGRect(x: 0, y: 0, width: 1, height: 1), b) }[0, 0])
        let img = scene(opacity: 1)
        let overlap = BlendReference.composite(B, onto: A, .normal)
        Self.expectNear(img[3, 1], BlendReference.composite(overlap, onto: D, .multiply), "overlap: (B over A) × D")
        Self.expectNear(img[0, 1], BlendReference.composite(A, onto: D, .multiply), "A alone")
        Self.expectNear(img[5, 1], BlendReference.composite(B, onto: D, .multiply), "B alone")
        // Each child multiplied separately would give B × (A × D) in the overlap: green 0.4
        // instead of 0.6.
        let perChild = BlendReference.composite(B, onto: BlendReference.composite(A, onto: D, .multiply), .multiply)
        #expect(abs(Double(img[3, 1].g) - perChild[1] * 255) > 40)
        // Opacity ½ (128/255) scales the group, then the blend.
        let half = scene(opacity: 0.5)
        let k = 128.0 / 255
        Self.expectNear(half[0, 1], BlendReference.composite(A.map { $0 * k }, onto: D, .multiply), "A at opacity ½")
    }

    /// A `masksToBounds` container of several draws does not hide the backdrop from a blended
    /// sublayer (no offscreen group of the clip's own): the sublayer still multiplies with
    /// what is behind the container, and the clip still cuts it.
    @Test func clippingContainerDoesNotIsolate() {
        let backdrop = CGColor(red: 0.8, green: 0.4, blue: 0.2, alpha: 1)
        let s = CGColor(red: 0.5, green: 0.5, blue: 1, alpha: 1)
        let img = Self.render(8, 2) { root in
            Self.box(root, CGRect(x: 0, y: 0, width: 8, height: 2), backdrop)
            let clip = Self.box(root, CGRect(x: 0, y: 0, width: 6, height: 2), nil)
            clip.masksToBounds = true
            Self.box(clip, CGRect(x: 0, y: 0, width: 2, height: 2), Self.pairs[1].source)
            Self.box(clip, CGRect(x: 2, y: 0, width: 6, height: 2), s, filter: "multiplyBlendMode")
        }
        let D = Self.unit(Self.render(1, 1) { Self.box($0, CGRect(x: 0, y: 0, width: 1, height: 1), backdrop) }[0, 0])
        let S = Self.unit(Self.render(1, 1) { Self.box($0, CGRect(x: 0, y: 0, width: 1, height: 1), s) }[0, 0])
        Self.expectNear(img[4, 1], BlendReference.composite(S, onto: D, .multiply), "multiplied with the backdrop")
        Self.expectNear(img[7, 1], D, "clipped away")
    }

    /// A name Flipbook does not know (or a value that is not a name) composites normally, and
    /// says so once.
    @Test func unknownNamesCompositeNormally() {
        let (s, d) = Self.pairs[0]
        func draw(_ filter: Any?) -> PixelBuffer {
            Self.render(2, 1) { root in
                Self.box(root, CGRect(x: 0, y: 0, width: 2, height: 1), d)
                Self.box(root, CGRect(x: 1, y: 0, width: 1, height: 1), s, filter: filter)
            }
        }
        let normal = draw(nil)
        #expect(draw("noSuchBlendModeForTesting") == normal)
        #expect(draw(42) == normal)
        #expect(draw("") == normal)
        let said = _CompositingFilter.said.messages(containing: "noSuchBlendModeForTesting")
        #expect(said.count == 1)
        #expect(_CompositingFilter.blendMode("noSuchBlendModeForTesting") == .normal)
        #expect(_CompositingFilter.said.messages(containing: "noSuchBlendModeForTesting") == said)
    }

    @Test func namesAreReadInEveryDocumentedSpelling() {
        let accepted: [(String, CGBlendMode)] = [
            ("multiplyBlendMode", .multiply), ("CIMultiplyBlendMode", .multiply), ("MultiplyBlendMode", .multiply),
            ("multiply", .multiply), ("CIColorDodgeBlendMode", .colorDodge), ("colorBlendMode", .color),
            ("CIColorBlendMode", .color), ("plusL", .plusLighter), ("plusLighter", .plusLighter),
            ("CIAdditionCompositing", .plusLighter), ("plusD", .plusDarker), ("plusDarker", .plusDarker),
            ("sourceOver", .normal), ("CISourceOverCompositing", .normal), ("CISourceInCompositing", .sourceIn),
            ("destOut", .destinationOut), ("destinationOut", .destinationOut), ("clear", .clear), ("copy", .copy),
            ("xor", .xor), ("destinationAtop", .destinationAtop),
        ]
        for (name, mode) in accepted { #expect(_CompositingFilter.mode(named: name) == mode, "\(name)") }
        for name in ["", "CI", "blendMode", "Compositing", "gaussianBlur", "CIMultiply BlendMode", "multiplyblendmodes"] {
            #expect(_CompositingFilter.mode(named: name) == nil, "\(name)")
        }
    }

    /// A mask made of two shapes, the second composited with destinationOut: the second is cut
    /// out of the first, so the masked layer shows inside the first and not inside the second.
    @Test func destinationOutInsideAMaskSubtracts() {
        let img = Self.render(8, 8) { root in
            Self.box(root, CGRect(x: 0, y: 0, width: 8, height: 8), CGColor(red: 0, green: 0, blue: 1, alpha: 1))
            let l = Self.box(root, CGRect(x: 0, y: 0, width: 8, height: 8), CGColor(red: 0, green: 1, blue: 0, alpha: 1))
            let mask = CALayer()
            mask.frame = CGRect(x: 0, y: 0, width: 8, height: 8)
            Self.box(mask, CGRect(x: 0, y: 0, width: 6, height: 8), .black)                          // shape 1
            Self.box(mask, CGRect(x: 2, y: 2, width: 6, height: 4), .black, filter: "destinationOut")  // shape 2
            l.mask = mask
        }
        #expect(img[1, 4] == .green)      // shape 1 only
        #expect(img[0, 0] == .green && img[5, 7] == .green)
        #expect(img[3, 3] == .blue)       // shape 1 minus shape 2
        #expect(img[7, 4] == .blue)       // shape 2 only: nothing to subtract from, nothing shown
        #expect(img[7, 0] == .blue)       // neither
        // Half-transparent subtraction leaves half.
        let half = Self.render(4, 1) { root in
            let l = Self.box(root, CGRect(x: 0, y: 0, width: 4, height: 1), .white)
            let mask = CALayer()
            mask.frame = CGRect(x: 0, y: 0, width: 4, height: 1)
            Self.box(mask, CGRect(x: 0, y: 0, width: 4, height: 1), .black)
            Self.box(mask, CGRect(x: 2, y: 0, width: 2, height: 1), CGColor(gray: 0, alpha: 0.5), filter: "destinationOut")
            l.mask = mask
        }
        #expect(half[0, 0] == .white && half[3, 0].a == 127)   // 255 − 128 (0.5 → 128)
    }

    /// Band edges do not change the picture of unbounded operators and blended groups (several
    /// thread counts and band heights give the same bytes).
    @Test func blendedFramesAreThreadIndependent() throws {
        for name in ["sourceIn", "multiplyBlendMode", "hueBlendMode", "copy"] {
            let tree: RenderLayer = VirtualRunLoop().run {
                let root = CALayer()
                root.frame = CGRect(x: 0, y: 0, width: 24, height: 17)
                Self.box(root, CGRect(x: 1, y: 2, width: 20, height: 13), Self.pairs[0].backdrop)
                let l = Self.box(root, CGRect(x: 5, y: 4.5, width: 12, height: 9.3), nil, filter: name)
                Self.box(l, CGRect(x: 0, y: 0, width: 8, height: 6), Self.pairs[0].source)
                Self.box(l, CGRect(x: 4, y: 3, width: 8, height: 6), Self.pairs[2].source)
                l.transform = CATransform3DMakeRotation(0.3, 0, 0, 1)
                return root.makeRenderTree()
            }
            try TestScene.renderExpectingThreadIndependence(tree, 24, 17)
        }
    }
}

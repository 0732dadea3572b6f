import Testing
@testable import Flipbook
import Foundation

/// Declarations that must read as Apple's Swift API: each line below compiles only if the
/// signature (labels, optionality, parameter and result types) matches Apple's, so code ported
/// from iOS that uses them compiles unchanged. Behaviour is checked where it is new.
@Suite struct AppleSignatureTests {
    @Test func signaturesMatchApple() {
        // CAValueFunction: failable initializer.
        let _: (CAValueFunctionName) -> CAValueFunction? = CAValueFunction.init(name:)
        // CGPath: optional copies, the two applier forms, pointer transforms.
        let _: (CGPath) -> () -> CGPath? = CGPath.copy
        let _: (CGPath) -> () -> CGMutablePath? = CGPath.mutableCopy
        let _: (CGPath) -> ((UnsafePointer<CGPathElement>) -> Void) -> Void = CGPath.applyWithBlock
        let _: (CGPath) -> (UnsafeMutableRawPointer?, CGPathApplierFunction) -> Void = CGPath.apply(info:function:)
        let _: (CGRect, UnsafePointer<CGAffineTransform>?) -> CGPath = CGPath.init(rect:transform:)
        let _: (CGRect, UnsafePointer<CGAffineTransform>?) -> CGPath = CGPath.init(ellipseIn:transform:)
        // CALayer: drawing, layout, search and tree members.
        let _: (CALayer) -> (CGContext) -> Void = CALayer.draw(in:)
        let _: (CALayer) -> () -> Void = CALayer.display
        let _: (CALayer) -> () -> Void = CALayer.layoutSublayers
        let _: (CALayer) -> () -> CGSize = CALayer.preferredFrameSize
        let _: (CALayer) -> (CGPoint) -> CALayer? = CALayer.hitTest
        let _: (CALayer) -> (CGPoint) -> Bool = CALayer.contains
        let _: (CALayer) -> (CAAnimation, String?) -> Void = CALayer.add(_:forKey:)
        let _: (CALayer) -> (String) -> CAAction? = CALayer.action(forKey:)
        let _: (String) -> Bool = CALayer.needsDisplay(forKey:)
        let _: (String) -> CAAction? = CALayer.defaultAction(forKey:)
        let _: (String) -> Any? = CALayer.defaultValue(forKey:)
        let _: (CALayer) -> () -> CGAffineTransform = CALayer.affineTransform
        let _: (CALayer) -> (CGAffineTransform) -> Void = CALayer.setAffineTransform
        let _: (CALayer) -> () -> Bool = CALayer.contentsAreFlipped
        let _: (CALayer) -> (String) -> Bool = CALayer.shouldArchiveValue(forKey:)
        // Properties real code sets (types as Apple's).
        let _: ReferenceWritableKeyPath<CALayer, Bool> = \.shouldRasterize
        let _: ReferenceWritableKeyPath<CALayer, CGFloat> = \.rasterizationScale
        let _: ReferenceWritableKeyPath<CALayer, Bool> = \.allowsEdgeAntialiasing
        let _: ReferenceWritableKeyPath<CALayer, CAEdgeAntialiasingMask> = \.edgeAntialiasingMask
        let _: ReferenceWritableKeyPath<CALayer, Float> = \.minificationFilterBias
        let _: ReferenceWritableKeyPath<CALayer, CALayerContentsFormat> = \.contentsFormat
        let _: ReferenceWritableKeyPath<CALayer, CALayerCornerCurve> = \.cornerCurve
        let _: ReferenceWritableKeyPath<CALayer, Bool> = \.isOpaque
        let _: ReferenceWritableKeyPath<CALayer, Bool> = \.drawsAsynchronously
        let _: ReferenceWritableKeyPath<CASpringAnimation, Bool> = \.allowsOverdamping
        let _: ReferenceWritableKeyPath<CAShapeLayer, [NSNumber]?> = \.lineDashPattern
        let _: ReferenceWritableKeyPath<CAShapeLayer, CGPath?> = \.path
        let _: ReferenceWritableKeyPath<CALayer, Bool> = \.isGeometryFlipped
        let _: ReferenceWritableKeyPath<CALayer, Any?> = \.compositingFilter
        let _: ReferenceWritableKeyPath<CALayer, [Any]?> = \.filters
        let _: ReferenceWritableKeyPath<CALayer, [Any]?> = \.backgroundFilters
        let _: ReferenceWritableKeyPath<CALayer, Bool> = \.wantsExtendedDynamicRangeContent
        let _: (NSCoder) -> CALayer? = CALayer.init(coder:)
        let _: (NSCoder) -> CAAnimation? = CAAnimation.init(coder:)
        let _: (CAAnimation) -> (String) -> Bool = CAAnimation.shouldArchiveValue(forKey:)
        let _: ReferenceWritableKeyPath<CAAnimation, CAFrameRateRange> = \.preferredFrameRateRange
        let _: (Float, Float, Float?) -> CAFrameRateRange = CAFrameRateRange.init(minimum:maximum:preferred:)
        let _: ReferenceWritableKeyPath<CATransition, Any?> = \.filter
        // CATextLayer and the Core Graphics text it rests on.
        let _: ReferenceWritableKeyPath<CATextLayer, Any?> = \.string
        let _: ReferenceWritableKeyPath<CATextLayer, CGFloat> = \.fontSize
        let _: ReferenceWritableKeyPath<CATextLayer, CGColor?> = \.foregroundColor
        let _: ReferenceWritableKeyPath<CATextLayer, Bool> = \.isWrapped
        let _: ReferenceWritableKeyPath<CATextLayer, CATextLayerTruncationMode> = \.truncationMode
        let _: ReferenceWritableKeyPath<CATextLayer, CATextLayerAlignmentMode> = \.alignmentMode
        let _: ReferenceWritableKeyPath<CATextLayer, Bool> = \.allowsFontSubpixelQuantization
        let _: (CGDataProvider) -> CGFont? = CGFont.init(_:)
        let _: KeyPath<CGFont, Int32> = \.unitsPerEm
        let _: KeyPath<CGFont, Int32> = \.ascent
        let _: KeyPath<CGFont, Int32> = \.descent
        let _: KeyPath<CGFont, Int32> = \.leading
        let _: KeyPath<CGFont, CGRect> = \.fontBBox
        let _: (CGFont) -> (UnsafePointer<CGGlyph>, Int, UnsafeMutablePointer<Int32>) -> Bool = CGFont.getGlyphAdvances(glyphs:count:advances:)
        let _: (CGContext) -> ([CGGlyph], [CGPoint]) -> Void = CGContext.showGlyphs(_:at:)
        let _: (CGContext) -> (CGFont) -> Void = CGContext.setFont
        let _: (CGContext) -> (CGFloat) -> Void = CGContext.setFontSize
        let _: (CGContext) -> (CGTextDrawingMode) -> Void = CGContext.setTextDrawingMode
        let _: ReferenceWritableKeyPath<CGContext, CGAffineTransform> = \.textMatrix
        let _: ReferenceWritableKeyPath<CGContext, CGPoint> = \.textPosition
        let _: CATextLayerTruncationMode = .end, _: CATextLayerAlignmentMode = .justified
        // CAEmitterCell and CAEmitterLayer as CAEmitterCell.h / CAEmitterLayer.h import them
        // (issue 37, item 6): `style` (NSDictionary), the NSString filters, the archive
        // initializer, the property model's class method; the emitter's typed modes and seed.
        let _: ReferenceWritableKeyPath<CAEmitterCell, [AnyHashable: Any]?> = \.style
        let _: ReferenceWritableKeyPath<CAEmitterCell, String> = \.minificationFilter
        let _: ReferenceWritableKeyPath<CAEmitterCell, String> = \.magnificationFilter
        let _: ReferenceWritableKeyPath<CAEmitterCell, Float> = \.minificationFilterBias
        let _: ReferenceWritableKeyPath<CAEmitterCell, Any?> = \.contents
        let _: ReferenceWritableKeyPath<CAEmitterCell, CGColor?> = \.color
        let _: ReferenceWritableKeyPath<CAEmitterCell, [CAEmitterCell]?> = \.emitterCells
        let _: ReferenceWritableKeyPath<CAEmitterCell, Bool> = \.isEnabled
        let _: (NSCoder) -> CAEmitterCell? = CAEmitterCell.init(coder:)
        let _: (String) -> Any? = CAEmitterCell.defaultValue(forKey:)
        let _: (CAEmitterCell) -> (String) -> Bool = CAEmitterCell.shouldArchiveValue(forKey:)
        let _: ReferenceWritableKeyPath<CAEmitterLayer, CAEmitterLayerEmitterShape> = \.emitterShape
        let _: ReferenceWritableKeyPath<CAEmitterLayer, CAEmitterLayerEmitterMode> = \.emitterMode
        let _: ReferenceWritableKeyPath<CAEmitterLayer, CAEmitterLayerRenderMode> = \.renderMode
        let _: ReferenceWritableKeyPath<CAEmitterLayer, UInt32> = \.seed
        let _: ReferenceWritableKeyPath<CAEmitterLayer, Float> = \.birthRate
        let _: (String) -> Any? = CAAnimation.defaultValue(forKey:)
    }

    /// The archive initializers exist (so iOS-shaped subclasses compile, `super.init(coder:)`
    /// included) and fail: Flipbook has no archive format. Frame-rate hints are stored and copied.
    @Test func archivesFailAndHintsAreKept() {
        let coder = NSCoder()
        #expect(CALayer(coder: coder) == nil)
        #expect(CABasicAnimation(coder: coder) == nil)
        let a = CABasicAnimation(keyPath: "opacity")
        #expect(a.preferredFrameRateRange == .default && CAFrameRateRange.default.preferred == 0)
        a.preferredFrameRateRange = CAFrameRateRange(minimum: 30, maximum: 120, preferred: 60)
        #expect((a.copy() as! CABasicAnimation).preferredFrameRateRange.preferred == 60)
        let t = CATransition()
        t.filter = "CIFilter"
        #expect((t.copy() as! CATransition).filter as? String == "CIFilter")
        withRunLoop { _ in
            let l = CALayer()
            #expect(l.filters == nil && l.compositingFilter == nil && !l.wantsExtendedDynamicRangeContent)
            l.filters = ["blur"]
            l.compositingFilter = "multiplyBlendMode"
            #expect(l.value(forKey: "filters") as? [String] == ["blur"])
            #expect(CALayer(layer: l).compositingFilter as? String == "multiplyBlendMode")
        }
    }

    @Test func newMembersBehave() {
        #expect(CAValueFunction(name: CAValueFunctionName(rawValue: "spin")) == nil)
        #expect(CAValueFunction(name: .rotateZ)?.name == .rotateZ)
        // apply(info:function:) hands every element and the info pointer to the callback.
        let p = CGMutablePath()
        p.move(to: .zero); p.addLine(to: CGPoint(x: 1, y: 0)); p.addCurve(to: CGPoint(x: 2, y: 2), control1: CGPoint(x: 1, y: 1), control2: CGPoint(x: 2, y: 1)); p.closeSubpath()
        var types: [CGPathElementType] = []
        withUnsafeMutablePointer(to: &types) { ptr in
            p.apply(info: UnsafeMutableRawPointer(ptr)) { info, element in
                info!.assumingMemoryBound(to: [CGPathElementType].self).pointee.append(element.pointee.type)
            }
        }
        #expect(types == [.moveToPoint, .addLineToPoint, .addCurveToPoint, .closeSubpath])
        #expect(p.copy() == p && p.mutableCopy() == p && p.mutableCopy() !== p)
        // Accepted members: stored, KVC-reachable with Apple's keys and defaults, no effect on pixels.
        withRunLoop { _ in
            let l = CALayer()
            #expect(!l.shouldRasterize && l.rasterizationScale == 1 && l.allowsEdgeAntialiasing)
            #expect(l.edgeAntialiasingMask == [.layerLeftEdge, .layerRightEdge, .layerBottomEdge, .layerTopEdge])
            #expect(l.contentsFormat == .RGBA8Uint && l.cornerCurve == .circular && l.minificationFilterBias == 0)
            l.setValue(true, forKey: "shouldRasterize")
            l.setValue(2.0, forKey: "rasterizationScale")
            l.setValue(CALayerCornerCurve.continuous, forKey: "cornerCurve")
            #expect(l.shouldRasterize && l.rasterizationScale == 2 && l.cornerCurve == .continuous)
            let mask = l.value(forKey: "edgeAntialiasingMask") as? CAEdgeAntialiasingMask
            #expect(mask == l.edgeAntialiasingMask)
            l.setAffineTransform(CGAffineTransform(rotationAngle: .pi / 2))
            #expect(abs(l.transform.m12 - 1) < 1e-12 && abs(l.affineTransform().b - 1) < 1e-12)
            #expect(!l.contentsAreFlipped() && l.shouldArchiveValue(forKey: "bounds"))
            // Presentation copies carry them.
            #expect(CALayer(layer: l).shouldRasterize)
        }
    }

    /// Core Foundation spellings real text and gradient code writes (issue 37, item 7): each line
    /// compiles only with Apple's signature (`CATextLayer.font: CFTypeRef?`,
    /// `CTFontCreateWithName(CFString, …)`, `CGGradient(colorsSpace:colors: CFArray, …)`,
    /// failable `CGDataProvider(data: CFData)` / `(url: CFURL)`, `CGFont(CFString)`), and means
    /// what it means on Apple.
    @Test func coreFoundationSpellings() throws {
        let _: ReferenceWritableKeyPath<CATextLayer, CFTypeRef?> = \.font
        let _: (CFString, CGFloat, UnsafePointer<CGAffineTransform>?) -> CTFont = CTFontCreateWithName
        let _: (CGColorSpace?, CFArray, UnsafePointer<CGFloat>?) -> CGGradient? = CGGradient.init(colorsSpace:colors:locations:)
        let _: (CFData) -> CGDataProvider? = CGDataProvider.init(data:)
        let _: (CFURL) -> CGDataProvider? = CGDataProvider.init(url:)
        let _: (CFString) -> CGFont? = CGFont.init(_:)

        let t = CATextLayer()
        t.font = "DejaVu Sans Bold" as CFTypeRef                 // an NSString, as on Apple
        #expect(t.font is NSString && CATextLayer._resolveFont(t.font) != nil)
        let didot = CTFontCreateWithName("DejaVu Sans" as CFString, 50, nil)
        #expect(didot.pointSize == 50)
        let name: String = "DejaVu Sans"
        #expect(CTFontCreateWithName(name as CFString, 0, nil).pointSize == 12)
        let c1 = CGColor(red: 1, green: 0, blue: 0, alpha: 1), c2 = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        let locations: [CGFloat] = [0, 1]
        let g = try #require(CGGradient(colorsSpace: CGColorSpaceCreateDeviceRGB(), colors: [c1, c2] as CFArray, locations: locations))
        let h = try #require(CGGradient(colorsSpace: CGColorSpaceCreateDeviceRGB(), colors: [c1, c2], locations: locations))
        #expect(g._stops == h._stops)
        #expect(CGGradient(colorsSpace: nil, colors: ["red"] as CFArray, locations: nil) == nil)   // not CGColors
        let bytes = CGFont.bundledFontData(0)
        let provider = try #require(CGDataProvider(data: bytes as CFData))
        #expect(CGFont(provider) != nil)
        #expect(CGDataProvider(url: URL(fileURLWithPath: "/nonexistent/flipbook.ttf") as CFURL) == nil)
        #expect(CGFont("DejaVu Sans" as CFString) != nil)
        // Attribute dictionaries keyed by Core Text's CFString names, as Apple code writes them.
        let attrs: [NSAttributedString.Key: Any] = [kCTFontAttributeName as NSAttributedString.Key: didot,
                                                    kCTForegroundColorAttributeName as NSAttributedString.Key: c1]
        let line = CTLineCreateWithAttributedString(NSAttributedString(string: "Hi", attributes: attrs) as CFAttributedString)
        var ascent: CGFloat = 0
        _ = CTLineGetTypographicBounds(line, &ascent, nil, nil)
        #expect(ascent > 40)                                      // the 50 pt font, not the 12 pt default
    }
}

import Testing
@testable import FlipbookRender
import Flipbook
import FlipbookPixels
import Foundation

/// Helpers shared by the compositor tests.
enum TestScene {
    static let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    static let green = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
    static let blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)

    /// A root of `w × h` points, positioned so that its space is the device's.
    static func root(_ w: Double, _ h: Double, _ sub: [RenderLayer], background: CGColor? = nil) -> RenderLayer {
        RenderLayer(bounds: CGRect(x: 0, y: 0, width: w, height: h), position: CGPoint(x: w / 2, y: h / 2),
                      backgroundColor: background, sublayers: sub)
    }

    /// A layer whose frame is `rect` (anchor at the centre, no transform).
    static func box(_ rect: CGRect, _ color: CGColor? = nil, opacity: Float = 1, transform: CATransform3D = CATransform3DIdentity,
                    zPosition: CGFloat = 0, contents: CGImage? = nil, configure: ((inout Options) -> Void)? = nil,
                    sublayers: [RenderLayer] = []) -> RenderLayer {
        var o = Options()
        configure?(&o)
        return RenderLayer(
            bounds: CGRect(x: 0, y: 0, width: rect.width, height: rect.height),
            position: CGPoint(x: rect.midX, y: rect.midY), zPosition: zPosition, transform: transform,
            isHidden: o.hidden, opacity: opacity, allowsGroupOpacity: o.groupOpacity, masksToBounds: o.masksToBounds,
            isDoubleSided: o.doubleSided, backgroundColor: color, cornerRadius: o.cornerRadius,
            maskedCorners: o.maskedCorners, borderWidth: o.borderWidth, borderColor: o.borderColor,
            contents: contents, contentsRect: o.contentsRect, contentsCenter: o.contentsCenter,
            contentsGravity: o.gravity, contentsScale: o.contentsScale,
            minificationFilter: o.filter, magnificationFilter: o.filter,
            shadowOpacity: o.shadowOpacity, shadowOffset: o.shadowOffset, shadowRadius: o.shadowRadius,
            mask: o.mask, sublayers: sublayers, transition: o.transition, shadowPath: o.shadowPath)
    }

    struct Options {
        var hidden = false, groupOpacity = true, masksToBounds = false, doubleSided = true
        var cornerRadius: CGFloat = 0, maskedCorners: CACornerMask = .all
        var borderWidth: CGFloat = 0, borderColor: CGColor? = .black
        var contentsRect = CGRect(x: 0, y: 0, width: 1, height: 1)
        var contentsCenter = CGRect(x: 0, y: 0, width: 1, height: 1)
        var gravity: CALayerContentsGravity = .resize, contentsScale: CGFloat = 1
        var filter: CALayerContentsFilter = .linear
        var shadowOpacity: Float = 0, shadowOffset = CGSize(width: 0, height: -3), shadowRadius: CGFloat = 3
        var mask: RenderLayer? = nil
        var shadowPath: CGPath? = nil
        var transition: RenderTransition? = nil
    }

    /// A solid image of `w × h` texels of the premultiplied colour `c`.
    static func image(_ w: Int, _ h: Int, _ c: RGBA8) -> CGImage {
        var b = PixelBuffer(width: w, height: h)
        b.fill(c)
        return CGImage(pixelBuffer: b)
    }

    static func render(_ root: RenderLayer, _ w: Int, _ h: Int, threads: Int = 1, scale: CGFloat = 1,
                       background: RGBA8 = .black) throws -> PixelBuffer {
        try Compositor(threadCount: threads, bandHeight: 8).render(root, width: w, height: h, scale: scale, background: background)
    }

    /// Renders `root` with 1 and 2 threads (bands of 8 rows) and with 3 threads in bands of 5,
    /// expects the same bytes from all three and valid premultiplied pixels, and returns the
    /// one-thread picture.
    @discardableResult
    static func renderExpectingThreadIndependence(_ root: RenderLayer, _ w: Int, _ h: Int,
                                                  sourceLocation: SourceLocation = #_sourceLocation) throws -> PixelBuffer {
        let a = try render(root, w, h, threads: 1)
        let b = try render(root, w, h, threads: 2)
        let c = try Compositor(threadCount: 3, bandHeight: 5).render(root, width: w, height: h, background: .black)
        #expect(a == b, "1 vs 2 threads", sourceLocation: sourceLocation)
        #expect(a == c, "1 vs 3 threads, bands of 5", sourceLocation: sourceLocation)
        #expect(a.isValidPremultiplied, sourceLocation: sourceLocation)
        return a
    }
}

extension RGBA8 {
    static let red = RGBA8(r: 255, g: 0, b: 0, a: 255)
    static let green = RGBA8(r: 0, g: 255, b: 0, a: 255)
    static let blue = RGBA8(r: 0, g: 0, b: 255, a: 255)
}

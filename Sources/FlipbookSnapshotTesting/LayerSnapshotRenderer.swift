import Flipbook
import FlipbookPixels
import FlipbookRender
import Foundation

/// Draws the pictures the strategies compare: a layer's model tree (`.image`), its
/// presentation tree at a time after a commit (`.image(at:)`), and a path (`CGPath`'s `.image`).
///
/// ## Layers
/// What iOS's strategy draws — `layer.render(in:)` into a `UIGraphicsImageRenderer` of
/// `layer.bounds` at scale 1:
/// - the layer and its subtree in the layer's **own space**: its own `position`, `anchorPoint`,
///   `transform` and superlayer play no part; `bounds.origin` is the top-left pixel's corner
///   and y grows down, as in UIKit;
/// - `bounds.size` pixels, each side rounded **up** to a whole pixel (a side within 1e-9 of a
///   whole number is that number), on a transparent background;
/// - a side ≤ 0 gives an empty image; a side that is not finite or over
///   `PixelBuffer.maximumDimension` gives an unrenderable one.
///
/// ## Paths
/// What macOS's strategy draws (`NSImage(size:)` + `lockFocus`): the path's
/// `boundingBoxOfPath`, sides rounded up, in a fresh bitmap context — **y up**, so the path's
/// `minY` is at the bottom of the picture, as on macOS — translated by minus the box's origin,
/// `addPath` + `drawPath(using:)` in the context's defaults (opaque black fill and stroke, line
/// width 1, antialiased), on transparent. An empty path (no box) or a box with no area gives
/// an empty image.
package enum LayerSnapshotRenderer {
    /// A side in whole pixels, or why it cannot be drawn.
    enum Side { case pixels(Int), invalid(String) }

    /// `points` as whole pixels at scale 1, or why not. A value ≤ 0 gives 0.
    static func pixels(_ points: CGFloat, _ label: String) -> Side {
        let p = Double(points)
        guard p.isFinite else { return .invalid("its \(label) is \(p), which is not a finite number of points") }
        guard p > 0 else { return .pixels(0) }
        let nearest = p.rounded()
        let n = abs(p - nearest) <= 1e-9 ? nearest : p.rounded(.up)
        guard n <= Double(PixelBuffer.maximumDimension) else {
            return .invalid("its \(label) of \(p) points is more than \(PixelBuffer.maximumDimension) pixels")
        }
        return .pixels(Int(n))
    }

    /// A bitmap context to draw in, or the image to return instead.
    enum Canvas { case context(CGContext), image(SnapshotImage) }

    /// A fresh premultiplied RGBA8 bitmap context for `size` points, or the empty /
    /// unrenderable image to return instead.
    static func context(for size: CGSize, what: String) -> Canvas {
        let w: Int, h: Int
        switch (pixels(size.width, "width"), pixels(size.height, "height")) {
        case (.invalid(let why), _), (_, .invalid(let why)):
            return .image(.unrenderable("\(what) cannot be drawn: \(why)"))
        case (.pixels(let a), .pixels(let b)):
            w = a; h = b
        }
        guard w > 0, h > 0 else { return .image(.empty(width: w, height: h)) }
        guard let ctx = CGContext(data: nil, width: w, height: h, bitsPerComponent: 8, bytesPerRow: 0,
                                  space: CGColorSpaceCreateDeviceRGB(),
                                  bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue) else {
            return .image(.unrenderable("\(what) cannot be drawn: no \(w)×\(h) bitmap"))
        }
        return .context(ctx)
    }

    /// `ctx` set up as `UIGraphicsImageRenderer(bounds:)` sets up its context at scale 1: y down
    /// with `bounds.origin` at the top-left corner.
    static func orientLikeUIKit(_ ctx: CGContext, bounds: CGRect) {
        ctx.translateBy(x: 0, y: CGFloat(ctx.height))
        ctx.scaleBy(x: 1, y: -1)
        ctx.translateBy(x: -bounds.minX, y: -bounds.minY)
    }

    static func image(of ctx: CGContext) -> SnapshotImage {
        guard let image = ctx.makeImage() else { return .unrenderable("the bitmap could not be read back") }
        return SnapshotImage(cgImage: image)
    }

    /// The model tree, as iOS's `.image` strategy draws it (laid out first, as it does).
    static func modelImage(of layer: CALayer) -> SnapshotImage {
        let bounds = layer.bounds
        switch context(for: bounds.size, what: "the layer") {
        case .image(let image):
            return image
        case .context(let ctx):
            layer.setNeedsLayout()
            layer.layoutIfNeeded()
            orientLikeUIKit(ctx, bounds: bounds)
            layer.render(in: ctx)
            return image(of: ctx)
        }
    }

    /// The presentation tree `time` seconds after a commit made now on the layer's run loop
    /// (see `Snapshotting.image(at:precision:perceptualPrecision:)`).
    static func presentationImage(of layer: CALayer, at time: CFTimeInterval) -> SnapshotImage {
        guard time.isFinite, time >= 0 else {
            return .unrenderable("the layer cannot be drawn at \(time) s after the commit: the time must be finite and not negative")
        }
        let loop = layer._runLoop
        return loop.run { () -> SnapshotImage in
            // Make the tree live (a no-op for an attached root, a mask, or a second call).
            var root = layer
            while let up = root.superlayer { root = up }
            if root.superlayer == nil { loop.attach(root) }
            loop.endTurn()   // the commit: implicit animations of pending changes start now
            let target = loop.currentTime + time
            loop.advance(to: target)
            let node = layer.makeRenderTree(at: target)
            let bounds = node.bounds
            switch context(for: bounds.size, what: "the layer") {
            case .image(let image):
                return image
            case .context(let ctx):
                orientLikeUIKit(ctx, bounds: bounds)
                CALayer._render(node, in: ctx)
                return image(of: ctx)
            }
        }
    }

    /// The path drawn as macOS's `.image` strategy draws it.
    static func pathImage(of path: CGPath, drawingMode: CGPathDrawingMode) -> SnapshotImage {
        let box = path.boundingBoxOfPath
        if box.isNull { return .empty(width: 0, height: 0) }
        switch context(for: box.size, what: "the path") {
        case .image(let image):
            return image
        case .context(let ctx):
            guard box.minX.isFinite, box.minY.isFinite else {
                return .unrenderable("the path cannot be drawn: its bounding box \(box) is not finite")
            }
            ctx.translateBy(x: -box.minX, y: -box.minY)
            ctx.addPath(path)
            ctx.drawPath(using: drawingMode)
            return image(of: ctx)
        }
    }

    /// ``SnapshotImage/placeholder``: drawn once, on a run loop of its own.
    static func placeholder() -> PixelBuffer {
        VirtualRunLoop().run {
            let card = CALayer()
            card.bounds = CGRect(x: 0, y: 0, width: 400, height: 80)
            card.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            let label = CATextLayer()
            label.frame = CGRect(x: 12, y: 12, width: 376, height: 60)
            label.foregroundColor = CGColor.white
            label.fontSize = 14
            label.isWrapped = true
            label.alignmentMode = .center
            label.string = "Error: no image could be made of this snapshot: its size was zero, "
                + "or it could not be drawn. Give the layer a size in the test."
            card.addSublayer(label)
            switch modelImage(of: card).storage {
            case .pixels(let p): return p
            default:
                var red = PixelBuffer(width: 400, height: 80)
                red.fill(RGBA8(r: 255, g: 0, b: 0, a: 255))
                return red
            }
        }
    }
}

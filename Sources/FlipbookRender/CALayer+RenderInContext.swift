import Flipbook
import FlipbookPixels
import Foundation

extension CALayer {
    /// Renders the layer and its sublayers into `ctx` (Apple's `render(in:)`), in the layer's
    /// own coordinate space: a point `p` of the layer's bounds lands on `ctx.ctm` applied to `p`
    /// (the layer's own `position`, `transform` and superlayer play no part). As on Apple it
    /// draws **model values** — "directly from the layer tree, ignoring any animations" — so a
    /// layer in the middle of an animation renders its final state.
    ///
    /// Everything the compositor draws is drawn (backgrounds, borders, contents, shapes,
    /// shadows, masks, `masksToBounds`, sublayers with their transforms), with the same pixels a
    /// recording of the layer at an identity CTM would have. Layers still marked by
    /// `setNeedsLayout()`/`setNeedsDisplay()` are laid out and displayed first, as the next
    /// commit would do. The result is composited onto the context with its current clip, alpha
    /// and blend mode (as one image, like a transparency layer).
    ///
    /// **Orientation.** Flipbook's bitmap contexts have UIKit's orientation (origin top-left,
    /// y down; see `CGContext`), so `render(in:)` into a fresh context gives an upright picture,
    /// as `UIGraphicsImageRenderer` does on iOS.
    ///
    /// **Where it lives.** Apple declares it `open` on `CALayer`; here it is an extension in
    /// `FlipbookRender` (the compositor is not visible from the model module), so it cannot be
    /// overridden. Import `FlipbookRender` (or `FlipbookCLI`'s umbrella) to call it.
    public func render(in ctx: CGContext) {
        _prepareSubtreeForRender()
        let ctm = ctx.ctm
        let w = ctx.width, h = ctx.height
        guard w > 0, h > 0, [ctm.a, ctm.b, ctm.c, ctm.d, ctm.tx, ctm.ty].allSatisfy(\.isFinite),
              ctm.a * ctm.d - ctm.b * ctm.c != 0 else { return }
        let node = _makeModelRenderTree()
        // The root's sublayer transform undoes the layer's own placement (position, anchor,
        // zPosition, transform: `local`, see `_Planner`) and applies the CTM, so a point of the
        // layer's bounds lands where the CTM puts it. A layer whose own transform cannot be
        // inverted (a zero scale) draws nothing.
        guard let unplace = _Planner.local(node, offset: (0, 0))._inverse else { return }
        let root = RenderLayer(
            bounds: CGRect(x: 0, y: 0, width: w, height: h), position: .zero, anchorPoint: .zero,
            sublayerTransform: unplace * CATransform3DMakeAffineTransform(ctm), sublayers: [node])
        guard let pixels = try? Compositor(threadCount: 1).render(root, width: w, height: h) else { return }
        // Composite the picture pixel for pixel: identity CTM, flipped so that CG's image
        // drawing (first row at the rectangle's maxY) puts the first row at the top.
        ctx.saveGState()
        ctx.concatenate(ctm.inverted())
        ctx.translateBy(x: 0, y: CGFloat(h))
        ctx.scaleBy(x: 1, y: -1)
        ctx.draw(CGImage(pixelBuffer: pixels), in: CGRect(x: 0, y: 0, width: w, height: h))
        ctx.restoreGState()
    }

    /// Lays out and displays the layers of this subtree that are marked, parents first.
    private func _prepareSubtreeForRender() {
        var stack: [CALayer] = [self]
        while let l = stack.popLast() {
            l.layoutIfNeeded()
            l.displayIfNeeded()
            if let m = l.mask { stack.append(m) }
            stack.append(contentsOf: (l.sublayers ?? []).reversed())
        }
    }
}

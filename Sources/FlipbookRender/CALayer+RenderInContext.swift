import Flipbook
import FlipbookPixels
import Foundation

extension CALayer {
    /// Renders the layer and its sublayers into `ctx` (Apple's `render(in:)`), in the layer's
    /// own coordinate space: a point `p` of the layer's bounds lands on `ctx.ctm` applied to `p`
    /// (in device space)
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
    /// **Orientation.** As on iOS, the layer's y-down space goes through the CTM as it is: into a
    /// fresh bitmap context (y up, Apple's orientation; see `CGContext`) the picture comes out
    /// **upside down**, and code flips the CTM first — `translateBy(x: 0, y: h)`,
    /// `scaleBy(x: 1, y: -1)` — which is what `UIGraphicsImageRenderer` and
    /// `UIGraphicsBeginImageContext` contexts have already done. Inside a layer's `draw(in:)`
    /// (UIKit's y-down context) it is upright.
    ///
    /// **Where it lives.** Apple declares it `open` on `CALayer`; here it is an extension in
    /// `FlipbookRender` (the compositor is not visible from the model module), so it cannot be
    /// overridden. Import `FlipbookRender` (or `FlipbookCLI`'s umbrella) to call it.
    public func render(in ctx: CGContext) {
        _prepareSubtreeForRender()
        Self._render(_makeModelRenderTree(), in: ctx)
    }

    /// `render(in:)` of a snapshot already taken: draws `node` (a layer's render tree, model or
    /// presentation) into `ctx` in that layer's own space, as ``render(in:)`` draws the model.
    /// `FlipbookSnapshotTesting` draws presentation trees (`.image(at:)`) through it.
    package static func _render(_ node: RenderLayer, in ctx: CGContext) {
        let ctm = ctx._state.ctm           // user space → the bitmap's pixel rows (y down)
        let w = ctx.width, h = ctx.height
        guard w > 0, h > 0, [ctm.a, ctm.b, ctm.c, ctm.d, ctm.tx, ctm.ty].allSatisfy(\.isFinite),
              ctm.a * ctm.d - ctm.b * ctm.c != 0 else { return }
        // The root's sublayer transform undoes the layer's own placement (position, anchor,
        // zPosition, transform: `local`, see `_Planner`) and applies the CTM, so a point of the
        // layer's bounds lands where the CTM puts it. A layer whose own transform cannot be
        // inverted (a zero scale) draws nothing.
        guard let unplace = _Planner.local(node, offset: (0, 0))._inverse else { return }
        let root = RenderLayer(
            bounds: CGRect(x: 0, y: 0, width: w, height: h), position: .zero, anchorPoint: .zero,
            sublayerTransform: unplace * CATransform3DMakeAffineTransform(ctm), sublayers: [node])
        guard let pixels = try? Compositor(threadCount: 1).render(root, width: w, height: h) else { return }
        // Composite the picture pixel for pixel: device space (y up) as user space, where CG's
        // image drawing (first row at the rectangle's maxY) puts the first row at the top.
        ctx.saveGState()
        ctx._state.ctm = ctx._deviceToPixels
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

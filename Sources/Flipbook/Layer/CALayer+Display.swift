import Foundation
import FlipbookGraphics
/// The display cycle: how a layer that draws itself gets its `contents` (Apple's
/// `setNeedsDisplay()` → `display()` → `draw(in:)`).
///
/// **When.** `setNeedsDisplay()` marks the layer (and opens the implicit transaction, as on
/// Apple, so the end of the turn commits); the outermost commit runs the layout pass, then
/// `displayIfNeeded()` of every marked layer, in the order they were marked, while the
/// transaction is still open — changes made there (the new `contents`, for one) are part of
/// that commit. A layer marked during the display pass is displayed at the next commit.
///
/// **`display()`** (the default): if the delegate implements `display(_:)`, that is all;
/// otherwise the delegate gets `layerWillDraw(_:)`, then the layer makes its backing store — a
/// bitmap `CGContext` of `ceil(bounds.width × contentsScale) × ceil(bounds.height ×
/// contentsScale)` premultiplied RGBA8 pixels, cleared — calls `draw(in:)` with it and sets
/// `contents` to the context's image (through the `contents` setter: the action search runs,
/// so a live layer's new contents cross-fade in as Apple's do; set `actions = ["contents":
/// NSNull()]` to prevent it). An empty (or non-finite) size gives nil contents.
///
/// **The context** of `draw(in:)`: user space is the layer's bounds coordinates, y down as UIKit
/// sets it up — the CTM is `scale(contentsScale) · translate(−bounds.origin)`, so `bounds`
/// fills the bitmap and one point is `contentsScale` pixels. (`contentsScale` ≤ 0 or not finite
/// draws at scale 1.)
///
/// **Animated custom keys.** When an animation of a key for which
/// `class func needsDisplay(forKey:)` is true is in flight, the render snapshot
/// (`makeRenderTree(at:)`) has the layer's **presentation copy** display itself — the copy holds
/// the animated value, so `draw(in:)` (or the delegate's `draw(_:in:)`, which receives the copy)
/// reads it — and uses that image as the frame's contents (no cross-fade). The copy is fresh for
/// every snapshot and the model is not written, so the snapshot stays a pure function of
/// (tree, time): drawing code must not change the model either.
///
/// Chosen where Apple is silent: `setNeedsDisplay(_:)` marks the whole layer (Flipbook redraws
/// the whole backing store); `isOpaque` is accepted and stored (KVC key `opaque`) but the
/// backing store is always RGBA and cleared to transparent; `drawsAsynchronously` is accepted
/// and stored, with no effect (drawing is synchronous and deterministic).
extension CALayer {
    /// `setNeedsDisplay()`: marks the layer and queues it on its run loop. Presentation copies
    /// are never marked.
    final func _markNeedsDisplay() {
        guard _modelLayer == nil, !_isStandingInForPresentation else { return }
        _runLoop._ensureTransaction()
        guard !_needsDisplayFlag else { return }
        _needsDisplayFlag = true
        _runLoop._needsDisplay.append(_WeakLayer(self))
    }

    /// The default `display()`: the delegate's `display(_:)` if it implements it, else the
    /// backing store (see the type's documentation).
    final func _defaultDisplay() {
        if let d = delegate {
            _delegateDisplayIsDefault = false
            d.display(self)
            if !_delegateDisplayIsDefault { return }   // the delegate implements display(_:)
        }
        delegate?.layerWillDraw(self)
        contents = _drawBackingStore()
    }

    /// The backing store's pixel size for `bounds.size` at `contentsScale` (nil: empty or not
    /// finite).
    final var _backingStoreSize: (width: Int, height: Int, scale: CGFloat)? {
        let raw = contentsScale
        let scale = raw.isFinite && raw > 0 ? raw : 1
        let w = (bounds.width * scale).rounded(.up), h = (bounds.height * scale).rounded(.up)
        guard w.isFinite, h.isFinite, w >= 1, h >= 1, w <= CGFloat(Int32.max), h <= CGFloat(Int32.max) else { return nil }
        return (Int(w), Int(h), scale)
    }

    /// A fresh context of the backing-store size, `draw(in:)` into it, its image (nil when the
    /// size is empty or the context cannot be made).
    final func _drawBackingStore() -> CGImage? {
        guard let size = _backingStoreSize,
              let ctx = CGContext(data: nil, width: size.width, height: size.height, bitsPerComponent: 8,
                                  bytesPerRow: 0, space: CGColorSpaceCreateDeviceRGB(),
                                  bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue) else { return nil }
        ctx._orientTopDown()   // UIKit's layer context: origin top-left, y down (CTM (1, 0, 0, −1, 0, h))
        if contentsAreFlipped() {
            // Apple: a layer whose contents are flipped "applies a y-flip transform to the
            // graphics context before passing it to draw(in:)"; the compositor reflects the
            // image back, so drawing follows the (reflected) geometry.
            ctx.translateBy(x: 0, y: CGFloat(size.height))
            ctx.scaleBy(x: 1, y: -1)
        }
        ctx.scaleBy(x: size.scale, y: size.scale)
        let origin = bounds.origin
        if origin != .zero { ctx.translateBy(x: -origin.x, y: -origin.y) }
        ctx.saveGState()
        draw(in: ctx)
        ctx.restoreGState()
        return ctx.makeImage()
    }

    /// Presentation copies (render snapshot): if an animation of a key that needs display was
    /// applied to this copy, the copy is displayed and its contents replace any cross-fade.
    /// A copy of the model's own class displays itself; a copy of a subclass of yours (an instance
    /// of the nearest Flipbook class) is displayed by the model standing in for it
    /// (``_displayAsPresentation(of:)``), so your `draw(in:)` / `display()` runs. Changes only the
    /// copy.
    final func _displayIfAnimatingDisplayKey() {
        guard let model = _modelLayer, _presentationNeedsDisplay else { return }
        _presentationNeedsDisplay = false
        if type(of: model) == type(of: self) { display() } else { model._displayAsPresentation(of: self) }
        _contentsCrossfade = nil
    }

    /// Runs this model layer's `display()` with the values of its presentation copy `copy` in
    /// place, and gives the copy what it drew: the model's values are swapped with the copy's,
    /// setters store without actions or transactions (as on a copy) and `presentation()`
    /// returns the layer itself while it draws; then the copy takes the resulting values and the
    /// model gets its own back. Single-threaded, as every model access: the snapshot is built on
    /// the model's thread.
    final func _displayAsPresentation(of copy: CALayer) {
        let savedState = _state, savedExtras = _extras
        let savedNeedsDisplay = _needsDisplayFlag
        _state = copy._state
        _extras = copy._extras
        _isStandingInForPresentation = true
        display()
        _isStandingInForPresentation = false
        copy._state = _state
        copy._extras = _extras
        _state = savedState
        _extras = savedExtras
        _needsDisplayFlag = savedNeedsDisplay
    }

    /// Whether an animation on `keyPath` makes a presentation copy redraw: its first component
    /// needs display.
    final func _animatedKeyNeedsDisplay(_ keyPath: String) -> Bool {
        guard let dot = keyPath.firstIndex(of: ".") else { return _modelClass.needsDisplay(forKey: keyPath) }
        return _modelClass.needsDisplay(forKey: String(keyPath[..<dot]))
    }
}

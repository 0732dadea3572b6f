import Foundation
import FlipbookGraphics
/// An object that customises a layer (Apple's `CALayerDelegate`). Every method is optional, as
/// on Apple: the protocol extension gives each a default that does what an unimplemented
/// optional method means there.
///
/// "The delegate implements `display(_:)`" (Apple asks `respondsToSelector:`) is answered by
/// the default `display(_:)`: it records on the layer that it ran, so `CALayer.display()` goes
/// on to draw through `draw(in:)`. Implement `display(_:)` in the conforming class itself (a
/// subclass of a conforming class that does not implement it is not seen: Swift protocol
/// witnesses are chosen where the conformance is declared).
public protocol CALayerDelegate: AnyObject {
    /// Step 1 of the action search. Return an action to end the search with it, `NSNull()` to end
    /// it with no action, or nil (the default) to let the search continue.
    func action(for layer: CALayer, forKey event: String) -> CAAction?
    /// Called by the layer's default `display()` to set its `contents` itself; when it is
    /// implemented, `layerWillDraw(_:)` and `draw(_:in:)` are not called.
    func display(_ layer: CALayer)
    /// Called by the layer's default `draw(in:)` (the backing store's context: the layer's
    /// bounds coordinates, y down, scaled by `contentsScale`). During an animation of a key
    /// that needs display, `layer` is the presentation copy being drawn.
    func draw(_ layer: CALayer, in ctx: CGContext)
    /// Called by the default `display()` before the layer draws (not when `display(_:)` is implemented).
    func layerWillDraw(_ layer: CALayer)
    /// Called by the layer's default `layoutSublayers()`.
    func layoutSublayers(of layer: CALayer)
}

extension CALayerDelegate {
    public func action(for layer: CALayer, forKey event: String) -> CAAction? { nil }
    /// Not implemented: tells `layer` so (its `display()` then draws through `draw(in:)`).
    public func display(_ layer: CALayer) { layer._delegateDisplayIsDefault = true }
    public func draw(_ layer: CALayer, in ctx: CGContext) {}
    public func layerWillDraw(_ layer: CALayer) {}
    public func layoutSublayers(of layer: CALayer) {}
}

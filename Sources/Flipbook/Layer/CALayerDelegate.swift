import Foundation
/// An object that customises a layer (Apple's `CALayerDelegate`). Every method has a default.
public protocol CALayerDelegate: AnyObject {
    /// Step 1 of the action search. Return an action to end the search with it, `NSNull()` to end
    /// it with no action, or nil (the default) to let the search continue.
    func action(for layer: CALayer, forKey event: String) -> CAAction?
    /// Called by `display()` (when the layer needs display) to set the layer's `contents`.
    func display(_ layer: CALayer)
    /// Called before `display(_:)`.
    func layerWillDraw(_ layer: CALayer)
    /// Called by `layoutSublayers()`.
    func layoutSublayers(of layer: CALayer)
}

extension CALayerDelegate {
    public func action(for layer: CALayer, forKey event: String) -> CAAction? { nil }
    public func display(_ layer: CALayer) {}
    public func layerWillDraw(_ layer: CALayer) {}
    public func layoutSublayers(of layer: CALayer) {}
}

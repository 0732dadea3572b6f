import Foundation

/// The axes along which a `CAScrollLayer` may scroll (Apple's `CAScrollLayerScrollMode`).
public struct CAScrollLayerScrollMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The layer does not scroll.
    public static let none = CAScrollLayerScrollMode(rawValue: "none")
    public static let vertically = CAScrollLayerScrollMode(rawValue: "vertically")
    public static let horizontally = CAScrollLayerScrollMode(rawValue: "horizontally")
    /// Both axes (the default).
    public static let both = CAScrollLayerScrollMode(rawValue: "both")
}

/// A layer that shows a portion of content larger than itself (Apple's `CAScrollLayer`):
/// scrolling changes its `bounds.origin`, so its sublayers move the other way. It draws no
/// scrollers and handles no events.
///
/// A scroll changes `bounds` through the property, so on a live layer it animates implicitly
/// like any `bounds` change (wrap it in `CATransaction.setDisableActions(true)` to jump).
///
/// Chosen where Apple is silent: `masksToBounds` keeps `CALayer`'s default (false) — set it to
/// clip the content to the visible part; a scroll along an axis the `scrollMode` forbids
/// leaves that axis unchanged.
open class CAScrollLayer: CALayer {
    /// Presentation copies of this class and of your subclasses of it (see `CALayer.init(layer:)`).
    override package class func _makePresentationCopy(of model: CALayer) -> CALayer { CAScrollLayer(layer: model) }

    /// The axes along which the layer may scroll. Default `.both`; not animatable. KVC key
    /// `scrollMode`.
    open var scrollMode: CAScrollLayerScrollMode {
        get { value(forKey: "scrollMode") as? CAScrollLayerScrollMode ?? .both }
        set { setValue(newValue, forKey: "scrollMode") }
    }

    open override class func defaultValue(forKey key: String) -> Any? {
        key == "scrollMode" ? CAScrollLayerScrollMode.both : super.defaultValue(forKey: key)
    }

    /// Makes `p` the bounds origin (Apple's `scroll(to:)` with a point), along the axes
    /// `scrollMode` allows.
    open func scroll(to p: CGPoint) {
        let mode = scrollMode
        var origin = bounds.origin
        if mode == .both || mode == .horizontally { origin.x = p.x }
        if mode == .both || mode == .vertically { origin.y = p.y }
        guard origin != bounds.origin else { return }
        bounds = CGRect(origin: origin, size: bounds.size)
    }

    /// Scrolls as little as possible to make `r` (in the layer's coordinates) visible (Apple's
    /// `scroll(to:)` with a rectangle). Per axis: if `r` starts before the visible range, it is
    /// aligned to the start; else if it ends after it, its end is aligned to the end (a rect
    /// longer than the bounds is therefore aligned by its start); inside, nothing moves.
    open func scroll(to r: CGRect) {
        guard !r.isNull else { return }
        let b = bounds
        func axis(_ lo: CGFloat, _ hi: CGFloat, _ vlo: CGFloat, _ length: CGFloat) -> CGFloat {
            if lo < vlo || hi - lo > length { return lo }
            if hi > vlo + length { return hi - length }
            return vlo
        }
        scroll(to: CGPoint(x: axis(r.minX, r.maxX, b.minX, b.width), y: axis(r.minY, r.maxY, b.minY, b.height)))
    }
}

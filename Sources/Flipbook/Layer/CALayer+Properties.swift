import Foundation
import FlipbookGraphics
/// The typed built-in properties. Each setter goes through `_set` → the one change path
/// (same value: nothing; else action search, store, run action). The KVC key is given
/// where it differs from the Swift name.
extension CALayer: CAMediaTiming {
    /// The layer's own coordinate space: origin (scroll offset for sublayers) and size.
    public var bounds: CGRect {
        get { _state.bounds }
        set {
            let old = _state.bounds
            _set(\.bounds, newValue, key: "bounds")
            if _state.needsDisplayOnBoundsChange, old != _state.bounds { setNeedsDisplay() }
        }
    }

    /// Where the anchor point sits in the superlayer's coordinates.
    public var position: CGPoint {
        get { _state.position }
        set { _set(\.position, newValue, key: "position") }
    }

    /// The position on the z axis (also orders siblings when drawing).
    public var zPosition: CGFloat {
        get { _state.zPosition }
        set { _set(\.zPosition, newValue, key: "zPosition") }
    }

    /// The point of the bounds (unit coordinates) placed at `position`, and the centre of `transform`.
    public var anchorPoint: CGPoint {
        get { _state.anchorPoint }
        set { _set(\.anchorPoint, newValue, key: "anchorPoint") }
    }

    /// The anchor point's z component.
    public var anchorPointZ: CGFloat {
        get { _state.anchorPointZ }
        set { _set(\.anchorPointZ, newValue, key: "anchorPointZ") }
    }

    /// Applied about the anchor point, relative to the superlayer.
    public var transform: CATransform3D {
        get { _state.transform }
        set { _set(\.transform, newValue, key: "transform") }
    }

    /// Applied to the sublayers, about this layer's anchor point.
    public var sublayerTransform: CATransform3D {
        get { _state.sublayerTransform }
        set { _set(\.sublayerTransform, newValue, key: "sublayerTransform") }
    }

    /// Fills the bounds (inside the corner radius).
    public var backgroundColor: CGColor? {
        get { _state.backgroundColor }
        set { _set(\.backgroundColor, newValue, key: "backgroundColor") }
    }

    /// Radius of the rounded corners of the background and border (and of the clip).
    public var cornerRadius: CGFloat {
        get { _state.cornerRadius }
        set { _set(\.cornerRadius, newValue, key: "cornerRadius") }
    }

    /// Which corners `cornerRadius` rounds.
    public var maskedCorners: CACornerMask {
        get { _state.maskedCorners }
        set { _set(\.maskedCorners, newValue, key: "maskedCorners") }
    }

    /// Width of the border drawn inside the bounds.
    public var borderWidth: CGFloat {
        get { _state.borderWidth }
        set { _set(\.borderWidth, newValue, key: "borderWidth") }
    }

    /// Colour of the border (opaque black by default).
    public var borderColor: CGColor? {
        get { _state.borderColor }
        set { _set(\.borderColor, newValue, key: "borderColor") }
    }

    /// Opacity 0…1 of the layer and its sublayers.
    public var opacity: Float {
        get { _state.opacity }
        set { _set(\.opacity, newValue, key: "opacity") }
    }

    /// Hidden layers (and their sublayers) are not drawn. Becoming hidden also triggers `kCAOnOrderOut`, becoming visible `kCAOnOrderIn`. KVC key `hidden`.
    public var isHidden: Bool {
        get { _state.isHidden }
        set {
            let was = _state.isHidden
            _set(\.isHidden, newValue, key: "hidden")
            if was != _state.isHidden, _isInAttachedTree { _runNonPropertyAction(newValue ? kCAOnOrderOut : kCAOnOrderIn) }
        }
    }

    /// Clips sublayers and contents to the (rounded) bounds.
    public var masksToBounds: Bool {
        get { _state.masksToBounds }
        set { _set(\.masksToBounds, newValue, key: "masksToBounds") }
    }

    /// When false the layer is not drawn when facing away. KVC key `doubleSided`.
    public var isDoubleSided: Bool {
        get { _state.isDoubleSided }
        set { _set(\.isDoubleSided, newValue, key: "doubleSided") }
    }

    /// Composites the subtree as one group before applying `opacity`.
    public var allowsGroupOpacity: Bool {
        get { _state.allowsGroupOpacity }
        set { _set(\.allowsGroupOpacity, newValue, key: "allowsGroupOpacity") }
    }

    /// The part of `contents` (unit coordinates) that is drawn.
    public var contentsRect: CGRect {
        get { _state.contentsRect }
        set { _set(\.contentsRect, newValue, key: "contentsRect") }
    }

    /// The stretchable centre of `contents` (unit coordinates; nine-part scaling).
    public var contentsCenter: CGRect {
        get { _state.contentsCenter }
        set { _set(\.contentsCenter, newValue, key: "contentsCenter") }
    }

    /// How `contents` is placed in the bounds.
    public var contentsGravity: CALayerContentsGravity {
        get { _state.contentsGravity }
        set { _set(\.contentsGravity, newValue, key: "contentsGravity") }
    }

    /// Pixels of `contents` per point.
    public var contentsScale: CGFloat {
        get { _state.contentsScale }
        set { _set(\.contentsScale, newValue, key: "contentsScale") }
    }

    /// Filter used when `contents` is drawn smaller.
    public var minificationFilter: CALayerContentsFilter {
        get { _state.minificationFilter }
        set { _set(\.minificationFilter, newValue, key: "minificationFilter") }
    }

    /// Filter used when `contents` is drawn larger.
    public var magnificationFilter: CALayerContentsFilter {
        get { _state.magnificationFilter }
        set { _set(\.magnificationFilter, newValue, key: "magnificationFilter") }
    }

    /// Colour of the shadow (opaque black by default).
    public var shadowColor: CGColor? {
        get { _state.shadowColor }
        set { _set(\.shadowColor, newValue, key: "shadowColor") }
    }

    /// Opacity of the shadow (0: no shadow).
    public var shadowOpacity: Float {
        get { _state.shadowOpacity }
        set { _set(\.shadowOpacity, newValue, key: "shadowOpacity") }
    }

    /// Offset of the shadow ((0, −3) by default, as on Apple).
    public var shadowOffset: CGSize {
        get { _state.shadowOffset }
        set { _set(\.shadowOffset, newValue, key: "shadowOffset") }
    }

    /// Blur radius of the shadow.
    public var shadowRadius: CGFloat {
        get { _state.shadowRadius }
        set { _set(\.shadowRadius, newValue, key: "shadowRadius") }
    }

    /// A name for debugging and for finding layers.
    public var name: String? {
        get { _state.name }
        set { _set(\.name, newValue, key: "name") }
    }

    /// When true a bounds change calls `setNeedsDisplay()`.
    public var needsDisplayOnBoundsChange: Bool {
        get { _state.needsDisplayOnBoundsChange }
        set { _set(\.needsDisplayOnBoundsChange, newValue, key: "needsDisplayOnBoundsChange") }
    }

    /// CAMediaTiming: the layer's begin time in its superlayer's time.
    public var beginTime: CFTimeInterval {
        get { _state.beginTime }
        set { _set(\.beginTime, newValue, key: "beginTime") }
    }

    /// CAMediaTiming.
    public var duration: CFTimeInterval {
        get { _state.duration }
        set { _set(\.duration, newValue, key: "duration") }
    }

    /// CAMediaTiming: rate of the layer's time (and its animations').
    public var speed: Float {
        get { _state.speed }
        set { _set(\.speed, newValue, key: "speed") }
    }

    /// CAMediaTiming.
    public var timeOffset: CFTimeInterval {
        get { _state.timeOffset }
        set { _set(\.timeOffset, newValue, key: "timeOffset") }
    }

    /// CAMediaTiming.
    public var repeatCount: Float {
        get { _state.repeatCount }
        set { _set(\.repeatCount, newValue, key: "repeatCount") }
    }

    /// CAMediaTiming.
    public var repeatDuration: CFTimeInterval {
        get { _state.repeatDuration }
        set { _set(\.repeatDuration, newValue, key: "repeatDuration") }
    }

    /// CAMediaTiming.
    public var autoreverses: Bool {
        get { _state.autoreverses }
        set { _set(\.autoreverses, newValue, key: "autoreverses") }
    }

    /// CAMediaTiming.
    public var fillMode: CAMediaTimingFillMode {
        get { _state.fillMode }
        set { _set(\.fillMode, newValue, key: "fillMode") }
    }
}

import Foundation
import FlipbookGraphics
/// The typed model values of a layer, with Apple's defaults.
///
/// `CALayer`'s typed properties read and write these fields directly (fast); KVC reaches them
/// through the key table in `KVC/_LayerKeyTable.swift`. Custom keys live in `CALayer._extras`.
/// Values are stored unvalidated: non-finite geometry is legal here (the renderer skips it).
struct _LayerState {
    // Geometry
    var bounds: CGRect = .zero
    var position: CGPoint = .zero
    var zPosition: CGFloat = 0
    var anchorPoint = CGPoint(x: 0.5, y: 0.5)
    var anchorPointZ: CGFloat = 0
    var transform: CATransform3D = CATransform3DIdentity
    var sublayerTransform: CATransform3D = CATransform3DIdentity
    // Appearance
    var backgroundColor: CGColor?
    var cornerRadius: CGFloat = 0
    var maskedCorners: CACornerMask = .all
    var borderWidth: CGFloat = 0
    var borderColor: CGColor? = .black
    var opacity: Float = 1
    var isHidden = false
    var masksToBounds = false
    var isDoubleSided = true
    var allowsGroupOpacity = true
    var contents: CGImage?
    var shadowPath: CGPath?
    var contentsRect = CGRect(x: 0, y: 0, width: 1, height: 1)
    var contentsCenter = CGRect(x: 0, y: 0, width: 1, height: 1)
    var contentsGravity: CALayerContentsGravity = .resize
    var contentsScale: CGFloat = 1
    var minificationFilter: CALayerContentsFilter = .linear
    var magnificationFilter: CALayerContentsFilter = .linear
    var shadowColor: CGColor? = .black
    var shadowOpacity: Float = 0
    var shadowOffset = CGSize(width: 0, height: -3)
    var shadowRadius: CGFloat = 3
    var name: String?
    var needsDisplayOnBoundsChange = false
    var isOpaque = false
    var drawsAsynchronously = false
    // Accepted without visible effect offline (see CALayer+Accepted in CALayer.swift)
    var shouldRasterize = false
    var rasterizationScale: CGFloat = 1
    /// True: Flipbook behaves as an app whose Info.plist sets `UIViewEdgeAntialiasing` (see
    /// `CALayer.allowsEdgeAntialiasing`).
    var allowsEdgeAntialiasing = true
    var edgeAntialiasingMask: CAEdgeAntialiasingMask = [.layerLeftEdge, .layerRightEdge, .layerBottomEdge, .layerTopEdge]
    var minificationFilterBias: Float = 0
    var contentsFormat: CALayerContentsFormat = .RGBA8Uint
    var cornerCurve: CALayerCornerCurve = .circular
    // CAMediaTiming (a layer is a timed object too)
    var beginTime: CFTimeInterval = 0
    var duration: CFTimeInterval = 0
    var speed: Float = 1
    var timeOffset: CFTimeInterval = 0
    var repeatCount: Float = 0
    var repeatDuration: CFTimeInterval = 0
    var autoreverses = false
    var fillMode: CAMediaTimingFillMode = .removed
    /// `isGeometryFlipped` (KVC key `geometryFlipped`).
    var isGeometryFlipped = false
    /// `wantsExtendedDynamicRangeContent` (accepted, no effect).
    var wantsExtendedDynamicRangeContent = false
    /// How this layer's `mask` is read (`CALayer._maskMode`, a Flipbook extension).
    var maskMode: _LayerMaskMode = .alpha

    /// The matrix sublayers see, as `sublayerTransform` (applied about the anchor point `c`):
    /// with `isGeometryFlipped`, the reflection `F` of the bounds about their horizontal centre
    /// line (`y ↦ minY + maxY − y`) is applied first, folded in as
    ///
    ///     T(c) · F · T(−c) · sublayerTransform        (row vectors; so T(−c)·S′·T(c) = F·T(−c)·S·T(c))
    ///
    /// so a sublayer's geometry is measured from the bottom edge. Used by the model's
    /// coordinate conversions and by the render snapshot alike.
    var effectiveSublayerTransform: CATransform3D {
        guard isGeometryFlipped else { return sublayerTransform }
        let cx = bounds.minX + anchorPoint.x * bounds.width, cy = bounds.minY + anchorPoint.y * bounds.height
        let mid = bounds.minY + bounds.maxY
        // F: y ↦ mid − y, as T(0, −mid/2) · S(1, −1) · T(0, mid/2).
        let f = CATransform3DMakeTranslation(0, -mid / 2, 0) * CATransform3DMakeScale(1, -1, 1)
            * CATransform3DMakeTranslation(0, mid / 2, 0)
        return CATransform3DMakeTranslation(cx, cy, 0) * f * CATransform3DMakeTranslation(-cx, -cy, 0) * sublayerTransform
    }
}

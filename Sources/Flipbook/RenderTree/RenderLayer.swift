import Foundation
import FlipbookGraphics
/// One layer of an immutable render-tree snapshot: every value the compositor needs, already
/// evaluated at one media time (presentation values, animations applied).
///
/// Data flows one way: the model builds these (`CALayer` → snapshot); the compositor in
/// `FlipbookRender` reads them and never sees a `CALayer`. A snapshot is `Sendable` and never
/// changes, so it can be rendered on other threads while the model moves on.
///
/// Values are passed through unvalidated: non-finite geometry (NaN, ∞) is legal here and the
/// compositor skips the affected layer.
///
/// `@unchecked Sendable`: `mask` and the sublayer storage are `var`s only so that `deinit` can
/// take them apart iteratively (releasing a 100,000-deep snapshot recursively would overflow the
/// thread's stack); nothing else ever writes them, and `deinit` runs when no other reference
/// exists. `particles` is written once, by the snapshot builder before it returns the node. So
/// the snapshot is immutable for every observer.
public final class RenderLayer: @unchecked Sendable {
    public let name: String?
    // Geometry (layer space is y-down, as on iOS).
    public let bounds: CGRect
    public let position: CGPoint
    public let zPosition: CGFloat
    public let anchorPoint: CGPoint
    public let anchorPointZ: CGFloat
    public let transform: CATransform3D
    public let sublayerTransform: CATransform3D
    // Visibility and compositing.
    public let isHidden: Bool
    public let opacity: Float
    public let allowsGroupOpacity: Bool
    public let masksToBounds: Bool
    public let isDoubleSided: Bool
    // Appearance.
    public let backgroundColor: CGColor?
    public let cornerRadius: CGFloat
    public let maskedCorners: CACornerMask
    public let borderWidth: CGFloat
    public let borderColor: CGColor?
    public let contents: CGImage?
    public let contentsRect: CGRect
    public let contentsCenter: CGRect
    public let contentsGravity: CALayerContentsGravity
    public let contentsScale: CGFloat
    public let minificationFilter: CALayerContentsFilter
    public let magnificationFilter: CALayerContentsFilter
    public let shadowColor: CGColor?
    public let shadowOpacity: Float
    public let shadowOffset: CGSize
    public let shadowRadius: CGFloat
    // Tree.
    public private(set) var mask: RenderLayer?
    /// The sublayers in order: an emitter's particles first (``particles``' nodes, built on
    /// each call), then ``ownSublayers``.
    public var sublayers: [RenderLayer] {
        guard let particles, !particles.items.isEmpty else { return _sublayers }
        return particles.nodes() + _sublayers
    }
    /// The sublayers that are not particles (`sublayers` without building particle nodes).
    package var ownSublayers: [RenderLayer] { _sublayers }
    /// Whether `sublayers` is non-empty (without building particle nodes).
    package var hasSublayers: Bool { !_sublayers.isEmpty || !(particles?.items.isEmpty ?? true) }
    private var _sublayers: [RenderLayer]
    /// A `CAEmitterLayer`'s particles at the snapshot's time, as flat records (nil for other
    /// layers and for an emitter with none). Set by the snapshot builder before the node is
    /// returned, never written after (like `mask` and `sublayers`, a `var` only for that).
    package internal(set) var particles: RenderParticles?
    /// Set by a reusing snapshot build when its layer keeps this node for the next build (an
    /// unchanged subtree in which nothing moves with time, see `RenderTreeReuse`), before the
    /// node is returned, never written after: a node that may be shown again, whose planning a
    /// compositor may keep (`_PlanRuns`).
    package internal(set) var isKept = false
    /// A `CATransition` in flight on this layer, if any.
    public let transition: RenderTransition?
    /// A `contents` animation in flight: draw `from` at opacity `1 − f` and `to` at `f`
    /// (`f` = ``ContentsCrossfade/clampedFraction``), each laid out like `contents`, instead of
    /// `contents`. Nil when `contents` is not animating.
    public let contentsCrossfade: ContentsCrossfade?
    /// The shadow's shape (`CALayer.shadowPath`, never a `CGMutablePath`) in layer coordinates,
    /// filled with the non-zero rule; nil = the shadow follows the layer's composited alpha
    /// (background, contents, border and sublayers).
    public let shadowPath: CGPath?
    /// A `CAShapeLayer`'s shape (presentation values), drawn between the contents and the
    /// first sublayer; nil for other layers.
    public let shape: RenderShape?
    /// The layer's `contentsAreFlipped()`: an odd number of its superlayers have
    /// `isGeometryFlipped` set. Its `contents` are drawn reflected vertically within their
    /// rectangle so that they stay upright in the reflected geometry. (The reflection of the
    /// sublayer space itself is folded into each flipped layer's `sublayerTransform`.)
    public let contentsAreFlipped: Bool
    /// `allowsEdgeAntialiasing` and `edgeAntialiasingMask`: with false (or an empty mask) the
    /// layer's rectangular edges — background, contents, border, `masksToBounds` clip — are drawn
    /// aliased (see the property's documentation).
    public let allowsEdgeAntialiasing: Bool
    public let edgeAntialiasingMask: CAEdgeAntialiasingMask
    /// A `CAGradientLayer`'s gradient (presentation values), drawn over the background and
    /// under the contents, in the layer's shape; nil for other layers.
    public let gradient: RenderGradient?
    /// A `CATransformLayer`: draws nothing of its own, applies its opacity to each sublayer
    /// separately, and does not flatten: its sublayers are sorted by depth together with its
    /// siblings, in the nearest ancestor that flattens (the compositor's rendering context).
    public let isTransformLayer: Bool
    /// Sublayers are drawn sorted by depth (transform layers, replicators with `preservesDepth`).
    public let sortsSublayersByDepth: Bool
    /// A colour multiplier for everything this layer and its subtree draw (a replicator
    /// instance's `instanceColor` + offsets); nil = none.
    public let tint: RenderTint?
    /// `cornerCurve`: `.continuous` rounds the corners with Apple's smooth curve.
    public let cornerCurve: CALayerCornerCurve
    /// Composited with plus-lighter (its colours added): a particle of an `additive` emitter.
    public let blendsAdditively: Bool
    /// How the layer — its whole subtree, as one isolated group — is composited onto what is
    /// behind it: `CALayer.compositingFilter` read once when the snapshot is built
    /// (`_CompositingFilter`; `.normal` for nil and for names Flipbook does not know). Set by
    /// the snapshot builder before the node is returned, never written after (like
    /// ``particles``).
    package internal(set) var compositingMode: CGBlendMode = .normal
    /// How ``mask`` is read (`CALayer._maskMode`, a Flipbook extension). Set by the snapshot
    /// builder before the node is returned, never written after.
    package internal(set) var maskMode: _LayerMaskMode = .alpha
    /// Whether a sublayer, or one of their sublayers…, composites with a mode other than normal
    /// (masks' content not counted): the compositor then does not isolate this layer's
    /// sublayers in a `masksToBounds` offscreen group of its own making, which would hide the
    /// backdrop from them. Computed once, from the sublayers' nodes.
    package let blendsInSubtree: Bool

    public init(
        name: String? = nil,
        bounds: CGRect = .zero, position: CGPoint = .zero, zPosition: CGFloat = 0,
        anchorPoint: CGPoint = CGPoint(x: 0.5, y: 0.5), anchorPointZ: CGFloat = 0,
        transform: CATransform3D = CATransform3DIdentity, sublayerTransform: CATransform3D = CATransform3DIdentity,
        isHidden: Bool = false, opacity: Float = 1, allowsGroupOpacity: Bool = true,
        masksToBounds: Bool = false, isDoubleSided: Bool = true,
        backgroundColor: CGColor? = nil, cornerRadius: CGFloat = 0, maskedCorners: CACornerMask = .all,
        borderWidth: CGFloat = 0, borderColor: CGColor? = .black,
        contents: CGImage? = nil, contentsRect: CGRect = CGRect(x: 0, y: 0, width: 1, height: 1),
        contentsCenter: CGRect = CGRect(x: 0, y: 0, width: 1, height: 1),
        contentsGravity: CALayerContentsGravity = .resize, contentsScale: CGFloat = 1,
        minificationFilter: CALayerContentsFilter = .linear, magnificationFilter: CALayerContentsFilter = .linear,
        shadowColor: CGColor? = .black, shadowOpacity: Float = 0, shadowOffset: CGSize = CGSize(width: 0, height: -3),
        shadowRadius: CGFloat = 3,
        mask: RenderLayer? = nil, sublayers: [RenderLayer] = [], transition: RenderTransition? = nil,
        contentsCrossfade: ContentsCrossfade? = nil, shadowPath: CGPath? = nil,
        shape: RenderShape? = nil, contentsAreFlipped: Bool = false,
        allowsEdgeAntialiasing: Bool = true,
        edgeAntialiasingMask: CAEdgeAntialiasingMask = [.layerLeftEdge, .layerRightEdge, .layerBottomEdge, .layerTopEdge],
        gradient: RenderGradient? = nil, isTransformLayer: Bool = false, sortsSublayersByDepth: Bool = false,
        tint: RenderTint? = nil, cornerCurve: CALayerCornerCurve = .circular, blendsAdditively: Bool = false
    ) {
        self.name = name; self.bounds = bounds; self.position = position; self.zPosition = zPosition
        self.anchorPoint = anchorPoint; self.anchorPointZ = anchorPointZ; self.transform = transform
        self.sublayerTransform = sublayerTransform; self.isHidden = isHidden; self.opacity = opacity
        self.allowsGroupOpacity = allowsGroupOpacity; self.masksToBounds = masksToBounds
        self.isDoubleSided = isDoubleSided; self.backgroundColor = backgroundColor
        self.cornerRadius = cornerRadius; self.maskedCorners = maskedCorners; self.borderWidth = borderWidth
        self.borderColor = borderColor; self.contents = contents; self.contentsRect = contentsRect
        self.contentsCenter = contentsCenter; self.contentsGravity = contentsGravity
        self.contentsScale = contentsScale; self.minificationFilter = minificationFilter
        self.magnificationFilter = magnificationFilter; self.shadowColor = shadowColor
        self.shadowOpacity = shadowOpacity; self.shadowOffset = shadowOffset; self.shadowRadius = shadowRadius
        self.mask = mask; self._sublayers = sublayers; self.transition = transition
        self.contentsCrossfade = contentsCrossfade; self.shadowPath = shadowPath
        self.shape = shape; self.contentsAreFlipped = contentsAreFlipped
        self.allowsEdgeAntialiasing = allowsEdgeAntialiasing; self.edgeAntialiasingMask = edgeAntialiasingMask
        self.gradient = gradient; self.isTransformLayer = isTransformLayer
        self.sortsSublayersByDepth = sortsSublayersByDepth; self.tint = tint; self.cornerCurve = cornerCurve
        self.blendsAdditively = blendsAdditively
        var blends = false
        for s in sublayers where s.compositingMode != .normal || s.blendsInSubtree { blends = true; break }
        self.blendsInSubtree = blends
    }

    /// Tears the subtree down with an explicit stack: each node about to die (uniquely
    /// referenced) hands its children to the stack before it is released, so no `deinit` nests
    /// more than one level deep whatever the depth of the tree. Shared subtrees are left alone.
    deinit {
        guard mask != nil || !_sublayers.isEmpty else { return }
        var stack = _sublayers
        _sublayers = []
        if let m = mask { stack.append(m); mask = nil }
        while var node = stack.popLast() {
            guard isKnownUniquelyReferenced(&node) else { continue }
            stack.append(contentsOf: node._sublayers)
            node._sublayers = []
            if let m = node.mask { stack.append(m); node.mask = nil }
        }
    }
}

/// A straight-colour multiplier `(red, green, blue, alpha)`, each 0…1 (a replicator
/// instance's colour).
public struct RenderTint: Sendable, Equatable {
    public let red: Float, green: Float, blue: Float, alpha: Float
    public init(red: Float, green: Float, blue: Float, alpha: Float) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }
    /// True when it changes nothing (opaque white).
    public var isIdentity: Bool { red == 1 && green == 1 && blue == 1 && alpha == 1 }
}

/// A `CATransition` being drawn: the layer's rendering before the change (`from`), blended with
/// its current rendering (the `RenderLayer` that carries this) according to `type`, `subtype`
/// and `progress`.
public struct RenderTransition: Sendable {
    /// `fade`, `moveIn`, `push` or `reveal`; another value renders as `fade`.
    public let type: CATransitionType
    /// `fromLeft`, `fromRight`, `fromTop`, `fromBottom`, or nil (which renders as `fromLeft`).
    public let subtype: CATransitionSubtype?
    /// Progress 0 … 1, with the transition's timing function and start/end progress applied.
    public let progress: Double
    /// The layer as it looked before the change (its own sublayers included): as the last
    /// outermost commit before the transition was added left it, at the time it was added.
    public let from: RenderLayer

    public init(type: CATransitionType, subtype: CATransitionSubtype?, progress: Double, from: RenderLayer) {
        self.type = type; self.subtype = subtype; self.progress = progress; self.from = from
    }
}

import Flipbook
import Foundation
/// One layer of a scene file. Every property is optional: `nil` means "leave the `CALayer`
/// default" (Apple's defaults: opacity 1, anchorPoint (0.5, 0.5), contentsGravity resize …).
///
/// Units are Core Animation's: points, radians inside matrices (files write degrees in
/// transform operations and the parser converts), opacity 0…1. Colours are straight sRGB.
public struct LayerDescription: Sendable, Equatable {
    /// The layer's name, unique in the scene; events refer to layers by it.
    public var name: String?
    /// The layer's class (`"class"` in the file; default `layer`).
    public var layerClass: SceneLayerClass = .layer

    // Geometry
    public var bounds: CGRect?
    public var position: CGPoint?
    /// `frame` shorthand: the builder sets `layer.frame` after bounds/anchorPoint (the file may
    /// not give `frame` together with `bounds` or `position`).
    public var frame: CGRect?
    public var anchorPoint: CGPoint?
    public var anchorPointZ: Double?
    public var zPosition: Double?
    public var transform: CATransform3D?
    public var sublayerTransform: CATransform3D?

    // Appearance
    /// `.some(nil)` is an explicit `null` (no colour).
    public var backgroundColor: CGColor??
    public var cornerRadius: Double?
    public var maskedCorners: CACornerMask?
    public var borderWidth: Double?
    public var borderColor: CGColor??
    public var opacity: Double?
    public var isHidden: Bool?
    public var masksToBounds: Bool?
    public var isDoubleSided: Bool?
    public var allowsGroupOpacity: Bool?
    /// `allowsEdgeAntialiasing` (false: aliased edges) and `isGeometryFlipped`.
    public var allowsEdgeAntialiasing: Bool?
    public var isGeometryFlipped: Bool?
    /// `cornerCurve`: `circular` or `continuous`.
    public var cornerCurve: CALayerCornerCurve?

    // Contents
    public var contents: SceneImage?
    public var contentsRect: CGRect?
    public var contentsCenter: CGRect?
    public var contentsGravity: CALayerContentsGravity?
    public var contentsScale: Double?
    public var minificationFilter: CALayerContentsFilter?
    public var magnificationFilter: CALayerContentsFilter?

    // Shadow
    public var shadowColor: CGColor??
    public var shadowOpacity: Double?
    public var shadowOffset: CGSize?
    public var shadowRadius: Double?

    // CAShapeLayer (only with `layerClass == .shape`)
    public var path: CGPath??
    public var fillColor: CGColor??
    public var fillRule: CAShapeLayerFillRule?
    public var strokeColor: CGColor??
    public var lineWidth: Double?
    public var miterLimit: Double?
    public var lineCap: CAShapeLayerLineCap?
    public var lineJoin: CAShapeLayerLineJoin?
    public var lineDashPattern: [Double]??
    public var lineDashPhase: Double?
    public var strokeStart: Double?
    public var strokeEnd: Double?

    // CAGradientLayer (only with `layerClass == .gradient`)
    public var colors: [CGColor]??
    public var locations: [Double]??
    public var startPoint: CGPoint?
    public var endPoint: CGPoint?
    public var gradientType: CAGradientLayerType?

    // CATextLayer (only with `layerClass == .text`)
    /// `string`: the text, or nil for none.
    public var string: String??
    public var font: SceneFont?
    public var fontSize: Double?
    public var foregroundColor: CGColor??
    public var isWrapped: Bool?
    public var truncationMode: CATextLayerTruncationMode?
    public var alignmentMode: CATextLayerAlignmentMode?

    // CAReplicatorLayer (only with `layerClass == .replicator`)
    public var instanceCount: Int?
    public var instanceDelay: Double?
    public var instanceTransform: CATransform3D?
    public var instanceColor: CGColor??
    public var instanceRedOffset: Double?
    public var instanceGreenOffset: Double?
    public var instanceBlueOffset: Double?
    public var instanceAlphaOffset: Double?
    public var preservesDepth: Bool?

    // CAEmitterLayer (only with `layerClass == .emitter`)
    public var emitterCells: [EmitterCellDescription]?
    /// Number keys (`birthRate`, `lifetime`, `velocity`, `scale`, `spin`, `seed`,
    /// `emitterZPosition`, `emitterDepth`).
    public var emitterNumbers: [String: Double] = [:]
    public var emitterPosition: CGPoint?
    public var emitterSize: CGSize?
    public var emitterShape: CAEmitterLayerEmitterShape?
    public var emitterMode: CAEmitterLayerEmitterMode?
    public var renderMode: CAEmitterLayerRenderMode?

    // Tree
    public var mask: Box<LayerDescription>?
    public var sublayers: [LayerDescription] = []

    // Behaviour
    /// Animations added when the tree is built (`layer.add(animation, forKey: key)` in order).
    public var animations: [AnimationDescription] = []
    /// The layer's `actions` dictionary (`nil`: not set).
    public var actions: [String: ActionDescription]?
    /// The layer's `style` dictionary.
    public var style: StyleDescription?

    public init(name: String? = nil) { self.name = name }
}

/// The Core Animation class a scene layer is made of.
public enum SceneLayerClass: String, Sendable, Hashable, CaseIterable {
    /// `CALayer`.
    case layer
    /// `CAShapeLayer`: the shape keys (`path`, `fillColor`, `strokeColor`, `lineWidth`,
    /// `strokeStart`, `strokeEnd`, …) are allowed.
    case shape
    /// `CAGradientLayer`: the gradient keys (`colors`, `locations`, `startPoint`, `endPoint`,
    /// `type`) are allowed.
    case gradient
    /// `CAReplicatorLayer`: the instance keys are allowed.
    case replicator
    /// `CATransformLayer`: sublayers keep their 3-D positions, sorted by depth.
    case transform
    /// `CAEmitterLayer`: the emitter keys and `emitterCells` are allowed.
    case emitter
    /// `CATextLayer`: the text keys (`string`, `font`, `fontSize`, `foregroundColor`,
    /// `isWrapped`, `truncationMode`, `alignmentMode`) are allowed.
    case text
}

/// A reference box, so ``LayerDescription`` can contain its mask (Swift value types cannot
/// contain themselves directly). Immutable, hence `Sendable`.
public final class Box<Value: Sendable & Equatable>: Sendable, Equatable {
    public let value: Value
    public init(_ value: Value) { self.value = value }
    public static func == (a: Box, b: Box) -> Bool { a.value == b.value }
}

/// The value of an `actions` (or `style.actions`) entry.
public enum ActionDescription: Sendable, Equatable {
    /// JSON `null`: "no action" (Apple's `NSNull`), which stops the search for an action.
    case none
    /// An animation to run as the action (the builder adds it for the event's key; an empty
    /// `keyPath` is filled with the event key, as Core Animation does).
    case animation(AnimationDescription)
}

/// A layer's `style` dictionary: default property values, an `actions` dictionary, and a
/// nested `style` searched after it (Apple's search order).
public struct StyleDescription: Sendable, Equatable {
    /// Default values by canonical key path, in file order.
    public var properties: [PropertyValue] = []
    public var actions: [String: ActionDescription]?
    public var style: Box<StyleDescription>?

    public init() {}
}

/// A key path with its value.
public struct PropertyValue: Sendable, Equatable {
    /// Canonical key path (``SceneKeyPath/canonical(_:)``).
    public var keyPath: String
    public var value: SceneValue

    public init(_ keyPath: String, _ value: SceneValue) { self.keyPath = keyPath; self.value = value }
}

/// A font named by a scene file: a name (bundled or installed) or a font file.
public enum SceneFont: Sendable, Hashable {
    /// A font name, checked to exist when the scene was parsed.
    case name(String)
    /// A font file (relative to the scene file's folder, or absolute), checked to be a font
    /// FreeType can read when the scene was parsed; `index` is the face in a collection.
    case file(path: String, resolvedPath: String, index: Int)
}

import Flipbook
import Foundation
/// A property value written in a scene file, already checked against the type its key path
/// needs (see ``SceneKeyPath``). Used for timeline property changes, `style` defaults and
/// animation values (`fromValue`, `values` …).
public enum SceneValue: Sendable, Equatable {
    /// A scalar (`opacity`, `position.x`, `transform.rotation.z` in radians …).
    case number(Double)
    case point(CGPoint)
    case size(CGSize)
    case rect(CGRect)
    /// A colour, or `nil` for "no colour" (JSON `null`).
    case color(CGColor?)
    case transform(CATransform3D)
    case bool(Bool)
    /// An image file, or `nil` for no contents (JSON `null`).
    case image(SceneImage?)
    case gravity(CALayerContentsGravity)
    case filter(CALayerContentsFilter)
    case corners(CACornerMask)
    /// A string (`name`), or `nil`.
    case string(String?)
    /// Three numbers: the input of the `scale` and `translate` value functions.
    case vector3(Double, Double, Double)
    /// A path (`CAShapeLayer.path`), or `nil` for none (JSON `null`).
    case path(CGPath?)
    /// A list of numbers (`lineDashPattern`), or `nil` for none.
    case numbers([Double]?)
    case fillRule(CAShapeLayerFillRule)
    case lineCap(CAShapeLayerLineCap)
    case lineJoin(CAShapeLayerLineJoin)
    /// `CAGradientLayer.colors`, or nil.
    case colors([CGColor]?)
    /// `CAGradientLayer.locations` (any finite numbers), or nil.
    case locations([Double]?)
    case gradientType(CAGradientLayerType)
}

/// An image referenced by a scene file.
public struct SceneImage: Sendable, Hashable {
    /// The path as written in the file (relative to the scene file's folder, or absolute).
    public var path: String
    /// The absolute path it resolves to (checked to exist when the scene was parsed).
    public var resolvedPath: String
    /// Where the image is first named in the scene file (line, JSON path), for messages about
    /// it; not part of the image's identity (two mentions of one file are one image).
    public var line: Int?
    public var jsonPath: String

    public init(path: String, resolvedPath: String, line: Int? = nil, jsonPath: String = "") {
        self.path = path; self.resolvedPath = resolvedPath; self.line = line; self.jsonPath = jsonPath
    }

    public static func == (a: SceneImage, b: SceneImage) -> Bool { a.path == b.path && a.resolvedPath == b.resolvedPath }
    public func hash(into h: inout Hasher) { h.combine(path); h.combine(resolvedPath) }
}

/// The type of value a key path takes.
public enum SceneValueKind: String, Sendable, Hashable {
    case number, point, size, rect, color, transform, bool, image, gravity, filter, corners, string, vector3
    case path, numbers, fillRule, lineCap, lineJoin
    case colors, locations, gradientType

}

/// The key paths a scene file can set or animate, with Core Animation's spelling.
///
/// Canonical names are Core Animation's key-path names (`hidden`, `doubleSided`, the action
/// keys); the Swift spellings `isHidden` and `isDoubleSided` are accepted and canonicalised.
/// Sub-key paths follow Apple's KVC extensions: `position.x`, `bounds.size.width`,
/// `transform.rotation.z` (radians), `transform.scale`, `transform.translation` (a size) …
public enum SceneKeyPath {
    /// Canonical key path → value kind.
    public static let kinds: [String: SceneValueKind] = {
        var k: [String: SceneValueKind] = [
            "opacity": .number, "cornerRadius": .number, "borderWidth": .number, "zPosition": .number,
            "anchorPointZ": .number, "shadowOpacity": .number, "shadowRadius": .number, "contentsScale": .number,
            "position.x": .number, "position.y": .number, "anchorPoint.x": .number, "anchorPoint.y": .number,
            "bounds.origin.x": .number, "bounds.origin.y": .number,
            "bounds.size.width": .number, "bounds.size.height": .number,
            "shadowOffset.width": .number, "shadowOffset.height": .number,
            "position": .point, "anchorPoint": .point, "bounds.origin": .point,
            "bounds.size": .size, "shadowOffset": .size,
            "bounds": .rect, "contentsRect": .rect, "contentsCenter": .rect,
            "backgroundColor": .color, "borderColor": .color, "shadowColor": .color,
            "transform": .transform, "sublayerTransform": .transform,
            "hidden": .bool, "masksToBounds": .bool, "doubleSided": .bool, "allowsGroupOpacity": .bool,
            "contents": .image, "contentsGravity": .gravity,
            "minificationFilter": .filter, "magnificationFilter": .filter,
            "maskedCorners": .corners, "name": .string,
            // CAShapeLayer
            "path": .path, "fillColor": .color, "strokeColor": .color, "fillRule": .fillRule,
            "lineWidth": .number, "miterLimit": .number, "lineDashPhase": .number,
            "strokeStart": .number, "strokeEnd": .number, "lineDashPattern": .numbers,
            "lineCap": .lineCap, "lineJoin": .lineJoin,
            // CAGradientLayer
            "colors": .colors, "locations": .locations, "startPoint": .point, "endPoint": .point,
            "type": .gradientType,
            // CATextLayer
            "string": .string, "fontSize": .number, "foregroundColor": .color, "wrapped": .bool,
            // CAReplicatorLayer
            "instanceCount": .number, "instanceDelay": .number, "instanceTransform": .transform,
            "instanceColor": .color, "instanceRedOffset": .number, "instanceGreenOffset": .number,
            "instanceBlueOffset": .number, "instanceAlphaOffset": .number, "preservesDepth": .bool,
        ]
        for t in ["transform", "sublayerTransform"] {
            for s in ["rotation", "rotation.x", "rotation.y", "rotation.z", "scale", "scale.x", "scale.y", "scale.z",
                      "translation.x", "translation.y", "translation.z"] {
                k["\(t).\(s)"] = .number
            }
            k["\(t).translation"] = .size
        }
        return k
    }()

    /// The key paths that only a shape layer (`"class": "shape"`) has.
    public static let shapeKeys: Set<String> = [
        "path", "fillColor", "strokeColor", "fillRule", "lineWidth", "miterLimit", "lineDashPhase",
        "strokeStart", "strokeEnd", "lineDashPattern", "lineCap", "lineJoin",
    ]

    /// The key paths that only a gradient layer (`"class": "gradient"`) has.
    public static let gradientKeys: Set<String> = ["colors", "locations", "startPoint", "endPoint", "type"]

    /// Swift spellings accepted for Core Animation key names.
    public static let aliases: [String: String] = ["isHidden": "hidden", "isDoubleSided": "doubleSided", "isWrapped": "wrapped"]

    /// The canonical spelling of `keyPath` (aliases resolved), or `nil` when scenes do not know it.
    public static func canonical(_ keyPath: String) -> String? {
        let k = aliases[keyPath] ?? keyPath
        return kinds[k] == nil ? nil : k
    }
}

import Foundation
/// The kind of a ``CATransition`` (Apple's `CATransitionType`).
public struct CATransitionType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Cross-fade from the old rendering to the new one (the default).
    public static let fade = CATransitionType(rawValue: "fade")
    /// The new rendering slides in over the old one.
    public static let moveIn = CATransitionType(rawValue: "moveIn")
    /// The new rendering pushes the old one out.
    public static let push = CATransitionType(rawValue: "push")
    /// The old rendering slides away, revealing the new one.
    public static let reveal = CATransitionType(rawValue: "reveal")
}

/// The direction of a ``CATransition`` (Apple's `CATransitionSubtype`).
public struct CATransitionSubtype: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let fromLeft = CATransitionSubtype(rawValue: "fromLeft")
    public static let fromRight = CATransitionSubtype(rawValue: "fromRight")
    public static let fromTop = CATransitionSubtype(rawValue: "fromTop")
    public static let fromBottom = CATransitionSubtype(rawValue: "fromBottom")
}

/// An animated transition of a whole layer's rendering (Apple's `CATransition`).
///
/// When a stored copy is added to a layer it records the layer's rendering *before* the change
/// (`_fromSnapshot`): as on Apple, the layer as the last outermost commit left it (without
/// the changes of the open transaction), rendered at the current time — taken by the action
/// search just before the property changed, or by `add(_:forKey:)`. It never depends on the
/// snapshots rendered before (see `_CommittedLayer`). The compositor blends it with the
/// current rendering (`RenderTransition`).
open class CATransition: CAAnimation {
    open var type: CATransitionType = .fade
    open var subtype: CATransitionSubtype?
    /// The transition's progress at its start and end (0 and 1).
    open var startProgress: Float = 0
    open var endProgress: Float = 1
    /// Accepted, no effect: a Core Image filter that would draw the transition (there is no Core
    /// Image on Linux); `type` and `subtype` draw it. Default nil.
    open var filter: Any?

    /// The layer as it was committed before the change (set on stored copies only; not copied).
    package internal(set) var _fromSnapshot: RenderLayer?

    /// Apple's defaults (CAAnimation.h): `type` `fade`, `startProgress` 0, `endProgress` 1
    /// (`subtype` and `filter` nil), then `CAAnimation`'s.
    open override class func defaultValue(forKey key: String) -> Any? {
        switch key {
        case "type": return CATransitionType.fade
        case "startProgress": return Float(0)
        case "endProgress": return Float(1)
        default: return super.defaultValue(forKey: key)
        }
    }

    package override func _copyState(from other: CAAnimation) {
        super._copyState(from: other)
        guard let o = other as? CATransition else { return }
        type = o.type; subtype = o.subtype; startProgress = o.startProgress; endProgress = o.endProgress
        filter = o.filter
    }
}

import Foundation
/// An object that responds to a layer event (Apple's `CAAction`).
///
/// A layer finds an action with ``CALayer/action(forKey:)`` when one of its properties changes
/// (the key is the property name), when it joins or leaves a live tree (``kCAOnOrderIn``,
/// ``kCAOnOrderOut``), or when it takes part in a transition (``kCATransition``); it then calls
/// ``run(forKey:object:arguments:)`` with the layer as `anObject`.
///
/// `CAAnimation` conforms (running it adds a copy of itself to the layer under the event key);
/// `NSNull` conforms and does nothing — returned from a search step it ends the search.
public protocol CAAction {
    /// Performs the action for `event` on `anObject` (a `CALayer` for layer events).
    func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?)
}

/// `NSNull` is the "stop searching, do nothing" action.
extension NSNull: CAAction {
    public func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {}
}

/// The action key used when a layer joins a live layer tree or becomes visible (`isHidden = false`).
public let kCAOnOrderIn = "onOrderIn"
/// The action key used when a layer leaves a live layer tree or becomes hidden (`isHidden = true`).
public let kCAOnOrderOut = "onOrderOut"
/// The action key used on the superlayer when `replaceSublayer(_:with:)` swaps one of its sublayers.
public let kCATransition = "transition"

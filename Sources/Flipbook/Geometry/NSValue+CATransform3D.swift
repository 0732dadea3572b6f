import Foundation
import FlipbookGraphics

/// QuartzCore's `NSValue` additions: `NSValue(caTransform3D:)` and `.caTransform3DValue`.
///
/// Keyframe animations of `transform` are commonly built from these boxes
/// (NVActivityIndicatorView's cube and triangle paths, 3-D flips):
///
///     let anim = CAKeyframeAnimation(keyPath: "transform")
///     anim.values = [NSValue(caTransform3D: CATransform3DIdentity),
///                    NSValue(caTransform3D: CATransform3DMakeRotation(.pi, 0, 1, 0))]
///
/// Such values (also inside an `NSMutableArray` cast to `[AnyObject]`) interpolate exactly as
/// `CATransform3D` values do (decompose → interpolate → recompose), and `setValue(_:forKey:)`
/// accepts them for transform keys. Storage: sixteen doubles `m11 … m44`, Objective-C type
/// `"[16d]"`.
extension NSValue {
    /// A box holding `t` (Apple's `NSValue(caTransform3D:)`).
    public convenience init(caTransform3D t: CATransform3D) {
        self.init(_doubles: t.elements.map { Double($0) })
    }

    /// The boxed transform; for a box of another type all zeros, as Apple's reader gives.
    public var caTransform3DValue: CATransform3D {
        _transform3D ?? CATransform3D()
    }

    /// The value in a box Core Animation knows — `CATransform3D`, or a Core Graphics value
    /// (`CGPoint`, `CGSize`, `CGRect`, `CGAffineTransform`) — nil for numbers and other boxes.
    package var _animatableValue: Any? {
        _transform3D ?? _coreGraphicsValue
    }

    /// The transform in a `"[16d]"` box; nil for any other box.
    private var _transform3D: CATransform3D? { _doubles(16).map { CATransform3D($0.map { CGFloat($0) }) } }
}

import Foundation

/// The kind of one path element (Apple's `CGPathElementType`; raw values as in Core Graphics).
public enum CGPathElementType: Int32, Sendable {
    case moveToPoint = 0
    case addLineToPoint = 1
    case addQuadCurveToPoint = 2
    case addCurveToPoint = 3
    case closeSubpath = 4
}

/// One element of a path as ``CGPath/applyWithBlock(_:)`` hands it out (Apple's `CGPathElement`):
/// its `type` and a pointer to its points — 1 for `moveToPoint` and `addLineToPoint`, 2 for
/// `addQuadCurveToPoint` (control, end), 3 for `addCurveToPoint` (control 1, control 2, end),
/// none for `closeSubpath`. The pointer is valid only inside the block, as on Apple.
///
///     path.applyWithBlock { element in
///         switch element.pointee.type {
///         case .moveToPoint: print("move", element.pointee.points[0])
///         default: break
///         }
///     }
public struct CGPathElement {
    public var type: CGPathElementType
    public var points: UnsafeMutablePointer<CGPoint>

    public init(type: CGPathElementType, points: UnsafeMutablePointer<CGPoint>) {
        self.type = type
        self.points = points
    }
}

/// The callback of ``CGPath/apply(info:function:)`` (Apple's `CGPathApplierFunction`). Apple's
/// is `@convention(c)`; here `CGPathElement` is a Swift struct, which C cannot represent, so the
/// type is a plain Swift function with the same parameters: the non-capturing closure literals
/// and global functions Apple code passes compile unchanged.
public typealias CGPathApplierFunction = (UnsafeMutableRawPointer?, UnsafePointer<CGPathElement>) -> Void

import Testing
@testable import Flipbook
import Foundation

/// How `_AnimValue` boxes each Swift value (the case and the scalar kind, which decides the
/// type an evaluated value is handed back in). The common types have a fast path by exact
/// dynamic type; these expectations hold for it and for the general chain of casts alike.
@Suite struct AnimValueBoxingTests {
    @Test func scalarsKeepTheirKind() {
        #expect(_AnimValue(CGFloat(2.5)) == .scalar(2.5, .cgFloat))
        #expect(_AnimValue(2.5) == .scalar(2.5, .double))
        #expect(_AnimValue(Float(2.5)) == .scalar(2.5, .float))
        #expect(_AnimValue(3) == .scalar(3, .int))
        #expect(_AnimValue(true) == .scalar(1, .bool))
        #expect(_AnimValue(false) == .scalar(0, .bool))
    }

    @Test func structsAndObjects() {
        #expect(_AnimValue(CGPoint(x: 1, y: 2)) == .point(CGPoint(x: 1, y: 2)))
        #expect(_AnimValue(CGSize(width: 1, height: 2)) == .size(CGSize(width: 1, height: 2)))
        #expect(_AnimValue(CGRect(x: 1, y: 2, width: 3, height: 4)) == .rect(CGRect(x: 1, y: 2, width: 3, height: 4)))
        let t = CATransform3DMakeScale(2, 3, 1)
        #expect(_AnimValue(t) == .transform(t))
        let c = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        #expect(_AnimValue(c) == .color(c))
        let p = CGPath(rect: CGRect(x: 0, y: 0, width: 1, height: 1), transform: nil)
        #expect(_AnimValue(p) == .path(p))
        let m = CGMutablePath()
        m.addRect(CGRect(x: 0, y: 0, width: 2, height: 2))
        guard case let .path(boxed)? = _AnimValue(m) else { Issue.record("a mutable path is a path"); return }
        #expect(boxed === m)   // by reference: later changes to the path are seen
    }

    @Test func optionalsAreUnwrapped() {
        let c: CGColor? = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
        #expect(_AnimValue(c as Any) == .color(c!))
        let none: CGColor? = nil
        #expect(_AnimValue(none as Any) == nil)
        let nested: CGFloat?? = 4
        #expect(_AnimValue(nested as Any) == .scalar(4, .cgFloat))
        #expect(_AnimValue(nil) == nil)
    }

    @Test func arraysAndNumbers() {
        #expect(_AnimValue([CGFloat(1), 2]) == .numbers([1, 2], .cgFloat))
        #expect(_AnimValue([1.0, 2.0]) == .numbers([1, 2], .double))
        #expect(_AnimValue(NSValue(cgPoint: CGPoint(x: 5, y: 6))) == .point(CGPoint(x: 5, y: 6)))
        #expect(_AnimValue("text") == nil)
    }

    @Test func handedBackInTheTypeOfTheBase() {
        let v = _AnimValue.scalar(0.5, .double)
        #expect(v.toAny(like: Float(1)) as? Float == 0.5)
        #expect(v.toAny(like: CGFloat(1)) as? CGFloat == 0.5)
        #expect(v.toAny(like: nil) as? Double == 0.5)
        #expect(v.toAny(like: CGPoint.zero) as? Double == 0.5)   // not a scalar: the value's own kind
        #expect(_AnimValue.numbers([1, 2], .double).toAny(like: [CGFloat(0)]) as? [CGFloat] == [1, 2])
        #expect(_AnimValue.point(CGPoint(x: 1, y: 2)).toAny(like: Float(0)) as? CGPoint == CGPoint(x: 1, y: 2))
    }
}

import Testing
@testable import Flipbook
import Foundation

@Suite struct GeometryTests {
    func close(_ a: CGFloat, _ b: CGFloat, _ eps: CGFloat = 1e-12) -> Bool { abs(a - b) <= eps }

    @Test func zRotationTurnsClockwiseInYDownSpace() {
        let r = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        let p = r.apply(x: 1, y: 0)
        #expect(close(p.x, 0) && close(p.y, 1))   // +x goes to +y (down): clockwise on screen
        let a = CGPoint(x: 1, y: 0).applying(CGAffineTransform(rotationAngle: .pi / 2))
        #expect(close(a.x, 0) && close(a.y, 1))
    }

    @Test func concatAppliesFirstThenSecond() {
        let t = CATransform3DMakeTranslation(10, 0, 0), s = CATransform3DMakeScale(2, 2, 1)
        let p = CATransform3DConcat(t, s).apply(x: 1, y: 1)
        #expect(p.x == 22 && p.y == 2)
        // Translate(t, …) puts the translation before t.
        let q = CATransform3DTranslate(s, 10, 0, 0).apply(x: 1, y: 1)
        #expect(q.x == 22 && q.y == 2)
    }

    @Test func invertAndSingular() {
        let m = CATransform3DRotate(CATransform3DMakeTranslation(5, -3, 2), 0.3, 1, 2, 3)
        let id = CATransform3DConcat(m, CATransform3DInvert(m))
        for (x, y) in zip(id.elements, CATransform3DIdentity.elements) { #expect(close(x, y, 1e-9)) }
        let singular = CATransform3DMakeScale(0, 1, 1)
        #expect(CATransform3DInvert(singular) == singular)
    }

    @Test func affineRoundTrip() {
        let a = CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
        let t = CATransform3DMakeAffineTransform(a)
        #expect(CATransform3DIsAffine(t))
        #expect(CATransform3DGetAffineTransform(t) == a)
        #expect(!CATransform3DIsAffine(CATransform3DMakeRotation(0.1, 1, 0, 0)))
        let inv = a.inverted()
        let back = CGPoint(x: 7, y: -2).applying(a).applying(inv)
        #expect(close(back.x, 7, 1e-9) && close(back.y, -2, 1e-9))
        #expect(CGRect(x: 0, y: 0, width: 2, height: 1).applying(CGAffineTransform(rotationAngle: .pi / 2)).width.rounded() == 1)
    }

    @Test func colors() {
        #expect(CGColor.black.components == [0, 1])
        #expect(CGColor(red: 1, green: 0.5, blue: 0, alpha: 1).numberOfComponents == 4)
        #expect(CGColor(gray: 0.5, alpha: 1) == CGColor(gray: 0.5, alpha: 1))
        #expect(CGColor(gray: 0.5, alpha: 1) != CGColor(red: 0.5, green: 0.5, blue: 0.5, alpha: 1))
        #expect(CGColor.white.copy(alpha: 0.5)?.alpha == 0.5)
    }
}

@Suite struct LayerAnchorGeometryTests {
    @Test func anchorPointZLandsOnZPosition() {
        let l = CALayer()
        l.bounds = CGRect(x: 0, y: 0, width: 100, height: 50)
        l.position = CGPoint(x: 10, y: 20)
        l.zPosition = 5
        l.anchorPointZ = -30
        // The anchor (50, 25, −30) maps to (10, 20, 5); the layer plane z = 0 sits at 5 − (−30) = 35.
        let anchor = l._toParentLocal.apply(x: 50, y: 25, z: -30)
        #expect(anchor.x == 10 && anchor.y == 20 && anchor.z == 5)
        #expect(l._toParentLocal.apply(x: 0, y: 0).z == 35)
    }
}

import Testing
@testable import Flipbook
import FlipbookPixels
import Foundation

@Suite struct InterpolationTests {
    func near(_ a: CGFloat, _ b: CGFloat, _ e: CGFloat = 1e-9) -> Bool { abs(a - b) <= e }
    func lerp(_ a: Any, _ b: Any, _ f: Double) -> Any {
        _AnimValue.interpolate(_AnimValue(a)!, _AnimValue(b)!, f).toAny(like: a)
    }

    @Test func scalarsKeepTheirType() {
        #expect(lerp(CGFloat(0), CGFloat(10), 0.25) as? CGFloat == 2.5)
        #expect(lerp(0.0, 10.0, 0.5) as? Double == 5)
        #expect(lerp(Float(1), Float(3), 0.5) as? Float == 2)
        #expect(lerp(0, 10, 0.26) as? Int == 3)                 // rounds
        #expect((lerp(NSNumber(value: 2), NSNumber(value: 4), 0.5) as? NSNumber)?.doubleValue == 3)
        #expect(lerp(false, true, 0.4) as? Bool == false)
        #expect(lerp(false, true, 0.5) as? Bool == true)
        // toAny(like:) converts to the property's type.
        #expect(_AnimValue(2.0)!.toAny(like: CGFloat(0)) is CGFloat)
        #expect(_AnimValue(nil) == nil && _AnimValue("text") == nil)
        let nested: CGFloat?? = 3
        #expect(_AnimValue(nested) == .scalar(3, .cgFloat))
    }

    @Test func geometryAndColor() {
        #expect(lerp(CGPoint(x: 0, y: 10), CGPoint(x: 10, y: 20), 0.5) as? CGPoint == CGPoint(x: 5, y: 15))
        #expect(lerp(CGSize(width: 2, height: 4), CGSize(width: 4, height: 8), 0.5) as? CGSize == CGSize(width: 3, height: 6))
        #expect(lerp(CGRect(x: 0, y: 0, width: 10, height: 10), CGRect(x: 10, y: 20, width: 30, height: 40), 0.5) as? CGRect
                == CGRect(x: 5, y: 10, width: 20, height: 25))
        let c = lerp(CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 0), 0.25) as! CGColor
        #expect(c.rgba == [0.75, 0, 0.25, 0.75])
        let g = lerp(CGColor.black, CGColor.white, 0.5) as! CGColor
        #expect(g.model == .gray && g.red == 0.5)
        // Extrapolation for overshoot.
        #expect(lerp(CGFloat(0), CGFloat(10), 1.2) as? CGFloat == 12)
        #expect(lerp([1.0, 2.0], [3.0, 6.0], 0.5) as? [Double] == [2, 4])
        #expect(lerp([1.0, 2.0], [3.0], 0.4) as? [Double] == [1, 2])   // mismatched: discrete
    }

    @Test func rotationInterpolatesAsRotation() {
        let a = CATransform3DIdentity, b = CATransform3DMakeRotation(.pi, 0, 0, 1)
        let m = _DecomposedTransform.interpolate(a, b, 0.5)
        // A 90° rotation (either way round), not the collapsed element-wise average (all zeros).
        #expect(near(m.m11, 0, 1e-9) && near(abs(m.m12), 1, 1e-9) && near(m.m22, 0, 1e-9))
        #expect(near(m.m11 * m.m22 - m.m12 * m.m21, 1, 1e-9))   // no shrinking
        let q = _DecomposedTransform.interpolate(a, CATransform3DMakeRotation(.pi / 2, 0, 0, 1), 1.0 / 3)
        let r30 = CATransform3DMakeRotation(.pi / 6, 0, 0, 1)
        for (x, y) in zip(q.elements, r30.elements) { #expect(near(x, y, 1e-9)) }
    }

    @Test func decompositionRoundTrips() {
        let samples: [CATransform3D] = [
            CATransform3DIdentity,
            CATransform3DRotate(CATransform3DMakeTranslation(5, -3, 2), 0.7, 1, 2, 3),
            CATransform3DScale(CATransform3DMakeRotation(2.5, 0, 1, 0), 2, 0.5, 3),
            CATransform3DScale(CATransform3DMakeRotation(0.3, 0, 0, 1), -1, 1, 1),
            CATransform3D(m11: 1, m12: 0.2, m13: 0, m14: 0, m21: 0.5, m22: 1, m23: 0, m24: 0,
                          m31: 0, m32: 0, m33: 1, m34: -0.002, m41: 10, m42: 20, m43: 0, m44: 1),
            CATransform3DMakeScale(0, 0, 1),
        ]
        for t in samples {
            let d = _DecomposedTransform(t)!
            for (x, y) in zip(d.recomposed.elements, t.elements) { #expect(near(x, y, 1e-9), "\(t)") }
        }
        // Scale 0 → 1 interpolates through scale ½ (does not fall back element-wise wrongly).
        let half = _DecomposedTransform.interpolate(CATransform3DMakeScale(0, 0, 1), CATransform3DIdentity, 0.5)
        #expect(near(half.m11, 0.5) && near(half.m22, 0.5) && near(half.m12, 0))
        #expect(_DecomposedTransform(CATransform3D()) == nil)   // m44 = 0
    }

    @Test func arithmetic() {
        let p = _AnimValue(CGPoint(x: 1, y: 2))!
        #expect(p.adding(_AnimValue(CGPoint(x: 3, y: 4))!) == .point(CGPoint(x: 4, y: 6)))
        #expect(p.subtracting(_AnimValue(CGPoint(x: 3, y: 4))!) == .point(CGPoint(x: -2, y: -2)))
        #expect(p.scaled(by: 3) == .point(CGPoint(x: 3, y: 6)))
        #expect(abs(p.distance(to: _AnimValue(CGPoint(x: 4, y: 6))!) - 5) < 1e-12)
        // Transforms: adding concatenates, scaled multiplies the angle.
        let r = _AnimValue(CATransform3DMakeRotation(0.4, 0, 0, 1))!
        if case let .transform(m)? = r.scaled(by: 2) {
            for (x, y) in zip(m.elements, CATransform3DMakeRotation(0.8, 0, 0, 1).elements) { #expect(near(x, y, 1e-9)) }
        } else { Issue.record("scaled transform") }
        let tr = _AnimValue(CATransform3DMakeTranslation(10, 0, 0))!
        if case let .transform(m)? = tr.adding(r) {   // rotate first, then translate
            #expect(near(m.m41, 10) && near(m.m12, sin(0.4)))
        } else { Issue.record("added transform") }
        if case let .transform(m)? = tr.adding(r)?.subtracting(r) {
            for (x, y) in zip(m.elements, CATransform3DMakeTranslation(10, 0, 0).elements) { #expect(near(x, y, 1e-9)) }
        } else { Issue.record("subtracted transform") }
        #expect(_AnimValue(CGColor.white)!.scaled(by: 0.5) == .color(CGColor(gray: 0.5, alpha: 0.5)))
    }

    @Test func contentsCrossfade() {
        let a = CGImage(pixelBuffer: PixelBuffer(width: 1, height: 1))
        let b = CGImage(pixelBuffer: PixelBuffer(width: 2, height: 2))
        let mid = _AnimValue.interpolate(.image(a), .image(b), 0.3)
        #expect(mid == .crossfade(ContentsCrossfade(from: a, to: b, fraction: 0.3)))
        #expect(_AnimValue.interpolate(.image(a), .image(b), 1) == .image(b))
        #expect(ContentsCrossfade(from: a, to: nil, fraction: 1.4).clampedFraction == 1)
        #expect(_AnimValue.image(a).adding(.image(b)) == nil)
    }

    @Test func nanFractionKeepsStart() {
        #expect(lerp(CGFloat(1), CGFloat(2), .nan) as? CGFloat == 1)
    }
}

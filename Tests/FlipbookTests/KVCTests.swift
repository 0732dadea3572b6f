import Testing
@testable import Flipbook
import Foundation

@Suite struct KVCTests {
    func close(_ a: Any?, _ b: CGFloat, _ eps: CGFloat = 1e-9) -> Bool {
        guard let x = a as? CGFloat else { return false }
        return abs(x - b) <= eps
    }

    @Test func numbersAreCoercedForNumericKeys() throws {
        let l = CALayer()
        for v: Any in [Int(2), Double(2), Float(2), CGFloat(2), NSNumber(value: 2), UInt8(2)] {
            l.cornerRadius = 0
            try l._trySetValue(v, forKey: "cornerRadius")
            #expect(l.cornerRadius == 2)
        }
        try l._trySetValue(true, forKey: "opacity")
        #expect(l.opacity == 1)
        try l._trySetValue(0.5, forKey: "opacity")
        #expect(l.opacity == 0.5)
        try l._trySetValue(1, forKey: "hidden")
        #expect(l.isHidden)
        try l._trySetValue(false, forKey: "isHidden")
        #expect(!l.isHidden)
        try l._trySetValue("resizeAspect", forKey: "contentsGravity")
        #expect(l.contentsGravity == .resizeAspect)
        try l._trySetValue(CGAffineTransform(scaleX: 2, y: 3), forKey: "transform")
        #expect(l.transform == CATransform3DMakeScale(2, 3, 1))
        try l._trySetValue(5, forKey: "maskedCorners")
        #expect(l.maskedCorners == [.layerMinXMinYCorner, .layerMinXMaxYCorner])
    }

    @Test func typedKeysRoundTrip() {
        let l = CALayer()
        l.setValue(CGRect(x: 1, y: 2, width: 3, height: 4), forKey: "bounds")
        l.setValue(CGPoint(x: 5, y: 6), forKey: "position")
        l.setValue(CGColor.white, forKey: "backgroundColor")
        l.setValue(CGSize(width: 1, height: 1), forKey: "shadowOffset")
        l.setValue("n", forKey: "name")
        #expect(l.value(forKey: "bounds") as? CGRect == CGRect(x: 1, y: 2, width: 3, height: 4))
        #expect(l.value(forKey: "position") as? CGPoint == CGPoint(x: 5, y: 6))
        #expect(l.value(forKey: "backgroundColor") as? CGColor == .white)
        #expect(l.shadowOffset == CGSize(width: 1, height: 1) && l.name == "n")
        l.setValue(nil, forKey: "backgroundColor")
        #expect(l.backgroundColor == nil)
        #expect(l.value(forKey: "frame") as? CGRect == CGRect(x: 3.5, y: 4, width: 3, height: 4))
    }

    @Test func wrongTypesAndNilAreRefusedWithClearErrors() {
        let l = CALayer()
        #expect(throws: LayerKVCError.wrongType(key: "position", expected: "CGPoint", got: "String")) {
            try l._trySetValue("here", forKey: "position")
        }
        #expect(throws: LayerKVCError.nilValue(key: "opacity")) { try l._trySetValue(nil, forKey: "opacity") }
        #expect(throws: LayerKVCError.wrongType(key: "opacity", expected: "a number", got: "CGPoint")) {
            try l._trySetValue(CGPoint.zero, forKey: "opacity")
        }
        #expect(throws: LayerKVCError.readOnly(key: "superlayer")) { try l._trySetValue(CALayer(), forKey: "superlayer") }
        // The non-throwing API ignores the write.
        l.setValue("here", forKey: "position")
        l.setValue(nil, forKey: "opacity")
        l.contents = "not an image"
        #expect(l.position == .zero && l.opacity == 1 && l.contents == nil)
        let e = LayerKVCError.wrongType(key: "position", expected: "CGPoint", got: "String")
        #expect(e.description == "CALayer: value of type String for key 'position', which takes CGPoint; ignored")
    }

    @Test func customKeysAndDefaults() {
        final class Custom: CALayer {
            override class func defaultValue(forKey key: String) -> Any? {
                switch key {
                case "wobble": return CGFloat(7)
                case "cornerRadius": return CGFloat(4)
                default: return super.defaultValue(forKey: key)
                }
            }
        }
        withRunLoop { _ in
            let c = Custom()
            #expect(c.value(forKey: "wobble") as? CGFloat == 7)
            #expect(c.cornerRadius == 4)
            c.setValue(CGFloat(1), forKey: "wobble")
            #expect(c.value(forKey: "wobble") as? CGFloat == 1)
            c.setValue(nil, forKey: "wobble")
            #expect(c.value(forKey: "wobble") as? CGFloat == 7)
            #expect(CALayer().value(forKey: "wobble") == nil)
            #expect(CALayer.defaultValue(forKey: "opacity") as? Float == 1)
            #expect(CALayer.defaultValue(forKey: "shadowOffset") as? CGSize == CGSize(width: 0, height: -3))
            #expect(CALayer.defaultValue(forKey: "backgroundColor") == nil)
            #expect(CALayer.needsDisplay(forKey: "bounds") == false)
        }
    }

    @Test func structKeyPaths() throws {
        let l = CALayer()
        l.bounds = CGRect(x: 0, y: 0, width: 100, height: 50)
        l.position = CGPoint(x: 10, y: 20)
        #expect(close(l.value(forKeyPath: "position.x"), 10))
        #expect(close(l.value(forKeyPath: "bounds.size.width"), 100))
        #expect(l.value(forKeyPath: "bounds.origin") as? CGPoint == .zero)
        #expect(close(l.value(forKeyPath: "frame.origin.x"), -40))
        #expect(close(l.value(forKeyPath: "shadowOffset.height"), -3))
        l.setValue(30, forKeyPath: "position.y")
        l.setValue(CGFloat(200), forKeyPath: "bounds.size.width")
        l.setValue(5, forKeyPath: "bounds.origin.x")
        l.setValue(2, forKeyPath: "shadowOffset.width")
        #expect(l.position == CGPoint(x: 10, y: 30))
        #expect(l.bounds == CGRect(x: 5, y: 0, width: 200, height: 50))
        #expect(l.shadowOffset == CGSize(width: 2, height: -3))
        l.setValue(CGPoint(x: 1, y: 1), forKeyPath: "frame.origin")
        #expect(l.frame.origin == CGPoint(x: 1, y: 1))
    }

    @Test func transformKeyPaths() throws {
        let l = CALayer()
        l.setValue(CGFloat.pi / 4, forKeyPath: "transform.rotation.z")
        let expected = CATransform3DMakeRotation(.pi / 4, 0, 0, 1)
        for (a, b) in zip(l.transform.elements, expected.elements) { #expect(abs(a - b) < 1e-12) }
        #expect(close(l.value(forKeyPath: "transform.rotation"), .pi / 4))
        l.setValue(2, forKeyPath: "transform.scale")
        #expect(close(l.value(forKeyPath: "transform.scale.x"), 2) && close(l.value(forKeyPath: "transform.scale.z"), 2))
        #expect(close(l.value(forKeyPath: "transform.rotation.z"), .pi / 4))
        l.setValue(CGSize(width: 3, height: 4), forKeyPath: "transform.translation")
        l.setValue(5, forKeyPath: "transform.translation.z")
        #expect(l.value(forKeyPath: "transform.translation") as? CGSize == CGSize(width: 3, height: 4))
        #expect(close(l.value(forKeyPath: "transform.translation.z"), 5))
        let s = CATransform3DMakeScale(2, 2, 2)
        let r = CATransform3DMakeRotation(.pi / 4, 0, 0, 1)
        let want = CATransform3DConcat(CATransform3DConcat(s, r), CATransform3DMakeTranslation(3, 4, 5))
        for (a, b) in zip(l.transform.elements, want.elements) { #expect(abs(a - b) < 1e-12) }
        // x and y rotations and a non-uniform scale round-trip through the decomposition.
        let m = CATransform3DConcat(CATransform3DConcat(CATransform3DConcat(CATransform3DMakeScale(1, 3, 0.5),
            CATransform3DMakeRotation(0.3, 1, 0, 0)), CATransform3DMakeRotation(-0.7, 0, 1, 0)), CATransform3DMakeRotation(1.1, 0, 0, 1))
        l.transform = m
        #expect(close(l.value(forKeyPath: "transform.rotation.x"), 0.3))
        #expect(close(l.value(forKeyPath: "transform.rotation.y"), -0.7))
        #expect(close(l.value(forKeyPath: "transform.rotation.z"), 1.1))
        #expect(close(l.value(forKeyPath: "transform.scale.y"), 3))
        l.setValue(1.1, forKeyPath: "transform.rotation.z")
        for (a, b) in zip(l.transform.elements, m.elements) { #expect(abs(a - b) < 1e-12) }
    }

    @Test func unknownKeyPathComponents() {
        let l = CALayer()
        #expect(throws: LayerKVCError.unknownKeyPathComponent(keyPath: "position.z", component: "z")) {
            try l._trySetValue(1, forKeyPath: "position.z")
        }
        #expect(throws: LayerKVCError.unknownKeyPathComponent(keyPath: "transform.skew", component: "skew")) {
            try l._tryValue(forKeyPath: "transform.skew")
        }
        #expect(throws: LayerKVCError.unknownKeyPathComponent(keyPath: "opacity.x", component: "x")) {
            try l._trySetValue(1, forKeyPath: "opacity.x")
        }
        #expect(l.value(forKeyPath: "bounds.size.depth") == nil)
        l.setValue(1, forKeyPath: "position.z")
        #expect(l.position == .zero)
    }

    @Test func layerAndDictionaryValuedKeyPaths() {
        let l = CALayer(), m = CALayer()
        l.mask = m
        l.setValue(0.5, forKeyPath: "mask.opacity")
        #expect(m.opacity == 0.5)
        #expect(l.value(forKeyPath: "mask.opacity") as? Float == 0.5)
        l.setValue(["inner": ["depth": 3]] as [String: Any], forKey: "info")
        #expect(l.value(forKeyPath: "info.inner.depth") as? Int == 3)
    }

    @Test func nonFiniteGeometryIsAccepted() {
        let l = CALayer()
        l.position = CGPoint(x: CGFloat.nan, y: .infinity)
        l.setValue(Double.nan, forKey: "cornerRadius")
        #expect(l.position.x.isNaN && l.position.y == .infinity && l.cornerRadius.isNaN)
        let t = l.makeRenderTree()
        #expect(t.position.x.isNaN)
    }
}

@Suite struct KVCOptionalTests {
    @Test func optionalKeysReadBackAsNil() {
        let l = CALayer()
        #expect(l.value(forKey: "backgroundColor") == nil)
        #expect(l.value(forKey: "name") == nil)
        #expect(l.value(forKey: "contents") == nil)
        #expect(l.value(forKey: "mask") == nil)
        #expect(l.value(forKey: "sublayers") == nil)
        #expect(l.value(forKey: "borderColor") as? CGColor == .black)
    }
}

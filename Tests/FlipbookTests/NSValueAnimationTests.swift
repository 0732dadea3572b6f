import Testing
@testable import Flipbook
import Foundation

/// `NSValue` boxes as animation values and KVC values, and the key paths real layer code
/// animates (issue 37, items 3 and 9). Apple's expectations: QuartzCore's `NSValue` additions
/// (`CATransform3D.h`: `valueWithCATransform3D:`, `CATransform3DValue`), UIKit's
/// (`UIGeometry.h`: `valueWithCGPoint:` …), and the Core Animation Programming Guide's
/// "Key-Value Coding Extensions" (struct values are wrapped in `NSValue`; `transform.*` paths).
@Suite struct NSValueAnimationTests {
    func present(_ anims: [CAAnimation], at t: CFTimeInterval) -> CALayer? { presented(anims, at: t) }

    func close(_ a: CATransform3D, _ b: CATransform3D, _ eps: CGFloat = 1e-9) -> Bool {
        zip(a.elements, b.elements).allSatisfy { abs($0 - $1) <= eps }
    }

    /// A box made from a temporary array keeps its values: `init(_doubles:)` once handed
    /// NSValue a pointer that had escaped `withUnsafeBytes`, and the optimised build read the
    /// array after it was freed (AddressSanitizer, in the lottie fuzz target; `make test-asan`
    /// runs this test under it).
    @Test func boxFromTemporaryArrayKeepsItsValues() {
        for k in 0..<200 {
            let t = CATransform3DMakeTranslation(CGFloat(k), 2, 3)
            let box = NSValue(caTransform3D: t)
            let reuse = [Double](repeating: -1, count: 16)
            #expect(box.caTransform3DValue == t)
            #expect(reuse[0] == -1)
        }
    }

    /// The boxes Flipbook reads have their type read by reflection, not through `objCType`,
    /// which swift-corelibs-foundation answers with a fresh C string it never frees (a leak per
    /// read, found by LeakSanitizer in the lottie fuzz target). Were Foundation to change how
    /// its boxes store the type, this fails rather than the leak coming back unseen.
    @Test func boxTypesAreReadWithoutObjCType() {
        let t = CATransform3DMakeTranslation(1, 2, 3)
        #expect(NSValue(caTransform3D: t)._objCTypeByReflection == "[16d]")
        #expect(NSValue(cgAffineTransform: .identity)._objCTypeByReflection == "[6d]")
        #expect(NSValue(cgPoint: CGPoint(x: 1, y: 2))._objCTypeByReflection == NSValue._pointType)
        #expect(NSValue(cgSize: CGSize(width: 1, height: 2))._objCTypeByReflection == NSValue._sizeType)
        #expect(NSValue(cgRect: .zero)._objCTypeByReflection == NSValue._rectType)
        var d = [1.0, 2.0, 3.0]
        #expect(NSValue(bytes: &d, objCType: "[3d]")._objCTypeByReflection == "[3d]")
        // The encodings written out are Foundation's own.
        #expect(String(cString: NSValue(point: .zero).objCType) == NSValue._pointType)
        #expect(String(cString: NSValue(size: .zero).objCType) == NSValue._sizeType)
        #expect(String(cString: NSValue(rect: .zero).objCType) == NSValue._rectType)
    }

    @Test func boxesRoundTrip() {
        let t = CATransform3DRotate(CATransform3DMakeTranslation(3, 4, 5), 0.7, 0, 1, 0)
        #expect(NSValue(caTransform3D: t).caTransform3DValue == t)
        #expect(NSValue(caTransform3D: t) == NSValue(caTransform3D: t))
        #expect(NSValue(cgPoint: CGPoint(x: 1, y: 2)).cgPointValue == CGPoint(x: 1, y: 2))
        #expect(NSValue(cgSize: CGSize(width: 3, height: 4)).cgSizeValue == CGSize(width: 3, height: 4))
        #expect(NSValue(cgRect: CGRect(x: 1, y: 2, width: 3, height: 4)).cgRectValue == CGRect(x: 1, y: 2, width: 3, height: 4))
        let a = CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
        #expect(NSValue(cgAffineTransform: a).cgAffineTransformValue == a)
        // NSValue(cgPoint:) is Foundation's point box, as on macOS; a mismatched reader gives zeros.
        #expect(NSValue(cgPoint: CGPoint(x: 1, y: 2)) == NSValue(point: CGPoint(x: 1, y: 2)))
        #expect(NSValue(cgPoint: CGPoint(x: 1, y: 2)).caTransform3DValue == CATransform3D())
        #expect(NSValue(caTransform3D: t).cgPointValue == .zero)
    }

    /// NVActivityIndicatorView's cube: a keyframe animation of `transform` whose values are
    /// `NSValue(caTransform3D:)` collected in an `NSMutableArray` cast to `[AnyObject]`. It must
    /// interpolate exactly as the same animation of plain `CATransform3D` values.
    @Test func keyframesOfBoxedTransformsInterpolateAsTransforms() {
        let frames = [CATransform3DIdentity,
                      CATransform3DRotate(CATransform3DMakePerspective(), .pi, 0, 1, 0),
                      CATransform3DRotate(CATransform3DMakeScale(2, 2, 1), .pi, 1, 0, 0)]
        let boxed = NSMutableArray()
        for f in frames { boxed.add(NSValue(caTransform3D: f)) }
        let k1 = CAKeyframeAnimation(keyPath: "transform")
        k1.values = boxed as [AnyObject]
        let k2 = CAKeyframeAnimation(keyPath: "transform")
        k2.values = frames
        for t in [0.2, 0.5, 0.8] {
            let a = present([k1], at: t)?.transform, b = present([k2], at: t)?.transform
            #expect(a != nil && b != nil && a! == b!, "t = \(t)")
            #expect(a != CATransform3DIdentity)
        }
        // fromValue/toValue boxes, a basic animation.
        let basic = CABasicAnimation(keyPath: "transform")
        basic.fromValue = NSValue(caTransform3D: CATransform3DIdentity)
        basic.toValue = NSValue(caTransform3D: CATransform3DMakeTranslation(40, 0, 0))
        let p = present([basic], at: 0.25)
        #expect(p.map { close($0.transform, CATransform3DMakeTranslation(10, 0, 0)) } == true)
    }

    @Test func boxedCoreGraphicsValuesAnimate() {
        let pos = CAKeyframeAnimation(keyPath: "position")
        pos.values = [NSValue(cgPoint: CGPoint(x: 0, y: 0)), NSValue(cgPoint: CGPoint(x: 100, y: 40))]
        #expect(present([pos], at: 0.5)?.position == CGPoint(x: 50, y: 20))
        let b = CABasicAnimation(keyPath: "bounds")
        b.fromValue = NSValue(cgRect: CGRect(x: 0, y: 0, width: 10, height: 10))
        b.toValue = NSValue(cgRect: CGRect(x: 0, y: 0, width: 30, height: 50))
        #expect(present([b], at: 0.5)?.bounds == CGRect(x: 0, y: 0, width: 20, height: 30))
        let s = CABasicAnimation(keyPath: "bounds.size")
        s.fromValue = NSValue(cgSize: CGSize(width: 0, height: 0)); s.toValue = NSValue(size: CGSize(width: 8, height: 4))
        #expect(present([s], at: 0.5)?.bounds.size == CGSize(width: 4, height: 2))
        let affine = CABasicAnimation(keyPath: "transform")
        affine.fromValue = NSValue(cgAffineTransform: .identity)
        affine.toValue = NSValue(cgAffineTransform: CGAffineTransform(translationX: 0, y: 20))
        #expect(present([affine], at: 0.5).map { close($0.transform, CATransform3DMakeTranslation(0, 10, 0)) } == true)
    }

    /// Apple's KVC takes struct values boxed in NSValue.
    @Test func kvcTakesBoxes() throws {
        let l = CALayer()
        l.setValue(NSValue(cgPoint: CGPoint(x: 7, y: 8)), forKey: "position")
        #expect(l.position == CGPoint(x: 7, y: 8))
        l.setValue(NSValue(cgRect: CGRect(x: 0, y: 0, width: 5, height: 6)), forKey: "bounds")
        #expect(l.bounds.size == CGSize(width: 5, height: 6))
        l.setValue(NSValue(caTransform3D: CATransform3DMakeScale(2, 3, 1)), forKey: "transform")
        #expect(l.transform == CATransform3DMakeScale(2, 3, 1))
        try l._trySetValue(NSValue(cgSize: CGSize(width: 4, height: 9)), forKeyPath: "transform.translation")
        #expect(l.transform.m41 == 4 && l.transform.m42 == 9)
        #expect(throws: LayerKVCError.self) { try l._trySetValue(NSValue(cgPoint: .zero), forKey: "bounds") }
    }

    /// Pulsator and Animatify's pulse animate `transform.scale.xy` (Core Animation scales x and
    /// y, leaving z); before, the key path was rejected and the animation silently ignored.
    @Test func transformScaleXYAnimatesXAndY() {
        let a = CABasicAnimation(keyPath: "transform.scale.xy")
        a.fromValue = NSNumber(value: 0.0); a.toValue = NSNumber(value: 1.0)
        let p = present([a], at: 0.5)
        #expect(p.map { close($0.transform, CATransform3DMakeScale(0.5, 0.5, 1)) } == true)
        let l = CALayer()
        l.setValue(CGFloat(3), forKeyPath: "transform.scale.xy")
        #expect(l.transform == CATransform3DMakeScale(3, 3, 1))
        #expect(l.value(forKeyPath: "transform.scale.xy") as? CGFloat == 3)
    }

    /// NVActivityIndicatorView's cube moves with `transform.translation` keyframes boxed as
    /// `NSValue(cgSize:)` (and `NSValue(size:)`, its macOS spelling).
    @Test func translationKeyframesOfBoxedSizes() {
        let k = CAKeyframeAnimation(keyPath: "transform.translation")
        k.values = [NSValue(cgSize: .zero), NSValue(size: CGSize(width: 20, height: 0)), NSValue(cgSize: CGSize(width: 20, height: 20))]
        let p = present([k], at: 0.75)
        #expect(p?.transform.m41 == 20 && p?.transform.m42 == 10)
    }

    /// A key path Core Animation does not know is said once on standard error (never silently
    /// dropped); a custom key is fine.
    @Test func unknownKeyPathsAreSaidOnce() {
        let bad = CABasicAnimation(keyPath: "transform.scale.q")
        bad.fromValue = CGFloat(0); bad.toValue = CGFloat(1)
        let group = CAAnimationGroup()
        let inner = CABasicAnimation(keyPath: "position.z"); inner.toValue = CGFloat(1)
        group.animations = [inner]
        _ = present([bad, group], at: 0.5)
        #expect(_AnimationDiagnostics.said.messages(containing: "'transform.scale.q'").count == 1)
        #expect(_AnimationDiagnostics.said.messages(containing: "'position.z'").count == 1)
        let custom = CABasicAnimation(keyPath: "myProgress"); custom.toValue = CGFloat(1)
        _ = present([custom], at: 0.5)
        #expect(_AnimationDiagnostics.said.messages(containing: "'myProgress'").isEmpty)
    }
}

private func CATransform3DMakePerspective() -> CATransform3D {
    var t = CATransform3DIdentity
    t.m34 = -1 / 500
    return t
}

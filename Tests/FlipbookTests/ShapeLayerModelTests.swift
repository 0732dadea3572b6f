import Testing
@testable import Flipbook
import Foundation

/// `CAShapeLayer`'s model: Apple's defaults, KVC, implicit animations (every animatable key but
/// `path`), explicit `path` animations, presentation copies and committed state.
@Suite struct ShapeLayerModelTests {
    func liveShape(_ loop: VirtualRunLoop) -> CAShapeLayer {
        let root = liveRoot(loop)
        let s = CAShapeLayer()
        root.addSublayer(s)
        loop.endTurn()
        return s
    }

    static let square = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10))
    static let wide = CGPath(rect: CGRect(x: 0, y: 0, width: 30, height: 20))

    @Test func defaultsAreApples() {
        withRunLoop { _ in
            let s = CAShapeLayer()
            #expect(s.path == nil)
            #expect(s.fillColor == CGColor.black)
            #expect(s.fillRule == .nonZero)
            #expect(s.strokeColor == nil)
            #expect(s.strokeStart == 0 && s.strokeEnd == 1)
            #expect(s.lineWidth == 1 && s.miterLimit == 10)
            #expect(s.lineCap == .butt && s.lineJoin == .miter)
            #expect(s.lineDashPhase == 0 && s.lineDashPattern == nil)
            #expect(CAShapeLayer.defaultValue(forKey: "lineWidth") as? CGFloat == 1)
            #expect(CAShapeLayer.defaultValue(forKey: "miterLimit") as? CGFloat == 10)
            #expect(CAShapeLayer.defaultValue(forKey: "bounds") as? CGRect == .zero)
            #expect(CAShapeLayerFillRule.evenOdd.rawValue == "even-odd")
            #expect(CAShapeLayerLineCap.square.rawValue == "square")
            #expect(CAShapeLayerLineJoin.bevel.rawValue == "bevel")
        }
    }

    @Test func kvcReadsAndWritesTheTypedValues() throws {
        try withRunLoop { _ in
            let s = CAShapeLayer()
            s.setValue(3, forKey: "lineWidth")
            #expect(s.lineWidth == 3)
            #expect(s.value(forKey: "lineWidth") as? CGFloat == 3)
            s.setValue(Self.square, forKey: "path")
            #expect(s.path == Self.square)
            s.setValue(nil, forKey: "fillColor")
            #expect(s.fillColor == nil)
            #expect(s.value(forKey: "fillColor") == nil)
            s.setValue("even-odd", forKey: "fillRule")
            #expect(s.fillRule == .evenOdd)
            s.setValue(CAShapeLayerLineCap.round, forKey: "lineCap")
            #expect(s.lineCap == .round)
            s.setValue([4, 2], forKey: "lineDashPattern")
            #expect(s.lineDashPattern == [4, 2])
            #expect(throws: LayerKVCError.self) { try s._trySetValue("wide", forKey: "lineWidth") }
            #expect(throws: LayerKVCError.self) { try s._trySetValue(nil, forKey: "strokeEnd") }
            #expect(s.lineWidth == 3)
            // A plain layer keeps such keys as custom keys.
            let plain = CALayer()
            plain.setValue("x", forKey: "lineWidth")
            #expect(plain.value(forKey: "lineWidth") as? String == "x")
        }
    }

    @Test func mutablePathsAreCopiedWhenSet() {
        withRunLoop { _ in
            let s = CAShapeLayer()
            let m = CGMutablePath()
            m.move(to: .zero); m.addLine(to: CGPoint(x: 10, y: 0))
            s.path = m
            m.addLine(to: CGPoint(x: 10, y: 10))
            #expect(s.path?.elements.count == 2)
            #expect(!(s.path is CGMutablePath))
        }
    }

    @Test func animatableKeysAnimateImplicitlyButPathDoesNot() {
        withRunLoop { loop in
            let s = liveShape(loop)
            s.path = Self.square
            s.fillColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            s.strokeColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
            s.lineWidth = 5
            s.lineDashPhase = 3
            s.miterLimit = 4
            s.strokeStart = 0.2
            s.strokeEnd = 0.5
            s.lineCap = .round
            s.lineJoin = .bevel
            s.fillRule = .evenOdd
            s.lineDashPattern = [1, 2]
            let keys = Set(s.animationKeys() ?? [])
            #expect(keys == ["fillColor", "strokeColor", "lineWidth", "lineDashPhase", "miterLimit", "strokeStart", "strokeEnd"])
            let a = s.animation(forKey: "strokeEnd") as? CABasicAnimation
            #expect(a?.fromValue as? CGFloat == 1)
            #expect(a?.toValue as? CGFloat == 0.5)
            // Halfway through the default 0.25 s.
            loop.endTurn()
            loop.advance(to: loop.currentTime + 0.125)
            let p = s.presentation()!
            #expect(p.path == Self.square)
            #expect(abs(p.lineWidth - 3) < 0.5)
            #expect(p.strokeEnd > 0.5 && p.strokeEnd < 1)
        }
    }

    @Test func explicitPathAnimationInterpolatesPointByPoint() {
        withRunLoop { loop in
            let s = liveShape(loop)
            CATransaction.setDisableActions(true)
            s.path = Self.wide
            let a = CABasicAnimation(keyPath: "path")
            a.fromValue = Self.square
            a.toValue = Self.wide
            a.duration = 1
            a.timingFunction = CAMediaTimingFunction(name: .linear)
            s.add(a, forKey: "morph")
            loop.endTurn()
            loop.advance(to: loop.currentTime + 0.5)
            let p = s.presentation()!
            #expect(p.path == CGPath(rect: CGRect(x: 0, y: 0, width: 20, height: 15)))
            #expect(s.path == Self.wide)
            // The render snapshot carries the presentation path.
            #expect(s.makeRenderTree().shape?.path == CGPath(rect: CGRect(x: 0, y: 0, width: 20, height: 15)))
        }
    }

    @Test func pathsOfDifferentStructureSwitchAtTheMidpoint() {
        let circle = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 10, height: 10))
        let a = _AnimValue(Self.square)!, b = _AnimValue(circle)!
        #expect(_AnimValue.interpolate(a, b, 0.49) == a)
        #expect(_AnimValue.interpolate(a, b, 0.5) == b)
        let c = _AnimValue(CGPath(rect: CGRect(x: 10, y: 10, width: 10, height: 10)))!
        #expect(_AnimValue.interpolate(a, c, 0.5) == _AnimValue(CGPath(rect: CGRect(x: 5, y: 5, width: 10, height: 10))))
        #expect(a.distance(to: b) == .infinity)
    }

    @Test func presentationCopiesAndSnapshotsCarryTheShape() {
        withRunLoop { loop in
            let s = liveShape(loop)
            CATransaction.setDisableActions(true)
            s.path = Self.square
            s.strokeColor = .white
            s.lineDashPattern = [3, 1]
            s.lineCap = .square
            loop.endTurn()
            let p = s.presentation()!
            #expect(p.path == Self.square && p.strokeColor == .white && p.lineCap == .square)
            #expect(p.lineDashPattern == [3, 1])
            let node = s.makeRenderTree()
            #expect(node.shape?.lineDashPattern == [3, 1])
            #expect(node.shape?.lineCap == .square)
            #expect(CALayer().makeRenderTree().shape == nil)
            // Committed state ("before" picture of a transition) is the value at the commit.
            s.lineWidth = 9
            #expect(s._makeCommittedRenderTree().shape?.lineWidth == 1)
            #expect(s.makeRenderTree().shape?.lineWidth == 9)
        }
    }

    final class ThickShape: CAShapeLayer {
        override class func defaultValue(forKey key: String) -> Any? {
            key == "lineWidth" ? CGFloat(7) : super.defaultValue(forKey: key)
        }
    }

    @Test func subclassDefaultsAndPresentationClass() {
        withRunLoop { loop in
            let root = liveRoot(loop)
            let t = ThickShape()
            #expect(t.lineWidth == 7)
            root.addSublayer(t)
            loop.endTurn()
            // Not opted in to typed copies: presentation() is nil, and the copy — a CAShapeLayer —
            // answers with the subclass's defaults (its class's defaultValue(forKey:)).
            #expect(t.presentation() == nil)
            #expect(onScreen(t).map { type(of: $0) == CAShapeLayer.self && ($0 as? CAShapeLayer)?.lineWidth == 7 } == true)
        }
    }
}

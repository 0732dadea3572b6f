import Testing
@testable import Flipbook
import Foundation

/// A `CAShapeLayer` subclass as QuartzCore code writes one (issue 14: subclasses of the layer
/// classes compile and are called): its own initializer, `override init(layer:)` copying a
/// stored property into presentation copies, observers and clamping setters on shape
/// properties (reached by typed and KVC writes), `defaultValue(forKey:)` and `action(forKey:)`.
@Suite struct ShapeLayerOverrideTests {
    final class Ring: CAShapeLayer, FlipbookPresentationCopying {   // typed copies (init(layer:) copies `segments`)
        var segments = 0
        var pathSets = 0

        override init() {
            super.init()
            segments = 12
            fillColor = nil
        }

        override init(layer: Any) {
            super.init(layer: layer)
            segments = (layer as? Ring)?.segments ?? -1
        }
        required init?(coder: NSCoder) { super.init(coder: coder) }

        override var path: CGPath? {
            didSet { pathSets += 1 }
        }

        /// Never thinner than 2.
        override var lineWidth: CGFloat {
            get { super.lineWidth }
            set { super.lineWidth = max(newValue, 2) }
        }

        override class func defaultValue(forKey key: String) -> Any? {
            key == "strokeEnd" ? CGFloat(0.5) : super.defaultValue(forKey: key)
        }

        /// Progress changes jump (no implicit animation of strokeEnd).
        override func action(forKey event: String) -> CAAction? {
            event == "strokeEnd" ? nil : super.action(forKey: event)
        }
    }

    @Test func subclassOverridesAreCalled() {
        withRunLoop { loop in
            let r = Ring()
            #expect(r.segments == 12 && r.fillColor == nil)
            #expect(r.strokeEnd == 0.5)                              // the subclass default
            r.path = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 10, height: 10), transform: nil)
            r.setValue(CGPath(rect: CGRect(x: 0, y: 0, width: 4, height: 4), transform: nil), forKey: "path")
            #expect(r.pathSets == 2)
            r.lineWidth = 0.5
            #expect(r.lineWidth == 2)
            r.setValue(1, forKey: "lineWidth")
            #expect(r.lineWidth == 2 && r.value(forKey: "lineWidth") as? CGFloat == 2)
            r.lineWidth = 6
            #expect(r.lineWidth == 6)

            // In a live tree: strokeEnd jumps (the override), lineWidth animates implicitly.
            let root = liveRoot(loop)
            root.addSublayer(r)
            r.segments = 7
            loop.endTurn()
            r.strokeEnd = 1
            r.lineWidth = 10
            loop.endTurn()
            #expect(r.animation(forKey: "strokeEnd") == nil && r.animation(forKey: "lineWidth") != nil)
            loop.advance(to: loop.currentTime + 0.125)
            let p = r.presentation()
            #expect(p?.segments == 7)                                // copied by init(layer:)
            #expect(p?.strokeEnd == 1)
            #expect((p?.lineWidth ?? 0) > 6 && (p?.lineWidth ?? 99) < 10)
        }
    }
}

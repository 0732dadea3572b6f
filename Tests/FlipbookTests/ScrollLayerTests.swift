import Testing
@testable import Flipbook
import Foundation

/// `CAScrollLayer` and `CALayer`'s scrolling members: bounds-origin changes per scroll mode,
/// the minimal scroll for a rectangle, scrolling from a descendant, `visibleRect`.
@Suite struct ScrollLayerTests {
    /// A 100×50 scroll layer holding a 400×300 content layer at the origin.
    static func setup() -> (CAScrollLayer, CALayer) {
        let s = CAScrollLayer()
        s.frame = CGRect(x: 10, y: 10, width: 100, height: 50)
        let content = CALayer()
        content.frame = CGRect(x: 0, y: 0, width: 400, height: 300)
        s.addSublayer(content)
        return (s, content)
    }

    @Test func defaults() {
        withRunLoop { _ in
            let s = CAScrollLayer()
            #expect(s.scrollMode == .both)
            #expect(CAScrollLayer.defaultValue(forKey: "scrollMode") as? CAScrollLayerScrollMode == .both)
            #expect(!s.masksToBounds)
            s.setValue(CAScrollLayerScrollMode.vertically, forKey: "scrollMode")
            #expect(s.scrollMode == .vertically)
            #expect((CAScrollLayer(layer: s)).scrollMode == .vertically)
        }
    }

    @Test(arguments: [(CAScrollLayerScrollMode.both, CGPoint(x: 30, y: 40)),
                      (.horizontally, CGPoint(x: 30, y: 0)),
                      (.vertically, CGPoint(x: 0, y: 40)),
                      (.none, CGPoint.zero)])
    func scrollToPointHonoursTheMode(_ mode: CAScrollLayerScrollMode, _ expected: CGPoint) {
        withRunLoop { _ in
            let (s, _) = Self.setup()
            s.scrollMode = mode
            s.scroll(to: CGPoint(x: 30, y: 40))
            #expect(s.bounds.origin == expected)
            #expect(s.bounds.size == CGSize(width: 100, height: 50))
        }
    }

    @Test func scrollToRectMovesAsLittleAsPossible() {
        withRunLoop { _ in
            let (s, _) = Self.setup()
            s.scroll(to: CGRect(x: 150, y: 20, width: 20, height: 20))   // right of view: end aligned
            #expect(s.bounds.origin == CGPoint(x: 70, y: 0))
            s.scroll(to: CGRect(x: 90, y: 10, width: 10, height: 10))    // already visible
            #expect(s.bounds.origin == CGPoint(x: 70, y: 0))
            s.scroll(to: CGRect(x: 20, y: 100, width: 10, height: 10))   // left and below
            #expect(s.bounds.origin == CGPoint(x: 20, y: 60))
            s.scroll(to: CGRect(x: 200, y: 0, width: 300, height: 10))   // wider than the view: start
            #expect(s.bounds.origin == CGPoint(x: 200, y: 0))
        }
    }

    @Test func descendantsScrollTheirScrollLayer() {
        withRunLoop { _ in
            let (s, content) = Self.setup()
            let item = CALayer()
            item.frame = CGRect(x: 200, y: 100, width: 50, height: 20)
            content.addSublayer(item)
            item.scroll(CGPoint(x: 10, y: 5))            // item's (10, 5) = content (210, 105)
            #expect(s.bounds.origin == CGPoint(x: 210, y: 105))
            item.scrollRectToVisible(item.bounds)        // already visible at (210, 105)? no: (200, 100) is left of it
            #expect(s.bounds.origin == CGPoint(x: 200, y: 100))
            #expect(item.visibleRect == CGRect(x: 0, y: 0, width: 50, height: 20))
            #expect(content.visibleRect == CGRect(x: 200, y: 100, width: 100, height: 50))
            s.scroll(to: CGPoint(x: 230, y: 110))
            #expect(item.visibleRect == CGRect(x: 30, y: 10, width: 20, height: 10))
            // Without a scroll layer above: the bounds, and scrolling does nothing.
            let lone = CALayer()
            lone.bounds = CGRect(x: 0, y: 0, width: 5, height: 5)
            lone.scroll(CGPoint(x: 3, y: 3))
            #expect(lone.visibleRect == lone.bounds && lone.bounds.origin == .zero)
        }
    }
}

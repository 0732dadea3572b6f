import Testing
@testable import Flipbook
import Foundation

@Suite struct AuditRobustnessTests {
    /// A chain `depth` deep, built bottom-up (each insert is O(1)); returns (root, leaf).
    func chain(_ depth: Int) -> (CALayer, CALayer) {
        let leaf = CALayer()
        var top = leaf
        for _ in 1..<depth {
            let p = CALayer()
            CATransaction.setDisableActions(true)
            p.addSublayer(top)
            top = p
        }
        return (top, leaf)
    }

    @Test func deepTreeSnapshotPresentationConvertRemoval() {
        withRunLoop { loop in
            let (root, leaf) = chain(100_000)
            loop.attach(root)
            loop.endTurn()
            #expect(leaf.isLive)
            leaf.position = CGPoint(x: 1, y: 2)
            loop.endTurn()
            #expect(leaf.presentation() != nil)
            #expect(leaf.convert(CGPoint(x: 3, y: 4), to: nil) == CGPoint(x: 4, y: 6))
            #expect(leaf.convert(CGPoint(x: 4, y: 6), from: nil) == CGPoint(x: 3, y: 4))
            var depth = 0
            var node: RenderLayer? = root.makeRenderTree()
            while let n = node { depth += 1; node = n.sublayers.first }
            #expect(depth == 100_000)
            loop.detach(root)
        }
    }

    @Test func wideTree() {
        withRunLoop { loop in
            let root = liveRoot(loop)
            for _ in 0..<10_000 { root.addSublayer(CALayer()) }
            loop.endTurn()
            #expect(root.makeRenderTree().sublayers.count == 10_000)
            root.sublayers = nil
            loop.endTurn()
            #expect(root.sublayers == nil)
        }
    }
}

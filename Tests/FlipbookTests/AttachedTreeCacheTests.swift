import Testing
@testable import Flipbook
import Foundation

/// The cached "is this layer in an attached tree" answer (what made building a deep chain
/// quadratic) stays right through every way a layer joins or leaves a tree.
@Suite struct AttachedTreeCacheTests {
    @Test func deepChainAndEveryDetachPath() {
        let loop = VirtualRunLoop()
        loop.run {
            let root = CALayer()
            loop.attach(root)
            var chain: [CALayer] = [root]
            for _ in 0..<20_000 {          // one addSublayer at a time, each a new leaf
                let l = CALayer()
                chain.last!.addSublayer(l)
                chain.append(l)
            }
            let leaf = chain.last!, middle = chain[10_000]
            #expect(leaf._isInAttachedTree)
            middle.removeFromSuperlayer()                    // removal
            #expect(!leaf._isInAttachedTree && !middle._isInAttachedTree && chain[9_999]._isInAttachedTree)
            chain[9_999].addSublayer(middle)                 // a subtree inserted back
            #expect(leaf._isInAttachedTree)
            let other = CALayer()
            other.addSublayer(middle)                        // moved to an unattached layer
            #expect(!leaf._isInAttachedTree)
            chain[5].mask = other                            // joins as a mask's subtree
            #expect(leaf._isInAttachedTree)
            chain[5].mask = nil
            #expect(!leaf._isInAttachedTree)
            root.addSublayer(other)
            #expect(leaf._isInAttachedTree)
            loop.detach(root)                                // the root detached
            #expect(!leaf._isInAttachedTree && !chain[3]._isInAttachedTree)
            loop.attach(root)
            #expect(leaf._isInAttachedTree)
            // A leaf asked before it joins, then added: the answer follows.
            let late = CALayer()
            #expect(!late._isInAttachedTree)
            leaf.addSublayer(late)
            #expect(late._isInAttachedTree)
        }
    }
}

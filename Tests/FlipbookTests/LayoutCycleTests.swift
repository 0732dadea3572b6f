import Testing
@testable import Flipbook
import Foundation

/// Layout (issue 13): `setNeedsLayout` marks, the end of the turn lays out top-down before
/// display; bounds changes and sublayer insertion/removal mark as on Apple.
@Suite struct LayoutCycleTests {
    /// Logs its layout and drawing into a shared log; lays its sublayers out as a row.
    final class Row: CALayer {
        var log: Log?
        var layouts = 0
        override func layoutSublayers() {
            layouts += 1
            log?.lines.append("layout \(name ?? "?")")
            var x: CGFloat = 0
            for s in sublayers ?? [] {
                s.frame = CGRect(x: x, y: 0, width: bounds.height, height: bounds.height)
                x += bounds.height
            }
            super.layoutSublayers()
        }
        override func draw(in ctx: CGContext) { log?.lines.append("draw \(name ?? "?")") }
    }
    final class Log { var lines: [String] = [] }

    private func row(_ name: String, _ log: Log) -> Row {
        let r = Row(); r.name = name; r.log = log; return r
    }

    @Test func boundsChangeLaysOutOncePerTurn() {
        withRunLoop { loop in
            let log = Log()
            let r = row("r", log)
            loop.endTurn()
            r.layouts = 0; log.lines = []
            r.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
            r.bounds = CGRect(x: 0, y: 0, width: 20, height: 10)
            r.setValue(CGRect(x: 0, y: 0, width: 30, height: 10), forKey: "bounds")
            #expect(r.needsLayout() && r.layouts == 0)
            loop.endTurn()
            #expect(r.layouts == 1 && !r.needsLayout())
            loop.endTurn()
            #expect(r.layouts == 1)
            r.bounds = CGRect(x: 0, y: 0, width: 30, height: 10)      // same value: no change, no layout
            r.position = CGPoint(x: 4, y: 4)                           // not bounds
            loop.endTurn()
            #expect(r.layouts == 1)
            r.bounds.origin = CGPoint(x: 0, y: 5)                      // origin changes count (scrolling)
            loop.endTurn()
            #expect(r.layouts == 2)
        }
    }

    @Test func sublayerInsertionAndRemovalMarkTheParent() {
        withRunLoop { loop in
            let log = Log()
            let r = row("r", log), other = row("other", log)
            r.bounds = CGRect(x: 0, y: 0, width: 100, height: 10)
            loop.endTurn()
            r.layouts = 0
            let a = CALayer(), b = CALayer()
            r.addSublayer(a); r.addSublayer(b)
            loop.endTurn()
            #expect(r.layouts == 1)
            #expect(a.frame == CGRect(x: 0, y: 0, width: 10, height: 10) && b.frame == CGRect(x: 10, y: 0, width: 10, height: 10))
            a.removeFromSuperlayer()
            loop.endTurn()
            #expect(r.layouts == 2 && b.frame.minX == 0)
            other.addSublayer(b)                                       // a move marks both parents
            loop.endTurn()
            #expect(r.layouts == 3 && other.layouts >= 1)
            #expect(!r.needsLayout() && !other.needsLayout())
        }
    }

    @Test func setNeedsLayoutAloneIsLaidOutAtTheEndOfTheTurn() {
        withRunLoop { loop in
            let log = Log()
            let r = row("r", log)
            loop.endTurn()
            r.layouts = 0
            r.setNeedsLayout()
            loop.endTurn()
            #expect(r.layouts == 1)
        }
    }

    @Test func topDownParentsFirstAndLayoutBeforeDisplay() {
        withRunLoop { loop in
            let log = Log()
            let top = row("top", log), mid = row("mid", log), leaf = row("leaf", log)
            top.addSublayer(mid); mid.addSublayer(leaf)
            for l in [top, mid, leaf] { l.needsDisplayOnBoundsChange = true }
            loop.endTurn()
            log.lines = []
            // Marked bottom-up; laid out top-down. mid's and leaf's new frames come from their
            // parents' layout (bounds change: layout and display in the same commit).
            leaf.setNeedsLayout()
            top.bounds = CGRect(x: 0, y: 0, width: 50, height: 20)
            loop.endTurn()
            #expect(log.lines == ["layout top", "layout mid", "layout leaf", "draw top", "draw mid", "draw leaf"])
            #expect(mid.bounds.size == CGSize(width: 20, height: 20) && leaf.bounds.size == CGSize(width: 20, height: 20))
        }
    }

    @Test func delegateLayoutSublayersOf() {
        final class Layouter: CALayerDelegate {
            var laidOut: [CALayer] = []
            func layoutSublayers(of layer: CALayer) { laidOut.append(layer) }
        }
        withRunLoop { loop in
            let d = Layouter(), l = CALayer()
            l.delegate = d
            l.bounds = CGRect(x: 0, y: 0, width: 1, height: 1)
            loop.endTurn()
            #expect(d.laidOut.count == 1 && d.laidOut.first === l)
        }
    }

    @Test func layoutIfNeededLaysOutNowFromTheHighestMarkedAncestor() {
        withRunLoop { loop in
            let log = Log()
            let top = row("top", log), mid = row("mid", log), leaf = row("leaf", log)
            top.addSublayer(mid); mid.addSublayer(leaf)
            loop.endTurn()
            log.lines = []
            mid.setNeedsLayout(); leaf.setNeedsLayout()
            leaf.layoutIfNeeded()                      // mid needs layout too: starts there
            #expect(log.lines == ["layout mid", "layout leaf"])
            #expect(!mid.needsLayout() && !leaf.needsLayout())
            loop.endTurn()
            #expect(log.lines == ["layout mid", "layout leaf"])
            top.layoutIfNeeded()                       // nothing marked: nothing runs
            #expect(log.lines.count == 2)
        }
    }

    @Test func onlyMarkedBranchesAndDeepTrees() {
        withRunLoop { loop in
            let log = Log()
            let root = row("root", log)
            var rows: [Row] = []
            for i in 0..<200 { let r = row("r\(i)", log); rows.append(r); root.addSublayer(r) }
            // A 50,000-deep chain built bottom-up (top-down insertion is quadratic in the
            // existing cycle check), then put under rows[7].
            let deep = CALayer()
            var top = deep
            for _ in 0..<50_000 { let p = CALayer(); p.addSublayer(top); top = p }
            rows[7].addSublayer(top)
            loop.endTurn()
            for r in rows { r.layouts = 0 }
            root.layouts = 0
            rows[3].setNeedsLayout()
            deep.setNeedsLayout()                      // 50,000 levels below rows[7]
            loop.endTurn()
            #expect(root.layouts == 0 && rows[3].layouts == 1 && rows[7].layouts == 0)
            #expect(rows.map(\.layouts).reduce(0, +) == 1 && !deep.needsLayout())
        }
    }

    @Test func presentationCopiesAreNotMarkedAndLayoutChangesJoinTheCommit() {
        let loop = VirtualRunLoop()
        loop.run {
            let (r, a) = liveRowWithChild(loop)
            #expect(a.frame.size == CGSize(width: 10, height: 10))
            // In a live tree the frames set by layout animate implicitly, as on Apple.
            r.bounds = CGRect(x: 0, y: 0, width: 100, height: 30)
            loop.endTurn()
            #expect(a.bounds.size == CGSize(width: 30, height: 30))
            #expect(a.animation(forKey: "bounds") != nil)
            loop.advance(to: 0.1)
            let p = onScreen(r)                             // a copy (r is of the tests' own class)
            #expect(p != nil && p?.needsLayout() == false)
            p?.bounds = CGRect(x: 0, y: 0, width: 1, height: 1)
            #expect(p?.needsLayout() == false && !r.needsLayout())
        }
    }
}

extension LayoutCycleTests {
    /// An explicit outermost transaction lays out at its commit, inside it: frames set by the
    /// layout animate with the transaction's duration. A nested commit does not lay out.
    @Test func explicitTransactionsLayOutAtTheOutermostCommit() {
        let loop = VirtualRunLoop()
        loop.run {
            let (r, a) = liveRowWithChild(loop)
            r.layouts = 0
            CATransaction.begin()
            CATransaction.setAnimationDuration(2)
            CATransaction.begin()
            r.bounds = CGRect(x: 0, y: 0, width: 100, height: 40)
            CATransaction.commit()
            #expect(r.layouts == 0 && r.needsLayout())
            CATransaction.commit()
            #expect(r.layouts == 1 && !r.needsLayout())
            #expect(a.bounds.size == CGSize(width: 40, height: 40))
            #expect(a.animation(forKey: "bounds")?.duration == 2)
        }
    }

    /// Layout code that commits the transaction being committed (unbalanced) does not break
    /// the stack: the commit happens once.
    @Test func unbalancedCommitInsideLayoutIsHarmless() {
        final class Rogue: CALayer {
            var layouts = 0
            override func layoutSublayers() { layouts += 1; CATransaction.commit() }
        }
        withRunLoop { loop in
            let l = Rogue()
            loop.endTurn()
            CATransaction.begin()
            l.setNeedsLayout()
            CATransaction.commit()
            #expect(l.layouts == 1)
            l.setNeedsLayout()
            loop.endTurn()
            #expect(l.layouts == 2)
            loop.endTurn()
            #expect(l.layouts == 2)
        }
    }
}

extension LayoutCycleTests {
    /// A live row layer (100 × 10) laying out one sublayer, committed once (so laid out).
    func liveRowWithChild(_ loop: VirtualRunLoop) -> (row: Row, child: CALayer) {
        let root = liveRoot(loop)
        let r = row("r", Log())
        r.bounds = CGRect(x: 0, y: 0, width: 100, height: 10)
        let a = CALayer()
        r.addSublayer(a)
        root.addSublayer(r)
        loop.endTurn()
        return (r, a)
    }
}

import Testing
@testable import FlipbookRender

/// `_OpMoves`: concatenating moves (or, when the list would not double, copies) the ops in
/// order, and releasing on several threads leaves only placeholders — no op lost, doubled or
/// reordered, and no reference over- or under-released (the draws die with their last use).
@Suite struct OpMovesTests {
    static func draw(_ i: Int) -> _Op {
        .draw(_Draw(shapes: [], paint: .solid(UInt32(i)), alpha: 255, bounds: _IRect(x0: i, y0: 0, x1: i + 1, y1: 1)))
    }

    static func keys(_ ops: [_Op]) -> [Int] {
        ops.map { op in if case .draw(let d) = op { return d.bounds.x0 } else { return -1 } }
    }

    @Test(arguments: [0, 3, 45])   // 45 > the 40 moved in: appended as copies
    func concatenationKeepsTheOrder(existing: Int) {
        var ops = (0..<existing).map(Self.draw)
        var lists = [(100..<110).map(Self.draw), [], (200..<230).map(Self.draw)]
        weak var probe: _Draw?
        do {
            if case .draw(let d) = lists[2][0] { probe = d }
        }
        _OpMoves.concatenate(&ops, &lists)
        #expect(Self.keys(ops) == Array(0..<existing) + Array(100..<110) + Array(200..<230))
        #expect(lists.isEmpty && probe != nil)
        _OpMoves.release(&ops, workers: 2)           // fewer than 1024 ops: left as they are
        #expect(probe != nil)
        ops = []
        #expect(probe == nil)
    }

    @Test func releaseOnWorkersLeavesPlaceholders() {
        var ops = (0..<3000).map(Self.draw)
        weak var probe: _Draw?
        if case .draw(let d) = ops[1234] { probe = d }
        _OpMoves.release(&ops, workers: 3)
        #expect(ops.count == 3000 && probe == nil)
        #expect(Self.keys(ops).allSatisfy { $0 == -1 })
    }
}
